"""Banded Cholesky solves of plane-stress grids, compiled (numba, no GIL, cached on disk).

One solve of a SPhyR-sized system is a few hundred DOFs: per-call overhead of numpy and LAPACK, not arithmetic,
dominates, and multi-threaded BLAS on such systems only adds contention. The row-by-row node numbering keeps the
stiffness matrix within a band of 2·(cols + 2) DOFs, so assembly, factorisation and substitution run in compiled
loops, single-threaded.

Band storage: ``band[j, d]`` holds K[j + d, j] (lower triangle, one row per column of K), so the inner loops of
the factorisation run over contiguous memory.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def assemble(young: np.ndarray, ke: np.ndarray, emap: np.ndarray, n: int, kd: int) -> np.ndarray:
    """The banded K_ff: element stiffness ``ke`` scaled by each cell's modulus, ``emap`` mapping element DOFs to
    free DOFs (−1: fixed)."""
    band = np.zeros((n, kd + 1))
    for e in range(emap.shape[0]):
        y = young[e]
        for a in range(8):
            ia = emap[e, a]
            if ia < 0:
                continue
            for b in range(8):
                ib = emap[e, b]
                if ib < 0 or ib > ia:
                    continue
                band[ib, ia - ib] += y * ke[a, b]
    return band


@njit(cache=True, nogil=True)
def cholesky(band: np.ndarray) -> bool:
    """In-place banded Cholesky; False when a pivot is not positive (not SPD to working precision)."""
    n, width = band.shape
    kd = width - 1
    column = np.empty(width)  # a copy of the pivot column, so the update loop reads memory it never writes
    for j in range(n):
        d = band[j, 0]
        if not d > 0.0:
            return False
        ljj = math.sqrt(d)
        band[j, 0] = ljj
        m = min(kd, n - 1 - j)
        for i in range(1, m + 1):
            v = band[j, i] / ljj
            band[j, i] = v
            column[i] = v
        for k in range(1, m + 1):
            lkj = column[k]
            row = band[j + k]
            for i in range(k, m + 1):
                row[i - k] -= column[i] * lkj
    return True


@njit(cache=True, nogil=True)
def substitute(band: np.ndarray, rhs: np.ndarray) -> None:
    """Solve L Lᵀ x = rhs in place; ``rhs`` is (n,) or (n, k) for k right-hand sides."""
    n, width = band.shape
    kd = width - 1
    for j in range(n):
        rhs[j] /= band[j, 0]
        m = min(kd, n - 1 - j)
        for i in range(1, m + 1):
            rhs[j + i] -= band[j, i] * rhs[j]
    for j in range(n - 1, -1, -1):
        m = min(kd, n - 1 - j)
        for i in range(1, m + 1):
            rhs[j] -= band[j, i] * rhs[j + i]
        rhs[j] /= band[j, 0]


@njit(cache=True, nogil=True)
def solve_cells(
    young: np.ndarray,
    ke: np.ndarray,
    emap: np.ndarray,
    edofs: np.ndarray,
    free_dofs: np.ndarray,
    force: np.ndarray,
    kd: int,
) -> tuple[float, np.ndarray]:
    """Compliance and full displacement vector, with the published rejection rules (∞ and zeros)."""
    ndof = force.size
    n = free_dofs.size
    u = np.zeros(ndof)
    if n == 0:
        return math.inf, u
    f = np.empty(n)
    fnorm2 = 0.0
    for i in range(n):
        f[i] = force[free_dofs[i]]
        fnorm2 += f[i] * f[i]
    loaded = False
    for i in range(ndof):
        if force[i] != 0.0:
            loaded = True
    if not loaded:
        return math.inf, u
    band = assemble(young, ke, emap, n, kd)
    if not cholesky(band):
        return math.inf, u
    x = f.copy()
    substitute(band, x)
    for i in range(n):
        if not math.isfinite(x[i]):
            return math.inf, u
        u[free_dofs[i]] = x[i]
    # Residual ‖K_ff u_f − f_f‖ by elements (K is never formed).
    r = -f
    for e in range(emap.shape[0]):
        y = young[e]
        for a in range(8):
            ia = emap[e, a]
            if ia < 0:
                continue
            s = 0.0
            for b in range(8):
                s += ke[a, b] * u[edofs[e, b]]
            r[ia] += y * s
    rnorm = math.sqrt(np.sum(r * r))
    if rnorm > 1e-6 * max(math.sqrt(fnorm2), 1.0):
        return math.inf, np.zeros(ndof)
    c = 0.0
    for i in range(ndof):
        c += force[i] * u[i]
    if not math.isfinite(c) or c < 0.0:
        return math.inf, u
    return c, u


@njit(cache=True, nogil=True)
def unit_energies(u: np.ndarray, ke: np.ndarray, edofs: np.ndarray) -> np.ndarray:
    """uₑᵀ·KE·uₑ per cell (not multiplied by the modulus)."""
    ne = edofs.shape[0]
    out = np.empty(ne)
    ue = np.empty(8)
    for e in range(ne):
        for a in range(8):
            ue[a] = u[edofs[e, a]]
        s = 0.0
        for a in range(8):
            t = 0.0
            for b in range(8):
                t += ke[a, b] * ue[b]
            s += ue[a] * t
        out[e] = s
    return out


@njit(cache=True, nogil=True)
def factor(young: np.ndarray, ke: np.ndarray, emap: np.ndarray, n: int, kd: int) -> tuple[bool, np.ndarray]:
    """The banded Cholesky factor of K_ff (False when K_ff is not SPD to working precision)."""
    band = assemble(young, ke, emap, n, kd)
    return cholesky(band), band
