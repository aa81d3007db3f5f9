"""OpenSeeSimE offline: mechbench's generated SeeSim simulations asked as OpenSeeSimE questions (-T data=bundled)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.openseesime.dataset import COLUMNS, open_openseesime, stream_questions
from mechbench.benchmarks.openseesime.generated_set import VALUE_RANGE, bundled_set, rows
from mechbench.core.errors import DataSourceError
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.sources.resolve import bundled
from mechbench.tasks import openseesime


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.parametrize("domain", ["structural", "fluid"])
def test_each_row_is_a_computed_fact_asked_on_the_media_that_shows_it(domain: str) -> None:
    root = bundled("seesim")
    manifest = json.loads((root / "generated.json").read_text())
    every = rows(root, domain)
    asked = [r for r in every if r["question_type"] != VALUE_RANGE]
    assert len(asked) >= 18 and {r["media_type"] for r in every} == {"image", "video"}
    wording = {
        q["question"]: q["qid"]
        for q in json.loads((root / "benchmark" / "qa-benchmark-with-qids.json").read_text())[domain]["questions"]
    }
    for row in asked:
        name = row["source_file"].split("/")[1]
        offset = 6 if domain == "fluid" else 0
        entry = manifest["files"][f"{domain}/File_{int(name.split('_')[1]) + offset}"]
        qid = wording[row["question"]]
        assert row["answer_choices"][row["correct_choice_idx"]] == ("Yes" if entry["answers"][qid] else "No")
        shown = {place.split(":")[0] for place in entry["evidence"][qid]["shown_in"]}
        assert row["media_type"] in shown  # the deciding value is visible in what the model is shown
        folder = "images" if row["media_type"] == "image" else "videos"
        media = root / "data" / domain / folder / row["file_name"]
        assert row[row["media_type"]]["bytes"] == media.read_bytes()
    reported_only = [
        (key, qid)
        for key, entry in manifest["files"].items()
        if key.startswith(domain)
        for qid, evidence in entry["evidence"].items()
        if qid in entry["answers"] and all(p.startswith("report") for p in evidence["shown_in"])
    ]
    available = sum(len(e["answers"]) for k, e in manifest["files"].items() if k.startswith(domain)) - len(
        reported_only
    )
    assert available / 2 <= len(asked) <= available  # balanced: each question's surplus answers left out


def test_the_bundled_shards_have_the_published_schema_and_are_built_once(cache: Path) -> None:
    folder = bundled_set("fluid")
    (shard,) = sorted(folder.rglob("*.parquet"))
    assert tuple(pq.read_schema(shard).names) == COLUMNS
    built = shard.stat().st_mtime_ns
    assert bundled_set("fluid") == folder and shard.stat().st_mtime_ns == built
    questions = [q for q, _ in stream_questions(open_openseesime(str(folder), "structural", "mini"))]
    assert len(questions) == len(rows(bundled("seesim"), "fluid"))


def test_bundled_runs_offline_and_its_key_is_the_oracles(cache: Path, tmp_path: Path) -> None:
    logs = inspect_eval(
        [
            openseesime(data="bundled", domain="structural", oracle=True),
            openseesime(data="bundled", domain="structural"),
        ],
        model="mechbench/first-choice",
        log_dir=str(tmp_path / "logs"),
        **QUIET_EVAL,
    )
    oracle, first = logs
    assert oracle.status == first.status == "success"
    assert oracle.results.scores[0].metrics["accuracy"].value == 1.0
    first_right = sum(r["correct_choice_idx"] == 0 for r in rows(bundled("seesim"), "structural"))
    assert first.results.scores[0].metrics["accuracy"].value == pytest.approx(first_right / len(first.samples))
    assert first.eval.metadata["data_source"].startswith("bundled")


def test_without_the_hub_the_error_names_the_offline_set(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    with pytest.raises(DataSourceError, match="-T data=bundled"):
        openseesime(domain="structural")
