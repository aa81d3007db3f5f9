"""Fresh structures of a given composition: the number of members, the support kinds, the moment releases and the
loads by kind are fixed, the geometry and the values are drawn.

* **Beams**: collinear members on the x axis, supports at distinct points (a fixed support at an end), hinges at
  unsupported interior points (Gerber beams).
* **Frames**: members on an orthogonal grid of uneven spacing, grown from one joint (closed bays appear where a new
  member joins two existing joints), supports at free ends, hinges at member ends inside joints.
* **Trusses**: Pratt, Howe or Warren panels with every member pinned at both ends, loaded at the joints; with four
  reaction components one member of the middle panel is left out, so the truss stays statically determinate.

Each builder returns a raw model or None when the draw does not fit the composition; the caller checks stability
with the solver and draws again.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from mechbench.frame.determinacy import TRUSS_RESTRAINTS
from mechbench.frame.generate import ModelBuilder

POINT_FORCES = (4, 5, 6, 10, 15, 20, 30, 40, 50, 60)
LINE_LOADS = (2, 3, 4, 5, 10, 15, 20, 40)
COUPLES = (8, 10, 20, 40, 80)
BEAM_STEPS = (1, 1.5, 2, 2, 3, 4, 4, 6)
FRAME_STEPS = (1.5, 2, 2, 3, 3, 4, 4, 6)
PANEL_WIDTHS = (2, 3, 4)
TRUSS_HEIGHTS = (1, 2, 3, 4, 6)

# Direction away from a free end towards its member, mapped to the angle that draws a support on the far side.
_SUPPORT_ANGLE = {(0, 1): 0.0, (0, -1): 180.0, (1, 0): 270.0, (-1, 0): 90.0}


@dataclass(frozen=True)
class Composition:
    """What a structure is made of, without its geometry or values."""

    kind: str
    """beam, frame or truss."""
    members: int
    supports: tuple[str, ...]
    """The support kinds (fixed, pin, roller, slider), sorted."""
    releases: int
    """Moment releases at the joints (a truss's pin joints are its idealisation and count none)."""
    point_loads: int
    distributed_loads: int
    moments: int


def _value(rng: random.Random, values: tuple[float, ...]) -> float:
    return float(rng.choice(values))


def _half_metres(rng: random.Random, length: float) -> float:
    """An offset along a member of ``length``, in half metres, strictly inside it."""
    steps = max(1, int(length * 2) - 1)
    return rng.randint(1, steps) / 2


def beam(rng: random.Random, comp: Composition) -> dict[str, Any] | None:
    """A straight beam of ``comp.members`` members on the x axis."""
    b = ModelBuilder()
    xs = [0.0]
    for _ in range(comp.members):
        xs.append(xs[-1] + _value(rng, BEAM_STEPS))
    points = [b.point(x, 0.0) for x in xs]
    links = [b.link(points[i], points[i + 1]) for i in range(comp.members)]
    supports = list(comp.supports)
    rng.shuffle(supports)
    ends = [0, len(points) - 1]
    rng.shuffle(ends)
    placed: dict[int, str] = {}
    for kind in sorted(supports, key=lambda k: k != "fixed"):
        free = [i for i in (ends if kind == "fixed" else range(len(points))) if i not in placed]
        if not free:
            return None
        placed[rng.choice(free)] = kind
    interior = [i for i in range(1, len(points) - 1) if i not in placed]
    if len(interior) < comp.releases:
        return None
    for i in rng.sample(interior, comp.releases):
        b.links[i - 1]["endB"] = "hinge"
    for i, kind in sorted(placed.items()):
        b.support(points[i], kind, _angle_for(rng, kind, (1, 0) if i == 0 else (-1, 0) if i == len(xs) - 1 else None))
    _loads(rng, b, comp, [i for i in range(len(points)) if i not in placed], points, links)
    return b.model()


def _angle_for(rng: random.Random, kind: str, towards: tuple[int, int] | None) -> float:
    """A support's drawn angle: a fixed or pinned end drawn on the far side of its member, a roller mostly on
    the ground, a slider in one of the published orientations."""
    if kind == "roller":
        return rng.choice([0.0, 0.0, 0.0, 90.0])
    if kind == "slider":
        return rng.choice([0.0, 90.0, 270.0])
    return _SUPPORT_ANGLE.get(towards, 0.0) if towards else 0.0


def _loads(
    rng: random.Random,
    b: ModelBuilder,
    comp: Composition,
    free_points: list[int],
    points: list[str],
    links: list[str],
) -> None:
    """The composition's loads on a beam or frame: line loads on distinct members, forces at free joints or
    inside members, couples at joints or mid-member."""
    lengths = {}
    coords = {p["id"]: (p["x"], p["y"]) for p in b.points}
    for link in b.links:
        (xa, ya), (xb, yb) = coords[link["a"]], coords[link["b"]]
        lengths[link["id"]] = ((xb - xa) ** 2 + (yb - ya) ** 2) ** 0.5
    vertical = {link["id"] for link in b.links if coords[link["a"]][0] == coords[link["b"]][0]}
    for link in rng.sample(links, min(comp.distributed_loads, len(links))):
        w = _value(rng, LINE_LOADS)
        b.line_load(link, w, w, angle=rng.choice([0.0, 180.0]) if link in vertical else 270.0)
    for _ in range(comp.point_loads):
        angle = rng.choice([270.0, 270.0, 270.0, 0.0, 180.0, 240.0, 300.0])
        if free_points and rng.random() < 0.5:
            b.force_at_point(points[rng.choice(free_points)], _value(rng, POINT_FORCES), angle)
        else:
            link = rng.choice(links)
            b.force_on_link(link, _value(rng, POINT_FORCES), angle, _half_metres(rng, lengths[link]))
    for _ in range(comp.moments):
        if free_points and rng.random() < 0.5:
            b.moment("point", points[rng.choice(free_points)], _value(rng, COUPLES), rng.choice([1, -1]))
        else:
            link = rng.choice(links)
            b.moment("link", link, _value(rng, COUPLES), rng.choice([1, -1]), offset=lengths[link] / 2)


def frame(rng: random.Random, comp: Composition) -> dict[str, Any] | None:
    """An orthogonal frame of ``comp.members`` members grown on a grid of uneven spacing."""
    side = comp.members + 1
    xs = [0.0]
    ys = [0.0]
    for _ in range(side):
        xs.append(xs[-1] + _value(rng, FRAME_STEPS))
        ys.append(ys[-1] + _value(rng, FRAME_STEPS))
    start = (rng.randrange(side // 2), 0)
    nodes = {start}
    edges: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    degree = {start: 0}
    # A member may close a bay now and then; eagerly when the hinges need the joints a closed bay adds (a tree of
    # m members can release at most m − 1 moments, and only as a mechanism).
    closing = 0.8 if comp.releases >= comp.members - 2 else 0.3
    for _ in range(50 * comp.members):
        if len(edges) == comp.members:
            break
        node = rng.choice(sorted(nodes))
        if degree[node] >= 3:
            continue
        dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, 1), (0, -1)])  # frames rise more than they hang
        other = (node[0] + dx, node[1] + dy)
        if not (0 <= other[0] <= side and 0 <= other[1] <= side):
            continue
        edge = (min(node, other), max(node, other))
        if edge in edges or (other in nodes and rng.random() > closing):
            continue
        edges.add(edge)
        nodes.add(other)
        degree[node] += 1
        degree[other] = degree.get(other, 0) + 1
    if len(edges) != comp.members:
        return None
    joints = sorted(nodes)
    leaves = [n for n in joints if degree[n] == 1]
    # Supports go on free ends first, then on the lowest joints (a column foot inside a bay).
    others = sorted((n for n in joints if degree[n] > 1), key=lambda n: (n[1], rng.random()))
    candidates = rng.sample(leaves, len(leaves)) + others
    b = ModelBuilder()
    ids = {n: b.point(xs[n[0]], ys[n[1]]) for n in joints}
    ordered = sorted(edges)
    link_ids = [b.link(ids[a], ids[c]) for a, c in ordered]
    # Every (link index, end) that meets a joint of two or more members can carry a hinge.
    joint_ends = [
        (i, end) for i, (a, c) in enumerate(ordered) for end, n in (("endA", a), ("endB", c)) if degree[n] > 1
    ]
    per_joint: dict[tuple[int, int], int] = {}
    rng.shuffle(joint_ends)
    hinged = 0
    for i, end in joint_ends:
        if hinged == comp.releases:
            break
        node = ordered[i][0] if end == "endA" else ordered[i][1]
        if per_joint.get(node, 0) + 1 >= degree[node]:  # all ends hinged would release one fewer
            continue
        per_joint[node] = per_joint.get(node, 0) + 1
        b.links[i]["endB" if end == "endB" else "endA"] = "hinge"
        hinged += 1
    if hinged != comp.releases:
        return None
    supported = candidates[: len(comp.supports)]
    kinds = list(comp.supports)
    rng.shuffle(kinds)
    for node, kind in zip(supported, kinds, strict=True):
        neighbour = next(c if a == node else a for a, c in ordered if node in (a, c))
        towards = (neighbour[0] - node[0], neighbour[1] - node[1]) if degree[node] == 1 else (0, 1)
        b.support(ids[node], kind, _angle_for(rng, kind, towards))
    free = [k for k, n in enumerate(joints) if n not in supported]
    _loads(rng, b, comp, free, [ids[n] for n in joints], link_ids)
    return b.model()


