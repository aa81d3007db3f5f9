"""Support reactions in world components, summed per supported point."""

from __future__ import annotations

from typing import Any

from mechbench.frame.loads import cos_sin_deg
from mechbench.frame.model import FrameModel


def reaction_direction(kind: str, type_: str, angle_deg: float) -> tuple[float, float, float]:
    """World (x, y, rotation) direction of one FrameCalc reaction entry."""
    if type_ == "ux":
        return (1.0, 0.0, 0.0)
    if type_ == "uy":
        return (0.0, 1.0, 0.0)
    if type_ == "rz":
        return (0.0, 0.0, 1.0)
    c, s = cos_sin_deg(angle_deg)
    return (-s, c, 0.0) if kind == "roller" else (c, s, 0.0)


def world_reactions(model: FrameModel, reactions: list[dict[str, Any]]) -> dict[str, tuple[float, float, float]]:
    """Reactions (FrameCalc entries) as world (Fx, Fy, Mz) per supported point id."""
    supports = {s.id: s for s in model.supports}
    out: dict[str, list[float]] = {}
    for entry in reactions:
        support = supports[entry["atId"]]
        direction = reaction_direction(support.kind, entry["type"], support.angleDeg)
        total = out.setdefault(support.at.id, [0.0, 0.0, 0.0])
        for k in range(3):
            total[k] += entry["value"] * direction[k]
    return {pid: (v[0], v[1], v[2]) for pid, v in out.items()}
