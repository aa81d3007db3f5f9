"""The problem families and their truths: support reactions, truss member forces, bending moments, deflections
(mechbench's frame solver), axial bars, Euler buckling and plane stress (closed forms). Each generator draws one
item of a level from a seeded stream; the truths come from mechbench's physics, never from the answer format."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from mechbench.frame import Analysis, analyze_many, solve
from mechbench.frame.generate import ModelBuilder, generate_structure
from mechbench.frame.solve import largest_moments, section_at

from .items import Item, Quantity, quantity, with_floors, worth_asking
from .statement import describe, number

SOLVER_E = 2.1e8
"""kN/m² of every member the frame solver is given (a steel); its EI is stated where the answer depends on it."""
SOLVER_I = 1e-4
"""m⁴: with :data:`SOLVER_E`, EI = 21 000 kN·m²."""
RIGID_A = 1.0
"""m²: axial deformations of these members change no truth by more than 0.1 % (stated as neglected); much thicker
members would make the stiffness matrix too ill-conditioned for the solver's mechanism check."""
SAME_EI = "Every member has the same bending stiffness EI; axial and shear deformations are neglected."
TRUSS = "All joints are pins (members carry axial force only); self-weight is neglected."
EULER_STRESS = 200.0
"""MPa: the largest critical stress a buckling item is drawn with (below a structural steel's proportional limit,
so the elastic Euler load is the column's)."""
FIXED_PINNED = 4.493409457909064
"""kL of the first buckling mode of a fixed–pinned column (the root of tan kL = kL)."""

Generator = Callable[[random.Random, int, str], Item]


def _stiff(model: dict[str, Any], ei: float | None = None, ea: float | None = None) -> dict[str, Any]:
    """Members with the stated stiffness (EI in kN·m²; axially rigid unless ``ea`` in kN is given)."""
    e = SOLVER_E
    for link in model["links"]:
        link.update(E=e, Iz=(ei or e * SOLVER_I) / e, A=(ea / e) if ea else RIGID_A)
    return model


def _solved(model: dict[str, Any]) -> dict[str, Any]:
    return solve(model, diagrams=True, exact_supports=True)


def _largest_load(model: dict[str, Any]) -> float:
    """The largest applied force (a distributed load's resultant counted as one force), kN."""
    points = {p["id"]: (p["x"], p["y"]) for p in model["points"]}
    links = {link["id"]: link for link in model["links"]}
    largest = 0.0
    for load in model.get("loads", []):
        if load["kind"] == "pointLoad":
            largest = max(largest, abs(load["value"]))
        elif load["kind"] == "distributedLoad":
            link = links[load["at"]["id"]]
            length = math.dist(points[link["a"]], points[link["b"]])
            covered = length - load.get("fromStart", 0.0) - load.get("fromEnd", 0.0)
            largest = max(largest, abs(load["wStart"] + load["wEnd"]) / 2 * covered)
    return largest


def _inputs(model: dict[str, Any], **extra: float) -> dict[str, float]:
    """What a blind textbook formula reads: the largest load, the first line load, the span."""
    xs = [p["x"] for p in model["points"]]
    line = [ld for ld in model.get("loads", []) if ld["kind"] == "distributedLoad"]
    point = [ld for ld in model.get("loads", []) if ld["kind"] == "pointLoad"]
    return {
        "largest_load": _largest_load(model),
        "span": max(xs) - min(xs),
        "w": float(line[0]["wStart"]) if line else 0.0,
        "p": float(point[0]["value"]) if point else 0.0,
        **extra,
    }


REACTION_WORDS = {
    "ux": ("H", "horizontal reaction at {at}, in kN (positive to the right, the force the support applies)"),
    "uy": ("V", "vertical reaction at {at}, in kN (positive upward, the force the support applies)"),
    "rz": ("M", "reaction moment at {at}, in kN·m (positive counter-clockwise, the moment the support applies)"),
}


