"""A report a researcher comparing models cannot be misled by: repeated runs count each sample once, a model's
tool and single-answer runs stay apart in every figure and table, and a run that could read nothing is drawn as
"0 of N read" with its reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.harness.quiet import QUIET_EVAL
from mechbench.report import build_report
from mechbench.report.build import setting_labels
from mechbench.report.reading import caption, counts
from mechbench.report.render import write_report
from mechbench.tasks import sphyr

SUBJECT = dict(subject="full_easy", data="bundled", physics=False)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("comparison")
    run = dict(log_dir=str(folder), **QUIET_EVAL)
    # The same model on the same samples three times: the first 4, then 6 (4 of them again), then 2 again.
    for limit in (4, 6, 2):
        inspect_eval(sphyr(**SUBJECT), model="mechbench/tool-demo", limit=limit, **run)  # type: ignore[arg-type]
    inspect_eval(sphyr(**SUBJECT, tools=True), model="mechbench/tool-demo", limit=4, **run)  # type: ignore[arg-type]
    replies = folder / "nonsense.jsonl"
    ids = [s.id for s in sphyr(**SUBJECT).dataset][:5]  # type: ignore[arg-type]
    replies.write_text("".join(json.dumps({"id": i, "reply": "I cannot see a grid."}) + "\n" for i in ids))
    inspect_eval(sphyr(**SUBJECT), model="mechbench/replay", model_args={"file": str(replies)}, limit=5, **run)  # type: ignore[arg-type]
    replies.unlink()
    return folder


def test_repeated_runs_count_each_sample_once(logs: Path) -> None:
    board = [r for r in build_report(logs).leaderboard if r["benchmark"] == "sphyr"]
    single = [r for r in board if r["model"] == "mechbench/tool-demo" and "tools (budget" not in r["setting"]]
    (row,) = single  # one row per model and setting
    assert row["runs"] == 3 and row["samples"] == 6 and row["repeats"] == 6  # 4 + 2 scored again
    report_md = write_report(build_report(logs), logs / "report")["md"].read_text()
    assert "6 samples were scored by more than one run" in report_md


def test_a_models_settings_stay_apart_in_tables_and_figures(logs: Path) -> None:
    report = build_report(logs)
    subjects = report.benchmarks["sphyr"]["subjects"]
    demo = {r["model"]: r["samples"] for r in subjects if r["model_name"] == "mechbench/tool-demo"}
    assert demo == {
        "mechbench/tool-demo [tools (budget 8)]": 4,
        "mechbench/tool-demo [without tools (budget 8)]": 6,  # distinct samples, not 12
    }
    board = {r["model"] for r in report.leaderboard if r["benchmark"] == "sphyr"}
    assert board == {"mechbench/tool-demo", "mechbench/replay"}  # the leaderboard keeps the setting in its column


def test_a_run_that_read_nothing_is_drawn_as_0_of_n_read_with_its_reason(logs: Path) -> None:
    report = build_report(logs)
    (failed,) = [r for r in report.leaderboard if r["model"] == "mechbench/replay"]
    assert failed["unreadable"] == 1.0 and failed["value"] == 0.0 and failed["samples"] == 5
    assert counts(failed) == {"read": 0, "repaired": 0, "unreadable": 5}
    assert caption(failed).startswith("0 of 5 read: ") and "grid" in caption(failed)
    paths = write_report(report, logs / "report")
    figure = logs / "report" / "sphyr_read.png"
    assert figure.read_bytes().startswith(b"\x89PNG") and figure.stat().st_size > 5_000
    assert "answers read, per model and setting (counts)" in paths["md"].read_text()


def test_labels_name_what_sets_a_setting_apart() -> None:
    labels = setting_labels({"m": {"v2, tools (budget 8), load", "v2, load"}, "n": {"v2, load"}})
    assert labels[("m", "v2, tools (budget 8), load")] == "m [tools (budget 8)]"
    assert labels[("m", "v2, load")] == "m [without tools (budget 8)]"
    assert labels[("n", "v2, load")] == "n"
