"""SPhyR grids ↔ finite-element problems: loads and supports from the ground truth, densities from a grid.

Gravity is a (row, col) vector on the printed grid, as upstream stores it: (1, 0) points down the rows
(the published default), (0, 1) along the columns; it is normalised, so a diagonal (1, 1) load has
components 1/√2.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from mechbench.topopt.fea import LoadCase, Mesh

Gravity = tuple[float, float]
DOWN: Gravity = (1.0, 0.0)
TOTAL_LOAD = 1.0
LOAD, SUPPORT, MASK = "L", "S", "V"
SAMPLE_GRIDS = ("input_grid", "ground_truth")
"""The sample metadata that holds grids, packed (:func:`pack_grid`)."""


def pack_grid(grid: list[list[str]]) -> str:
    """A grid as sample metadata keeps it: one line per row, cells separated by spaces. (Inspect copies every sample's
    metadata once per metric key when it computes a run's metrics; a grid as nested lists made that a third of a
    SPhyR run.)"""
    return "\n".join(" ".join(row) for row in grid)


def unpack_grid(value: str | list[list[str]]) -> list[list[str]]:
    """A grid from sample metadata: packed (:func:`pack_grid`) or, in logs written before packing, nested lists."""
    if isinstance(value, str):
        return [line.split(" ") for line in value.split("\n")] if value else []
    return [[str(cell) for cell in row] for row in value]


def sample_grid(metadata: Mapping[str, Any], key: str) -> list[list[str]]:
    """The grid ``key`` (``input_grid`` or ``ground_truth``) of a sample's metadata."""
    return unpack_grid(metadata[key])


def gravity_vector(gravity: Gravity | str) -> Gravity:
    """A (row, col) direction, normalised; also the names down/up/left/right."""
    named = {"down": (1.0, 0.0), "up": (-1.0, 0.0), "right": (0.0, 1.0), "left": (0.0, -1.0)}
    if isinstance(gravity, str):
        if gravity not in named:
            raise ValueError(f"gravity must be one of {', '.join(named)} or a (row, col) vector, got {gravity!r}")
        return named[gravity]
    row, col = (float(v) for v in gravity)
    norm = math.hypot(row, col)
    if not norm or not math.isfinite(norm):
        raise ValueError(f"gravity must be a non-zero finite vector, got {gravity!r}")
    return row / norm, col / norm


def load_case(truth: list[list[str]], gravity: Gravity | str = DOWN) -> LoadCase:
    """Unit total load along gravity shared by the L cells' corners; every node of every S cell clamped."""
    rows, cols = len(truth), len(truth[0])
    mesh = Mesh(rows, cols)
    g_row, g_col = gravity_vector(gravity)
    loads = [(r, c) for r in range(rows) for c in range(cols) if truth[r][c].strip() == LOAD]
    supports = [(r, c) for r in range(rows) for c in range(cols) if truth[r][c].strip() == SUPPORT]
    force = np.zeros(mesh.ndof)
    share = TOTAL_LOAD / (4 * len(loads)) if loads else 0.0
    for r, c in loads:
        for node in mesh.cell_nodes(r, c):
            force[2 * node] += share * g_col
            force[2 * node + 1] += share * g_row
    fixed = sorted({2 * n + k for r, c in supports for n in mesh.cell_nodes(r, c) for k in (0, 1)})
    return LoadCase(mesh=mesh, force=force, fixed=np.array(fixed, dtype=np.int64))


def cell_density(token: str) -> float | None:
    """A token's density as the published scorer reads it: L/S 1, a number clipped to [0, 1], else None."""
    if token in (LOAD, SUPPORT):
        return 1.0
    try:
        value = float(token)
    except (ValueError, OverflowError):
        return None
    if math.isnan(value):
        return None
    return min(max(value, 0.0), 1.0)


def densities(grid: list[list[str]], truth: list[list[str]]) -> tuple[np.ndarray, int, int]:
    """Cell densities of ``grid`` (shaped like ``truth``), and its counts of V and unreadable cells.

    V and unreadable cells are empty; every cell that is L or S in the truth is solid, whatever the grid
    holds there (the loads and supports are the truth's, not the answer's).
    """
    shape = (len(truth), len(truth[0]))
    rho = np.zeros(shape)
    unfilled = unparsable = 0
    for r in range(shape[0]):
        for c in range(shape[1]):
            token = grid[r][c] if r < len(grid) and c < len(grid[r]) else MASK
            value = cell_density(token)
            if value is None:
                unfilled += token == MASK
                unparsable += token != MASK
                value = 0.0
            if truth[r][c].strip() in (LOAD, SUPPORT):
                value = 1.0
            rho[r, c] = value
    return rho, unfilled, unparsable
