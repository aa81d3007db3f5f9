"""SPhyR's part of ``mechbench demo``: every subject with the empty, solid, random and retrieval baselines (one
panel run, physics on) and the scripted tool agent with and without ``analyse_grid``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_the_demo_judges_every_subject_and_shows_the_tool_path(demo_run: tuple[Path, str]) -> None:
    out, _ = demo_run
    report = json.loads((out / "report" / "report.json").read_text())
    subjects = report["benchmarks"]["sphyr"]["subjects"]
    assert len({r["subject"] for r in subjects}) == 16
    assert len(subjects) == 68  # 16 subjects × 4 baselines + 2 × 2 tool-demo settings
    assert all("topology_score" in r for r in subjects)  # physics on
    board = [r for r in report["leaderboard"] if r["benchmark"] == "sphyr"]
    models = ["mechbench/empty", "mechbench/random", "mechbench/retrieval", "mechbench/solid"]
    assert sorted(r["model"] for r in board) == [*models, "mechbench/tool-demo", "mechbench/tool-demo"]
    baselines = [r for r in board if r["model"] != "mechbench/tool-demo"]
    assert all(r["samples"] == 128 and r["metric"] == "topology_score" for r in baselines)  # a row per model
    (compared,) = [r for r in report["settings_compared"] if r["benchmark"] == "sphyr"]
    assert compared["model"] == "mechbench/tool-demo" and compared["difference"] > 0
