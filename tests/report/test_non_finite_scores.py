"""Scores that are not finite numbers (issue 63): an infinite score made "+nan ± nan" pairs with Holm p 0, the verdict
"X ahead of Y" and strict ranks; all-NaN scores made an empty leaderboard with no reason. Such samples are left out,
counted and named with their run; a row with no finite score is listed with why, and never compared or ranked."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, write_eval_log

from mechbench.harness.quiet import QUIET_EVAL
from mechbench.report import build_report, write_report
from mechbench.tasks import seesim

pytestmark = pytest.mark.slow  # Inspect runs


def _scored(log: EvalLog, model: str, value: object) -> EvalLog:
    """``log`` as a run of ``model``, each sample's score replaced by ``value(k)`` (k its position)."""
    samples = [
        sample.model_copy(
            update={"scores": {n: s.model_copy(update={"value": value(k)}) for n, s in (sample.scores or {}).items()}}  # type: ignore[operator]
        )
        for k, sample in enumerate(log.samples or [])
    ]
    return log.model_copy(update={"eval": log.eval.model_copy(update={"model": model}), "samples": samples})


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("non_finite")
    (base,) = inspect_eval(seesim(data="bundled", modality="text"), model="mechbench/always-true",
                           log_dir=str(folder / "base"), **QUIET_EVAL)  # fmt: skip
    out = folder / "logs"
    out.mkdir()
    edited = {
        "mechbench/always-true": base,
        # Right on every question but three, whose scores are infinite.
        "test/infinite": _scored(base, "test/infinite", lambda k: math.inf if k < 3 else 1.0),
        "test/all-nan": _scored(base, "test/all-nan", lambda k: math.nan),
    }
    for k, log in enumerate(edited.values()):
        write_eval_log(log, str(out / f"2026-01-01T00-00-0{k}-00-00_seesim_run{k}.eval"))
    return out


def test_infinite_scores_are_left_out_with_their_run_and_never_make_a_verdict(logs: Path, tmp_path: Path) -> None:
    report = build_report(logs)
    board = {r["model"]: r for r in report.leaderboard if r["benchmark"] == "seesim"}
    infinite = board["test/infinite"]
    assert infinite["left_out"] == 3 and infinite["samples"] == 43 and infinite["value"] == 1.0
    assert "3 samples left out: their score is not a finite number" in infinite["left_out_note"]
    assert "run1.eval" in infinite["left_out_note"]  # the run they came from
    for pair in report.comparisons:
        assert "nan" not in pair["verdict"].lower()
        if pair["compared"]:
            assert math.isfinite(pair["difference"]) and math.isfinite(pair["ci95"]) and pair["p_holm"] > 0
    (pair,) = [p for p in report.comparisons if {p["a"], p["b"]} == {"test/infinite", "mechbench/always-true"}]
    assert pair["compared"] and pair["samples"] == 43  # on the finite samples both have
    markdown = write_report(report, tmp_path / "out")["md"].read_text()
    assert "nan ±" not in markdown and "+nan" not in markdown
    assert "3 samples left out: their score is not a finite number" in markdown


def test_a_row_whose_every_score_is_nan_is_listed_with_its_reason(logs: Path, tmp_path: Path) -> None:
    report = build_report(logs)
    (row,) = [r for r in report.leaderboard if r["model"] == "test/all-nan"]
    assert row["samples"] == 0 and row["left_out"] == 46 and "run2.eval" in row["left_out_note"]
    assert "rank" not in row  # nothing to rank it on
    assert not [p for p in report.comparisons if "test/all-nan" in (p["a"], p["b"])]
    markdown = write_report(report, tmp_path / "out")["md"].read_text()
    line = next(line for line in markdown.splitlines() if line.startswith("| test/all-nan |"))
    assert "accuracy: no finite score" in line and "46 samples left out" in line
    ranked = [r for r in report.leaderboard if r["benchmark"] == "seesim" and "rank" in r]
    assert {r["rank_of"] for r in ranked} == {2}  # the two rows with scores
