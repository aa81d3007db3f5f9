"""Is an answer model physically the structure in the drawing? Plain functions, no Inspect.

``strict`` (default) compares the support reactions per support location and world component (x, y,
moment) with their signs, and the largest |M| over the structure. This closes two holes of the
published scorer, which compared sorted absolute reactions only and never the maximum moment (so a
mirrored or reversed structure passed). ``legacy`` is the published rule, to reproduce published
leaderboards. Locations are compared relative to the structure's lower-left corner, so an answer may
put the origin anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from mechbench.frame import FrameModel, solve, world_reactions
from mechbench.frame.model import DEFAULT_A, DEFAULT_E, DEFAULT_IZ

Scoring = Literal["strict", "legacy"]
SCORINGS: tuple[Scoring, ...] = ("strict", "legacy")
DEFAULT_TOLERANCE = 0.05  # the published relative tolerance (5 %)
ABSOLUTE_TOLERANCE = 1e-3  # the published absolute floor (kN, kN·m): near-zero reactions always match
# Intensity of the standard load the diagnostic ladder puts on every link (any non-zero value works).
STANDARD_LOAD = 10.0
LADDER = {"geometry": 0.0, "supports": 0.25, "hinges": 0.5, "loads": 0.75, "correct": 1.0}


@dataclass(frozen=True)
class Response:
    """What is compared: reactions per support location, the flat reaction values, the largest |M|."""

    at: dict[tuple[float, float], tuple[float, float, float]]
    values: list[float]
    max_moment: float


def _corner(model: FrameModel) -> tuple[float, float]:
    return min(p.x for p in model.points), min(p.y for p in model.points)


def response_of(model: FrameModel, result: dict[str, Any]) -> Response:
    """The compared quantities of a solved model (``result`` in FrameCalc's format, with diagrams)."""
    x0, y0 = _corner(model)
    points = {p.id: p for p in model.points}
    at = {}
    for pid, force in world_reactions(model, result["reactions"]).items():
        p = points[pid]
        at[(round(p.x - x0, 6), round(p.y - y0, 6))] = force
    if "maxMoment" in result:
        largest = result["maxMoment"]["overall"]
    else:
        largest = max((abs(s["m"]) for d in result.get("moment", []) for s in d["samples"]), default=0.0)
    return Response(at=at, values=[r["value"] for r in result["reactions"]], max_moment=float(largest))


def solve_response(model: FrameModel) -> Response:
    """Solve ``model`` and return its response (raises for mechanisms)."""
    return response_of(model, solve(model, diagrams=True, records=False))


def _close(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= max(tolerance * abs(b), ABSOLUTE_TOLERANCE)


def compare(truth: Response, answer: Response, tolerance: float, scoring: Scoring) -> str | None:
    """None when the answer matches the truth, else the first difference in words."""
    if scoring == "legacy":
        ours, theirs = sorted(abs(v) for v in answer.values), sorted(abs(v) for v in truth.values)
        if len(ours) != len(theirs):
            return f"{len(ours)} reaction components instead of {len(theirs)}"
        for a, b in zip(ours, theirs, strict=True):
            if not _close(a, b, tolerance):
                return f"reaction magnitude {a:.4g} where {b:.4g} was expected"
        return None
    missing = sorted(set(truth.at) - set(answer.at))
    extra = sorted(set(answer.at) - set(truth.at))
    if missing or extra:
        parts = []
        if missing:
            parts.append("no support at " + ", ".join(f"({x:g}, {y:g})" for x, y in missing))
        if extra:
            parts.append("a support too many at " + ", ".join(f"({x:g}, {y:g})" for x, y in extra))
        return "; ".join(parts) + " (coordinates from the lower-left corner)"
    for location, expected in sorted(truth.at.items()):
        got = answer.at[location]
        for name, a, b in zip(("Fx", "Fy", "M"), got, expected, strict=True):
            if not _close(a, b, tolerance):
                return f"reaction {name} at ({location[0]:g}, {location[1]:g}) is {a:.4g}, expected {b:.4g}"
    if not _close(answer.max_moment, truth.max_moment, tolerance):
        return f"largest bending moment {answer.max_moment:.4g}, expected {truth.max_moment:.4g}"
    return None


def standardized(model: FrameModel, *, supports: bool, hinges: bool) -> FrameModel:
    """The ladder's controlled variant: uniform section, one standard downward load on every link.

    ``supports``: keep the original supports (else every support becomes fixed at its point);
    ``hinges``: keep the original hinges (else every joint is rigid).
    """
    data = model.to_json_dict()
    for link in data["links"]:
        link.update(E=DEFAULT_E, A=DEFAULT_A, Iz=DEFAULT_IZ)
        if not hinges:
            link.update(endA="rigid", endB="rigid")
    if not supports:
        data["supports"] = [{**s, "kind": "fixed", "angleDeg": 0.0} for s in data["supports"]]
    data["loads"] = [
        {
            "id": f"STD{i}",
            "kind": "distributedLoad",
            "at": {"type": "link", "id": link["id"]},
            "wStart": STANDARD_LOAD,
            "wEnd": STANDARD_LOAD,
            "fromStart": 0.0,
            "fromEnd": 0.0,
            "angleDeg": 270.0,
            "angleMode": "world",
            "flip": 1,
        }
        for i, link in enumerate(data["links"])
    ]
    return FrameModel.parse(data)


def _variant_matches(
    truth: FrameModel, answer: FrameModel, supports: bool, hinges: bool, tolerance: float, scoring: Scoring
) -> bool:
    from mechbench.core.errors import MechbenchError

    try:
        expected = solve_response(standardized(truth, supports=supports, hinges=hinges))
        got = solve_response(standardized(answer, supports=supports, hinges=hinges))
    except MechbenchError:
        return False
    return compare(expected, got, tolerance, scoring) is None


def diagnose(truth: FrameModel, answer: FrameModel, tolerance: float, scoring: Scoring) -> str:
    """The ladder step a wrong answer reaches: geometry, supports, hinges or loads (the first that fails)."""
    if not _variant_matches(truth, answer, False, False, tolerance, scoring):
        return "geometry"
    if not _variant_matches(truth, answer, True, False, tolerance, scoring):
        return "supports"
    if not _variant_matches(truth, answer, True, True, tolerance, scoring):
        return "hinges"
    return "loads"


FINDINGS = {
    "geometry": "the geometry (points, member lengths and connections) does not match the drawing",
    "supports": "the geometry is right, but the supports (positions or kinds) are not",
    "hinges": "geometry and supports are right, but the hinges (member end releases) are not",
    "loads": "the structure is right; the loads (values, directions or positions) are not",
}


def ladder_ratio(step: str) -> float:
    """Partial credit of a ladder step."""
    return LADDER[step]
