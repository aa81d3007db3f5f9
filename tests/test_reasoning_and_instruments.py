"""Reasoning replies, exhausted budgets and failures of mechbench's own instruments, on every benchmark."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from mechbench.benchmarks.sphyr.grid import sample_grid
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.harness.replies import split_reply
from mechbench.tasks import seesim, sphyr, structural_eval

THINKING = "<think>" + "Let me consider the load path... true? false? 1 0 1\n1 1 1\n" * 50


def _model(*texts: tuple[str, str]):
    outputs = []
    for text, stop in texts:
        out = ModelOutput.from_content(model="mockllm/model", content=text, stop_reason=stop)  # type: ignore[arg-type]
        out.usage = ModelUsage(input_tokens=10, output_tokens=512, total_tokens=522)
        outputs.append(out)
    return get_model("mockllm/model", custom_outputs=outputs)


def test_the_answer_is_read_after_the_reasoning() -> None:
    reply = split_reply("<think>It is true that... </think>\nFalse")
    assert reply.answer == "False" and reply.had_reasoning and not reply.cut_in_reasoning
    cut = split_reply("<think>still thinking, true")
    assert cut.answer == "" and cut.cut_in_reasoning
    assert split_reply("reasoning without an opening tag</think> True").answer == "True"
    assert split_reply("True").answer == "True" and not split_reply("True").had_reasoning


def test_sphyr_budget_exhausted_is_its_own_outcome(tmp_path: Path) -> None:
    task = sphyr(data="bundled", subject="full_easy", samples="3", physics=False)
    grid = sample_grid(task.dataset[1].metadata, "ground_truth")
    answer = "\n".join(" ".join(row) for row in grid)
    model = _model(
        (THINKING, "max_tokens"),  # cut off while reasoning: budget exhausted
        (f"<think>first thoughts 1 1\n0 0</think>\n{answer}", "stop"),  # reasoning, then the right grid
        ("I cannot do this.", "stop"),  # an unparsable answer
    )
    (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path), **QUIET_EVAL)
    by_id = {s.id: s.scores["sphyr_scorer"] for s in log.samples}
    ids = [s.id for s in task.dataset]
    exhausted, right, unparsable = (by_id[i] for i in ids)
    assert exhausted.value["budget_exhausted"] == 1.0 and exhausted.value["invalid_output_grid"] == 0.0
    assert exhausted.metadata["outcome"] == "budget_exhausted" and "max_tokens" in exhausted.explanation
    assert right.value["exact_match"] == 1.0 and right.metadata["reasoning_removed"]
    assert unparsable.value["invalid_output_grid"] == 1.0 and unparsable.value["budget_exhausted"] == 0.0
    metrics = {s.name: s.metrics["mean"].value for s in log.results.scores if s.metrics}
    assert metrics["budget_exhausted"] == pytest.approx(1 / 3)
    assert metrics["invalid_output_grid"] == pytest.approx(1 / 3)


def test_seesim_budget_exhausted_apart_from_unparsable(seesim_data: Path, tmp_path: Path) -> None:
    task = seesim(modality="text", files="File_1", data=str(seesim_data))
    count = len(task.dataset)
    model = _model((THINKING, "max_tokens"), ("<think>maybe false</think> True", "stop"), *[("", "stop")] * (count - 2))
    (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path), **QUIET_EVAL)
    metrics = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    assert metrics["budget_exhausted"] == 1.0 and metrics["unparsable"] == count - 2
    first = next(s for s in log.samples if s.id == task.dataset[0].id).scores["seesim_scorer"]
    second = next(s for s in log.samples if s.id == task.dataset[1].id).scores["seesim_scorer"]
    assert first.answer == "budget exhausted" and second.answer == "True"


def test_structural_budget_exhausted_outcome(structural_data: Path, tmp_path: Path) -> None:
    task = structural_eval(data=str(structural_data), filter="beam_001", max_retries=0)
    (log,) = inspect_eval(task, model=_model((THINKING, "max_tokens")), log_dir=str(tmp_path), **QUIET_EVAL)
    (sample,) = log.samples
    score = sample.scores["structural_scorer"]
    assert score.value == 0.0 and score.metadata["outcome"] == "budget_exhausted"
    rates = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    assert rates["budget_exhausted_replies"] == 1.0 and rates["unparsable_replies"] == 0.0


def test_a_failing_physics_judge_leaves_the_sample_unscored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mechbench.benchmarks.sphyr.judge as parts

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("singular matrix in the judge")

    monkeypatch.setattr(parts, "physics_score", broken)
    (log,) = inspect_eval(
        sphyr(data="bundled", subject="full_easy", samples="2"), model="mechbench/solid", log_dir=str(tmp_path),
        **QUIET_EVAL,
    )  # fmt: skip
    assert log.status == "success" and len(log.samples) == 2
    for sample in log.samples:
        score = sample.scores["sphyr_scorer"]
        assert isinstance(score.value, float) and math.isnan(score.value)
        assert score.reason == "instrument_failure" and "singular matrix in the judge" in score.explanation
    assert all(s.scored_samples == 0 and s.unscored_samples == 2 for s in log.results.scores if s.metrics)


def test_a_failing_frame_solver_leaves_the_sample_unscored(
    structural_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mechbench.benchmarks.structural_eval.check as check

    def broken(model: object) -> None:
        raise FloatingPointError("overflow in assembly")

    monkeypatch.setattr(check, "solve_response", broken)
    task = structural_eval(data=str(structural_data), filter="beam_00", debug=True)
    (log,) = inspect_eval(task, model="mockllm/model", log_dir=str(tmp_path), **QUIET_EVAL)
    assert log.status == "success" and log.samples
    for sample in log.samples:
        score = sample.scores["structural_scorer"]
        assert math.isnan(score.value) and score.reason == "instrument_failure"
        assert "overflow in assembly" in score.explanation
        assert len(score.metadata["attempts"]) == 1  # an instrument failure is not retried as the model's
