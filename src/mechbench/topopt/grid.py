"""SPhyR grids ↔ finite-element problems: loads and supports from the ground truth, densities from a grid."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Literal

import numpy as np

from mechbench.topopt.fea import LoadCase, Mesh

Gravity = Literal["down", "up", "left", "right"]
_GRAVITY = {"down": (0, 1), "up": (0, -1), "right": (1, 0), "left": (-1, 0)}  # (x, y) with +y down the grid
TOTAL_LOAD = 1.0


def load_case(truth: list[list[str]], gravity: Gravity = "down") -> LoadCase:
    """Unit total load along gravity shared by the L cells' corners; every node of every S cell clamped."""
    rows, cols = len(truth), len(truth[0])
    mesh = Mesh(rows, cols)
    loads = [(r, c) for r in range(rows) for c in range(cols) if truth[r][c] == "L"]
    supports = [(r, c) for r in range(rows) for c in range(cols) if truth[r][c] == "S"]
    force = np.zeros(mesh.ndof)
    gx, gy = _GRAVITY[gravity]
    for r, c in loads:
        for node in mesh.cell_nodes(r, c):
            force[2 * node] += TOTAL_LOAD * gx / (4 * len(loads))
            force[2 * node + 1] += TOTAL_LOAD * gy / (4 * len(loads))
    fixed = sorted({2 * n + k for r, c in supports for n in mesh.cell_nodes(r, c) for k in (0, 1)})
    return LoadCase(mesh=mesh, force=force, fixed=np.array(fixed, dtype=np.int64))


def density_value(token: str) -> float | None:
    """A cell's density: L/S solid (1), a number in [0, 1] (clipped), None for V or anything unreadable."""
    if token in ("L", "S"):
        return 1.0
    try:
        value = Decimal(token)
    except (InvalidOperation, ValueError):
        return None
    if not value.is_finite():
        return None
    return float(min(max(value, Decimal(0)), Decimal(1)))


def densities(grid: list[list[str]], shape: tuple[int, int]) -> tuple[np.ndarray, int, int]:
    """Density array of ``shape`` (missing or unreadable cells 0) and the counts of V and unreadable cells."""
    rho = np.zeros(shape)
    unfilled = unparsable = 0
    for r in range(shape[0]):
        for c in range(shape[1]):
            token = grid[r][c] if r < len(grid) and c < len(grid[r]) else "V"
            value = density_value(token)
            if value is None:
                unfilled += token == "V"
                unparsable += token != "V"
                value = 0.0
            rho[r, c] = value
    return rho, unfilled, unparsable
