"""StructuralEval's part of ``mechbench demo``: the ground truth, replayed planted mistakes that the solver sees, the
shortcut panel and the scripted tool agent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_the_demo_shows_the_ladder_the_truth_at_one_and_the_tool_path(demo_run: tuple[Path, str]) -> None:
    out, printed = demo_run
    assert "StructuralEval: the ground truth" in printed
    report = json.loads((out / "report" / "report.json").read_text())
    section = report["benchmarks"]["structural_eval"]
    weighted = {r["model"]: r["weighted_accuracy"] for r in section["runs"]}
    assert weighted["oracle: the ground truth (no model called)"] == 1.0 and 0 < weighted["mechbench/replay"] < 1
    steps = {entry["step"] for entry in section["ladder"]}
    assert {"geometry", "supports", "loads", "correct"} <= steps  # the ladder shows
    # The tool setting beside the single-answer one, for the same scripted agent, with the difference.
    (compared,) = [r for r in report["settings_compared"] if r["benchmark"] == "structural_eval"]
    assert compared["model"] == "mechbench/tool-demo" and compared["difference"] > 0
    assert "With tools against without" in (out / "report" / "report.md").read_text()


def test_every_planted_mistake_is_one_the_solver_sees(tmp_path: Path) -> None:
    from mechbench.benchmarks.structural_eval.dataset import load_tasks
    from mechbench.benchmarks.structural_eval.demo import flawed_replies
    from mechbench.benchmarks.structural_eval.scoring import DEFAULT_TOLERANCE, compare, solve_response
    from mechbench.frame import FrameModel

    intended = flawed_replies(tmp_path / "replies.jsonl")
    replies = {r["id"]: r["reply"] for r in map(json.loads, (tmp_path / "replies.jsonl").read_text().splitlines())}
    tasks = {t.id: t for t in load_tasks("bundled")}
    assert set(intended) == set(tasks)
    planted = [task_id for task_id, step in intended.items() if step != "correct"]
    assert len(planted) >= 20 and {"geometry", "supports", "hinges", "loads"} <= set(intended.values())
    for task_id in planted:
        answer = FrameModel.parse(json.loads(replies[task_id].removeprefix("<json>").removesuffix("</json>")))
        truth = tasks[task_id].response()
        mismatch = compare(truth, solve_response(answer), DEFAULT_TOLERANCE, "strict")
        assert mismatch is not None, f"{task_id}: the planted {intended[task_id]} mistake changes nothing"
