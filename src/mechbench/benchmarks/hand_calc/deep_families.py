"""HandCalc's families past the textbook exercise (levels 6 to 10): continuous beams with settling supports, plastic
collapse loads, natural frequencies of shear buildings and trains of loads crossing a span. Each truth comes from
mechbench's physics (:mod:`mechbench.frame`): the frame solver with superposition, a limit-analysis linear
programme, a generalised eigenproblem, the exact influence-line search; the tests check each against an independent
method (three-moment equation, mechanism enumeration, the frame solver's flexibility, a brute-force sweep)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np

from mechbench.frame.generate import ModelBuilder
from mechbench.frame.moving_loads import (
    absolute_max_moment,
    continuous_influence,
    max_moment_at,
    offsets,
    train_extreme,
)
from mechbench.frame.plastic import collapse_factor
from mechbench.frame.settlement import settled
from mechbench.frame.stability import model_critical_factor
from mechbench.frame.vibration import natural_frequencies, shear_building, storey_stiffness

from .families import SOLVER_E, _inputs, _stiff, _structure_item
from .items import Item, quantity, with_floors, worth_asking
from .statement import number

SETTLES = "settles"


def _support_moment(result: dict[str, Any], link: str, end: str) -> float:
    """The sagging-positive bending moment at end A or B of a horizontal link (FrameCalc's m is counter-clockwise on
    the left part: sagging < 0)."""
    samples = next(d["samples"] for d in result["moment"] if d["linkId"] == link)
    return -float((samples[0] if end == "A" else samples[-1])["m"])


def _continuous(rng: random.Random, level: int, item_id: str) -> Item:
    """A continuous beam: three spans (level 6), three with a settling support (7), four with a settling support (8),
    four with two settling supports and a fixed end (10). Asked: support moments and a settled support's reaction."""
    spans = [float(rng.choice([4, 5, 6, 7, 8])) for _ in range(3 if level <= 7 else 4)]
    ei = float(rng.choice([20000, 30000, 40000, 50000]))
    b = ModelBuilder()
    xs = [0.0]
    for s in spans:
        xs.append(xs[-1] + s)
    ids = [b.point(x, 0.0) for x in xs]
    links = [b.link(a, c) for a, c in itertools.pairwise(ids)]
    b.support(ids[0], "fixed" if level >= 10 else "pin")
    for p in ids[1:]:
        b.support(p, "roller")
    for link in rng.sample(links, k=len(links) - 1):
        w = float(rng.choice([6, 8, 10, 12, 15, 20]))
        b.line_load(link, w, w)
    target = rng.randrange(len(links))
    b.force_on_link(links[target], float(rng.choice([20, 30, 40, 50, 60])), 270.0, spans[target] / 2)
    model = _stiff(b.model(), ei=ei)
    interior = ids[1:-1]
    moved = rng.sample(interior, k=0 if level == 6 else 2 if level >= 10 else 1)
    settlement = {p: float(rng.choice([10, 15, 20, 25])) / 1000 for p in moved}

    def probe(result: dict[str, Any]) -> list[float]:
        return [_support_moment(result, links[i], "A") for i in range(1, len(links))]

    if settlement:
        moments, reactions = settled(model, settlement, probe)
    else:
        from mechbench.frame.solve import solve

        moments, reactions = probe(solve(model, diagrams=True, exact_supports=True)), []
    scale = max(abs(m) for m in moments)
    candidates = [
        quantity(f"M_{p}", f"bending moment in the beam over support {p}, in kN·m (sagging positive)", "kN*m", m,
                 "moment")
        for p, m in zip(interior, moments, strict=True)
        if worth_asking(m, scale)
    ]  # fmt: skip
    asked = rng.sample(candidates, k=min(len(candidates), 2))
    for p, r in zip(moved, reactions, strict=True):
        if len(asked) < 3:
            asked.append(quantity(f"V_{p}", f"vertical reaction at {p}, in kN (positive upward, the force the "
                                  "support applies)", "kN", r, "force"))  # fmt: skip
    sinking = "; ".join(f"support {p} settles {number(d * 1000)} mm" for p, d in settlement.items())
    note = f"EI = {number(ei)} kN·m² along the whole beam; shear deformation and self-weight are neglected."
    if settlement:
        note += (
            f" The supports are at the same level except that {sinking} (it moves down by that much, the load acting)."
        )
    title = f"EI = {number(ei)} kN·m²" + (f"; {sinking}" if settlement else "")
    item = _structure_item(item_id, "continuous", level, model, asked, note, "continuous beams", title=title, ei=ei)
    return item.model_copy(update={"inputs": {**item.inputs, **{f"{SETTLES}_{p}": d for p, d in settlement.items()}}})