def _panels(members: int, reactions: int) -> list[tuple[str, int]]:
    """Truss types and panel counts whose member count is nearest ``members`` (pin-jointed and determinate)."""
    options = []
    for panels in range(2, 9):
        for style, count in (("Pratt", 4 * panels + 1), ("Howe", 4 * panels + 1), ("Warren", 4 * panels - 1)):
            options.append((abs(count - (reactions - 3) - members), style, panels))
    best = min(gap for gap, _, _ in options)
    return [(style, panels) for gap, style, panels in options if gap == best]


def truss(rng: random.Random, comp: Composition) -> dict[str, Any] | None:
    """A pin-jointed Pratt, Howe or Warren truss near ``comp.members`` members, loaded at its joints."""
    reactions = sum(TRUSS_RESTRAINTS[kind] for kind in comp.supports)
    if not 3 <= reactions <= 5 or not 2 <= len(comp.supports) <= 4:
        return None
    style, panels = rng.choice(_panels(comp.members, reactions))
    width, height = _value(rng, PANEL_WIDTHS), _value(rng, TRUSS_HEIGHTS)
    b = ModelBuilder()
    bottom = [b.point(i * width, 0.0) for i in range(panels + 1)]
    pairs: list[tuple[str, str]] = []
    if style == "Warren":
        top = [b.point((i + 0.5) * width, height) for i in range(panels)]
        for i in range(panels):
            pairs += [(bottom[i], bottom[i + 1]), (bottom[i], top[i]), (top[i], bottom[i + 1])]
            if i < panels - 1:
                pairs.append((top[i], top[i + 1]))
        middle_diagonal = (top[panels // 2 - 1], bottom[panels // 2]) if panels % 2 == 0 else None
    else:
        top = [b.point(i * width, height) for i in range(panels + 1)]
        pairs += [(bottom[i], bottom[i + 1]) for i in range(panels)] + [(top[i], top[i + 1]) for i in range(panels)]
        pairs += [(bottom[i], top[i]) for i in range(panels + 1)]
        middle_diagonal = None
        for i in range(panels):
            down_to_middle = (style == "Pratt") == (i < panels / 2)
            pairs.append((top[i], bottom[i + 1]) if down_to_middle else (bottom[i], top[i + 1]))
            if i == panels // 2:
                middle_diagonal = pairs[-1]
    kinds = sorted(comp.supports, key=lambda k: k != "pin")
    if reactions > 3:
        # Each reaction past three takes one member out (the middle panel's diagonal or bottom chords: trusses
        # joined by pins), so the count stays determinate; the solver rejects the draws that are mechanisms.
        chords = [(bottom[i], bottom[i + 1]) for i in range(panels)]
        removable = chords + ([middle_diagonal] if middle_diagonal else [])
        for member in rng.sample(removable, reactions - 3):
            pairs.remove(member)
    for a, c in pairs:
        b.link(a, c, "hinge", "hinge")
    at = [bottom[0], bottom[-1], *rng.sample(bottom[1:-1], len(kinds) - 2)]  # extra supports under interior joints
    for node, kind in zip(at, kinds, strict=True):
        b.support(node, kind, 0.0)
    loadable = [p for p in [*top, *bottom[1:-1]] if p not in at]
    for node in rng.sample(loadable, min(comp.point_loads, len(loadable))):
        b.force_at_point(node, _value(rng, POINT_FORCES), rng.choice([270.0, 270.0, 270.0, 0.0, 180.0]))
    return b.model()


BUILDERS = {"beam": beam, "frame": frame, "truss": truss}
