"""HandCalc for trainers (:mod:`mechbench.training`): fresh items at a level, as text or as a drawing, and the
share of an item's quantities a reply gets right (the scorer's own reading: units converted, 1 % tolerance)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mechbench.core.errors import UsageError
from mechbench.registry import Reward, Trainer, TrainingItem

from .answers import judge
from .prompts import prompt
from .protocol import BENCHMARK, LEVELS, PRESENTATIONS

OPTIONS = "presentation='text' (default) or 'drawing' (the prompt shown with its drawing, a PNG)"


def items(n: int, level: int | None, seed: int, options: Mapping[str, Any]) -> list[TrainingItem]:
    """``n`` items of the set of ``seed`` at ``level`` (None: the textbook mix of levels 1-5)."""
    presentation = options.get("presentation", "text")
    unknown = set(options) - {"presentation"}
    if unknown or presentation not in PRESENTATIONS:
        raise UsageError(f"HandCalc's training options: {OPTIONS}; got {dict(options)}")
    from .drawing import drawing  # the generator and matplotlib load when items are made, not with the registry
    from .generated_set import make_item

    made = []
    for index in range(n):
        item = make_item(seed, index, level)
        made.append(
            TrainingItem(
                benchmark=BENCHMARK,
                id=f"{BENCHMARK}-{seed}-{'mix' if level is None else f'L{level}'}-{index}-{presentation}",
                level=item.level,
                prompt=prompt(item, presentation),
                images=(drawing(item),) if presentation == "drawing" else (),
                metadata={
                    "inputs": item.inputs,
                    "asked": [(q.key, q.unit, q.kind) for q in item.quantities],
                    "family": item.family,
                },
                key=item,
            )
        )
    return made


def score(reply: str, item: TrainingItem) -> Reward:
    """The share of the item's quantities right, with each quantity's verdict."""
    verdicts = judge(reply, item.key.quantities)
    right = sum(v.correct for v in verdicts)
    return Reward(right / len(verdicts), "; ".join(f"{v.key}: {v.reason}" for v in verdicts))


TRAINER = Trainer(levels=LEVELS, items=items, score=score, options_help=OPTIONS)