def _plastic(rng: random.Random, level: int, item_id: str) -> Item:
    """The load at plastic collapse: a fixed or propped beam under two point loads (level 7), a portal frame under a
    side load and a beam load (8), a two-bay portal (9). The loads grow in proportion from the values drawn."""
    b = ModelBuilder()
    mp_beam = float(rng.choice([60, 80, 100, 120, 150]))
    if level <= 7:
        span = float(rng.choice([6, 8, 9, 10, 12]))
        first = float(rng.choice([k for k in range(1, int(span) - 2)]))
        second = float(rng.choice([k for k in range(int(first) + 1, int(span))]))
        a, p1, p2, c = (b.point(x, 0.0) for x in (0.0, first, second, span))
        b.link(a, p1)
        b.link(p1, p2)
        b.link(p2, c)
        b.support(a, "fixed")
        b.support(c, rng.choice(["fixed", "roller"]))
        b.force_at_point(p1, float(rng.choice([20, 30, 40, 50])), 270.0)
        b.force_at_point(p2, float(rng.choice([20, 30, 40, 50, 60])), 270.0)
        plastic = dict.fromkeys(("L1", "L2", "L3"), mp_beam)
        asked_at, data = p2, f"Mp = {number(mp_beam)} kN·m throughout"
    else:
        bays = 1 if level == 8 else 2
        width, height = float(rng.choice([6, 8, 10])), float(rng.choice([3, 4, 5]))
        mp_column = float(rng.choice([40, 60, 80, 100, 120]))
        bases = [b.point(i * width, 0.0) for i in range(bays + 1)]
        tops = [b.point(i * width, height) for i in range(bays + 1)]
        plastic = {}
        for base, top in zip(bases, tops, strict=True):
            plastic[b.link(base, top)] = mp_column
        loaded = []
        for i in range(bays):
            where = b.point(i * width + width * float(rng.choice([0.5, 0.5, 1 / 3 if width != 10 else 0.4])), height)
            plastic[b.link(tops[i], where)] = mp_beam
            plastic[b.link(where, tops[i + 1])] = mp_beam
            loaded.append(where)
        kind = rng.choice(["fixed", "pin"]) if level == 8 else "fixed"
        for base in bases:
            b.support(base, kind)
        b.force_at_point(tops[0], float(rng.choice([10, 15, 20, 25, 30])), 0.0)
        for where in loaded:
            b.force_at_point(where, float(rng.choice([30, 40, 50, 60])), 270.0)
        asked_at = loaded[0]
        data = f"Mp: columns {number(mp_column)} kN·m, beams {number(mp_beam)} kN·m"
    model = _stiff(b.model())
    factor = collapse_factor(model, plastic).factor
    reference = next(ld["value"] for ld in model["loads"] if ld["at"]["id"] == asked_at)
    asked = [
        quantity(f"P_{asked_at}", f"value of the load at {asked_at} at plastic collapse, in kN (every load grown "
                 "in proportion from the value drawn)", "kN", factor * reference, "force")
    ]  # fmt: skip
    note = (
        f"Rigid–perfectly plastic members ({data}). All loads grow in proportion from the values given until the "
        "structure collapses; axial and shear forces do not reduce the plastic moment, and no member buckles."
    )
    return _structure_item(item_id, "plastic", level, model, asked, note, "plastic collapse", title=data,
                           mp_beam=mp_beam)  # fmt: skip


