"""One attempt, end to end: reply → JSON → schema → solve → compare → ladder. Plain data out."""

from __future__ import annotations

from typing import Any, Literal

from inspect_ai.model import ModelOutput
from pydantic import BaseModel

from mechbench.benchmarks.structural_eval.extract import ReplyFormatError, extract_model_json
from mechbench.benchmarks.structural_eval.scoring import (
    FINDINGS,
    Response,
    Scoring,
    compare,
    diagnose,
    ladder_ratio,
    solve_response,
)
from mechbench.core.errors import ModelFormatError, UnstableStructureError
from mechbench.frame import FrameModel
from mechbench.harness.reliability import instrument_error
from mechbench.harness.replies import budget_exhausted, budget_note, split_reply

_CORRECT = {
    "strict": "correct: reactions per support and the largest moment match the ground truth",
    "legacy": "correct: sorted absolute reactions match the ground truth (published rule)",
}
Outcome = Literal[
    "correct", "wrong", "unparsable", "invalid_model", "unstable", "budget_exhausted", "instrument_failure"
]


class Attempt(BaseModel):
    """The verdict on one reply: ratio (ladder credit), step reached, and why."""

    outcome: Outcome
    ratio: float
    step: str
    explanation: str
    detail: str
    found_in: str | None = None
    answer_model: dict[str, Any] | None = None


def check_reply(
    reply: str,
    truth_model: FrameModel,
    truth: Response,
    *,
    tolerance: float,
    scoring: Scoring,
    output: ModelOutput | None = None,
) -> Attempt:
    """Judge ``reply`` against the ground truth; never raises for anything a model can write.

    The answer is read after any inline reasoning. With the model's ``output``, a reply the output limit cut
    off before any answer is ``budget_exhausted``. A failure of mechbench's own solver is
    ``instrument_failure`` (the scorer leaves such a sample unscored, never charged to the model).
    """
    split = split_reply(reply)
    if budget_exhausted(output, split):
        return Attempt(
            outcome="budget_exhausted",
            ratio=0.0,
            step="budget_exhausted",
            detail=budget_note(output).strip("()"),
            explanation=f"budget exhausted before an answer {budget_note(output)}",
        )
    try:
        return _judge(split.answer, truth_model, truth, tolerance=tolerance, scoring=scoring)
    except Exception as error:  # not the model's doing: mechbench's instrument failed
        return Attempt(
            outcome="instrument_failure",
            ratio=0.0,
            step="instrument_failure",
            detail=instrument_error(error),
            explanation=f"mechbench's solver failed on this answer: {instrument_error(error)}",
        )


def _judge(reply: str, truth_model: FrameModel, truth: Response, *, tolerance: float, scoring: Scoring) -> Attempt:
    try:
        data, found_in = extract_model_json(reply)
    except ReplyFormatError as error:
        return Attempt(
            outcome="unparsable",
            ratio=0.0,
            step="unparsable",
            detail=str(error),
            explanation=f"no readable JSON model: {error}",
        )
    try:
        answer = FrameModel.parse(data)
        answer_json = answer.to_json_dict()
        got = solve_response(answer)
    except ModelFormatError as error:  # from the schema, or from assembly (e.g. a load on no link's end)
        return Attempt(
            outcome="invalid_model",
            ratio=0.0,
            step="invalid_model",
            detail=str(error),
            found_in=found_in,
            explanation=f"invalid model: {error}",
            answer_model=data,
        )
    except UnstableStructureError as error:
        # The ladder still applies: its controlled variants may be stable (e.g. only a support is missing).
        step = diagnose(truth_model, answer, tolerance, scoring)
        return Attempt(
            outcome="unstable",
            ratio=ladder_ratio(step),
            step=step,
            detail=str(error),
            found_in=found_in,
            answer_model=answer_json,
            explanation=f"unstable structure ({error}); ladder reached {step}",
        )
    difference = compare(truth, got, tolerance, scoring)
    if difference is None:
        return Attempt(
            outcome="correct",
            ratio=1.0,
            step="correct",
            detail="reactions and largest moment match",
            found_in=found_in,
            answer_model=answer_json,
            explanation=_CORRECT[scoring],
        )
    step = diagnose(truth_model, answer, tolerance, scoring)
    return Attempt(
        outcome="wrong",
        ratio=ladder_ratio(step),
        step=step,
        detail=FINDINGS[step],
        found_in=found_in,
        answer_model=answer_json,
        explanation=f"wrong ({difference}); {FINDINGS[step]}",
    )
