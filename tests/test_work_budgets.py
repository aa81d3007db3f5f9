"""Work inside the size limits is bounded in time where it runs: drawing and physics judging check their budget and
stop themselves (the thread ends, no core stays busy), and a tool call that hits it is mechbench's own failure."""

from __future__ import annotations

import json
import math
import threading
import time
from pathlib import Path

import anyio
import pytest
from inspect_ai.tool import ToolError

from mechbench.benchmarks.structural_eval.tools import drawing
from mechbench.core.budget import BudgetExceededError, check_budget, time_budget, within_budget
from mechbench.harness.quiet import QUIET_EVAL


def _loaded_chain(links: int = 39) -> str:
    """A chain of ``links`` members each under a sloping distributed load: ~7 s to draw, inside the drawing limits."""
    points = [{"id": f"P{i}", "x": float(i), "y": 0.0} for i in range(links + 1)]
    members = [{"id": f"L{i}", "a": f"P{i}", "b": f"P{i + 1}"} for i in range(links)]
    supports = [
        {"id": "S1", "at": {"id": "P0", "type": "point"}, "kind": "pin"},
        {"id": "S2", "at": {"id": f"P{links}", "type": "point"}, "kind": "roller"},
    ]
    loads = [
        {"id": f"F{i}", "kind": "distributedLoad", "at": {"type": "link", "id": f"L{i}"}, "wStart": 8 + i,
         "wEnd": 2, "fromStart": 0, "fromEnd": 0, "angleDeg": 270 - i, "angleMode": "world", "flip": 1}
        for i in range(links)
    ]  # fmt: skip
    return json.dumps({"points": points, "links": members, "supports": supports, "loads": loads})