def _vibration(rng: random.Random, level: int, item_id: str) -> Item:
    """Natural frequencies of a shear building (rigid floors on columns fixed at both ends): two storeys (level 7),
    three (8, 9) or four (10)."""
    storeys = {7: 2, 8: 3, 9: 3, 10: 4}[level]
    width = float(rng.choice([4, 5, 6]))
    heights = [float(rng.choice([3, 3.5, 4])) for _ in range(storeys)]
    masses = [float(rng.choice([10, 15, 20, 25, 30])) for _ in range(storeys)]
    column_ei = [float(rng.choice([4000, 6000, 8000, 10000, 12000])) for _ in range(storeys)]
    stiffness = [storey_stiffness([ei, ei], h) for ei, h in zip(column_ei, heights, strict=True)]
    frequencies = natural_frequencies(*shear_building(masses, stiffness))
    b = ModelBuilder()
    y = [0.0]
    for h in heights:
        y.append(y[-1] + h)
    left = [b.point(0.0, v) for v in y]
    right = [b.point(width, v) for v in y]
    for j in range(storeys):
        b.link(left[j], left[j + 1])
        b.link(right[j], right[j + 1])
        b.link(left[j + 1], right[j + 1])
    b.support(left[0], "fixed")
    b.support(right[0], "fixed")
    model = b.model()
    level_of = {p["id"]: p["y"] for p in model["points"]}
    storey_of = {v: j for j, v in enumerate(y)}
    for link in model["links"]:  # floors rigid, columns as stated: what a frame solve of the drawing would take
        if level_of[link["a"]] == level_of[link["b"]]:
            link.update(E=SOLVER_E, Iz=1.0, A=1.0)
        else:
            ei = column_ei[storey_of[min(level_of[link["a"]], level_of[link["b"]])]]
            link.update(E=SOLVER_E, Iz=ei / SOLVER_E, A=1.0)
    wanted = {7: (1, 2), 8: (1,), 9: (1, 2), 10: (1, 2)}[level]
    names = {1: "first (lowest)", 2: "second", 3: "third"}
    asked = [
        quantity(f"f_{k}", f"{names[k]} natural frequency of sideways vibration, in Hz (cycles per second)", "Hz",
                 float(frequencies[k - 1]), "frequency")
        for k in wanted
    ]  # fmt: skip
    floors = "; ".join(
        f"floor {j + 1} ({left[j + 1]}–{right[j + 1]}): mass {number(m)} t" for j, m in enumerate(masses)
    )
    columns = "; ".join(f"storey {j + 1}: EI = {number(ei)} kN·m² per column" for j, ei in enumerate(column_ei))
    text = (
        f"A {storeys}-storey shear building: two columns per storey, {number(width)} m apart, fixed at the ground; "
        f"each floor is a rigid girder (it neither bends nor stretches) carrying a lumped mass. Storey heights from "
        f"the ground up: {', '.join(number(h) for h in heights)} m. Masses: {floors}. Columns: {columns}. The columns' "
        "own mass, axial deformation and damping are neglected; the building vibrates sideways in its own plane."
    )
    title = (
        "rigid floors; "
        + ", ".join(f"m{j + 1} = {number(m)} t" for j, m in enumerate(masses))
        + "\n"
        + ", ".join(f"storey {j + 1}: EI = {number(ei)} kN·m²/column" for j, ei in enumerate(column_ei))
    )
    note = "Rigid floors carrying the masses; columns fixed at both ends of each storey; no damping."
    return Item(
        id=item_id,
        family="vibration",
        level=level,
        statement=text,
        with_drawing=f"The drawing gives the storey heights and bay width (m), the floor masses and the columns' EI. "
        f"{note}",
        quantities=with_floors(asked),
        structure=model,
        title=title,
        inputs={"largest_load": 0.0, "span": heights[0], "mass": masses[0], "k": stiffness[0]},
    )


