"""Every HandCalc family with the levels it is drawn at, and what each is about (the prompt's topic)."""

from __future__ import annotations

from .deep_families import _continuous, _moving, _plastic, _stability, _vibration
from .families import FAMILIES, TOPICS, Generator, _moment, _reactions, _truss

LEVELED: dict[str, tuple[tuple[int, ...], Generator]] = {
    **FAMILIES,
    "reactions": ((1, 2, 3, 4, 5, 6, 7, 8, 9, 10), _reactions),
    "truss": ((3, 4, 5, 6, 7, 8, 9, 10), _truss),
    "moment": ((1, 2, 3, 6, 7, 9), _moment),
    "continuous": ((6, 7, 8, 10), _continuous),
    "plastic": ((7, 8, 9), _plastic),
    "vibration": ((7, 8, 9, 10), _vibration),
    "moving_load": ((8, 9, 10), _moving),
    "stability": ((9, 10), _stability),
}
"""Each family's levels at ``--difficulty N`` and its generator. A set generated without ``--difficulty`` draws from
:data:`~mechbench.benchmarks.hand_calc.families.FAMILIES` (levels 1–5) as it always has."""

ALL_TOPICS = {
    **TOPICS,
    "continuous": "continuous beams",
    "plastic": "plastic collapse",
    "vibration": "structural vibration",
    "moving_load": "moving loads",
    "stability": "frame stability",
}


def families_at(level: int) -> list[str]:
    """The families that have items at ``level``, in catalogue order."""
    return [name for name, (levels, _) in LEVELED.items() if level in levels]
