"""Builders for small FrameCalc models and an independent equilibrium check (spec sections 5 and 6)."""

from __future__ import annotations

import math
from typing import Any


def point(pid: str, x: float, y: float) -> dict[str, Any]:
    return {"id": pid, "x": x, "y": y}


def link(lid: str, a: str, b: str, end_a: str = "rigid", end_b: str = "rigid", **section: float) -> dict[str, Any]:
    return {"id": lid, "a": a, "b": b, "endA": end_a, "endB": end_b, **section}


def support(sid: str, at: str, kind: str, angle: float = 0.0) -> dict[str, Any]:
    return {"id": sid, "at": {"type": "point", "id": at}, "kind": kind, "angleDeg": angle}


def nodal_force(lid: str, at: str, value: float, angle: float) -> dict[str, Any]:
    return {
        "id": lid,
        "kind": "pointLoad",
        "at": {"type": "point", "id": at},
        "value": value,
        "angleDeg": angle,
        "angleMode": "world",
        "flip": 1,
    }


def link_force(lid: str, on: str, value: float, angle: float, offset: float, mode: str = "world") -> dict[str, Any]:
    return {
        "id": lid,
        "kind": "pointLoad",
        "at": {"type": "link", "id": on},
        "value": value,
        "angleDeg": angle,
        "angleMode": mode,
        "flip": 1,
        "offsetMode": "m",
        "offset": offset,
        "refEnd": "A",
    }


def line_load(
    lid: str,
    on: str,
    w_start: float,
    w_end: float | None = None,
    angle: float = 270.0,
    from_start: float = 0.0,
    from_end: float = 0.0,
    mode: str = "world",
) -> dict[str, Any]:
    return {
        "id": lid,
        "kind": "distributedLoad",
        "at": {"type": "link", "id": on},
        "wStart": w_start,
        "wEnd": w_start if w_end is None else w_end,
        "fromStart": from_start,
        "fromEnd": from_end,
        "angleDeg": angle,
        "angleMode": mode,
        "flip": 1,
    }


def moment(lid: str, at_type: str, at: str, value: float, offset: float = 0.0) -> dict[str, Any]:
    load = {"id": lid, "kind": "bendingMoment", "at": {"type": at_type, "id": at}, "value": value, "flip": 1}
    if at_type == "link":
        load.update(offsetMode="m", offset=offset, refEnd="A")
    return load


def model(points, links, supports, loads) -> dict[str, Any]:
    return {"points": points, "links": links, "supports": supports, "loads": loads}


def reaction(result: dict[str, Any], support_id: str, kind: str) -> float:
    return next(r["value"] for r in result["reactions"] if r["atId"] == support_id and r["type"] == kind)


def _direction(angle_deg: float) -> tuple[float, float]:
    return math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))


def equilibrium_residual(data: dict[str, Any], result: dict[str, Any]) -> tuple[float, float, float]:
    """Sum of applied loads and reactions (Fx, Fy, Mz about the origin), computed from the spec's rules."""
    pts = {p["id"]: (float(p["x"]), float(p["y"])) for p in data["points"]}
    lks = {lk["id"]: lk for lk in data["links"]}
    fx = fy = mz = 0.0

    def add(force: tuple[float, float], at: tuple[float, float]) -> None:
        nonlocal fx, fy, mz
        fx += force[0]
        fy += force[1]
        mz += at[0] * force[1] - at[1] * force[0]

    for load in data["loads"]:
        flip = float(load.get("flip", 1))
        target = load["at"]
        if target["type"] == "link":
            lk = lks[target["id"]]
            (xa, ya), (xb, yb) = pts[lk["a"]], pts[lk["b"]]
            length = math.hypot(xb - xa, yb - ya)
            alpha = math.degrees(math.atan2(yb - ya, xb - xa))
            ex = ((xb - xa) / length, (yb - ya) / length)

            def along(d: float, xa=xa, ya=ya, ex=ex) -> tuple[float, float]:
                return xa + d * ex[0], ya + d * ex[1]

        if load["kind"] == "bendingMoment":
            mz += float(load["value"]) * flip
            continue
        psi = float(load["angleDeg"]) + (
            alpha if load.get("angleMode") == "relative" and target["type"] == "link" else 0.0
        )
        direction = _direction(psi)
        if load["kind"] == "pointLoad":
            f = (flip * float(load["value"]) * direction[0], flip * float(load["value"]) * direction[1])
            if target["type"] == "point":
                add(f, pts[target["id"]])
            else:
                distance = (
                    float(load["offset"])
                    if load.get("offsetMode") != "percent"
                    else float(load["offsetPercent"]) / 100 * length
                )
                if load.get("refEnd", "A") == "B":
                    distance = length - distance
                add(f, along(distance))
        else:
            s1, s2 = float(load.get("fromStart", 0)), length - float(load.get("fromEnd", 0))
            w1, w2 = float(load["wStart"]), float(load["wEnd"])
            total = (w1 + w2) / 2 * (s2 - s1)
            centroid = s1 + (s2 - s1) * ((w1 + 2 * w2) / (3 * (w1 + w2)) if w1 + w2 else 0.5)
            add((flip * total * direction[0], flip * total * direction[1]), along(centroid))
    sups = {s["id"]: s for s in data["supports"]}
    for r in result["reactions"]:
        s = sups[r["atId"]]
        at = pts[s["at"]["id"]]
        theta = float(s.get("angleDeg", 0))
        if r["type"] == "ux":
            add((r["value"], 0.0), at)
        elif r["type"] == "uy":
            add((0.0, r["value"]), at)
        elif r["type"] == "rz":
            mz += r["value"]
        else:
            d = _direction(theta + 90.0) if s["kind"] == "roller" else _direction(theta)
            add((r["value"] * d[0], r["value"] * d[1]), at)
    return fx, fy, mz
