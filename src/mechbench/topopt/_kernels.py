"""Compiled inner loops of the reference optimiser (numba, no GIL, cached on disk).

These kernels keep a whole SIMP run, a whole swap pass and a batch of solves inside compiled code, on the banded
solves of :mod:`mechbench.fem.banded`: element energies, the density filter and the optimality-criteria bisection,
all single-threaded.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from mechbench.fem.banded import factor, solve_cells, substitute, unit_energies
from mechbench.topopt.fea import E_MIN


@njit(cache=True, nogil=True)
def young_moduli(rho: np.ndarray, penalty: float) -> np.ndarray:
    """E = E_min + clip(ρ, 0, 1)^p (1 − E_min) per cell."""
    out = np.empty(rho.size)
    for e in range(rho.size):
        r = min(max(rho[e], 0.0), 1.0)
        out[e] = E_MIN + r**penalty * (1.0 - E_MIN)
    return out


@njit(cache=True, nogil=True)
def _filter(indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray, x: np.ndarray) -> np.ndarray:
    out = np.empty(indptr.size - 1)
    for i in range(out.size):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += weights[k] * x[indices[k]]
        out[i] = s
    return out


@njit(cache=True, nogil=True)
def simp_run(
    start: np.ndarray,
    free: np.ndarray,
    pinned: np.ndarray,
    bound: float,
    penalty: float,
    indptr: np.ndarray,
    indices: np.ndarray,
    weights: np.ndarray,
    hs: np.ndarray,
    move: float,
    max_iterations: int,
    tolerance: float,
    ke: np.ndarray,
    emap: np.ndarray,
    edofs: np.ndarray,
    free_dofs: np.ndarray,
    force: np.ndarray,
    kd: int,
) -> tuple[np.ndarray, int]:
    """One published OC run from the design ``start``; returns the physical (filtered) field and solves used.

    ``bound`` is P + B, the total material the bisection aims at; the filter weights are raw (H), ``hs``
    their row sums (the filter is symmetric, so Hᵀ = H).
    """
    ncell = start.size
    x = start.copy()
    rho = start.copy()
    solves = 0
    q = np.empty(ncell)
    dv_in = np.empty(ncell)
    cand = np.empty(ncell)
    for i in range(ncell):
        dv_in[i] = 1.0 / hs[i] if free[i] else 0.0
    dv = _filter(indptr, indices, weights, dv_in)
    free_cells = np.flatnonzero(free)
    nfree = free_cells.size
    low = np.empty(nfree)
    high = np.empty(nfree)
    new_x = np.empty(ncell)
    new_rho = np.empty(ncell)
    xf = np.empty(nfree)
    qf = np.empty(nfree)
    candf = np.empty(nfree)
    dvf = np.empty(nfree)
    base_total = 0.0
    for i in range(ncell):
        cand[i] = pinned[i]
        if not free[i]:
            base_total += pinned[i] * (1.0 + dv[i])
    for k in range(nfree):
        dvf[k] = dv[free_cells[k]]
    for _ in range(max_iterations):
        young = young_moduli(rho, penalty)
        c, u = solve_cells(young, ke, emap, edofs, free_dofs, force, kd)
        solves += 1
        if not math.isfinite(c):
            break
        w = unit_energies(u, ke, edofs)
        s = np.empty(ncell)
        for i in range(ncell):
            s[i] = (-penalty * max(rho[i], 1e-9) ** (penalty - 1.0) * w[i]) / hs[i] if free[i] else 0.0
        dc = _filter(indptr, indices, weights, s)
        for i in range(ncell):
            q[i] = max(-dc[i], 0.0) / max(dv[i], 1e-12)
        for k in range(nfree):
            i = free_cells[k]
            xf[k] = x[i]
            qf[k] = q[i]
            low[k] = x[i] - move
            high[k] = x[i] + move
        # The filter is linear: Σρ' = (pinned part) + Σ_F x'·dv, one dot product per bisection step.
        l1, l2 = 1e-9, 1e9
        lmid = 0.5 * (l1 + l2)
        while (l2 - l1) / (l1 + l2) > 1e-6:
            lmid = 0.5 * (l1 + l2)
            for k in range(nfree):
                v = min(max(xf[k] * math.sqrt(qf[k] / lmid), low[k]), high[k])
                candf[k] = min(max(v, 0.0), 1.0)
            total = base_total
            for k in range(nfree):
                total += candf[k] * dvf[k]
            if total > bound:
                l1 = lmid
            else:
                l2 = lmid
        for k in range(nfree):  # the last evaluated point, as published
            cand[free_cells[k]] = candf[k]
        new_x[:] = cand
        filtered = _filter(indptr, indices, weights, cand)
        for i in range(ncell):
            new_rho[i] = filtered[i] / hs[i] if free[i] else pinned[i]
        change = 0.0
        for i in range(ncell):
            if free[i]:
                change = max(change, abs(new_x[i] - x[i]))
        x[:] = new_x
        rho[:] = new_rho
        if change < tolerance:
            break
    return rho, solves


@njit(cache=True, nogil=True)
def swap_screen(
    design: np.ndarray,
    sources: np.ndarray,
    targets: np.ndarray,
    ke: np.ndarray,
    emap: np.ndarray,
    edofs: np.ndarray,
    free_dofs: np.ndarray,
    force: np.ndarray,
    kd: int,
) -> tuple[bool, np.ndarray]:
    """Approximate compliance of every (source → 0, target → 1) swap from one factorisation (Woodbury).

    A swap changes the stiffness of two cells: K' = K + U·D·Uᵀ on their ≤ 16 DOFs, so
    c' = c − u_Sᵀ (I + D·G)⁻¹ D·u_S with G = K⁻¹ on those DOFs. The values are screening estimates (a swap
    that nearly disconnects material is ill-conditioned and comes out large); callers re-solve the
    contenders exactly. Returns False when the current design cannot be factorised.
    """
    n = free_dofs.size
    young = young_moduli(design, 3.0)
    ok, band = factor(young, ke, emap, n, kd)
    out = np.full((sources.size, targets.size), np.inf)
    if not ok:
        return False, out
    f = np.empty(n)
    for i in range(n):
        f[i] = force[free_dofs[i]]
    u = f.copy()
    substitute(band, u)
    c = 0.0
    for i in range(n):
        c += f[i] * u[i]
    # K⁻¹ columns for every free DOF of every source and target cell.
    column = np.full(n, -1, dtype=np.int64)
    count = 0
    for group in (sources, targets):
        for e in group:
            for a in range(8):
                d = emap[e, a]
                if d >= 0 and column[d] < 0:
                    column[d] = count
                    count += 1
    z = np.zeros((n, count))
    for d in range(n):
        if column[d] >= 0:
            z[d, column[d]] = 1.0
    substitute(band, z)
    dofs = np.empty(16, dtype=np.int64)
    local = np.empty(16, dtype=np.int64)
    for si in range(sources.size):
        s = sources[si]
        for ti in range(targets.size):
            t = targets[ti]
            # The union of the two cells' free DOFs, and each element DOF's slot in it.
            m = 0
            for k in range(16):
                e = s if k < 8 else t
                d = emap[e, k % 8]
                local[k] = -1
                if d < 0:
                    continue
                slot = -1
                for q in range(m):
                    if dofs[q] == d:
                        slot = q
                if slot < 0:
                    dofs[m] = d
                    slot = m
                    m += 1
                local[k] = slot
            delta = np.zeros((m, m))
            change_s = (E_MIN + 0.0**3.0 * (1.0 - E_MIN)) - young[s]
            change_t = (E_MIN + 1.0**3.0 * (1.0 - E_MIN)) - young[t]
            for k in range(16):
                if local[k] < 0:
                    continue
                scale = change_s if k < 8 else change_t
                for j in range(8 * (k // 8), 8 * (k // 8) + 8):
                    if local[j] >= 0:
                        delta[local[k], local[j]] += scale * ke[k % 8, j % 8]
            g = np.empty((m, m))
            us = np.empty(m)
            for a in range(m):
                us[a] = u[dofs[a]]
                for b in range(m):
                    g[a, b] = z[dofs[a], column[dofs[b]]]
            capacitance = np.eye(m) + delta @ g
            rhs = delta @ us
            try:
                y = np.linalg.solve(capacitance, rhs)
            except Exception:
                continue
            value = c - us @ y
            if math.isfinite(value):
                out[si, ti] = value
    return True, out


@njit(cache=True, nogil=True)
def swap_exact(
    design: np.ndarray,
    pairs: np.ndarray,
    ke: np.ndarray,
    emap: np.ndarray,
    edofs: np.ndarray,
    free_dofs: np.ndarray,
    force: np.ndarray,
    kd: int,
) -> np.ndarray:
    """Exact compliance (published solve and rejection rules) of each (source, target) swap in ``pairs``."""
    out = np.empty(pairs.shape[0])
    trial = design.copy()
    for k in range(pairs.shape[0]):
        s, t = pairs[k, 0], pairs[k, 1]
        trial[s] = 0.0
        trial[t] = 1.0
        out[k], _ = solve_cells(young_moduli(trial, 3.0), ke, emap, edofs, free_dofs, force, kd)
        trial[s] = design[s]
        trial[t] = design[t]
    return out
