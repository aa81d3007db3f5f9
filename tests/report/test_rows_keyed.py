"""Two recorded models are two rows (issue 63): a replay is its file (or its ``-M name=``), a seeded built-in its seed,
and runs that differ in their model arguments are never pooled; runs of one model with the same arguments still are.
Every place the report names a model (leaderboard, comparisons, tables, figures, shortcut panel) tells them apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.core.intervals import INTERVAL_METHOD
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.report import build_report, write_report
from mechbench.report.build import labels_by_benchmark
from mechbench.report.models import identity_args, model_identity, model_labels
from mechbench.tasks import seesim

pytestmark = pytest.mark.slow  # Inspect runs

TASK = dict(data="bundled", modality="text")


def _replies(path: Path, right: bool) -> Path:
    """A reply for every question of the bundled text set: its truth, or the other answer."""
    lines = []
    for sample in seesim(**TASK).dataset:  # type: ignore[arg-type]
        truth = str(sample.target.text if hasattr(sample.target, "text") else sample.target)
        reply = truth if right else ("False" if truth == "True" else "True")
        lines.append(json.dumps({"id": sample.id, "reply": reply}))
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("keyed")
    run = dict(log_dir=str(folder / "logs"), **QUIET_EVAL)
    right, wrong = _replies(folder / "right.jsonl", True), _replies(folder / "wrong.jsonl", False)
    for replies in (right, wrong, right):  # the right file twice: one model, two runs, one row
        inspect_eval(seesim(**TASK), model="mechbench/replay", model_args={"file": str(replies)}, **run)  # type: ignore[arg-type]
    for seed in (1, 2):
        inspect_eval(seesim(**TASK), model="mechbench/random", model_args={"seed": seed}, **run)  # type: ignore[arg-type]
    return folder / "logs"


def test_two_replay_files_are_two_rows_compared_with_each_other(logs: Path) -> None:
    report = build_report(logs)
    board = {r["model"]: r for r in report.leaderboard if r["benchmark"] == "seesim"}
    assert set(board) == {
        "mechbench/replay (right.jsonl)",
        "mechbench/replay (wrong.jsonl)",
        "mechbench/random (seed=1)",
        "mechbench/random (seed=2)",
    }
    right, wrong = board["mechbench/replay (right.jsonl)"], board["mechbench/replay (wrong.jsonl)"]
    assert right["value"] == 1.0 and wrong["value"] == 0.0
    assert right["runs"] == 2 and right["repeats"] == 46  # the same file twice still pools, each sample once
    assert wrong["runs"] == 1 and right["model_name"] == wrong["model_name"] == "mechbench/replay"
    assert right["model_args"]["file"].endswith("right.jsonl")
    (pair,) = [p for p in report.comparisons if {p["a"], p["b"]} == {right["model"], wrong["model"]}]
    assert pair["compared"] and abs(pair["difference"]) == 1.0
    assert pair["ahead"] == "mechbench/replay (right.jsonl)"
    assert len(report.comparisons) == 6  # four rows, every pair


def test_seeds_are_two_rows_in_the_panel_and_tables_and_the_pages_name_them(logs: Path, tmp_path: Path) -> None:
    report = build_report(logs)
    panel = {r["model"]: r for r in report.shortcut_panels["seesim"]}
    assert set(panel) == {"mechbench/random (seed=1)", "mechbench/random (seed=2)"}
    assert all(r["verdict"] == "a draw around chance (its expected score is chance)" for r in panel.values())
    table = {r["model"] for r in report.benchmarks["seesim"]["runs"]}
    assert {"mechbench/replay (right.jsonl)", "mechbench/replay (wrong.jsonl)"} <= table
    assert {r.model for r in report.runs} == set(panel) | {
        "mechbench/replay (right.jsonl)",
        "mechbench/replay (wrong.jsonl)",
    }
    paths = write_report(report, tmp_path / "out")
    markdown = paths["md"].read_text()
    for name in ("mechbench/replay (wrong.jsonl)", "mechbench/random (seed=2)"):
        assert f"| {name} |" in markdown
    assert INTERVAL_METHOD in markdown  # the reading paragraph names the interval the report computes
    assert "CR1" not in markdown


def test_labels_say_what_sets_a_models_arguments_apart() -> None:
    def labels(*runs: tuple[str, dict]) -> list[str]:
        models = {model_identity(m, identity_args(a)): (m, identity_args(a)) for m, a in runs}
        named = model_labels(models)
        return [named[model_identity(m, identity_args(a))] for m, a in runs]

    # A model given one set of arguments keeps its name; a named one is named so.
    assert labels(("mechbench/replay", {"file": "/x/a.jsonl"})) == ["mechbench/replay"]
    assert labels(("mechbench/replay", {"file": "a.jsonl", "name": "gpt-4o"})) == ["mechbench/replay (gpt-4o)"]
    # Files of one name in two folders: told apart by their folders.
    assert labels(("r", {"file": "/runs/1/replies.jsonl"}), ("r", {"file": "/runs/2/replies.jsonl"})) == [
        "r (1/replies.jsonl)",
        "r (2/replies.jsonl)",
    ]
    assert labels(("m", {}), ("m", {"seed": 3})) == ["m (seed unset)", "m (seed=3)"]
    assert labels(("r", {"file": "a", "name": "one"}), ("r", {"file": "b", "name": "two"})) == ["r (one)", "r (two)"]
    # How a request travels, and credentials, make no other model and are never shown.
    assert labels(("o", {"max_retries": 0}), ("o", {"api_key": "sk-secret", "timeout": 5})) == ["o", "o"]
    assert identity_args({"api_key": "sk-secret", "access_token": "t", "seed": 1}) == {"seed": 1}


def test_a_model_is_named_apart_only_on_the_benchmark_where_its_arguments_differ() -> None:
    a, b = ("mechbench/replay", {"file": "a.jsonl"}), ("mechbench/replay", {"file": "b.jsonl"})
    models = {(bench, model_identity(*m)): m for bench, m in (("seesim", a), ("seesim", b), ("sphyr", a))}
    named = labels_by_benchmark(models)
    assert named[("seesim", model_identity(*a))] == "mechbench/replay (a.jsonl)"
    assert named[("sphyr", model_identity(*a))] == "mechbench/replay"  # alone there: no other file to tell from
