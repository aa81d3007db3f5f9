"""Adaptive HandCalc (``-T adaptive=true``): the rule of :mod:`mechbench.harness.adaptive` over HandCalc's
generator. An item of level L is generated fresh at the level nearest the ability; it scores the share of its
quantities right (the scorer's reading, within :data:`~.protocol.READING_BUDGET`)."""

from __future__ import annotations

import base64
from typing import Any

from inspect_ai.model import ChatMessageUser, ContentImage, ContentText

from mechbench.harness.adaptive import (
    ABILITY_METRIC,
    DISCRIMINATION,
    PRIOR,
    AdaptiveItems,
    estimate,
    posterior,
    record,
)
from mechbench.harness.adaptive import next_level as _nearest

from .answers import judge
from .prompts import prompt, target
from .protocol import LEVELS, READING_BUDGET

__all__ = ["ABILITY_METRIC", "DISCRIMINATION", "PRIOR", "adaptive_items", "estimate", "item_message", "next_level",
           "posterior", "record"]  # fmt: skip


def next_level(estimate: float) -> int:
    """The HandCalc level whose items tell most about an ability of ``estimate``."""
    return _nearest(estimate, LEVELS)


def item_message(item: Any, presentation: str) -> ChatMessageUser:
    """An item as the model reads it: the prompt (and the drawing), with what the built-in models may read."""
    from .drawing import drawing

    text = prompt(item, presentation)
    metadata = {"inputs": item.inputs, "asked": [(q.key, q.unit, q.kind) for q in item.quantities]}
    if presentation == "drawing":
        image = "data:image/png;base64," + base64.b64encode(drawing(item)).decode()
        return ChatMessageUser(content=[ContentImage(image=image), ContentText(text=text)], metadata=metadata)
    return ChatMessageUser(content=text, metadata=metadata)


def _share(reply: str, item: Any) -> float:
    verdicts = judge(reply, item.quantities)
    return sum(v.correct for v in verdicts) / len(verdicts)


def adaptive_items(presentation: str) -> AdaptiveItems:
    """HandCalc's items for adaptive runs, shown as ``presentation``."""
    from .generated_set import make_item

    return AdaptiveItems(
        levels=LEVELS,
        make=lambda stream, step, level: make_item(stream, step, level),
        message=lambda item: item_message(item, presentation),
        reply=target,
        share=_share,
        describe=lambda item: {"family": item.family, "item": item.id},
        reading_budget=READING_BUDGET,
    )
