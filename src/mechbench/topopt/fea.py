"""Plane-stress finite elements on a grid of unit square cells, with SIMP stiffness interpolation.

One bilinear Q4 element per cell (2×2 Gauss, exact for this element), E(ρ) = E_min + ρ^p (E0 − E_min).
Nodes are numbered row by row over (rows + 1) × (cols + 1), row 0 at the top; two DOFs (x, y) per node,
+y pointing down the printed grid. These are the published SPhyR physics conventions.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from mechbench.fem.q4 import Mesh, element_dofs, element_stiffness

E0 = 1.0
E_MIN = 1e-9
PENALTY = 3.0
# A solve whose residual exceeds this (relative to max(|f|, 1)) is not trusted: compliance = ∞.
RESIDUAL_TOLERANCE = 1e-6


@lru_cache(maxsize=32)
def _pattern(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    edofs = element_dofs(rows, cols)
    return np.repeat(edofs, 8, axis=1).ravel(), np.tile(edofs, (1, 8)).ravel()


def stiffness(densities: np.ndarray, penalty: float = PENALTY) -> sp.csc_matrix:
    """Global stiffness matrix for cell densities (rows × cols), densities clipped to [0, 1]."""
    rows, cols = densities.shape
    rho = np.clip(np.nan_to_num(densities, nan=0.0), 0.0, 1.0).ravel()
    young = E_MIN + rho**penalty * (E0 - E_MIN)
    i, j = _pattern(rows, cols)
    values = (element_stiffness().ravel()[None, :] * young[:, None]).ravel()
    ndof = 2 * (rows + 1) * (cols + 1)
    return sp.csc_matrix((values, (i, j)), shape=(ndof, ndof))


@dataclass(frozen=True)
class LoadCase:
    """Loads and clamped DOFs on a mesh."""

    mesh: Mesh
    force: np.ndarray
    fixed: np.ndarray

    @property
    def free(self) -> np.ndarray:
        mask = np.ones(self.mesh.ndof, dtype=bool)
        mask[self.fixed] = False
        return np.flatnonzero(mask)


@dataclass(frozen=True)
class Solution:
    """Displacements and compliance (∞ when the solve is not trustworthy)."""

    displacement: np.ndarray
    compliance: float

    @property
    def finite(self) -> bool:
        return math.isfinite(self.compliance)

    @property
    def max_displacement(self) -> float:
        """Largest nodal displacement magnitude (0 after a rejected solve, whose displacements are zero)."""
        u = self.displacement.reshape(-1, 2)
        return float(np.hypot(u[:, 0], u[:, 1]).max()) if len(u) else 0.0


def solve(densities: np.ndarray, case: LoadCase, penalty: float = PENALTY) -> Solution:
    """Linear elastic solve with the published rejection rules.

    Rejected (compliance ∞, zero displacements): no free DOFs, no load, a solver error, a non-finite
    solution, or a residual ‖K_ff u_f − f_f‖ above 1e-6·max(‖f_f‖, 1). Otherwise c = fᵀu, and a non-finite
    or negative c becomes ∞ with the displacements kept.
    """
    free = case.free
    zero = np.zeros(case.mesh.ndof)
    if not len(free) or not case.force.any():
        return Solution(zero, math.inf)
    K = stiffness(densities, penalty)
    Kff = K[free][:, free]
    f = case.force[free]
    u = np.zeros(case.mesh.ndof)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", spla.MatrixRankWarning)
        try:
            u[free] = spla.spsolve(Kff, f)
        except (RuntimeError, ValueError):
            return Solution(zero, math.inf)
        if not np.isfinite(u).all():
            return Solution(zero, math.inf)
        residual = float(np.linalg.norm(Kff @ u[free] - f))
        if residual > RESIDUAL_TOLERANCE * max(float(np.linalg.norm(f)), 1.0):
            return Solution(zero, math.inf)
        compliance = float(case.force @ u)
    if not math.isfinite(compliance) or compliance < 0:
        return Solution(u, math.inf)
    return Solution(u, compliance)
