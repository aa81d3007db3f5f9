"""mechbench's generators for training: items of any generated benchmark at a level and seed, and a reward for a
reply, without Inspect.

    from mechbench import training

    training.offered()                                    # {"hand_calc": (1, …, 10), "structural_eval": …, …}
    batch = training.items("hand_calc", 64, level=7, seed=1, presentation="text")
    reward = training.score(batch[0], reply)               # Reward(value in [0, 1], reason)

An item is a :class:`~mechbench.registry.TrainingItem`: the prompt and any images exactly as an evaluation shows them,
the item as data, and the key its reward is computed from (the benchmark's own judge: the same verdict a run gives).
The same benchmark, count, level, seed and options give the same items on any machine, so a curriculum can name its
items; a fresh seed gives fresh items, and items never run out at any level. This module names no benchmark: a
benchmark offers training by the ``trainer`` of its spec.
"""

from __future__ import annotations

import math
from typing import Any

from mechbench import registry
from mechbench.core.errors import UsageError
from mechbench.registry import Reward, Trainer, TrainingItem

MAX_ITEMS = 10_000
"""The most items one call generates (a larger curriculum asks in batches, with fresh seeds)."""

__all__ = ["MAX_ITEMS", "Reward", "TrainingItem", "items", "offered", "score"]


def _trainer(benchmark: str) -> Trainer:
    spec = registry.spec(benchmark)
    if spec is None or spec.trainer is None:
        raise UsageError(f"{benchmark!r} offers no training items; those that do: {', '.join(offered()) or 'none'}")
    return spec.trainer


def offered() -> dict[str, tuple[int, ...]]:
    """Each benchmark that offers training items, with the levels it takes."""
    return {entry.name: entry.trainer.levels for entry in registry.specs() if entry.trainer is not None}


def items(benchmark: str, n: int, level: int | None = None, seed: int = 0, **options: Any) -> list[TrainingItem]:
    """``n`` fresh items of ``benchmark`` at ``level`` (None: its default mix), reproducible from ``seed``."""
    trainer = _trainer(benchmark)
    if not 1 <= n <= MAX_ITEMS:
        raise UsageError(f"n must be 1 to {MAX_ITEMS}, got {n}")
    if level is not None and level not in trainer.levels:
        raise UsageError(f"{benchmark}'s levels are {', '.join(map(str, trainer.levels))}, got {level}")
    return trainer.items(n, level, seed, options)


def score(item: TrainingItem, reply: str | None) -> Reward:
    """The reward of ``reply`` to ``item``: in [0, 1], with the judge's reason; an unreadable reply is 0 with why."""
    reward = _trainer(item.benchmark).score(reply or "", item)
    if not math.isfinite(reward.value) or not 0.0 <= reward.value <= 1.0:
        raise AssertionError(f"{item.benchmark}'s reward {reward.value!r} is outside [0, 1]")  # mechbench's own fault
    return reward