def _moving(rng: random.Random, level: int, item_id: str) -> Item:
    """A train of axle loads crossing a simply supported span (level 8: the absolute maximum bending moment and the
    largest at a marked section) or a continuous beam of two spans (9) or three (10): the extreme moments by the
    indeterminate influence lines, and the largest reaction of an interior support."""
    if level >= 9:
        return _moving_continuous(rng, level, item_id)
    span = float(rng.choice([10, 12, 15, 16, 20]))
    count = 3 if level == 8 else 4
    loads = [float(rng.choice([40, 60, 80, 100, 120])) for _ in range(count)]
    spacings = [float(rng.choice([1.5, 2, 2.5, 3, 4])) for _ in range(count - 1)]
    section = float(rng.choice([span / 4, span / 3 if span % 3 == 0 else span / 5, 0.4 * span]))
    absolute, _ = absolute_max_moment(span, loads, spacings)
    at_section = max_moment_at(span, section, loads, spacings)
    place = offsets(spacings)
    reaction = max(
        sum(p * (span - (s + o)) / span for p, o in zip(loads, place, strict=True) if 0 <= s + o <= span)
        for s in {edge - o for o in place for edge in (0.0, span)}  # piecewise linear: a load at a support
    )
    b = ModelBuilder()
    a, m, c = b.point(0.0, 0.0), b.point(section, 0.0), b.point(span, 0.0)
    b.link(a, m)
    b.link(m, c)
    b.support(a, "pin")
    b.support(c, "roller")
    model = _stiff(b.model())
    asked = [
        quantity("M_abs", "absolute maximum bending moment anywhere in the beam as the train crosses, in kN·m",
                 "kN*m", absolute, "moment"),
        quantity(f"M_{m}", f"largest bending moment at {m} as the train crosses, in kN·m (sagging positive)", "kN*m",
                 at_section, "moment"),
    ]  # fmt: skip
    if level >= 9:
        asked.append(quantity(f"V_{a}", f"largest vertical reaction at {a} as the train crosses, in kN", "kN",
                              reaction, "force"))  # fmt: skip
    train = " – ".join(
        f"{number(p)} kN" + (f" – {number(g)} m" if k < len(spacings) else "")
        for k, (p, g) in enumerate(zip(loads, [*spacings, 0.0], strict=True))
    )
    text = (
        f"A simply supported beam of span {number(span)} m ({a} pinned, {c} on a roller; {m} is a point of the beam "
        f"{number(section)} m from {a}). A train of {count} downward axle loads crosses it. Listed from left to right "
        f"as it stands on the beam, with the spacings between them: {train}. The train may stand anywhere along the "
        "span, partly off it too; the beam's self-weight is neglected and there is no impact allowance."
    )
    title = f"axle loads, left to right: {train}"
    return Item(
        id=item_id,
        family="moving_load",
        level=level,
        statement=text,
        with_drawing=f"The drawing gives the span (m) and the point {m}. A train of {count} downward axle loads, "
        "listed above the beam from left to right with the spacings between them, crosses the beam and may stand "
        "anywhere along the span, partly off it too. Self-weight and impact are neglected.",
        quantities=with_floors(asked),
        structure=model,
        title=title,
        inputs={**_inputs(model), "largest_load": max(loads), "p": loads[0], "span": span},
    )


