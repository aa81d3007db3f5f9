"""StructuralEval in Inspect: samples, the retry-with-feedback solver, the scorer and its metrics."""

from __future__ import annotations

import functools
import json
from typing import Any

import anyio
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, ContentImage, ContentText, ModelOutput
from inspect_ai.scorer import Metric, SampleScore, Score, Target, metric, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from mechbench.benchmarks.structural_eval.check import Attempt, check_reply
from mechbench.benchmarks.structural_eval.dataset import CATEGORIES, StructuralTask
from mechbench.benchmarks.structural_eval.official_protocol import OfficialProtocol
from mechbench.benchmarks.structural_eval.prompts import PromptStyle, feedback, task_prompt
from mechbench.benchmarks.structural_eval.scoring import Scoring
from mechbench.benchmarks.structural_eval.structured import PartialCredit, framecalc_response_schema
from mechbench.frame import FrameModel
from mechbench.harness.metrics import clustered_stderr
from mechbench.harness.reliability import INSTRUMENT_FAILURE, generate_checked, judge_limiter
from mechbench.harness.replies import REPLAY_EXHAUSTED
from mechbench.harness.tools import tool_loop
from mechbench.registry import Cluster

ATTEMPTS_KEY = "structural_eval_attempts"
UNREADABLE = ("unparsable", "invalid_model", "budget_exhausted")
"""Outcomes of a reply that could not be read as a FrameCalc model."""

CLUSTER = Cluster("drawing", "drawing")
"""Each drawing is its own cluster (its epochs are averaged first)."""


def to_sample(task: StructuralTask, style: PromptStyle, official: OfficialProtocol | None = None) -> Sample:
    """mechbench's protocol: the drawing and the instruction as one user message. The official protocol: the
    style's prompt as the system message, then the runner's short instruction and the drawing. The task
    (with its truth) goes in metadata."""
    if official is None:
        messages: list[ChatMessage] = [
            ChatMessageUser(
                content=[ContentImage(image=task.image), ContentText(text=task_prompt(style))],
            )
        ]
    else:
        messages = [
            ChatMessageSystem(content=official.system_prompt(style)),
            ChatMessageUser(
                content=[ContentText(text=official.user_text), ContentImage(image=task.image)],
            ),
        ]
    return Sample(
        id=task.id,
        input=messages,
        target=json.dumps(task.raw_model),
        metadata={
            "benchmark": "structural_eval",
            CLUSTER.key: task.id,
            "category": task.category,
            "difficulty": task.difficulty,
            "difficulty_source": task.difficulty_source,
            "image_source": task.image_source,
            "truth_source": task.truth_source,
            "task": task.model_dump(mode="json"),
        },
    )


def to_dataset(
    tasks: list[StructuralTask], style: PromptStyle, official: OfficialProtocol | None = None
) -> MemoryDataset:
    """All tasks as Inspect samples."""
    return MemoryDataset([to_sample(t, style, official) for t in tasks], name="structural_eval")


@solver
def structural_solver(
    max_retries: int = 2,
    tolerance: float = 0.05,
    scoring: Scoring = "strict",
    debug: bool = False,
    official: OfficialProtocol | None = None,
    temperatures: tuple[float, float] | None = None,
    structured: bool = False,
) -> Solver:
    """Ask, check with the solver, and on a wrong answer send one feedback message and ask again.

    Only the latest failed turn stays in the conversation (as the published protocol does). Every
    attempt's verdict is kept in the sample store; the scorer takes the best. ``debug`` answers with
    the ground-truth model itself and calls no model. ``official`` words the feedback as the official runner
    does (``Error: … Fix the JSON.``); ``temperatures`` are (first attempt, retries); ``structured`` asks
    providers that support it for JSON matching the FrameCalc schema (Inspect's ``response_schema``).
    """
    config: dict[str, Any] = {"response_schema": framecalc_response_schema()} if structured else {}

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        task = StructuralTask.model_validate(state.metadata["task"])
        truth_model, truth = FrameModel.parse(task.raw_model), task.response()
        opening = list(state.messages)
        attempts: list[dict[str, Any]] = []
        previous_output = state.output
        for number in range(max_retries + 1):
            if debug:
                state.output = ModelOutput.from_content(model="debug", content=json.dumps(task.raw_model))
                state.messages.append(state.output.message)
            else:
                if temperatures is not None:
                    config["temperature"] = temperatures[0] if number == 0 else temperatures[1]
                answered = list(state.messages)
                state = await generate_checked(state, generate, **config)
                if number and (state.output.metadata or {}).get(REPLAY_EXHAUSTED):
                    # A replay with no further recorded attempt: the last recorded answer stands, as recorded.
                    state.messages = answered[:-1]
                    state.output = previous_output
                    break
                previous_output = state.output
            # The judge solves up to four frames per reply: run it in a worker thread so that a large
            # answer never stalls the event loop (and with it every other sample's model calls).
            attempt: Attempt = await anyio.to_thread.run_sync(
                functools.partial(
                    check_reply,
                    state.output.completion,
                    truth_model,
                    truth,
                    tolerance=tolerance,
                    scoring=scoring,
                    output=None if debug else state.output,
                ),
                limiter=judge_limiter(),
            )
            attempts.append(
                {
                    "attempt": number,
                    "temperature": config.get("temperature"),
                    "path": "structured output" if structured else "free text",
                    **attempt.model_dump(exclude={"answer_model"}),
                    "answer_model": attempt.answer_model,
                }
            )
            state.store.set(ATTEMPTS_KEY, attempts)
            if attempt.outcome in ("correct", "instrument_failure") or number == max_retries:
                break  # an instrument failure is not the model's to correct
            state.messages = [
                *opening,
                state.output.message,
                ChatMessageUser(
                    content=(
                        official.retry_message(
                            "unparsable" if attempt.outcome == "budget_exhausted" else attempt.outcome,
                            attempt.detail,
                            attempt.step,
                        )
                        if official is not None
                        else feedback(attempt.outcome, attempt.detail)
                    ),
                    metadata={"attempt": number + 1},
                ),
            ]
        return state

    return solve


