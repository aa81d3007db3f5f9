"""SeeSim's part of ``mechbench demo``: the bundled simulations as images (the whole shortcut panel), videos and
text reports (always-True and always-False)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_the_demo_asks_every_modality_and_names_each_setting(demo_run: tuple[Path, str]) -> None:
    out, _ = demo_run
    report = json.loads((out / "report" / "report.json").read_text())
    board = [r for r in report["leaderboard"] if r["benchmark"] == "seesim"]
    assert len(board) == 10  # the six shortcuts on the images, two on the videos and two on the text reports
    runs = report["benchmarks"]["seesim"]["runs"]
    # A model run in several settings is named with what sets each apart, in tables and figures alike.
    several = [r for r in runs if r["model_name"] == "mechbench/always-true"]
    assert len({r["model"] for r in several}) == 3
    assert all(r["model"].endswith(("image]", "video]", "text]")) for r in several)
    by = {(r["model_name"], r["modality"]): r for r in runs}
    for modality in ("image", "video", "text"):  # both baselines answered every generated question
        true, false = by[("mechbench/always-true", modality)], by[("mechbench/always-false", modality)]
        assert true["samples"] == false["samples"] > 40 and true["accuracy"] == false["accuracy"] == 0.5
    # A generated set has its own answers: the published always-True rate is not shown beside it.
    assert all(row["published"] is None for row in board)
