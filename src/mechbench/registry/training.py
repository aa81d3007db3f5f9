"""What a benchmark offers trainers: generated items at a level and seed, and a reward for a reply.

The shape is the one reinforcement-learning curricula use (Reasoning Gym's: a dataset of N items at a chosen
complexity, and a score function): :class:`Trainer` in a benchmark's spec, read through :mod:`mechbench.training`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TrainingItem:
    """One generated item: what the model is shown, and what its reply is scored against.

    ``metadata`` is the item as data, as the built-in models read it (never the truth); ``key`` is what the score
    function needs (the truth: keep it from the model)."""

    benchmark: str
    id: str
    level: int | None
    prompt: str
    images: tuple[bytes, ...] = ()
    """PNG images shown with the prompt (a drawing), in order."""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    key: Any = None


@dataclass(frozen=True)
class Reward:
    """A reply's reward in [0, 1] and why (the judge's reason, as a run's score explanation gives it)."""

    value: float
    reason: str


@dataclass(frozen=True)
class Trainer:
    """A benchmark's training interface: ``items(n, level, seed, options)`` and ``score(reply, item)``.

    ``levels`` are the difficulty levels ``items`` takes (None: the benchmark's default mix); ``options`` are the
    benchmark's own keyword choices (``presentation`` for HandCalc, ``subject`` for SPhyR), named in ``options_help``.
    The same arguments give the same items on any machine."""

    levels: tuple[int, ...]
    items: Callable[[int, int | None, int, Mapping[str, Any]], list[TrainingItem]]
    score: Callable[[str, TrainingItem], Reward]
    options_help: str = ""