def _reactions(rng: random.Random, level: int, item_id: str) -> Item:
    kinds = ("beam",) if level <= 2 else ("frame",) if level >= 4 else ("beam", "frame")
    kind, model = generate_structure(rng, level, kinds)
    model = _stiff(model)
    result = _solved(model)
    at_point = {s["id"]: s["at"]["id"] for s in model["supports"]}
    scale = max(abs(r["value"]) for r in result["reactions"] if r["type"] != "rz")
    candidates = []
    for r in result["reactions"]:
        kind_of = r["type"]
        if kind_of == "normal":  # a roller: vertical (θ = 0) rollers only are asked, as a vertical reaction
            support = next(s for s in model["supports"] if s["id"] == r["atId"])
            if support["kind"] != "roller" or round(support.get("angleDeg", 0.0) % 180, 6) != 0:
                continue
            kind_of = "uy"
        at = at_point[r["atId"]]
        letter, words = REACTION_WORDS[kind_of]
        unit, what = ("kN*m", "moment") if kind_of == "rz" else ("kN", "force")
        moment_scale = scale * _inputs(model)["span"]
        if worth_asking(r["value"], moment_scale if kind_of == "rz" else scale):
            candidates.append(quantity(f"{letter}_{at}", words.format(at=at), unit, r["value"], what))
    asked = rng.sample(candidates, k=min(len(candidates), 1 + min(level, 4) // 2))
    note = SAME_EI if kind == "frame" else "Self-weight is neglected."
    title = "EI the same for every member; axial deformation neglected" if kind == "frame" else ""
    return _structure_item(item_id, "reactions", level, model, asked, note, "support reactions", title=title)


def _truss(rng: random.Random, level: int, item_id: str) -> Item:
    _, model = generate_structure(rng, level, ("truss",))
    model = _stiff(model)
    result = _solved(model)
    forces = {d["linkId"]: -d["samples"][0]["n"] for d in result["axial"]}  # FrameCalc's n is compression-positive
    scale = max(abs(f) for f in forces.values())
    links = {link["id"]: link for link in model["links"]}
    candidates = [
        quantity(
            f"N_{links[k]['a']}_{links[k]['b']}",
            f"axial force in member {links[k]['a']}–{links[k]['b']}, in kN (tension positive)",
            "kN",
            f,
            "force",
        )
        for k, f in forces.items()
        if worth_asking(f, scale)
    ]
    asked = rng.sample(candidates, k=min(len(candidates), 1 if level == 3 else 2))
    restraints = sum(2 if s["kind"] == "pin" else 1 for s in model["supports"])
    redundant = len(model["links"]) + restraints - 2 * len(model["points"])
    note = f"{TRUSS} Every member has the same axial stiffness EA." if redundant > 0 else TRUSS
    return _structure_item(item_id, "truss", level, model, asked, note, "truss member forces")


def _section_moment(analysis: Analysis, model: dict[str, Any], x: float) -> float:
    """The sagging-positive bending moment at ``x`` of a left-to-right beam, exact (FrameCalc's m is counter-clockwise
    on the left part: sagging < 0)."""
    points = {p["id"]: p["x"] for p in model["points"]}
    for link in model["links"]:
        a, b = points[link["a"]], points[link["b"]]
        if a - 1e-9 <= x <= b + 1e-9:
            return -section_at(analysis, link["id"], x - a)[2]
    raise ValueError(f"no member holds x = {x}")


def _moment(rng: random.Random, level: int, item_id: str) -> Item:
    _, model = generate_structure(rng, level, ("beam",))
    model = _stiff(model)
    (analysis,) = analyze_many([model], exact_supports=True)
    assert isinstance(analysis, Analysis), analysis  # the generator keeps stable structures only
    largest = float(largest_moments(analysis)["overall"])
    asked = [
        quantity(
            "M_max",
            "largest absolute bending moment anywhere in the beam, in kN·m (a magnitude)",
            "kN*m",
            largest,
            "moment",
        )
    ]
    loads_at = {
        round(next(p["x"] for p in model["points"] if p["id"] == link["a"]) + ld.get("offset", 0.0), 6)
        for ld in model["loads"]
        for link in model["links"]
        if ld["at"]["type"] == "link" and ld["at"]["id"] == link["id"] and ld["kind"] != "distributedLoad"
    }
    span = _inputs(model)["span"]
    sections = [x / 2 for x in range(1, int(2 * span)) if round(x / 2, 6) not in loads_at]
    rng.shuffle(sections)
    for x in sections:
        value = _section_moment(analysis, model, x)
        if worth_asking(value, largest):
            asked.append(
                quantity(
                    "M_x",
                    f"bending moment at x = {number(x)} m from the left end, in kN·m (sagging positive: bottom fibre "
                    "in tension)",
                    "kN*m",
                    value,
                    "moment",
                )
            )
            break
    return _structure_item(item_id, "moment", level, model, asked, "Self-weight is neglected.", "bending moments")


def _deflection(rng: random.Random, level: int, item_id: str) -> Item:
    """A simply supported beam (level 1), a cantilever (2) or a propped cantilever (3), with a point or line load;
    the deflection asked at a marked point."""
    b = ModelBuilder()
    span = float(rng.choice([3, 4, 5, 6]))
    ei = float(rng.choice([8000, 12000, 16000, 20000, 30000]))
    case = ("simple", "cantilever", "propped")[level - 1]
    ask_at = span / 2 if case != "cantilever" else span
    xs = sorted({0.0, ask_at, span})
    ids = [b.point(x, 0.0) for x in xs]
    links = [b.link(p, q) for p, q in itertools.pairwise(ids)]
    if case == "cantilever":
        b.support(ids[0], "fixed")
    else:
        b.support(ids[0], "fixed" if case == "propped" else "pin")
        b.support(ids[-1], "roller")
    if rng.random() < 0.5:
        w = float(rng.choice([4, 6, 8, 10, 12]))
        for link in links:
            b.line_load(link, w, w)
    else:
        where = ids[-1] if case == "cantilever" else ids[1]
        b.force_at_point(where, float(rng.choice([10, 20, 25, 40])), 270.0)
    model = _stiff(b.model(), ei=ei)
    result = _solved(model)
    marked = ids[-1] if case == "cantilever" else ids[1]
    shown = next(d for d in result["displacements"] if d["pointId"] == marked)
    asked = [
        quantity(
            f"v_{marked}",
            f"vertical deflection at {marked}, in mm (downward positive)",
            "mm",
            -shown["uy"] * 1000,
            "deflection",
        )
    ]
    if level >= 2:
        end = next(d for d in result["displacements"] if d["pointId"] == ids[0 if case == "simple" else -1])
        if worth_asking(end["rz"], max(abs(end["rz"]), 1e-12)):
            pid = end["pointId"]
            asked.append(
                quantity(
                    f"theta_{pid}",
                    f"rotation of the beam at {pid}, in degrees (counter-clockwise positive)",
                    "degree",
                    math.degrees(end["rz"]),
                    "angle",
                )
            )
    note = f"EI = {number(ei)} kN·m² along the whole beam; shear deformation and self-weight are neglected."
    return _structure_item(
        item_id, "deflection", level, model, asked, note, "deflection", title=f"EI = {number(ei)} kN·m²", ei=ei
    )


def _line_load_on_inclined_member(model: dict[str, Any]) -> bool:
    points = {p["id"]: (p["x"], p["y"]) for p in model["points"]}
    links = {link["id"]: link for link in model["links"]}
    for load in model.get("loads", []):
        if load["kind"] == "distributedLoad":
            link = links[load["at"]["id"]]
            (x1, y1), (x2, y2) = points[link["a"]], points[link["b"]]
            if abs(x2 - x1) > 1e-9 and abs(y2 - y1) > 1e-9:
                return True
    return False


def _structure_item(
    item_id: str,
    family: str,
    level: int,
    model: dict[str, Any],
    asked: list[Quantity],
    note: str,
    topic: str,
    title: str = "",
    **inputs: float,
) -> Item:
    shown = f"The drawing gives the geometry (m) and the loads (kN, kN/m, kN·m). {note}"
    if _line_load_on_inclined_member(model):  # the drawing cannot say whether per metre of member or of plan
        shown += " Line loads act per metre of the member they are on (along its length, not per horizontal metre)."
    return Item(
        id=item_id,
        family=family,  # type: ignore[arg-type]
        level=level,
        statement=f"{describe(model)}\n{note}",
        with_drawing=shown,
        quantities=with_floors(asked),
        structure=model,
        title=title,
        inputs=_inputs(model, **inputs),
    )


MATERIALS = {"steel": (200.0, 12e-6), "aluminium": (70.0, 23e-6), "copper": (110.0, 17e-6)}
"""E in GPa and α in 1/K."""


def _bar_model(lengths: list[float], supports: tuple[str, str | None]) -> tuple[ModelBuilder, list[str], list[str]]:
    b = ModelBuilder()
    xs = np.cumsum([0.0, *lengths])
    ids = [b.point(float(x), 0.0) for x in xs]
    links = [b.link(p, q) for p, q in itertools.pairwise(ids)]
    b.support(ids[0], supports[0])
    if supports[1]:
        b.support(ids[-1], supports[1])
    return b, ids, links


def _axial(rng: random.Random, level: int, item_id: str) -> Item:
    """A stepped bar under end loads (level 2), a bar between walls loaded inside (3), a two-material bar between
    walls heated (4). Closed forms (the frame solver checks the first two in the tests)."""
    names = list(MATERIALS)
    if level <= 2:
        l1, l2 = float(rng.choice([0.5, 0.8, 1.0, 1.2])), float(rng.choice([0.4, 0.6, 0.8]))
        a1, a2 = float(rng.choice([800, 1000, 1200])), float(rng.choice([300, 400, 500]))
        material = rng.choice(names)
        e = MATERIALS[material][0]
        p, q = float(rng.choice([40, 60, 80, 100])), float(rng.choice([10, 20, 30]))
        n1, n2 = p + q, p  # tension: P at the free end, Q at the step, both pulling to the right
        elongation = (n1 * l1 / (e * a1) + n2 * l2 / (e * a2)) * 1e3  # GPa·mm² = kN: N·L/(EA) in m, ×1e3 mm
        asked = [
            quantity(
                "delta", "elongation of the whole bar, in mm (lengthening positive)", "mm", elongation, "deflection"
            ),
            quantity(
                "sigma_1",
                "normal stress in the left segment, in MPa (tension positive)",
                "MPa",
                n1 / a1 * 1e3,
                "stress",
            ),
        ]
        b, ids, _ = _bar_model([l1, l2], ("fixed", None))
        b.force_at_point(ids[1], q, 0.0)
        b.force_at_point(ids[2], p, 0.0)
        text = (
            f"A straight {material} bar (E = {number(e)} GPa) is fixed to a wall at its left end {ids[0]}. It has two "
            f"segments: {ids[0]}–{ids[1]}, {number(l1)} m long with cross-section A1 = {number(a1)} mm², and "
            f"{ids[1]}–{ids[2]}, {number(l2)} m long with A2 = {number(a2)} mm². Axial forces pull to the right: "
            f"{number(q)} kN at {ids[1]} and {number(p)} kN at the free end {ids[2]}."
        )
        title = f"{material}: E = {number(e)} GPa; A1 = {number(a1)} mm², A2 = {number(a2)} mm²"
        data = {"l1": l1, "l2": l2, "a1": a1, "a2": a2, "e1": e, "e2": e, "p": p, "q": q}
    elif level == 3:
        length = float(rng.choice([1.0, 1.5, 2.0, 2.5]))
        a = float(rng.choice([0.25, 0.4, 0.6])) * length
        area, p = float(rng.choice([400, 600, 800])), float(rng.choice([50, 80, 120]))
        material = rng.choice(names)
        e = MATERIALS[material][0]
        left, right = p * (length - a) / length, p * a / length  # left part in tension, right in compression
        asked = [
            quantity(
                "H_left",
                "horizontal reaction of the left wall on the bar, in kN (positive to the right)",
                "kN",
                -left,
                "force",
            ),
            quantity(
                "sigma_right",
                "normal stress in the part right of the load, in MPa (tension positive)",
                "MPa",
                -right / area * 1e3,
                "stress",
            ),
        ]
        b, ids, _ = _bar_model([a, length - a], ("fixed", "fixed"))
        b.force_at_point(ids[1], p, 0.0)
        text = (
            f"A straight {material} bar (E = {number(e)} GPa, cross-section {number(area)} mm² throughout) of length "
            f"{number(length)} m is fixed to rigid walls at both ends, {ids[0]} (left) and {ids[2]} (right). An axial "
            f"force of {number(p)} kN pointing to the right acts at {ids[1]}, {number(a)} m from the left wall."
        )
        title = f"{material}: E = {number(e)} GPa; A = {number(area)} mm²"
        data = {"l1": a, "l2": length - a, "a1": area, "a2": area, "e1": e, "e2": e, "p": p}
    else:
        m1, m2 = rng.sample(names, 2)
        (e1, al1), (e2, al2) = MATERIALS[m1], MATERIALS[m2]
        l1, l2 = float(rng.choice([0.3, 0.4, 0.5])), float(rng.choice([0.3, 0.4, 0.6]))
        a1, a2 = float(rng.choice([600, 800, 1000])), float(rng.choice([300, 400, 500]))
        rise = float(rng.choice([30, 40, 50, 60]))
        force = (al1 * l1 + al2 * l2) * rise / (l1 / (e1 * a1) + l2 / (e2 * a2))  # kN in compression (GPa·mm² = kN)
        asked = [
            quantity(
                "sigma_1",
                f"normal stress in the {m1} segment, in MPa (tension positive)",
                "MPa",
                -force / a1 * 1e3,
                "stress",
            ),
            quantity(
                "sigma_2",
                f"normal stress in the {m2} segment, in MPa (tension positive)",
                "MPa",
                -force / a2 * 1e3,
                "stress",
            ),
        ]
        b, ids, _ = _bar_model([l1, l2], ("fixed", "fixed"))
        text = (
            f"A bar made of two segments is held between rigid walls at {ids[0]} and {ids[2]} and fits without stress "
            f"at the start. Segment {ids[0]}–{ids[1]}: {m1}, {number(l1)} m long, A1 = {number(a1)} mm², "
            f"E1 = {number(e1)} GPa, α1 = {al1 * 1e6:g}×10⁻⁶ /K. Segment {ids[1]}–{ids[2]}: {m2}, {number(l2)} m long, "
            f"A2 = {number(a2)} mm², E2 = {number(e2)} GPa, α2 = {al2 * 1e6:g}×10⁻⁶ /K. The whole bar is heated "
            f"uniformly by {number(rise)} K."
        )
        title = (  # one datum group per line: the drawing of a short bar is narrow
            f"heated uniformly by ΔT = +{number(rise)} K\n"
            f"{ids[0]}–{ids[1]}, {m1}: E1 = {number(e1)} GPa, α1 = {al1 * 1e6:g}×10⁻⁶/K, A1 = {number(a1)} mm²\n"
            f"{ids[1]}–{ids[2]}, {m2}: E2 = {number(e2)} GPa, α2 = {al2 * 1e6:g}×10⁻⁶/K, A2 = {number(a2)} mm²"
        )
        p = force
        data = {"l1": l1, "l2": l2, "a1": a1, "a2": a2, "e1": e1, "e2": e2, "alpha1": al1, "alpha2": al2, "rise": rise}
    note = "Axial deformation only (no buckling); self-weight is neglected."
    model = b.model()
    return Item(
        id=item_id,
        family="axial",
        level=level,
        statement=f"{text}\n{note}",
        with_drawing=f"The drawing gives the bar's lengths (m), its data and the loads. {note}",
        quantities=with_floors(asked),
        structure=model,
        title=title,
        inputs={"largest_load": float(p), "span": data["l1"] + data["l2"], **data},
    )


END_CONDITIONS = {
    "pinned–pinned": (math.pi, ("pin", "roller_top")),
    "fixed–free": (math.pi / 2, ("fixed", None)),
    "fixed–pinned": (FIXED_PINNED, ("fixed", "roller_top")),
    "fixed–fixed (top guided)": (2 * math.pi, ("fixed", "slider_top")),
}
"""kL of the first buckling mode, and the supports drawn at the base and the top."""
END_WORDS = {
    "pinned–pinned": "base pinned; top held sideways, free to rotate",
    "fixed–free": "base fixed; top free",
    "fixed–pinned": "base fixed; top held sideways, free to rotate",
    "fixed–fixed (top guided)": "base fixed; top held sideways and against rotation, free to move vertically",
}
"""The end conditions written on a column's drawing (its support symbols alone leave a guided top ambiguous)."""


def _buckling(rng: random.Random, level: int, item_id: str) -> Item:
    ends = rng.choice(list(END_CONDITIONS)[:2] if level <= 2 else list(END_CONDITIONS)[2:])
    kl, (base, top) = END_CONDITIONS[ends]
    e = 200.0
    while True:  # a slender column: its critical stress well below a steel's proportional limit (Euler applies)
        length = float(rng.choice([2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0]))
        inertia = float(rng.choice([2.0, 4.0, 6.0, 8.0, 12.0]))  # ×10⁶ mm⁴
        area = float(rng.choice([2000, 3000, 4000, 5000]))
        ei = e * inertia  # kN·m²: E in GPa (1e6 kN/m²) times I in 1e6 mm⁴ (1e-6 m⁴)
        critical = (kl / length) ** 2 * ei
        if critical / area * 1e3 <= EULER_STRESS:
            break
    asked = [quantity("P_cr", "elastic critical (Euler) load of the column, in kN", "kN", critical, "force")]
    if level >= 3:
        asked.append(
            quantity(
                "sigma_cr", "critical stress P_cr / A, in MPa (a magnitude)", "MPa", critical / area * 1e3, "stress"
            )
        )
    b = ModelBuilder()
    bottom, upper = b.point(0.0, 0.0), b.point(0.0, length)
    b.link(bottom, upper)
    b.support(bottom, base)
    if top == "roller_top":
        b.support(upper, "roller", -90.0)
    elif top == "slider_top":
        b.support(upper, "slider", 0.0)
    model = b.model()
    held = f"at the top {upper} held sideways"
    restraint = {
        "pinned–pinned": f"pinned at the base {bottom}; {held} but free to rotate and to move vertically",
        "fixed–free": f"fixed at the base {bottom}; the top {upper} is free",
        "fixed–pinned": f"fixed at the base {bottom}; {held} but free to rotate and to move vertically",
        "fixed–fixed (top guided)": f"fixed at the base {bottom}; {held} and against rotation, free to move vertically",
    }[ends]
    data = f"E = {number(e)} GPa, I = {number(inertia)}×10⁶ mm⁴, A = {number(area)} mm²"
    text = (
        f"A straight vertical column of length {number(length)} m ({data}; it buckles about this axis, in the plane "
        f"shown) is {restraint}. An axial compressive load P acts at the top."
    )
    note = "Elastic buckling of a perfectly straight column; the exact solution of its end conditions is wanted."
    return Item(
        id=item_id,
        family="buckling",
        level=level,
        statement=f"{text}\n{note}",
        with_drawing=f"The drawing gives the column's length (m) and supports; an axial compressive load P acts at the "
        f"top. {note}",
        quantities=with_floors(asked),
        structure=model,
        title=f"{data}\n{END_WORDS[ends]}; axial load P at the top",
        inputs={"largest_load": 0.0, "span": length, "ei": ei, "area": area, "kl": kl},
    )


def principal(sx: float, sy: float, txy: float) -> tuple[float, float, float, float]:
    """σ1 ≥ σ2, the largest in-plane shear and the angle of σ1 from x (degrees, CCW, in (−90, 90])."""
    centre, radius = (sx + sy) / 2, math.hypot((sx - sy) / 2, txy)
    angle = 0.5 * math.degrees(math.atan2(2 * txy, sx - sy))
    return centre + radius, centre - radius, radius, angle


def _stress(rng: random.Random, level: int, item_id: str) -> Item:
    while True:  # both principal stresses clear of zero (always-zero earns nothing)
        sx, sy = (float(rng.choice([-120, -80, -60, -40, 0, 30, 50, 80, 100, 150])) for _ in range(2))
        txy = float(rng.choice([-70, -50, -40, -25, 20, 35, 45, 60, 90]))
        s1, s2, _, angle = principal(sx, sy, txy)
        if worth_asking(s1, max(abs(s1), abs(s2))) and worth_asking(s2, max(abs(s1), abs(s2))):
            break
    asked = [
        quantity("sigma_1", "larger principal stress, in MPa (tension positive)", "MPa", s1, "stress"),
        quantity("sigma_2", "smaller principal stress, in MPa (tension positive)", "MPa", s2, "stress"),
    ]
    if level >= 2:
        asked.append(
            quantity(
                "theta_p",
                "angle from the x axis to the direction of the larger principal stress, in degrees (counter-clockwise "
                "positive, between −90 and 90)",
                "degree",
                angle,
                "angle",
            )
        )
    text = (
        f"A point of a part is in plane stress with σx = {number(sx)} MPa, σy = {number(sy)} MPa and "
        f"τxy = {number(txy)} MPa (normal stresses tension positive; τxy positive when it acts in +y on the face whose "
        "outward normal is +x)."
    )
    return Item(
        id=item_id,
        family="stress",
        level=level,
        statement=text,
        with_drawing="The drawing shows the stress element and the stresses acting on its faces (MPa), drawn in the "
        "directions they act.",
        quantities=with_floors(asked),
        element={"sx": sx, "sy": sy, "txy": txy},
        inputs={"largest_load": max(abs(sx), abs(sy), abs(txy)), "sx": sx, "sy": sy, "txy": txy},
    )


FAMILIES: dict[str, tuple[tuple[int, ...], Generator]] = {
    "reactions": ((1, 2, 3, 4, 5), _reactions),
    "truss": ((3, 4, 5), _truss),
    "moment": ((1, 2, 3), _moment),
    "deflection": ((1, 2, 3), _deflection),
    "axial": ((2, 3, 4), _axial),
    "buckling": ((2, 3), _buckling),
    "stress": ((1, 2), _stress),
}
"""Each family's levels and generator."""

TOPICS = {
    "reactions": "support reactions",
    "truss": "truss member forces",
    "moment": "bending moments",
    "deflection": "beam deflection",
    "axial": "axially loaded bars",
    "buckling": "Euler buckling",
    "stress": "plane stress",
}
