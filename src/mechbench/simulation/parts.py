"""Parametric parts of the generated structural simulations: the true outline, the supports and a unit load.

Each part is a plane outline in mm (y up, origin at the bottom left) with its holes and notches as circles
(:class:`~mechbench.simulation.elastic.Shape`, meshed conformingly), the supports as edges or points held in x
and/or y, and a unit load (1 N in total) spread uniformly over an edge. The element size puts at least
:data:`~mechbench.simulation.elastic.MIN_ACROSS` quadratic triangles across the part's depth (more where the
set-up asks), and finer ones along every arc.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from mechbench.simulation.elastic import MIN_ACROSS, Shape, circle_points

PART_KINDS = ("bar", "plate_hole", "notched_bar", "cantilever", "bracket", "column", "slider")
FILLET = 0.25
"""Radius of the L-bracket's inner fillet, in depths of its arm."""
EDGE_TOLERANCE = 1e-6
"""mm: a boundary point this close to an edge's line belongs to it."""


@dataclass(frozen=True)
class Hold:
    """A support: the part's boundary on ``edge`` (between ``span`` along it, when given), or the boundary point
    nearest ``point``, held in x and/or y."""

    x: bool
    y: bool
    edge: str | None = None
    """``left``, ``right``, ``bottom`` or ``top`` of the bounding box."""
    span: tuple[float, float] | None = None
    point: tuple[float, float] | None = None


@dataclass(frozen=True)
class Push:
    """The unit load: 1 N along ``direction`` (a unit vector, y up), spread over ``edge`` (within ``span``)."""

    edge: str
    direction: tuple[float, float]
    span: tuple[float, float] | None = None