def _stability(rng: random.Random, level: int, item_id: str) -> Item:
    """The elastic critical load of a sway frame (exact, with the stability functions): a portal with fixed or pinned
    bases (level 9), a portal that also steadies a pin-ended leaning column through a pinned link (10). Vertical loads
    at the column tops; sway is not prevented; members axially rigid."""
    b = ModelBuilder()
    width, height = float(rng.choice([4, 5, 6, 8])), float(rng.choice([3, 4, 5, 6]))
    ei_column = float(rng.choice([4000, 6000, 8000, 10000, 12000]))
    ei_beam = float(rng.choice([4000, 8000, 12000, 16000, 24000]))
    bases = [b.point(0.0, 0.0), b.point(width, 0.0)]
    tops = [b.point(0.0, height), b.point(width, height)]
    columns = [b.link(bases[0], tops[0]), b.link(bases[1], tops[1])]
    beam = b.link(tops[0], tops[1])
    base_kind = rng.choice(["fixed", "pin"]) if level == 9 else "fixed"
    for base in bases:
        b.support(base, base_kind)
    multiples = {tops[0]: 1.0, tops[1]: float(rng.choice([1, 1, 1.5, 2]))}
    bending = {columns[0]: ei_column, columns[1]: ei_column, beam: ei_beam}
    force = {columns[0]: multiples[tops[0]], columns[1]: multiples[tops[1]]}
    leaning_words = ""
    if level >= 10:
        gap = float(rng.choice([3, 4, 5]))
        foot, head = b.point(width + gap, 0.0), b.point(width + gap, height)
        link = b.link(tops[1], head, end_a="hinge", end_b="hinge")
        lean = b.link(foot, head, end_a="hinge", end_b="hinge")
        b.support(foot, "pin")
        multiples[head] = float(rng.choice([1, 2, 3]))
        bending[link], bending[lean] = ei_beam, ei_column
        force[lean] = multiples[head]
        leaning_words = (
            f" A third column {foot}–{head}, pinned at both ends (it carries load but resists no sway), is tied to "
            f"the frame at {tops[1]} by the link {tops[1]}–{head}, pinned at both ends."
        )
    model = b.model()
    critical = model_critical_factor(model, bending, force)
    loads = ", ".join(f"{'' if m == 1 else number(m)}P at {p}" for p, m in multiples.items())
    restraint = "fixed" if base_kind == "fixed" else "pinned"
    text = (
        f"A portal frame: columns {bases[0]}–{tops[0]} and {bases[1]}–{tops[1]}, {number(height)} m tall and "
        f"{number(width)} m apart, {restraint} at their bases {bases[0]} and {bases[1]}, joined rigidly at the top by "
        f"the beam {tops[0]}–{tops[1]}. EI of each column {number(ei_column)} kN·m², of the beam {number(ei_beam)} "
        f"kN·m².{leaning_words} Vertical loads act downward at the tops of the columns: {loads}. Sway is not "
        "prevented. Every member is axially rigid and initially straight; self-weight is neglected."
    )
    asked = [
        quantity("P_cr", "elastic critical value of P at which the frame buckles, in kN (the loads growing together "
                 "in the proportions given)", "kN", critical, "force")
    ]  # fmt: skip
    title = (
        f"EI: columns {number(ei_column)} kN·m², beam {number(ei_beam)} kN·m²; members axially rigid\n"
        f"vertical loads at the column tops: {loads}; sway not prevented"
    )
    note = (
        "Elastic buckling of a perfectly straight frame; the exact solution is wanted (not an effective-length chart)."
    )
    for link in model["links"]:
        link.update(E=SOLVER_E, Iz=bending[link["id"]] / SOLVER_E, A=1.0)
    return Item(
        id=item_id,
        family="stability",
        level=level,
        statement=f"{text}\n{note}",
        with_drawing="The drawing gives the frame's geometry (m), its supports and hinges, the members' EI and where "
        f"the vertical loads act. {note}",
        quantities=with_floors(asked),
        structure=model,
        title=title,
        inputs={"largest_load": 0.0, "span": height, "ei": ei_column, "area": 0.0},
    )


