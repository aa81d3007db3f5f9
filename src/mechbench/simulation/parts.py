"""Parametric parts of the generated structural simulations: geometry, supports and a unit load.

Each part is a mask of square cells with its supports (fixed DOFs) and a unit load (1 N in total, spread
over the loaded edge's nodes by tributary length). Nodes and DOFs follow :mod:`mechbench.simulation.plane_stress`
(row 0 at the top, +y down the grid).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

PART_KINDS = ("bar", "plate_hole", "notched_bar", "cantilever", "bracket", "column", "slider")
FEATURE_CELLS = 2.5
"""Elements across the radius of a hole or notch at the least: a feature the title names is resolved and visible."""


@dataclass(frozen=True)
class Part:
    """Geometry, supports and unit load of one part."""

    kind: str
    title: str
    solid: np.ndarray
    h: float
    thickness: float
    fixed: np.ndarray
    unit_load: np.ndarray
    supports: str
    load: str
    depth: float  # the dimension the mesh density is counted across (mm)
    cells_across: int


def _node(cols: int, r: int, c: int) -> int:
    return r * (cols + 1) + c


def _edge_nodes(rows: int, cols: int, edge: str, span: tuple[int, int] | None = None) -> list[int]:
    """Nodes of an edge of the bounding grid (optionally only rows/cols ``span``)."""
    if edge in ("left", "right"):
        c = 0 if edge == "left" else cols
        lo, hi = span or (0, rows)
        return [_node(cols, r, c) for r in range(lo, hi + 1)]
    r = 0 if edge == "top" else rows
    lo, hi = span or (0, cols)
    return [_node(cols, r, c) for c in range(lo, hi + 1)]


def _spread(ndof: int, nodes: list[int], direction: tuple[float, float]) -> np.ndarray:
    """1 N in ``direction`` over ``nodes`` (a straight edge), end nodes carrying half a share."""
    weights = np.ones(len(nodes))
    weights[[0, -1]] = 0.5
    weights /= weights.sum()
    f = np.zeros(ndof)
    for node, w in zip(nodes, weights, strict=True):
        f[2 * node] += w * direction[0]
        f[2 * node + 1] += w * direction[1]
    return f


def _dofs(nodes: list[int], x: bool = True, y: bool = True) -> list[int]:
    return [2 * n + k for n in nodes for k, on in ((0, x), (1, y)) if on]


def _roller_edge(rows: int, cols: int, edge: str) -> list[int]:
    """An edge held normal to itself, with its middle node also held along it (no rigid motion, free Poisson)."""
    nodes = _edge_nodes(rows, cols, edge)
    middle = nodes[len(nodes) // 2]
    normal_x = edge in ("left", "right")
    return [*_dofs(nodes, x=normal_x, y=not normal_x), 2 * middle + (1 if normal_x else 0)]


def make_part(kind: str, rng: random.Random, cells_across: int, refine: int = 1) -> Part:
    """A ``kind`` part with dimensions drawn from ``rng`` and ``cells_across`` elements across its depth.

    ``refine``: every element split into refine × refine, the geometry unchanged (the convergence check's mesh).
    """
    thickness = rng.choice([5.0, 10.0, 20.0])
    if kind in ("bar", "notched_bar", "column", "slider"):
        depth = rng.choice([20.0, 30.0, 40.0])
        ratio = rng.uniform(12, 40) if kind == "column" and rng.random() < 0.5 else rng.uniform(3, 8)
        length = depth * ratio
        h = depth / cells_across
        rows, cols = cells_across, max(4, round(length / h))
        notch = max(rng.uniform(0.2, 0.3) * depth, FEATURE_CELLS * h) if kind == "notched_bar" else 0.0
        h, rows, cols = h / refine, rows * refine, cols * refine
        solid = np.ones((rows, cols), dtype=bool)
        title = {"bar": "Flat bar", "notched_bar": "Notched flat bar", "column": "Strut", "slider": "Sliding block"}[
            kind
        ]
        if kind == "notched_bar":
            # At least two and a half elements across the notch's radius: the notch is drawn and resolved.
            radius = notch
            both = rng.random() < 0.5
            centre_x = cols * h / 2
            yc, xc = (np.arange(rows) + 0.5) * h, (np.arange(cols) + 0.5) * h
            dist_top = np.hypot(xc[None, :] - centre_x, yc[:, None])
            solid &= dist_top > radius
            if both:
                solid &= np.hypot(xc[None, :] - centre_x, yc[:, None] - rows * h) > radius
            title += " (notch on both edges)" if both else " (notch on one edge)"
        ndof = 2 * (rows + 1) * (cols + 1)
        if kind == "column":
            fixed = _dofs(_edge_nodes(rows, cols, "left"))
            load = _spread(ndof, _edge_nodes(rows, cols, "right"), (-1.0, 0.0))
            supports, load_text = "left end clamped (all displacements held)", "axial compression on the right end"
        elif kind == "slider":
            fixed = _dofs(_edge_nodes(rows, cols, "bottom"), x=False)
            load = _spread(ndof, _edge_nodes(rows, cols, "left"), (1.0, 0.0))
            supports = "bottom face on a frictionless floor (held vertically, both ways; free to slide along it)"
            load_text = "push on the left end, along the block"
        else:
            fixed = _roller_edge(rows, cols, "left")
            load = _spread(ndof, _edge_nodes(rows, cols, "right"), (1.0, 0.0))
            supports = "left end on a frictionless support (held along the bar, free across it), mid-point pinned"
            load_text = "tension on the right end"
    elif kind == "plate_hole":
        height = rng.choice([60.0, 80.0, 100.0])
        width = 2 * height
        h = height / cells_across
        radius = max(rng.uniform(0.18, 0.3) * height, FEATURE_CELLS * h)
        h, rows, cols = h / refine, cells_across * refine, 2 * cells_across * refine
        offset = 0.0 if rng.random() < 0.5 else rng.uniform(0.12, 0.2) * height * rng.choice([-1, 1])
        yc, xc = (np.arange(rows) + 0.5) * h, (np.arange(cols) + 0.5) * h
        solid = np.hypot(xc[None, :] - width / 2, yc[:, None] - (height / 2 + offset)) > radius
        ndof = 2 * (rows + 1) * (cols + 1)
        fixed = _roller_edge(rows, cols, "left")
        load = _spread(ndof, _edge_nodes(rows, cols, "right"), (1.0, 0.0))
        title = "Plate with a " + ("central hole" if offset == 0 else "hole off the centre line")
        supports = "left edge on a frictionless support (held normal to the edge), mid-point pinned"
        load_text, depth = "tension on the right edge", height
    elif kind == "cantilever":
        depth = rng.choice([20.0, 30.0, 40.0])
        h = depth / cells_across
        rows, cols = cells_across, max(4, round(rng.uniform(5, 10) * depth / h))
        h, rows, cols = h / refine, rows * refine, cols * refine
        solid = np.ones((rows, cols), dtype=bool)
        ndof = 2 * (rows + 1) * (cols + 1)
        fixed = _dofs(_edge_nodes(rows, cols, "left"))
        load = _spread(ndof, _edge_nodes(rows, cols, "right"), (0.0, 1.0))
        title, supports = "Cantilever beam", "left end clamped (all displacements held)"
        load_text = "downward shear load on the free right end"
    elif kind == "bracket":
        depth = rng.choice([20.0, 30.0])
        h = depth / cells_across
        arm = cells_across
        rows = max(2 * arm, round(rng.uniform(3, 6) * depth / h))
        cols = max(2 * arm, round(rng.uniform(3, 6) * depth / h))
        h, rows, cols, arm = h / refine, rows * refine, cols * refine, arm * refine
        solid = np.zeros((rows, cols), dtype=bool)
        solid[:, :arm] = True  # upright
        solid[:arm, :] = True  # arm along the top
        ndof = 2 * (rows + 1) * (cols + 1)
        fixed = _dofs(_edge_nodes(rows, cols, "bottom", (0, arm)))
        load = _spread(ndof, _edge_nodes(rows, cols, "right", (0, arm)), (0.0, 1.0))
        title, supports = "L-bracket", "foot of the upright clamped (all displacements held)"
        load_text = "downward load on the end of the arm"
    else:
        raise ValueError(f"unknown part kind {kind!r}; known: {', '.join(PART_KINDS)}")
    return Part(
        kind=kind,
        title=title,
        solid=solid,
        h=h,
        thickness=thickness,
        fixed=np.array(sorted(set(fixed)), dtype=np.int64),
        unit_load=load,
        supports=supports,
        load=load_text,
        depth=depth,
        cells_across=cells_across,
    )


def walls_on_both_ends(part: Part) -> np.ndarray:
    """The part's supports with both ends also held along its length (restrained thermal expansion)."""
    rows, cols = part.solid.shape
    right = _dofs(_edge_nodes(rows, cols, "right"), y=False)
    return np.array(sorted(set(part.fixed.tolist()) | set(right)), dtype=np.int64)
