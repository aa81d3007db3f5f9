"""StructuralEval in Inspect: samples, the retry-with-feedback solver, the scorer and its metrics."""

from __future__ import annotations

import functools
import json
from typing import Any

import anyio
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText, ModelOutput
from inspect_ai.scorer import Metric, SampleScore, Score, Target, metric, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from mechbench.benchmarks.structural_eval.check import Attempt, check_reply
from mechbench.benchmarks.structural_eval.dataset import CATEGORIES, StructuralTask
from mechbench.benchmarks.structural_eval.prompts import PromptStyle, feedback, task_prompt
from mechbench.benchmarks.structural_eval.scoring import Scoring
from mechbench.frame import FrameModel
from mechbench.reliability import generate_checked, judge_limiter

ATTEMPTS_KEY = "structural_eval_attempts"


def to_sample(task: StructuralTask, style: PromptStyle) -> Sample:
    """The drawing and the instruction as one user message; the task (with its truth) in metadata."""
    message = ChatMessageUser(
        content=[ContentImage(image=task.image), ContentText(text=task_prompt(style))],
        metadata={"sample_id": task.id},  # lets the replay provider find recorded replies
    )
    return Sample(
        id=task.id,
        input=[message],
        target=json.dumps(task.raw_model),
        metadata={
            "benchmark": "structural_eval",
            "category": task.category,
            "difficulty": task.difficulty,
            "difficulty_source": task.difficulty_source,
            "image_source": task.image_source,
            "truth_source": task.truth_source,
            "task": task.model_dump(mode="json"),
        },
    )


def to_dataset(tasks: list[StructuralTask], style: PromptStyle) -> MemoryDataset:
    """All tasks as Inspect samples."""
    return MemoryDataset([to_sample(t, style) for t in tasks], name="structural_eval")


@solver
def structural_solver(
    max_retries: int = 2, tolerance: float = 0.05, scoring: Scoring = "strict", debug: bool = False
) -> Solver:
    """Ask, check with the solver, and on a wrong answer send one feedback message and ask again.

    Only the latest failed turn stays in the conversation (as the published protocol does). Every
    attempt's verdict is kept in the sample store; the scorer takes the best. ``debug`` answers with
    the ground-truth model itself and calls no model.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        task = StructuralTask.model_validate(state.metadata["task"])
        truth_model, truth = FrameModel.parse(task.raw_model), task.response()
        opening = list(state.messages)
        attempts: list[dict[str, Any]] = []
        for number in range(max_retries + 1):
            if debug:
                state.output = ModelOutput.from_content(model="debug", content=json.dumps(task.raw_model))
                state.messages.append(state.output.message)
            else:
                state = await generate_checked(state, generate)
            # The judge solves up to four frames per reply: run it in a worker thread so that a large
            # answer never stalls the event loop (and with it every other sample's model calls).
            attempt: Attempt = await anyio.to_thread.run_sync(
                functools.partial(
                    check_reply, state.output.completion, truth_model, truth, tolerance=tolerance, scoring=scoring
                ),
                limiter=judge_limiter(),
            )
            attempts.append(
                {
                    "attempt": number,
                    **attempt.model_dump(exclude={"answer_model"}),
                    "answer_model": attempt.answer_model,
                }
            )
            state.store.set(ATTEMPTS_KEY, attempts)
            if attempt.outcome == "correct" or number == max_retries:
                break
            state.messages = [
                *opening,
                state.output.message,
                ChatMessageUser(content=feedback(attempt.outcome, attempt.detail), metadata={"attempt": number + 1}),
            ]
        return state

    return solve


def _weighted(scores: list[SampleScore], category: str | None = None) -> float:
    chosen = [s for s in scores if category is None or (s.sample_metadata or {}).get("category") == category]
    total = sum((s.sample_metadata or {}).get("difficulty", 1) for s in chosen)
    if not total:
        return 0.0
    return sum((s.sample_metadata or {}).get("difficulty", 1) * s.score.as_float() for s in chosen) / total


@metric
def weighted_accuracy() -> Metric:
    """Σ difficulty × ratio / Σ difficulty: the published headline number."""

    def compute(scores: list[SampleScore]) -> float:
        return _weighted(scores)

    return compute


@metric
def weighted_accuracy_by_category() -> Metric:
    """The weighted accuracy within each category (beam, frame, truss) present."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        present = {(s.sample_metadata or {}).get("category") for s in scores}
        return {c: _weighted(scores, c) for c in CATEGORIES if c in present}

    return compute


@metric
def mean_ratio() -> Metric:
    """Mean diagnostic ratio (the published "average success ratio")."""

    def compute(scores: list[SampleScore]) -> float:
        return sum(s.score.as_float() for s in scores) / len(scores) if scores else 0.0

    return compute


@metric
def outcome_rates() -> Metric:
    """Share of samples solved exactly, and of all replies that could not be parsed, failed the schema,
    or described an unstable structure (kept apart from wrong answers)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        attempts = [a for s in scores for a in (s.score.metadata or {}).get("attempts", [])]
        out = {"exact_success": sum(s.score.as_float() == 1.0 for s in scores) / len(scores) if scores else 0.0}
        for outcome in ("unparsable", "invalid_model", "unstable"):
            out[f"{outcome}_replies"] = (
                sum(a["outcome"] == outcome for a in attempts) / len(attempts) if attempts else 0.0
            )
        return out

    return compute


@scorer(metrics=[weighted_accuracy(), mean_ratio(), weighted_accuracy_by_category(), outcome_rates()])
def structural_scorer() -> Any:
    """The best attempt's ratio, with the ladder step and a one-line explanation."""

    async def score(state: TaskState, target: Target) -> Score:
        attempts = state.store.get(ATTEMPTS_KEY, [])
        if not attempts:
            return Score(value=0.0, explanation="no attempt was made", metadata={"attempts": [], "step": "none"})
        best = max(attempts, key=lambda a: a["ratio"])  # first of the best, so fewer retries win ties
        used = len(attempts)
        return Score(
            value=best["ratio"],
            answer=json.dumps(best["answer_model"]) if best["answer_model"] else None,
            explanation=f"attempt {best['attempt'] + 1} of {used}: {best['explanation']}",
            metadata={
                "step": best["step"],
                "outcome": best["outcome"],
                "attempts": [{k: v for k, v in a.items() if k != "answer_model"} for a in attempts],
                "difficulty": state.metadata["difficulty"],
                "category": state.metadata["category"],
            },
        )

    return score