def _judge_problem(side: int) -> tuple[list[list[str]], list[list[str]]]:
    truth = [["1" if (r + c) % 3 else "0" for c in range(side)] for r in range(side)]
    truth[0][side // 2], truth[-1][0], truth[-1][-1] = "L", "S", "S"
    masked = [
        ["V" if (r * side + c) % 4 == 0 and t in "01" else t for c, t in enumerate(row)] for r, row in enumerate(truth)
    ]
    return masked, truth


def test_a_budget_raises_past_its_deadline_never_outside_it_and_an_inner_one_never_extends_it() -> None:
    check_budget()  # outside any budget: nothing
    with time_budget(0.05, "the work"):
        check_budget()
        time.sleep(0.06)
        with pytest.raises(BudgetExceededError, match=r"the work ran past its 0.05 s budget and was stopped"):
            check_budget()
        with time_budget(100, "a longer inner budget"), pytest.raises(BudgetExceededError, match="the work"):
            check_budget()
    check_budget()


def _cpu_while_idle(seconds: float) -> float:
    """CPU seconds this process spends while the caller does nothing (a thread left working would show here)."""
    start = time.process_time()
    time.sleep(seconds)
    return time.process_time() - start


def test_a_drawing_past_its_budget_stops_in_its_own_thread() -> None:
    outcome: list[BaseException] = []

    def work() -> None:
        try:
            within_budget(0.3, "the drawing", drawing, _loaded_chain())
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(timeout=60)
    # The budget stopped it: a drawing that ran to its end (~7 s) would have returned, not raised.
    assert not thread.is_alive() and isinstance(outcome[0], BudgetExceededError)
    assert _cpu_while_idle(0.5) < 0.25


def test_the_physics_judge_past_its_budget_stops_and_leaves_no_work_running() -> None:
    from mechbench.benchmarks.sphyr.physics_scoring import MAX_JUDGED_SIDE, physics_score

    masked, truth = _judge_problem(MAX_JUDGED_SIDE)
    answer = [["1" if t == "V" else t for t in row] for row in masked]
    started = time.monotonic()
    with pytest.raises(BudgetExceededError, match="the physics judge ran past"):
        within_budget(0.2, "the physics judge", physics_score, masked, truth, answer, reference="best")
    assert time.monotonic() - started < 20  # the budget (0.2 s) stopped it; unbudgeted, the judge runs for minutes
    assert _cpu_while_idle(0.5) < 0.25


def test_a_tool_call_past_its_budget_is_mechbenchs_failure_and_its_thread_ends(monkeypatch) -> None:
    from mechbench.harness import tools

    monkeypatch.setattr(tools, "TOOL_WORK_BUDGET", 0.3)

    async def main() -> None:
        with pytest.raises(ToolError, match=r"mechbench's render_frame failed .*0.3 s budget.*not your mistake"):
            await tools.in_worker("render_frame", drawing, _loaded_chain())

    started = time.monotonic()
    anyio.run(main)
    assert time.monotonic() - started < 20  # the budget (0.3 s) stopped it, with room for a slow or busy machine
    assert _cpu_while_idle(0.5) < 0.25


@pytest.mark.slow
def test_a_recorded_tool_call_past_its_budget_counts_as_an_instrument_failure(tmp_path: Path, monkeypatch) -> None:
    from inspect_ai import eval as inspect_eval

    from mechbench.harness import tools
    from mechbench.tasks import structural_eval

    monkeypatch.setattr(tools, "TOOL_WORK_BUDGET", 0.3)
    task = structural_eval(data="bundled", tools=True)
    sample = next(iter(task.dataset))
    turns = [
        {"tool": "render_frame", "arguments": {"model": _loaded_chain()}},
        {"tool": "submit", "arguments": {"answer": "{}"}},
    ]
    (tmp_path / "conversations.jsonl").write_text(json.dumps({"id": sample.id, "turns": turns}))
    (log,) = inspect_eval(
        task,
        model="mechbench/replay",
        model_args={"file": str(tmp_path / "conversations.jsonl")},
        sample_id=sample.id,
        log_dir=str(tmp_path / "logs"),
        **QUIET_EVAL,
    )
    assert log.status == "success"
    (scored,) = log.samples
    record = scored.scores["tool_use"].metadata["tool_use"]
    assert record["instrument_failures"] == 1 and record["calls"] == 0 and record["failed_calls"] == 0


def test_a_results_file_asking_the_judge_for_too_many_cells_is_refused_before_any_work(monkeypatch) -> None:
    from mechbench.benchmarks.sphyr import rescore as rescoring
    from mechbench.benchmarks.sphyr.physics_scoring import MAX_JUDGED_CELLS_PER_FILE, MAX_JUDGED_SIDE
    from mechbench.benchmarks.sphyr.rescore import rescore
    from mechbench.core.errors import DataSourceError

    def no_judging(*args: object, **kwargs: object) -> None:
        raise AssertionError("a grid was judged: the file must be refused before any work")

    masked, truth = _judge_problem(MAX_JUDGED_SIDE)
    count = MAX_JUDGED_CELLS_PER_FILE // MAX_JUDGED_SIDE**2 + 1
    records = [{"input_grid": masked, "ground_truth": truth, "completion": "1"}] * count
    with monkeypatch.context() as patched:
        patched.setattr(rescoring, "physics_score", no_judging)  # "before any work": checked by what runs
        with pytest.raises(DataSourceError, match=f"{count} grids of .* more than the {MAX_JUDGED_CELLS_PER_FILE}"):
            rescore(records, physics=True)
    assert rescore(records[:2])["totals"]["evaluated_samples"] == 2  # without the physics the file is read


@pytest.mark.slow
def test_a_judge_past_its_budget_between_feedback_rounds_leaves_the_sample_unscored(tmp_path: Path, monkeypatch):
    """Not a sample error retried three times with its model calls paid again: unscored, with the reason."""
    from inspect_ai import eval as inspect_eval

    from mechbench.benchmarks.sphyr import judge
    from mechbench.tasks import sphyr

    monkeypatch.setattr(judge, "JUDGE_BUDGET_S", 0.0)
    (log,) = inspect_eval(
        sphyr(data="bundled", subject="full_easy", feedback_rounds=1),
        model="mechbench/empty",
        log_dir=str(tmp_path / "logs"),
        limit=1,
        **QUIET_EVAL,
    )
    assert log.status == "success" and not log.samples[0].error
    score = log.samples[0].scores["sphyr_scorer"]
    assert "failed between rounds: round 0: the physics judge ran past its 0 s budget" in score.explanation
    assert isinstance(score.value, float) and math.isnan(score.value)  # unscored: out of every metric


def test_a_record_past_the_judges_budget_is_left_unscored_and_the_rescore_goes_on(monkeypatch) -> None:
    from mechbench.benchmarks.sphyr import rescore as rescoring

    masked, truth = _judge_problem(8)
    reply = "\n".join(" ".join(row) for row in truth)
    records = [{"index": i, "input_grid": masked, "ground_truth": truth, "completion": reply} for i in range(2)]
    monkeypatch.setattr(rescoring, "JUDGE_BUDGET_S", 0.0)
    report = rescoring.rescore(records, physics=True, executor="local", workers=1)
    assert all("physics judge ran past" in row["physics_unscored"] for row in report["records"])
    assert report["totals"]["physics_unscored_samples"] == 2 and report["totals"]["total_exact_match"] == 2