def _moving_continuous(rng: random.Random, level: int, item_id: str) -> Item:
    """A train of three axle loads on a continuous beam of constant EI: two spans (level 9) or three (10). Asked: the
    most negative moment over an interior support, the largest reaction there, and (10) the largest sagging moment at
    the middle of the central span."""
    spans = [float(rng.choice([6, 8, 10, 12])) for _ in range(2 if level == 9 else 3)]
    loads = [float(rng.choice([40, 60, 80, 100, 120])) for _ in range(3)]
    spacings = [float(rng.choice([1.5, 2, 3, 4])) for _ in range(2)]
    supports = [0.0]
    for length in spans:
        supports.append(supports[-1] + length)
    b = ModelBuilder()
    marked = supports[1] + spans[1] / 2 if level >= 10 else None
    xs = sorted({*supports, *([marked] if marked is not None else [])})
    ids = {x: b.point(x, 0.0) for x in xs}
    for a, c in itertools.pairwise(xs):
        b.link(ids[a], ids[c])
    b.support(ids[supports[0]], "pin")
    for x in supports[1:]:
        b.support(ids[x], "roller")
    model = _stiff(b.model())
    over = rng.choice(supports[1:-1])
    start, end = supports[0], supports[-1]

    def hogging(at: np.ndarray) -> np.ndarray:
        return continuous_influence(supports, over, at)[0]

    def reaction(at: np.ndarray) -> np.ndarray:
        return continuous_influence(supports, over, at)[1][supports.index(over)]

    kinks = supports
    pid = ids[over]
    asked = [
        quantity(f"M_{pid}", f"most negative bending moment over the support {pid} as the train crosses, in kN·m "
                 "(sagging positive, so a hogging moment is negative)", "kN*m",
                 train_extreme(hogging, start, end, loads, spacings, kinks, sign=-1.0), "moment"),
        quantity(f"V_{pid}", f"largest vertical reaction at {pid} as the train crosses, in kN (upward positive)", "kN",
                 train_extreme(reaction, start, end, loads, spacings, kinks), "force"),
    ]  # fmt: skip
    if marked is not None:
        mid = ids[marked]

        def sagging(at: np.ndarray) -> np.ndarray:
            return continuous_influence(supports, marked, at)[0]

        largest = train_extreme(sagging, start, end, loads, spacings, [*kinks, marked])
        asked.append(quantity(f"M_{mid}", f"largest bending moment at {mid} as the train crosses, in kN·m (sagging "
                              "positive)", "kN*m", largest, "moment"))  # fmt: skip
    train = " – ".join(
        f"{number(p)} kN" + (f" – {number(g)} m" if k < len(spacings) else "")
        for k, (p, g) in enumerate(zip(loads, [*spacings, 0.0], strict=True))
    )
    names = ", ".join(ids[x] for x in supports)
    where = f"; {ids[marked]} is the middle of the central span" if marked is not None else ""
    text = (
        f"A continuous beam of constant EI over {len(spans)} spans of {', '.join(number(v) for v in spans)} m, on "
        f"supports {names} at x = {', '.join(number(x) for x in supports)} m ({ids[supports[0]]} pinned, the others "
        f"on rollers){where}. A train of 3 downward axle loads crosses it. Listed from left to right as it stands on "
        f"the beam, with the spacings between them: {train}. The train may stand anywhere along the beam, partly off "
        "it too; shear deformation, self-weight and impact are neglected."
    )
    return Item(
        id=item_id,
        family="moving_load",
        level=level,
        statement=text,
        with_drawing="The drawing gives the spans (m) and the supports. A train of 3 downward axle loads, listed above "
        "the beam from left to right with the spacings between them, crosses the beam and may stand anywhere along it, "
        "partly off it too. EI is constant; shear deformation, self-weight and impact are neglected.",
        quantities=with_floors(asked),
        structure=model,
        title=f"EI constant; axle loads, left to right: {train}",
        inputs={**_inputs(model), "largest_load": max(loads), "p": loads[0], "span": spans[0]},
    )
