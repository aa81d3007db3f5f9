"""OpenSeeSimE against a parquet fixture with the published schema, built here: streaming, protocol, metrics."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from PIL import Image

from mechbench.benchmarks.openseesime.dataset import PINNED_REVISIONS, parquet_schema
from mechbench.benchmarks.openseesime.protocol import parse_choice
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import openseesime

SCHEMA = parquet_schema()


def _png(shade: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (32, 24), (shade, 80, 160)).save(buffer, format="PNG")
    return buffer.getvalue()


def _gif(frames: int) -> bytes:
    images = [Image.new("RGB", (32, 24), (10 * k, 0, 0)) for k in range(frames)]
    buffer = io.BytesIO()
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:], duration=100, loop=0)
    return buffer.getvalue()


def _row(k: int, video: bool) -> dict:
    choices = ["Yes", "No", "Cannot tell"] if k % 2 else ["von Mises", "Tresca", "Rankine", "none"]
    return {
        "file_name": f"sim_{k}.{'gif' if video else 'png'}",
        "source_file": f"case_{k // 2}",
        "question": f"Question {k}: which is right?",
        "question_type": "yield" if k % 2 else "criterion",
        "question_id": k,
        "answer": choices[k % len(choices)],
        "answer_choices": choices,
        "correct_choice_idx": k % len(choices),
        "image": None if video else {"bytes": _png(10 * k), "path": f"sim_{k}.png"},
        "video": {"bytes": _gif(20), "path": f"sim_{k}.gif"} if video else None,
        "media_type": "video" if video else "image",
    }


def write_fixture(folder: Path) -> list[dict]:
    """Two shards: rows 0–3 (images) and rows 4–5 (videos)."""
    rows = [_row(k, video=k >= 4) for k in range(6)]
    (folder / "data").mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows[:4], schema=SCHEMA), folder / "data" / "test-00000-of-00002.parquet")
    pq.write_table(pa.Table.from_pylist(rows[4:], schema=SCHEMA), folder / "data" / "test-00001-of-00002.parquet")
    return rows


def _model(replies: list[str]):
    outputs = []
    for text in replies:
        out = ModelOutput.from_content(model="mockllm/model", content=text)
        out.usage = ModelUsage(input_tokens=10, output_tokens=2, total_tokens=12)
        outputs.append(out)
    return get_model("mockllm/model", custom_outputs=outputs)


def test_first_line_answer_rule() -> None:
    choices = ["Yes", "No", "Cannot tell"]
    assert parse_choice("B", choices).index == 1 and parse_choice("(c) cannot tell", choices).index == 2
    assert parse_choice("Answer: A\nbecause…", choices).index == 0 and parse_choice("no", choices).index == 1
    assert parse_choice("I think it is B", choices).index is None  # only the first line, and only its start
    assert parse_choice("D", choices).index is None  # no fourth choice


def test_local_shards_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    rows = write_fixture(tmp_path / "fixture")
    task = openseesime(data=str(tmp_path / "fixture"))
    assert len(task.dataset) == 6 and task.metadata["shards"] == [
        "data/test-00000-of-00002.parquet",
        "data/test-00001-of-00002.parquet",
    ]
    first, video = task.dataset[0], task.dataset[4]
    text = first.input[0].content[-1].text
    assert "A. von Mises\nB. Tresca\nC. Rankine\nD. none" in text and "on the first line" in text
    assert first.target == "A" and task.dataset[1].target == "B"
    frames = [c for c in video.input[0].content if c.type == "image"]
    assert len(frames) == 8 and [Path(f.image).stem for f in frames] == [f"frame_{i:04d}" for i in range(6, 14)]
    assert task.config.temperature == 0.0
    # Right on 0 and 1; wrong on 2; no answer on 3 (no choice) and 4 (a letter past the choices); 5 by its text.
    replies = ["A", "B\nexplanation", "A", "maybe", "(E)", rows[5]["answer"]]
    (log,) = inspect_eval(task, model=_model(replies), log_dir=str(tmp_path / "logs"), **QUIET_EVAL)
    metrics = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    by_id = {str(s.id): s.scores["openseesime_scorer"].value for s in log.samples}
    expected = [1.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    assert [by_id[str(s.id)] for s in task.dataset] == expected
    assert metrics["accuracy"] == pytest.approx(sum(expected) / 6)
    assert metrics["accuracy_yield"] == pytest.approx((expected[1] + expected[3] + expected[5]) / 3)
    assert metrics["no_answer"] == pytest.approx(2 / 6)  # "maybe" and a letter past the choices: a share


def test_hub_streaming_fetches_only_the_shards_needed(http_server, tmp_path: Path, monkeypatch) -> None:
    root, base = http_server
    dataset, revision = "cmudrc/OpenSeeSimE-Structural-Mini", PINNED_REVISIONS["cmudrc/OpenSeeSimE-Structural-Mini"]
    write_fixture(root / "datasets" / dataset / "resolve" / revision)
    tree = root / "api" / "datasets" / dataset / "tree" / revision
    tree.parent.mkdir(parents=True)
    tree.write_text(json.dumps([{"type": "file", "path": f"data/test-0000{k}-of-00002.parquet"} for k in range(2)]))
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_ENDPOINT", base)
    task = openseesime(samples="3")
    assert len(task.dataset) == 3 and task.metadata["revision"] == revision
    assert task.metadata["shards"] == ["data/test-00000-of-00002.parquet"]
    cached = list((tmp_path / "cache").rglob("*.parquet"))
    assert [p.name for p in cached] == ["test-00000-of-00002.parquet"]  # the second shard was never fetched
    # A pinned commit is immutable: a second run needs no listing and no download.
    (root / "api").rename(root / "gone")
    assert len(openseesime(samples="3").dataset) == 3


def test_oracle_baselines_and_the_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenSeeSimE is a full citizen: its oracle tops the scale, its baselines answer, the report shows its rows."""
    from typer.testing import CliRunner

    from mechbench.cli import app

    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    rows = write_fixture(tmp_path / "fixture")
    logs = tmp_path / "logs"
    common = {"log_dir": str(logs), **QUIET_EVAL}
    (oracle,) = inspect_eval(openseesime(data=str(tmp_path / "fixture"), oracle=True), model="mockllm/model", **common)
    assert oracle.results.scores[0].metrics["accuracy"].value == 1.0 and oracle.stats.model_usage == {}
    (first,) = inspect_eval(openseesime(data=str(tmp_path / "fixture")), model="mechbench/first-choice", **common)
    assert {s.output.completion for s in first.samples} == {"A"}
    right = sum(row["correct_choice_idx"] == 0 for row in rows)  # A is right where the first choice is
    assert 0 < right < len(rows) and first.results.scores[0].metrics["accuracy"].value == pytest.approx(right / 6)
    (coin,) = inspect_eval(openseesime(data=str(tmp_path / "fixture")), model="mechbench/random", **common)
    assert {s.output.completion for s in coin.samples} <= {"A", "B", "C", "D"}
    result = CliRunner().invoke(app, ["report", str(logs), "-o", str(tmp_path / "report")])
    assert result.exit_code == 0, result.stderr
    markdown = (tmp_path / "report" / "report.md").read_text()
    assert "## Leaderboard: OpenSeeSimE" in markdown and "mechbench/first-choice" in markdown
    assert "oracle: the ground truth" in markdown and "accuracy 1.000" in markdown
    assert (tmp_path / "report" / "openseesime.png").is_file()
