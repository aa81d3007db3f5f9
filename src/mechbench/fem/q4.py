"""The bilinear plane-stress element (Q4) on a grid of square cells: its stiffness matrix, and the DOF bookkeeping
of a rows × cols grid.

One element per cell, 2×2 Gauss integration (exact for this element); nodes numbered row by row over
(rows + 1) × (cols + 1), row 0 at the top, two DOFs (x, y) per node with +y down the grid; element corners TL, TR,
BR, BL. For a square plane-stress element the stiffness does not depend on the cell size. The topology optimiser
(:mod:`mechbench.topopt`) and SPhyR's physics tools build on this module: SPhyR's published model is this raster of
squares. (The SeeSim generator meshes true outlines with quadratic triangles instead:
:mod:`mechbench.simulation.elastic`.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

POISSON = 0.3
SIGNS = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=float)
"""Signs (ξ, η) of the element's corners TL, TR, BR, BL."""


@lru_cache(maxsize=8)
def element_stiffness(nu: float = POISSON) -> np.ndarray:
    """8×8 stiffness of a unit square Q4 element, E = 1, DOFs (x, y) of corners TL, TR, BR, BL."""
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    D = d_matrix(nu)
    ke = np.zeros((8, 8))
    g = 1 / math.sqrt(3)
    signs = SIGNS
    for xi in (-g, g):
        for eta in (-g, g):
            dN = 0.25 * np.stack([signs[:, 0] * (1 + signs[:, 1] * eta), signs[:, 1] * (1 + signs[:, 0] * xi)])
            J = dN @ corners
            dxy = np.linalg.solve(J, dN)  # derivatives by x and y, one column per node
            B = np.zeros((3, 8))
            B[0, 0::2] = dxy[0]
            B[1, 1::2] = dxy[1]
            B[2, 0::2] = dxy[1]
            B[2, 1::2] = dxy[0]
            ke += B.T @ D @ B * np.linalg.det(J)
    ke.setflags(write=False)
    return ke


@dataclass(frozen=True)
class Mesh:
    """DOF bookkeeping of a rows × cols grid."""

    rows: int
    cols: int

    @property
    def ndof(self) -> int:
        return 2 * (self.rows + 1) * (self.cols + 1)

    def node(self, r: int, c: int) -> int:
        return r * (self.cols + 1) + c

    @property
    def edofs(self) -> np.ndarray:
        """The 8 DOFs of every cell (row-major)."""
        return element_dofs(self.rows, self.cols)

    def cell_nodes(self, r: int, c: int) -> tuple[int, int, int, int]:
        """Corner nodes TL, TR, BR, BL of cell (r, c)."""
        return self.node(r, c), self.node(r, c + 1), self.node(r + 1, c + 1), self.node(r + 1, c)


@lru_cache(maxsize=32)
def element_dofs(rows: int, cols: int) -> np.ndarray:
    """The 8 DOFs of every cell of a rows × cols grid (read-only)."""
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    width = cols + 1
    nodes = np.stack([r * width + c, r * width + c + 1, (r + 1) * width + c + 1, (r + 1) * width + c], axis=-1)
    nodes = nodes.reshape(-1, 4)
    out = np.empty((rows * cols, 8), dtype=np.int64)
    out[:, 0::2] = 2 * nodes
    out[:, 1::2] = 2 * nodes + 1
    out.setflags(write=False)
    return out


def d_matrix(nu: float) -> np.ndarray:
    """Plane-stress elasticity matrix for E = 1."""
    return np.array([[1, nu, 0], [nu, 1, 0], [0, 0, (1 - nu) / 2]]) / (1 - nu * nu)
