"""One attempt, end to end: reply → JSON → schema → solve → compare → ladder. Plain data out."""

from __future__ import annotations

from typing import Any, Literal

from inspect_ai.model import ModelOutput
from pydantic import BaseModel

from mechbench.benchmarks.structural_eval.extract import ReplyFormatError, extract_model_json
from mechbench.benchmarks.structural_eval.idealisations import AS_DRAWN, Idealisation, readings
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
    idealisation: str | None = None
    """The reading of the drawing the answer was judged against (``as drawn``, or for a truss ``pin-jointed`` /
    ``rigid joints``): strict scoring accepts every correct idealisation."""


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
        step, reading = _best_step(truth_model, answer, tolerance, scoring)
        return Attempt(
            outcome="unstable",
            ratio=ladder_ratio(step),
            step=step,
            detail=str(error),
            found_in=found_in,
            answer_model=answer_json,
            idealisation=reading,
            explanation=f"unstable structure ({error}); ladder reached {step}",
        )
    difference = compare(truth, got, tolerance, scoring)
    matched = AS_DRAWN if difference is None else _other_reading(truth_model, got, tolerance, scoring)
    if matched is not None:
        return Attempt(
            outcome="correct",
            ratio=1.0,
            step="correct",
            detail="reactions and largest moment match" + ("" if matched == AS_DRAWN else f" ({matched})"),
            found_in=found_in,
            answer_model=answer_json,
            idealisation=matched,
            explanation=_CORRECT[scoring] + ("" if matched == AS_DRAWN else f", modelled {matched}"),
        )
    step, reading = _best_step(truth_model, answer, tolerance, scoring)
    return Attempt(
        outcome="wrong",
        ratio=ladder_ratio(step),
        step=step,
        detail=FINDINGS[step],
        found_in=found_in,
        answer_model=answer_json,
        idealisation=reading,
        explanation=f"wrong ({difference}); {FINDINGS[step]}",
    )


def _readings(truth_model: FrameModel, scoring: Scoring) -> tuple[Idealisation, ...]:
    """The drawing's correct readings the scoring accepts (the published rule: as drawn only)."""
    every = readings(truth_model)
    return every if scoring == "strict" else every[:1]


def _other_reading(truth_model: FrameModel, got: Response, tolerance: float, scoring: Scoring) -> str | None:
    """The name of another correct reading of the drawing the answer matches (None: none does)."""
    for reading in _readings(truth_model, scoring)[1:]:
        if reading.response is not None and compare(reading.response, got, tolerance, scoring) is None:
            return reading.name
    return None


def _best_step(truth_model: FrameModel, answer: FrameModel, tolerance: float, scoring: Scoring) -> tuple[str, str]:
    """The ladder step a wrong answer reaches against the reading of the drawing it comes closest to, so the
    diagnosis never blames hinges for an accepted idealisation; (step, reading)."""
    steps = [
        (diagnose(reading.model, answer, tolerance, scoring), reading.name)
        for reading in _readings(truth_model, scoring)
    ]
    return max(steps, key=lambda found: ladder_ratio(found[0]))
