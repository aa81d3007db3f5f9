"""Adaptive StructuralEval (``-T adaptive=true``): the rule of :mod:`mechbench.harness.adaptive` over StructuralEval's
generator. Each next drawing is generated fresh at the level nearest the model's ability (levels 1-10, beams,
frames and trusses in the generator's rotation) and earns its ladder credit under strict scoring (every correct
idealisation of the drawing scores full marks)."""

from __future__ import annotations

import base64
import json
from typing import Any

from inspect_ai.model import ChatMessageUser, ContentImage, ContentText

from mechbench.frame import FrameModel
from mechbench.frame.generate import KINDS
from mechbench.frame.generate_deep import ALL_LEVELS
from mechbench.harness.adaptive import AdaptiveItems

from .check import check_reply
from .prompts import PromptStyle, task_prompt
from .scoring import DEFAULT_TOLERANCE, solve_response


def _share(reply: str, task: dict[str, Any]) -> float:
    truth = FrameModel.parse(task["model"])
    verdict = check_reply(reply, truth, solve_response(truth), tolerance=DEFAULT_TOLERANCE, scoring="strict")
    if verdict.outcome == "instrument_failure":  # mechbench's own solver failed: never charged to the model
        raise RuntimeError(f"mechbench's solver failed on a generated drawing: {verdict.explanation}")
    return float(verdict.ratio)


def _message(task: dict[str, Any], style: PromptStyle) -> ChatMessageUser:
    image = "data:image/png;base64," + base64.b64encode(task["png"]).decode()
    return ChatMessageUser(content=[ContentImage(image=image), ContentText(text=task_prompt(style))])


def adaptive_items(style: PromptStyle) -> AdaptiveItems:
    """StructuralEval's drawings for adaptive runs, asked with the ``style`` prompt."""
    from .generated_set import structural_task  # the generator and matplotlib load when a run asks

    return AdaptiveItems(
        levels=ALL_LEVELS,
        make=lambda stream, step, level: structural_task((stream, step, level, KINDS, False)),
        message=lambda task: _message(task, style),
        reply=lambda task: json.dumps(task["model"]),
        share=_share,
        describe=lambda task: {"kind": task["kind"]},
    )
