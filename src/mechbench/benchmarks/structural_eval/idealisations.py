"""Every correct idealisation of a drawing scores full marks.

A drawing fixes the structure, not every modelling convention an engineer may choose. Where the drawing leaves one
open, mechbench's strict scoring accepts each correct reading, scores the answer against the one it took and says
which in the score's metadata; the ladder diagnoses a wrong answer against that same reading, so it never blames
"hinges" for an accepted idealisation. The published protocols (``scoring=legacy``) stay exact.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Literal

from mechbench.benchmarks.structural_eval.scoring import Response, solve_response
from mechbench.core.errors import MechbenchError
from mechbench.frame import FrameModel

AS_DRAWN = "as drawn"
PINNED = "pin-jointed"
RIGID = "rigid joints"
CONVENTIONS: tuple[tuple[str, str], ...] = (
    (
        "truss joints",
        "a structure of straight members loaded only at its joints, stable with every member end hinged, is a truss: "
        "modelled pin-jointed (every member end hinged) or with rigid joints, both are scored and the better counts "
        "(the joints' secondary moments are not what the drawing asks)",
    ),
    (
        "a hinge where members meet",
        "a hinge drawn at a joint may be written on every member end there or on all but one: the same structure "
        "(the comparison of reactions and moments accepts both)",
    ),
)
"""The conventions a drawing may leave open, stated once (the report's ladder glossary repeats them)."""

JointKind = Literal["hinge", "rigid"]


@dataclass(frozen=True)
class Idealisation:
    """One correct reading of the drawing: its name, its model and (for the readings beside the drawing's own)
    its solved response."""

    name: str
    model: FrameModel
    response: Response | None = None


def with_joints(model: FrameModel, kind: JointKind) -> FrameModel:
    """``model`` with every member end hinged (``hinge``) or rigid."""
    data = model.to_json_dict()
    for link in data["links"]:
        link.update(endA=kind, endB=kind)
    return FrameModel.parse(data)


def joint_loaded(model: FrameModel) -> bool:
    """Every load is a force at a point (no member loads, no moments): a truss's loading."""
    return bool(model.loads) and all(
        load.kind == "pointLoad" and load.at.type == "point"
        for load in model.loads  # type: ignore[union-attr]
    )


def joints_of(model: FrameModel) -> str:
    """How ``model`` joins its members: ``pin-jointed``, ``rigid joints``, or ``as drawn`` for a mix."""
    ends = {end for link in model.links for end in (link.endA, link.endB)}
    return PINNED if ends == {"hinge"} else RIGID if ends == {"rigid"} else AS_DRAWN


@functools.lru_cache(maxsize=256)
def _readings(truth_json: str) -> tuple[Idealisation, ...]:
    from mechbench.frame import solve

    truth = FrameModel.parse(json.loads(truth_json))
    readings = [Idealisation(AS_DRAWN, truth)]
    if not joint_loaded(truth):
        return tuple(readings)
    pinned = with_joints(truth, "hinge")
    try:
        solve(pinned, diagrams=False)
    except MechbenchError:  # not a truss: only rigid joints hold it up
        return tuple(readings)
    drawn = joints_of(truth)
    for name, model in ((PINNED, pinned), (RIGID, with_joints(truth, "rigid"))):
        if name != drawn:
            readings.append(Idealisation(name, model, solve_response(model)))
    return tuple(readings)


def readings(truth: FrameModel) -> tuple[Idealisation, ...]:
    """The correct readings of the drawing ``truth`` was drawn from: as drawn first, then, for a truss, the other
    joint idealisation (pinned or rigid)."""
    return _readings(json.dumps(truth.to_json_dict(), sort_keys=True))
