"""A FrameCalc structure in words: everything its drawing shows (points, members, joints, supports, loads), so that
an engineer can solve it from the text alone."""

from __future__ import annotations

import math
from typing import Any

DIRECTIONS = {0.0: "to the right", 90.0: "upward", 180.0: "to the left", 270.0: "downward"}


def number(value: float) -> str:
    """A number as the drawing writes it (at most four decimals, no trailing zeros)."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def direction(angle: float, flip: float = 1.0) -> str:
    """A force direction in words: the four axes by name, others as an angle from +x."""
    psi = (angle + (180.0 if flip < 0 else 0.0)) % 360.0
    named = DIRECTIONS.get(round(psi, 6))
    return named or f"at {number(psi)}° counter-clockwise from the +x axis (right)"


def _support(kind: str, angle: float) -> str:
    theta = angle % 360.0
    if kind == "fixed":
        return "a fixed support (holds both translations and the rotation)"
    if kind == "pin":
        return "a pin support (holds both translations, free to rotate)"
    if kind == "roller":
        if round(theta, 6) in (0.0, 180.0):
            return "a roller on a horizontal surface (holds vertical translation only)"
        if round(theta, 6) in (90.0, 270.0):
            return "a roller against a vertical surface (holds horizontal translation only)"
        return (
            f"a roller on a surface inclined at {number(theta)}° to the horizontal (holds only the translation "
            "normal to that surface)"
        )
    if round(theta, 6) in (0.0, 180.0):
        return "a slider guided vertically (holds horizontal translation and rotation, free to move vertically)"
    return f"a slider guided along {number(theta)}° (holds the translation across its guide and rotation)"


def _position(load: dict[str, Any], links: dict[str, dict[str, Any]], points: dict[str, tuple[float, float]]) -> str:
    at = load["at"]
    if at["type"] == "point":
        return f"at {at['id']}"
    link = links[at["id"]]
    a, b = points[link["a"]], points[link["b"]]
    length = math.dist(a, b)
    offset = float(load.get("offset") or 0.0)
    if load.get("offsetMode") == "percent":
        offset = float(load.get("offsetPercent") or 0.0) / 100 * length
    start, end = (link["a"], link["b"]) if load.get("refEnd", "A") == "A" else (link["b"], link["a"])
    return f"on member {link['a']}–{link['b']}, {number(offset)} m from {start} towards {end}"


def describe(model: dict[str, Any]) -> str:
    """The structure's geometry, joints, supports and loads, in words (units m, kN, kN·m)."""
    points = {p["id"]: (float(p["x"]), float(p["y"])) for p in model["points"]}
    links = {link["id"]: link for link in model["links"]}
    lines = [
        "Points (coordinates in m, x to the right, y up): "
        + ", ".join(f"{pid} ({number(x)}, {number(y)})" for pid, (x, y) in points.items())
        + "."
    ]
    members = []
    for link in model["links"]:
        ends = [
            f"hinged at {link[end]}" for end, release in (("a", "endA"), ("b", "endB")) if link.get(release) == "hinge"
        ]
        members.append(f"{link['a']}–{link['b']}" + (f" ({', '.join(ends)})" if ends else ""))
    lines.append("Members (straight, rigidly joined where they meet unless hinged): " + "; ".join(members) + ".")
    lines.append(
        "Supports: "
        + "; ".join(
            f"at {s['at']['id']}, {_support(s['kind'], float(s.get('angleDeg', 0.0)))}" for s in model["supports"]
        )
        + "."
    )
    loads = []
    for load in model.get("loads", []):
        flip = float(load.get("flip", 1))
        where = _position(load, links, points)
        if load["kind"] == "pointLoad":
            loads.append(f"a force of {number(load['value'])} kN {direction(load['angleDeg'], flip)} {where}")
        elif load["kind"] == "bendingMoment":
            sense = "counter-clockwise" if flip * load["value"] > 0 else "clockwise"
            loads.append(f"a concentrated moment of {number(abs(load['value']))} kN·m, {sense}, {where}")
        else:
            link = links[load["at"]["id"]]
            a, b = points[link["a"]], points[link["b"]]
            length = math.dist(a, b)
            start, stop = float(load.get("fromStart", 0.0)), length - float(load.get("fromEnd", 0.0))
            w1, w2 = number(load["wStart"]), number(load["wEnd"])
            intensity = f"{w1} kN/m" if w1 == w2 else f"varying linearly from {w1} kN/m to {w2} kN/m"
            span = (
                "over its whole length"
                if start == 0 and stop == length
                else f"from {number(start)} m to {number(stop)} m measured from {link['a']}"
            )
            loads.append(
                f"a distributed load {intensity} {direction(load['angleDeg'], flip)} on member "
                f"{link['a']}–{link['b']} {span} (per metre of member)"
            )
    lines.append("Loads: " + ("; ".join(loads) if loads else "none") + ".")
    return "\n".join(lines)