@solver
def structural_tool_solver(budget: int, tolerance: float = 0.05, scoring: Scoring = "strict") -> Solver:
    """The tool setting: the model may call ``solve_frame`` and ``render_frame`` (at most ``budget`` calls), then
    submits one answer, which the judge checks once; the scorer reads it like a single-answer attempt."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        from mechbench.benchmarks.structural_eval.tools import tools

        task = StructuralTask.model_validate(state.metadata["task"])
        state = await tool_loop(state, tools(budget), budget)
        attempt: Attempt = await anyio.to_thread.run_sync(
            functools.partial(
                check_reply,
                state.output.completion,
                FrameModel.parse(task.raw_model),
                task.response(),
                tolerance=tolerance,
                scoring=scoring,
                output=state.output,
            ),
            limiter=judge_limiter(),
        )
        answer = attempt.answer_model
        record = {"attempt": 0, "temperature": None, "path": "tools", **attempt.model_dump(exclude={"answer_model"})}
        state.store.set(ATTEMPTS_KEY, [{**record, "answer_model": answer}])
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
        for outcome in ("unparsable", "invalid_model", "unstable", "budget_exhausted"):
            out[f"{outcome}_replies"] = (
                sum(a["outcome"] == outcome for a in attempts) / len(attempts) if attempts else 0.0
            )
        return out

    return compute


@scorer(
    metrics=[
        weighted_accuracy(),
        clustered_stderr(CLUSTER.key, weight="difficulty"),
        mean_ratio(),
        weighted_accuracy_by_category(),
        outcome_rates(),
    ]
)
def structural_scorer(partial_credit: PartialCredit = "best") -> Any:
    """The sample's ratio under ``partial_credit``, with the ladder step and a one-line explanation.

    ``best``: the best attempt's ratio (mechbench's rule, and the later official runner's). ``last``: 1 if any
    attempt was correct, else the last attempt's ladder credit when it was a solvable wrong answer, else 0
    (the rule of the release that produced the 2026-01-31 leaderboard).
    """

    async def score(state: TaskState, target: Target) -> Score:
        attempts = state.store.get(ATTEMPTS_KEY, [])
        if not attempts:
            return Score(value=0.0, explanation="no attempt was made", metadata={"attempts": [], "step": "none"})
        correct = [a for a in attempts if a["outcome"] == "correct"]
        failed = [a for a in attempts if a["outcome"] == INSTRUMENT_FAILURE]
        if failed and not correct:  # mechbench's solver failed: the sample cannot be judged, it is not a 0
            return Score.unscored(
                reason=INSTRUMENT_FAILURE,
                explanation=f"attempt {failed[0]['attempt'] + 1}: {failed[0]['explanation']}",
                metadata={
                    "step": INSTRUMENT_FAILURE,
                    "outcome": INSTRUMENT_FAILURE,
                    "attempts": [{k: v for k, v in a.items() if k != "answer_model"} for a in attempts],
                    "difficulty": state.metadata["difficulty"],
                    "category": state.metadata["category"],
                },
            )
        if partial_credit == "last" and not correct:
            chosen = attempts[-1]
            value = chosen["ratio"] if chosen["outcome"] == "wrong" else 0.0
        else:
            chosen = correct[0] if correct else max(attempts, key=lambda a: a["ratio"])  # fewer retries win ties
            value = chosen["ratio"]
        used = len(attempts)
        rule = " (the last attempt's credit only)" if partial_credit == "last" and not correct else ""
        return Score(
            value=value,
            answer=json.dumps(chosen["answer_model"]) if chosen["answer_model"] else None,
            explanation=f"attempt {chosen['attempt'] + 1} of {used}{rule}: {chosen['explanation']}",
            metadata={
                "step": chosen["step"],
                "outcome": chosen["outcome"],
                "unreadable": chosen["outcome"] in UNREADABLE,
                "repaired": "repaired" in str(chosen.get("found_in") or ""),
                "partial_credit": partial_credit,
                "attempts": [{k: v for k, v in a.items() if k != "answer_model"} for a in attempts],
                "difficulty": state.metadata["difficulty"],
                "category": state.metadata["category"],
            },
        )

    return score
