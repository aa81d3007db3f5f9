"""Support settlement, by superposition of the frame solver's own solutions (FrameCalc has no prescribed
displacements): the settled supports are taken away, and the upward forces they must apply to give the prescribed
displacements are found from the structure's flexibility under unit forces there.

With loads L, settled rollers S and Dᵢⱼ the upward displacement at i under a unit upward force at j (supports in S
removed), the reactions R_S solve u₀ + D R = −δ (u₀ the displacements under L, δ the settlements, downward
positive); every other quantity is its value under L plus Σⱼ Rⱼ times its value under the unit force at j.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from mechbench.core.errors import ModelFormatError
from mechbench.frame.solve import solve

Probe = Callable[[dict[str, Any]], list[float]]
"""What is wanted from a solution (a solve() result), as numbers that superpose linearly."""


def _uy(result: dict[str, Any], point: str) -> float:
    return float(next(d["uy"] for d in result["displacements"] if d["pointId"] == point))


def settled(model: dict[str, Any], settlements: Mapping[str, float], probe: Probe) -> tuple[list[float], list[float]]:
    """``probe`` of ``model`` whose roller supports at the points in ``settlements`` move down by the given metres,
    and the vertical reactions of those supports (kN, upward positive), in the order of ``settlements``."""
    points = list(settlements)
    rollers = {s["at"]["id"]: s for s in model["supports"]}
    for point in points:
        support = rollers.get(point)
        if support is None or support["kind"] != "roller" or round(support.get("angleDeg", 0.0) % 180, 9) != 0:
            raise ModelFormatError(f"a settlement is taken at a roller on a horizontal surface only; {point} has none")
    freed = copy.deepcopy(model)
    freed["supports"] = [s for s in freed["supports"] if s["at"]["id"] not in points]
    loaded = solve(freed, diagrams=True, exact_supports=True)
    u0 = np.array([_uy(loaded, p) for p in points])
    base = np.array(probe(loaded))
    flexibility = np.zeros((len(points), len(points)))
    unit_values = []
    for j, point in enumerate(points):
        unit = copy.deepcopy(freed)
        unit["loads"] = [
            {"id": "UNIT", "kind": "pointLoad", "at": {"type": "point", "id": point}, "value": 1.0, "angleDeg": 90.0,
             "angleMode": "world", "flip": 1}
        ]  # fmt: skip
        result = solve(unit, diagrams=True, exact_supports=True)
        flexibility[:, j] = [_uy(result, p) for p in points]
        unit_values.append(np.array(probe(result)))
    delta = np.array([float(settlements[p]) for p in points])
    reactions = np.linalg.solve(flexibility, -delta - u0)
    values = base + sum((r * v for r, v in zip(reactions, unit_values, strict=True)), np.zeros_like(base))
    return values.tolist(), reactions.tolist()
