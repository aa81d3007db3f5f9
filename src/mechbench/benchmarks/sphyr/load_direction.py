"""Which load a SPhyR sample is judged under: upstream's published convention, or the one it was drawn with.

Upstream's v2 records do not store the direction of the load their truth was optimised for, and the published
scorer applies its convention (down the printed grid, turned with the rotation) to every sample. The direction is
recoverable by physics: re-running upstream's generator (the published reference optimiser, ``v2_solution``) on the
truth's own loads and supports under each of the four axes reproduces the truth cell for cell under one of them,
sometimes two. A load d and −d give identical runs, so an axis is all the truth can tell.

``load_direction="recovered"`` judges each sample under that axis:

- one axis reproduces the truth: that axis (``recovered``);
- two do: the truth cannot tell them apart. The published convention's axis is kept if it is one of them; otherwise
  the answer is scored under each and the mean reported (``ambiguous`` either way);
- none does (a truth not made by the published optimiser, e.g. every v1 sample): the published convention,
  flagged ``not recovered`` — never guessed;
- a record that stores its direction (mechbench's own generator) is judged under it (``stored``).

The sign of a recovered axis matters only to the directional graph metrics (the physics is the same under d and
−d): the published vector when its axis was recovered, otherwise the sign pointing from the load cells toward the
support cells. Recovery costs four reference optimisations per distinct truth (~0.2 s at 10×10, ~2.4 s at 20×20),
computed once and cached with the reference optimum.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import numpy as np
from pydantic import BaseModel

from mechbench.benchmarks.sphyr.grid import LOAD, SUPPORT, Gravity, gravity_vector
from mechbench.benchmarks.sphyr.rotation import rotate_direction, rotate_grid
from mechbench.core.threads import single_threaded

LoadDirection = Literal["published", "recovered"]
LOAD_DIRECTIONS: tuple[LoadDirection, ...] = ("published", "recovered")
Status = Literal["published", "stored", "recovered", "ambiguous", "not recovered"]
AXES: dict[str, Gravity] = {"V": (1.0, 0.0), "H": (0.0, 1.0), "D": (1.0, 1.0), "A": (1.0, -1.0)}
"""The candidate load axes as (row, col) steps: vertical, horizontal and the two diagonals."""
M = TypeVar("M", bound=BaseModel)
MAX_RECOVERY_CELLS = 40 * 40
"""Larger truths are not re-optimised (the published sets are 10×10 and 20×20): ``not recovered``."""


@dataclass(frozen=True)
class Finding:
    """The direction(s) one sample is judged under, and how they were decided (written to the log)."""

    convention: LoadDirection
    status: Status
    directions: tuple[Gravity, ...]
    axes: tuple[str, ...] = ()
    """The axes that reproduce the truth (in the record's own, unrotated frame), when recovery ran."""

    def record(self) -> dict[str, Any]:
        """The finding as log metadata."""
        return {
            "convention": self.convention,
            "direction": self.status,
            "axes": list(self.axes),
            "scored_under": [list(d) for d in self.directions],
        }


def _same_axis(a: Gravity, b: Gravity) -> bool:
    ua, ub = gravity_vector(a), gravity_vector(b)
    return abs(abs(ua[0] * ub[0] + ua[1] * ub[1]) - 1.0) < 1e-9


def _centre(grid: list[list[str]], token: str) -> np.ndarray:
    cells = [(r, c) for r, row in enumerate(grid) for c, t in enumerate(row) if t.strip() == token]
    return np.mean(np.array(cells, dtype=float), axis=0)


def toward_supports(axis: Gravity, truth: list[list[str]]) -> Gravity:
    """``axis`` or its opposite, whichever points from the load cells toward the support cells (``axis`` on a tie)."""
    along = float(np.dot(_centre(truth, SUPPORT) - _centre(truth, LOAD), axis))
    return (-axis[0] + 0.0, -axis[1] + 0.0) if along < -1e-9 else axis


def reproduces(truth: list[list[str]], solution: tuple[list[list[str]], list[list[str]]]) -> bool:
    """Whether ``truth`` is the generator's easy grid exactly, or its hard grid value for value."""
    easy, hard = solution
    if truth == easy:
        return True
    for truth_row, hard_row in zip(truth, hard, strict=True):
        for ours, theirs in zip(truth_row, hard_row, strict=True):
            if theirs in (LOAD, SUPPORT) or ours in (LOAD, SUPPORT):
                if ours != theirs:
                    return False
                continue
            try:
                if abs(float(ours) - float(theirs)) > 1e-9:
                    return False
            except ValueError:
                return False
    return True


@single_threaded
def recover_axes(truth: list[list[str]]) -> tuple[str, ...]:
    """The axes (codes of :data:`AXES`) under which upstream's v2 generator reproduces ``truth`` exactly."""
    from mechbench.benchmarks.sphyr.generate_v2 import v2_solution

    tokens = {t.strip() for row in truth for t in row}
    shape_ok = truth and truth[0] and all(len(row) == len(truth[0]) for row in truth)
    if not shape_ok or LOAD not in tokens or SUPPORT not in tokens or len(truth) * len(truth[0]) > MAX_RECOVERY_CELLS:
        return ()
    skeleton = [[t.strip() if t.strip() in (LOAD, SUPPORT) else "0" for t in row] for row in truth]
    found = []
    for code, axis in AXES.items():
        solution = v2_solution(skeleton, axis)
        if solution is not None and reproduces([[t.strip() for t in row] for row in truth], solution):
            found.append(code)
    return tuple(found)


def cached_axes(truth: list[list[str]]) -> tuple[str, ...]:
    """:func:`recover_axes`, computed once per truth (in memory and in the optimum cache on disk)."""
    from mechbench.benchmarks.sphyr import optimum_cache

    key = optimum_cache.text_key("load-axes", json.dumps(truth))
    hit = optimum_cache.read_note(key)
    if hit is None:
        hit = ",".join(recover_axes(truth))
        optimum_cache.write_note(key, hit)
    return tuple(code for code in hit.split(",") if code)


def find(
    truth: list[list[str]],
    published: Gravity,
    convention: LoadDirection = "published",
    stored: bool = False,
    rotation: int = 0,
) -> Finding:
    """The direction(s) to judge a sample under.

    ``truth`` is the sample's truth as shown (turned ``rotation`` quarter turns), ``published`` the published
    convention's direction for it (or the stored one, when ``stored``).
    """
    if convention == "published":
        return Finding("published", "published", (published,))
    if convention != "recovered":
        raise ValueError(f"load_direction must be one of {', '.join(LOAD_DIRECTIONS)}, got {convention!r}")
    if stored:
        return Finding("recovered", "stored", (published,))
    axes = cached_axes(rotate_grid(truth, -rotation % 4))
    turned = [rotate_direction(AXES[code], rotation) for code in axes]
    if not axes:
        return Finding("recovered", "not recovered", (published,))
    if any(_same_axis(axis, published) for axis in turned):
        return Finding("recovered", "recovered" if len(axes) == 1 else "ambiguous", (published,), axes)
    directions = tuple(toward_supports(axis, truth) for axis in turned)
    return Finding("recovered", "recovered" if len(axes) == 1 else "ambiguous", directions, axes)


def mean_over_directions(scores: list[M]) -> M:
    """One score from the scores of an answer under several directions: numbers (and flags) averaged, texts
    joined, a value missing under any direction missing. A single score is returned as it is."""
    if len(scores) == 1:
        return scores[0]
    first = scores[0]
    update: dict[str, Any] = {}
    for name in type(first).model_fields:
        values = [getattr(s, name) for s in scores]
        if all(v == values[0] for v in values):
            continue
        if all(isinstance(v, int | float) for v in values):
            update[name] = float(sum(values)) / len(values)
        elif any(v is None for v in values):
            update[name] = None
        elif all(isinstance(v, str) for v in values):
            update[name] = " | ".join(values)
    return first.model_copy(update=update)
