"""Each default source against a local server standing in for its publisher: the right files at the pinned
revision, the revision and a content hash in the log, and a clear error (never a substitution) when unreachable."""

from __future__ import annotations

import json
import os
import sys
import zipfile
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.seesim.dataset import DEFAULT_REVISION as SEESIM_REVISION
from mechbench.benchmarks.seesim.dataset import VERIFIED_QUESTIONS_SHA256
from mechbench.benchmarks.structural_eval.dataset import OFFICIAL_REVISION
from mechbench.core.errors import DataSourceError
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.sources.files import files_sha256
from mechbench.tasks import seesim, structural_eval
from tests import forked_command as forked


def _zip_folder(folder: Path, archive: Path, prefix: str, under: str = "") -> None:
    archive.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zf.write(path, f"{prefix}/{under}{path.relative_to(folder)}")


@pytest.fixture
def github(http_server, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    root, base = http_server
    monkeypatch.setenv("MECHBENCH_GITHUB", base)
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    return root


def test_structural_eval_default_is_the_pinned_commit(github: Path, structural_data: Path) -> None:
    archive = github / "H1W0XXX" / "structural-eval-benchmark" / "archive" / f"{OFFICIAL_REVISION}.zip"
    _zip_folder(structural_data, archive, f"structural-eval-benchmark-{OFFICIAL_REVISION}", "data/")
    task = structural_eval(debug=True)
    assert len(task.dataset) == len(list((structural_data / "raw_models").glob("*.json")))
    assert task.metadata["data_source"] == f"github.com/H1W0XXX/structural-eval-benchmark@{OFFICIAL_REVISION}"
    expected = sorted([*structural_data.glob("raw_models/*.json"), *structural_data.glob("ground_truth_meta/*.json")])
    assert task.metadata["data_sha256"] == files_sha256(sorted(expected, key=lambda p: (p.parent.name, p.name)))
    with pytest.raises(DataSourceError, match=r"structural-eval-benchmark/archive/0{40}\.zip failed: HTTP 404"):
        structural_eval(revision="0" * 40, debug=True)  # a revision the publisher does not have: no substitution


SEESIM_ARCHIVE = Path("cmudrc", "OpenSeeSimE", "archive", f"{SEESIM_REVISION}.zip")


def test_seesim_default_gives_the_published_always_true_rate(
    github: Path, published_seesim: Path, tmp_path: Path
) -> None:
    _zip_folder(published_seesim, github / SEESIM_ARCHIVE, f"OpenSeeSimE-{SEESIM_REVISION}")
    task = seesim(modality="text")
    meta = task.metadata
    assert meta["data_source"] == f"github.com/cmudrc/OpenSeeSimE@{SEESIM_REVISION}"
    assert meta["revision"] == SEESIM_REVISION and meta["data_sha256"] == VERIFIED_QUESTIONS_SHA256
    assert meta["verified_copy"]
    (log,) = inspect_eval(task, model="mechbench/always-true", log_dir=str(tmp_path / "logs"), **QUIET_EVAL)
    accuracy = next(s.metrics["accuracy"].value for s in log.results.scores if "accuracy" in s.metrics)
    assert accuracy * 240 == pytest.approx(127) and len(log.samples) == 240  # the published 52.9 %
    assert log.eval.metadata["data_sha256"] == VERIFIED_QUESTIONS_SHA256
    from mechbench.report import build_report, write_report

    report = build_report(tmp_path / "logs")  # the paper's text baselines beside the run, as references
    references = {r["model"]: r["value"] for r in report.leaderboard if r.get("reference")}
    assert references == {
        "LLaVA (published)": 0.663,
        "Phi-3 (published)": 0.625,
        "Qwen (published)": 0.546,
        "Llama (published)": 0.521,
    }
    markdown = write_report(report, tmp_path / "report")["md"].read_text()
    assert "LLaVA (published)" in markdown and "the paper's runs" in markdown


def test_a_changed_seesim_copy_is_flagged(github: Path, published_seesim: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "seesim"
    shutil.copytree(published_seesim / "benchmark", copy / "benchmark")
    shutil.copytree(published_seesim / "data" / "structural" / "text", copy / "data" / "structural" / "text")
    questions = copy / "benchmark" / "qa-benchmark-with-qids.json"
    questions.chmod(0o644)
    questions.write_text(questions.read_text().replace('"True"', '"False"', 1).replace("true", "false", 1))
    task = seesim(modality="text", domain="structural", data=str(copy))
    assert task.metadata["verified_copy"] is False and task.metadata["data_sha256"] != VERIFIED_QUESTIONS_SHA256


@pytest.mark.slow
def test_unreachable_sources_fail_on_the_command_line_with_exit_2(tmp_path: Path) -> None:
    env = {**os.environ, "MECHBENCH_GITHUB": "http://127.0.0.1:9", "MECHBENCH_GITHUB_RAW": "http://127.0.0.1:9"}
    env["MECHBENCH_CACHE"] = str(tmp_path / "cache")
    inspect = str(Path(sys.executable).parent / "inspect")
    for args, message in (
        (["mechbench/structural_eval", "-T", "debug=true", "--model", "mockllm/model"], "-T data=bundled"),
        (["mechbench/sphyr", "--model", "mechbench/solid"], "-T data=bundled"),
        (["mechbench/seesim", "--model", "mechbench/always-true"], "-T data=bundled"),
    ):
        done = forked.run(
            [inspect, "eval", *args, "--log-dir", str(tmp_path / "logs")],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            cwd=tmp_path,
        )
        assert done.returncode == 2, done.stderr[-1500:]
        assert done.stderr.strip().startswith("error: the official") and message in done.stderr


def test_commands_with_data_options_of_their_own_name_them_when_the_publishers_data_is_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """-T data=bundled is the eval's option: a command that takes its data otherwise names its own option, and the
    shortcut panel's options given without --shortcuts are refused, not ignored."""
    from typer.testing import CliRunner

    from mechbench.cli import app
    from mechbench.sources.resolve import bundled

    for variable in ("HF_ENDPOINT", "MECHBENCH_GITHUB", "MECHBENCH_GITHUB_RAW"):
        monkeypatch.setenv(variable, "http://127.0.0.1:9")  # nothing listens on the discard port
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    runner = CliRunner()
    for argv, hint in (
        (["validate", "sphyr"], "; offline, --data bundled validates on mechbench's own set"),
        (["calibrate", "structural", "--set", str(bundled("structural_eval"))], "; --published DIR compares with"),
        (["calibrate", "sphyr", "--set", str(bundled("sphyr"))], "; --published DIR compares with"),
    ):
        result = runner.invoke(app, argv)
        assert result.exit_code == 2 and "data could not be fetched" in result.stderr, (argv, result.output)
        assert hint in result.stderr and "-T data" not in result.stderr, result.stderr
        assert "127.0.0.1:9" in result.stderr  # the mirror the environment names (HF_ENDPOINT for SPhyR's hub)
    result = runner.invoke(app, ["validate", "sphyr", "-T", "data=bundled", "--limit", "3"])
    assert result.exit_code == 2 and "-T, --limit go with --shortcuts" in result.stderr


def test_generated_seesim_questions_take_the_publishers_wording_or_say_why_not(
    github: Path, published_seesim: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mechbench.benchmarks.seesim.generated_set import question_wording

    warnings: list[str] = []
    wording, source = question_wording(None, warnings.append)  # the publisher's archive is not served yet
    assert source == "mechbench" and len(warnings) == 1
    assert f"{SEESIM_REVISION}.zip failed" in warnings[0] and "--questions PATH" in warnings[0]
    assert "-T data" not in warnings[0]  # generate takes --questions, not the eval's -T
    _zip_folder(published_seesim, github / SEESIM_ARCHIVE, f"OpenSeeSimE-{SEESIM_REVISION}")
    published = json.loads((published_seesim / "benchmark" / "qa-benchmark-with-qids.json").read_text())
    wording, source = question_wording(None, warnings.append)
    assert source == "published" and len(warnings) == 1
    texts = {q["qid"]: q["question"] for q in published["fluid"]["questions"]}
    assert wording["fluid"] and all(texts[qid] == text for qid, text in wording["fluid"].items())
