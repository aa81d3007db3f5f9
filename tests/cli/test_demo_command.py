"""``mechbench demo``: every benchmark offline on the bundled set, logs and a report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mechbench.cli import app

pytestmark = pytest.mark.slow  # whole Inspect runs, servers or simulations: left out of -m 'not slow'

runner = CliRunner()


def test_demo_runs_offline_and_writes_the_report(tmp_path: Path) -> None:
    result = runner.invoke(app, ["demo", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    assert "report:" in result.stdout and "StructuralEval" in result.stdout and "SPhyR" in result.stdout
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    sections = report["benchmarks"]
    weighted = {r["model"]: r["weighted_accuracy"] for r in sections["structural_eval"]["runs"]}
    assert weighted["oracle: the ground truth (no model called)"] == 1.0 and 0 < weighted["mechbench/replay"] < 1
    assert "data: mechbench's own generated sets" in result.stdout
    assert "StructuralEval: the ground truth" in result.stdout
    assert {r["data"] for r in report["runs"]} == {"mechbench's bundled generated set"}
    steps = {entry["step"] for entry in sections["structural_eval"]["ladder"]}
    assert {"geometry", "supports", "loads", "correct"} <= steps  # the ladder shows
    subjects = sections["sphyr"]["subjects"]
    assert {r["subject"] for r in subjects} and len(subjects) == 68  # 16 subjects × 4 baselines + 2 × 2 tool-demo
    assert all("topology_score" in r for r in subjects)
    board = {b: [r for r in report["leaderboard"] if r["benchmark"] == b] for b in ("sphyr", "seesim")}
    models = ["mechbench/empty", "mechbench/random", "mechbench/retrieval", "mechbench/solid"]
    models += ["mechbench/tool-demo", "mechbench/tool-demo"]
    assert sorted(r["model"] for r in board["sphyr"]) == models
    baselines = [r for r in board["sphyr"] if r["model"] != "mechbench/tool-demo"]
    assert all(r["runs"] == 16 and r["samples"] == 128 for r in baselines)  # one row per model and setting
    # The tool setting beside the single-answer one, for the same scripted agent, with the difference.
    compared = {r["benchmark"]: r for r in report["settings_compared"]}
    assert set(compared) == {"structural_eval", "sphyr"}
    assert all(r["model"] == "mechbench/tool-demo" and r["difference"] > 0 for r in compared.values())
    assert "With tools against without" in (tmp_path / "report" / "report.md").read_text()
    assert len(board["seesim"]) == 10  # one row per model and modality: 2 × 3 modalities, and 4 on the images
    # A model run in several settings is named with what sets each apart, in tables and figures alike.
    several = [r for r in sections["seesim"]["runs"] if r["model_name"] == "mechbench/always-true"]
    assert len({r["model"] for r in several}) == 3 and all(
        r["model"].endswith(("image]", "video]", "text]")) for r in several
    )
    seesim = {(r["model_name"], r["modality"]): r for r in sections["seesim"]["runs"]}
    for modality in ("image", "video", "text"):  # both baselines answered every generated question
        true, false = seesim[("mechbench/always-true", modality)], seesim[("mechbench/always-false", modality)]
        assert true["samples"] == false["samples"] > 50 and true["accuracy"] == false["accuracy"] == 0.5
    # Every benchmark's shortcut panel is in the report, and on the generated sets none beats chance.
    panels = report["shortcut_panels"]
    assert {name for name, rows in panels.items() if rows} == {"structural_eval", "sphyr", "seesim", "openseesime"}
    assert not any(row["beats_chance"] for rows in panels.values() for row in rows)
    assert "what a model scores without the skill" in (tmp_path / "report" / "report.md").read_text()
    # A generated set has its own answers: the published always-True rate is not shown beside it.
    assert all(row["published"] is None for row in report["leaderboard"] if row["benchmark"] == "seesim")
    # OpenSeeSimE on the same simulations, both domains, two baselines, offline.
    runs = sections["openseesime"]["runs"]
    shortcuts = ("mechbench/first-choice", "mechbench/last-choice", "mechbench/random", "mechbench/majority")
    assert {(r["model_name"], r["domain"]) for r in runs} == {
        (m, d) for m in shortcuts for d in ("structural", "fluid")
    }
    assert all(r["samples"] >= 18 and 0 < r["accuracy"] < 1 for r in runs)
    assert (tmp_path / "report" / "report.html").stat().st_size > 50_000


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
