"""Structures past the textbook exercise: difficulty levels 6 to 10, each level a stated range of size,
indeterminacy and features (``docs/headroom.md`` lists them with an example per level).

6. continuous beam over three spans with line loads, an inclined point load and a moment on a span; pitched
   portal frame (inclined rafters) with fixed bases; roof truss with inclined top chords;
7. continuous beam over four spans with a hinge, partial and triangular line loads (8: a pinned far end and a
   third line load; 9 and 10: a fixed left end); two-storey one-bay frame with fixed bases; truss with one crossed
   panel (one redundant member);
8. two-storey two-bay frame with a pinned base, a hinged beam and a load on a column; six-panel truss with an
   inclined load on an inclined roller;
9. two-storey two-bay frame with an inclined roller under a leaning column, partial line loads, a cantilever with an
   inclined load; truss with two crossed panels between two pins (three redundants);
10. three-storey two-bay frame, mixed bases, two hinges, triangular and partial line loads, a moment on a member.

Hardness comes from engineering depth (more unknowns, inclined members and supports, sway, releases), never from
clutter: dimensions stay whole or half metres, loads multiples of 5, at most 20 points per drawing.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from mechbench.frame.generate import ModelBuilder

DEEP_LEVELS = (6, 7, 8, 9, 10)
ALL_LEVELS = (1, 2, 3, 4, 5, *DEEP_LEVELS)
"""Every level a structure is generated at: the textbook levels of :mod:`mechbench.frame.generate`, then these."""


def _force(rng: random.Random) -> float:
    return float(rng.choice([10, 15, 20, 25, 30, 40, 50]))


def _w(rng: random.Random) -> float:
    return float(rng.choice([4, 5, 6, 8, 10, 12, 15]))


def deep_beam(rng: random.Random, level: int) -> dict[str, Any]:
    """A continuous beam: three spans (level 6) or four with a hinge (7 and above), unequal spans, every load kind."""
    b = ModelBuilder()
    spans = [float(rng.choice([4, 5, 6, 7, 8])) for _ in range(3 if level == 6 else 4)]
    xs = [0.0]
    for s in spans:
        xs.append(xs[-1] + s)
    supports = [b.point(x, 0.0) for x in xs]
    links = []
    hinge_span = rng.randrange(1, len(spans)) if level >= 7 else None
    for i, (a, c) in enumerate(itertools.pairwise(supports)):
        if i == hinge_span:  # a hinge inside this span, 1–2 m from its left support
            h = b.point(xs[i] + float(rng.choice([1, 1.5, 2])), 0.0)
            links.append(b.link(a, h, end_b="hinge"))
            links.append(b.link(h, c))
        else:
            links.append(b.link(a, c))
    b.support(supports[0], "fixed" if level >= 9 else "pin")
    for s in supports[1:]:
        b.support(s, "roller")
    if hinge_span is not None and level >= 8:  # the hinge would leave a mechanism with a roller at the far end
        b.supports[-1].update(kind="pin")
    lengths = {link: _length(b, link) for link in links}
    chosen = rng.sample(links, k=min(len(links), 2 + (level >= 8)))
    for link in chosen:
        length = lengths[link]
        w = _w(rng)
        choice = rng.choice(["uniform", "partial", "triangular"]) if level >= 7 else "uniform"
        if choice == "uniform":
            b.line_load(link, w, w)
        elif choice == "partial" and length >= 3:
            b.line_load(link, w, w, from_start=1.0)
        else:
            b.line_load(link, 0.0, w)
    loaded = [link for link in links if link not in chosen and lengths[link] >= 2] or links
    target = rng.choice(loaded)
    b.force_on_link(target, _force(rng), rng.choice([270.0, 270.0, 240.0]), _half(rng, lengths[target]))
    moment_on = rng.choice([link for link in links if lengths[link] >= 2])
    b.moment(
        "link", moment_on, float(rng.choice([10, 15, 20, 30])), rng.choice([1, -1]), _half(rng, lengths[moment_on])
    )
    return b.model()


def _length(b: ModelBuilder, link: str) -> float:
    points = {p["id"]: (p["x"], p["y"]) for p in b.points}
    entry = next(item for item in b.links if item["id"] == link)
    (x1, y1), (x2, y2) = points[entry["a"]], points[entry["b"]]
    return float(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)


def _half(rng: random.Random, length: float) -> float:
    """A position inside a member of ``length``, on the half-metre grid, clear of its ends."""
    slots = [k / 2 for k in range(1, int(2 * length))]
    return float(rng.choice(slots)) if slots else length / 2


def deep_frame(rng: random.Random, level: int) -> dict[str, Any]:
    """A frame of level 6–10 (module docs)."""
    if level == 6:
        return _pitched_portal(rng)
    b = ModelBuilder()
    width = float(rng.choice([4, 5, 6]))
    widths = [width, float(rng.choice([4, 5, 6]))] if level >= 8 else [width]
    storeys = 3 if level == 10 else 2
    heights = [float(rng.choice([3, 3.5, 4])) for _ in range(storeys)]
    xs = [0.0]
    for w in widths:
        xs.append(xs[-1] + w)
    ys = [0.0]
    for h in heights:
        ys.append(ys[-1] + h)
    lean = level == 9
    grid = {}
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            leaning = lean and i == len(xs) - 1 and j == 0  # the last ground-floor column leans: its base 1 m in
            grid[i, j] = b.point(x - 1.0 if leaning else x, y)
    columns = {(i, j): b.link(grid[i, j], grid[i, j + 1]) for j in range(storeys) for i in range(len(xs))}
    beams = {}
    hinged = {(0, 1)} if level in (8, 9) else {(0, 1), (1, 2)} if level == 10 else set()
    for j in range(1, storeys + 1):
        for i in range(len(widths)):
            if (i, j) in hinged:
                beams[i, j] = b.link(grid[i, j], grid[i + 1, j], end_b="hinge")
            else:
                beams[i, j] = b.link(grid[i, j], grid[i + 1, j])
    bases = [grid[i, 0] for i in range(len(xs))]
    if level == 7:
        kinds = ["fixed", "fixed"]
    elif level == 8:
        kinds = ["fixed", "pin", "fixed"]
    elif level == 9:
        kinds = ["fixed", "fixed", "roller"]
    else:
        kinds = ["fixed", "pin", "fixed"]
    for base, kind in zip(bases, kinds, strict=True):
        if kind == "roller":
            b.support(base, "roller", float(rng.choice([30, -30, 45])))
        else:
            b.support(base, kind)
    for j in range(1, storeys + 1):  # wind at every floor, from the left
        b.force_at_point(grid[0, j], float(rng.choice([10, 15, 20, 25])), 0.0)
    for (i, j), beam in beams.items():
        w = _w(rng)
        if level >= 10 and (i + j) % 3 == 0:
            b.line_load(beam, 0.0, w)
        elif level >= 9 and (i + j) % 3 == 1:
            b.line_load(beam, w, w, from_start=1.0)
        else:
            b.line_load(beam, w, w)
    top = storeys
    if level >= 8:
        column = columns[1, 0]  # a vertical column (at level 9 the last one leans)
        b.force_on_link(column, _force(rng), 180.0, float(rng.choice([1, 1.5, 2])))
    if level >= 9:
        tip = b.point(xs[-1] + float(rng.choice([1.5, 2])), ys[top])
        b.link(grid[len(xs) - 1, top], tip)
        b.force_at_point(tip, _force(rng), float(rng.choice([240, 300])))
    if level >= 10:
        b.moment("link", columns[0, 1], float(rng.choice([10, 20])), rng.choice([1, -1]), heights[1] / 2)
    return b.model()


def _pitched_portal(rng: random.Random) -> dict[str, Any]:
    """A portal with a pitched roof: two columns, two inclined rafters, fixed bases; wind at the eaves, snow on the
    rafters (per metre along each rafter), a point load at the ridge."""
    b = ModelBuilder()
    width, height, rise = float(rng.choice([6, 8, 10])), float(rng.choice([3, 4, 5])), float(rng.choice([1, 1.5, 2]))
    left, right = b.point(0.0, 0.0), b.point(width, 0.0)
    eave_l, eave_r = b.point(0.0, height), b.point(width, height)
    ridge = b.point(width / 2, height + rise)
    b.link(left, eave_l)
    b.link(right, eave_r)
    rafter_l, rafter_r = b.link(eave_l, ridge), b.link(ridge, eave_r)
    b.support(left, "fixed")
    b.support(right, rng.choice(["fixed", "pin"]))
    w = _w(rng)
    b.line_load(rafter_l, w, w)
    b.line_load(rafter_r, w, w)
    b.force_at_point(eave_l, _force(rng), 0.0)
    b.force_at_point(ridge, _force(rng), 270.0)
    return b.model()


def deep_truss(rng: random.Random, level: int) -> dict[str, Any]:
    """A truss of level 6–10 (module docs): roof truss, then parallel-chord trusses with crossed (redundant) panels
    and inclined supports."""
    b = ModelBuilder()

    def member(a: str, c: str) -> None:
        b.link(a, c, "hinge", "hinge")

    if level == 6:  # a Howe roof truss: inclined top chords
        panels = rng.choice([4, 6])
        width, rise = float(rng.choice([2, 2.5, 3])), float(rng.choice([1, 1.5]))
        bottom = [b.point(i * width, 0.0) for i in range(panels + 1)]
        half = panels // 2
        top = {i: b.point(i * width, rise * min(i, panels - i)) for i in range(1, panels)}
        chord = [bottom[0], *[top[i] for i in range(1, panels)], bottom[-1]]
        for i in range(panels):
            member(bottom[i], bottom[i + 1])
            member(chord[i], chord[i + 1])
        for i in range(1, panels):
            member(bottom[i], top[i])
            if i < half:
                member(top[i], bottom[i + 1])
            elif i > half:
                member(top[i], bottom[i - 1])
        b.support(bottom[0], "pin")
        b.support(bottom[-1], "roller")
        for i in rng.sample(range(1, panels), k=2):
            b.force_at_point(top[i], _force(rng), 270.0)
        b.force_at_point(top[1], float(rng.choice([5, 10, 15])), 0.0)
        return b.model()
    panels = 6 if level >= 8 else rng.choice([4, 5])
    width, height = float(rng.choice([2, 3])), float(rng.choice([2, 3]))
    bottom = [b.point(i * width, 0.0) for i in range(panels + 1)]
    top = [b.point(i * width, height) for i in range(panels + 1)]
    crossed = {1} if level == 7 else {1, panels - 2} if level >= 9 else set()
    for i in range(panels):
        member(bottom[i], bottom[i + 1])
        member(top[i], top[i + 1])
    for i in range(panels + 1):
        member(bottom[i], top[i])
    for i in range(panels):
        if i in crossed:
            member(top[i], bottom[i + 1])
            member(bottom[i], top[i + 1])
        elif i < panels / 2:
            member(top[i], bottom[i + 1])
        else:
            member(bottom[i], top[i + 1])
    b.support(bottom[0], "pin")
    if level >= 9:
        b.support(bottom[-1], "pin")
    elif level == 8:
        b.support(bottom[-1], "roller", float(rng.choice([30, -30])))
    else:
        b.support(bottom[-1], "roller")
    first, second = rng.sample(top[1:-1], k=2)
    b.force_at_point(first, _force(rng), 270.0)
    # An inclined load on a top joint: its arrow's tail stands above the truss, clear of the members.
    b.force_at_point(second, _force(rng), float(rng.choice([240, 300])) if level >= 8 else 270.0)
    b.force_at_point(rng.choice(bottom[1:-1]), _force(rng), 270.0)
    b.force_at_point(top[0], float(rng.choice([10, 15, 20])), 0.0)
    return b.model()