@dataclass(frozen=True)
class Part:
    """Outline, supports and unit load of one part."""

    kind: str
    title: str
    shape: Shape
    width: float
    height: float
    thickness: float
    holds: tuple[Hold, ...]
    push: Push
    supports: str
    load: str
    depth: float
    """The part's depth (mm): across a bar or beam, the height of a plate."""
    thinnest: float
    """The thinnest section a stress is read in (mm): the depth, or the ligament beside a hole or notch."""
    across: int
    """Elements across :attr:`thinnest`."""

    def on_edge(self, edge: str, span: tuple[float, float] | None, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Which of the points (x, y) lie on ``edge`` of the bounding box (within ``span`` along it)."""
        line, along = {
            "left": (np.abs(x) <= EDGE_TOLERANCE, y),
            "right": (np.abs(x - self.width) <= EDGE_TOLERANCE, y),
            "bottom": (np.abs(y) <= EDGE_TOLERANCE, x),
            "top": (np.abs(y - self.height) <= EDGE_TOLERANCE, x),
        }[edge]
        if span is None:
            return line
        return line & (along >= span[0] - EDGE_TOLERANCE) & (along <= span[1] + EDGE_TOLERANCE)

    def inside(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Which points lie inside the part (its outline, minus its holes)."""
        from matplotlib.path import Path

        points = np.stack([np.ravel(x), np.ravel(y)], axis=1)
        inside = Path(np.array(self.shape.outline)).contains_points(points)
        for cx, cy, r in self.shape.holes:
            inside &= np.hypot(points[:, 0] - cx, points[:, 1] - cy) > r
        return inside.reshape(np.shape(x))


def _rectangle(width: float, height: float) -> list[tuple[float, float]]:
    return [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]


def make_part(kind: str, rng: random.Random, cells_across: int, refine: int = 1) -> Part:
    """A ``kind`` part with dimensions drawn from ``rng``, at least ``cells_across`` (and :data:`MIN_ACROSS`)
    elements across its depth. ``refine``: the element size divided by it, the geometry unchanged (the
    convergence check's mesh)."""
    across = max(MIN_ACROSS, cells_across)
    thickness = rng.choice([5.0, 10.0, 20.0])
    if kind in ("bar", "notched_bar", "column", "slider"):
        depth = rng.choice([20.0, 30.0, 40.0])
        ratio = rng.uniform(12, 40) if kind == "column" and rng.random() < 0.5 else rng.uniform(3, 8)
        length = round(depth * ratio, 1)
        thinnest = depth
        title = {"bar": "Flat bar", "notched_bar": "Notched flat bar", "column": "Strut", "slider": "Sliding block"}[
            kind
        ]
        holes: tuple[tuple[float, float, float], ...] = ()
        outline = _rectangle(length, depth)
        if kind == "notched_bar":
            radius = round(rng.uniform(0.2, 0.3) * depth, 2)
            both = rng.random() < 0.5
            thinnest = depth - (2 if both else 1) * radius
            outline = _notch_outline(length, depth, radius, both, thinnest / across / refine)
            title += " (notch on both edges)" if both else " (notch on one edge)"
        middle = (0.0, depth / 2)
        if kind == "column":
            holds = (Hold(True, True, edge="left"),)
            push = Push("right", (-1.0, 0.0))
            supports, load_text = "left end clamped (all displacements held)", "axial compression on the right end"
        elif kind == "slider":
            holds = (Hold(False, True, edge="bottom"),)
            push = Push("left", (1.0, 0.0))
            supports = "bottom face on a frictionless floor (held vertically, both ways; free to slide along it)"
            load_text = "push on the left end, along the block"
        else:
            holds = (Hold(True, False, edge="left"), Hold(False, True, point=middle))
            push = Push("right", (1.0, 0.0))
            supports = "left end on a frictionless support (held along the bar, free across it), mid-point pinned"
            load_text = "tension on the right end"
        width, height = length, depth
    elif kind == "plate_hole":
        height = rng.choice([60.0, 80.0, 100.0])
        width = 2 * height
        radius = round(rng.uniform(0.18, 0.3) * height, 2)
        # Off the centre line, the hole leaves a ligament of at least a tenth of the height on its near side.
        offset = 0.0
        if rng.random() >= 0.5:
            offset = round(rng.uniform(0.4, 0.8) * (0.4 * height - radius) * rng.choice([-1, 1]), 2)
        thinnest = height / 2 - abs(offset) - radius
        outline = _rectangle(width, height)
        holes = ((width / 2, height / 2 + offset, radius),)
        holds = (Hold(True, False, edge="left"), Hold(False, True, point=(0.0, height / 2)))
        push = Push("right", (1.0, 0.0))
        title = "Plate with a " + ("central hole" if offset == 0 else "hole off the centre line")
        supports = "left edge on a frictionless support (held normal to the edge), mid-point pinned"
        load_text, depth = "tension on the right edge", height
    elif kind == "cantilever":
        depth = rng.choice([20.0, 30.0, 40.0])
        length = round(rng.uniform(5, 10) * depth, 1)
        thinnest = depth
        outline, holes = _rectangle(length, depth), ()
        holds = (Hold(True, True, edge="left"),)
        push = Push("right", (0.0, -1.0))
        title, supports = "Cantilever beam", "left end clamped (all displacements held)"
        load_text = "downward shear load on the free right end"
        width, height = length, depth
    elif kind == "bracket":
        depth = rng.choice([20.0, 30.0])
        height = round(max(2 * depth, rng.uniform(3, 6) * depth), 1)
        width = round(max(2 * depth, rng.uniform(3, 6) * depth), 1)
        thinnest = depth
        size = thinnest / across / refine
        # An upright along the left and an arm along the top, one depth wide each, a fillet in the inner corner
        # (a sharp re-entrant corner's stress grows without bound as the mesh is refined).
        fillet = FILLET * depth
        corner = circle_points(depth + fillet, height - depth - fillet, fillet, math.pi, math.pi / 2, size)
        outline = [(0.0, 0.0), (depth, 0.0), *corner, (width, height - depth), (width, height), (0.0, height)]
        holes = ()
        holds = (Hold(True, True, edge="bottom", span=(0.0, depth)),)
        push = Push("right", (0.0, -1.0), span=(height - depth, height))
        title, supports = "L-bracket", "foot of the upright clamped (all displacements held)"
        load_text = "downward load on the end of the arm"
    else:
        raise ValueError(f"unknown part kind {kind!r}; known: {', '.join(PART_KINDS)}")
    return Part(
        kind=kind,
        title=title,
        shape=Shape(tuple(outline), holes, thinnest / across / refine),
        width=width,
        height=height,
        thickness=thickness,
        holds=holds,
        push=push,
        supports=supports,
        load=load_text,
        depth=depth,
        thinnest=thinnest,
        across=across * refine,
    )


def _notch_outline(length: float, depth: float, radius: float, both: bool, spacing: float) -> list[tuple[float, float]]:
    """A bar's counter-clockwise outline with a semicircular notch of ``radius`` at mid-length on its top edge (and,
    with ``both``, on its bottom edge)."""
    centre = length / 2
    outline: list[tuple[float, float]] = [(0.0, 0.0)]
    if both:  # along the bottom, up into the notch and back down (the material is above it)
        outline += circle_points(centre, 0.0, radius, math.pi, 0.0, spacing)
    outline += [(length, 0.0), (length, depth)]
    outline += circle_points(centre, depth, radius, 0.0, -math.pi, spacing)  # down into the top notch
    outline.append((0.0, depth))
    return outline


def walls_on_both_ends(part: Part) -> tuple[Hold, ...]:
    """The part's supports with both ends also held along its length (restrained thermal expansion)."""
    return (*part.holds, Hold(True, False, edge="right"))
