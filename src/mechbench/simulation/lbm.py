"""Lattice-Boltzmann kernels (numba, single-threaded, no GIL): D2Q9 BGK flow with a Smagorinsky sub-grid model and a
Boussinesq body force, and D2Q5 advection–diffusion of temperature.

Lattice units (Δx = Δt = 1, c_s² = 1/3). Row 0 is the bottom of the domain (gravity along −y); column 0 the
inlet. Streaming pulls from the upwind neighbour; a solid neighbour reflects (half-way bounce-back: no-slip
walls; for temperature, adiabatic walls, or a fixed wall temperature by anti-bounce-back where ``hot`` is set).
The inlet imposes the velocity profile at the density of its neighbour; the outlet imposes the reference
density at the velocity of its neighbour (both by non-equilibrium extrapolation).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

EX = np.array([0, 1, 0, -1, 0, 1, -1, -1, 1], dtype=np.int64)
EY = np.array([0, 0, 1, 0, -1, 1, 1, -1, -1], dtype=np.int64)
W = np.array([4 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 36, 1 / 36, 1 / 36, 1 / 36])
OPPOSITE = np.array([0, 3, 4, 1, 2, 7, 8, 5, 6], dtype=np.int64)
W5 = np.array([1 / 3, 1 / 6, 1 / 6, 1 / 6, 1 / 6])
OPPOSITE5 = np.array([0, 3, 4, 1, 2], dtype=np.int64)


def equilibrium(rho: np.ndarray, ux: np.ndarray, uy: np.ndarray) -> np.ndarray:
    """Equilibrium populations (9 × shape) of the macroscopic fields."""
    eu = EX[:, None, None] * ux[None] + EY[:, None, None] * uy[None]
    return W[:, None, None] * rho[None] * (1 + 3 * eu + 4.5 * eu**2 - 1.5 * (ux**2 + uy**2)[None])


def pull_sources(solid: np.ndarray) -> np.ndarray:
    """For each direction and cell (9 × cells, row-major), the cell its population streams from; −1 where that cell
    is solid or outside the domain, so the population is the cell's own opposite one, bounced back."""
    ny, nx = solid.shape
    y, x = np.mgrid[0:ny, 0:nx]
    sources = np.full((9, ny * nx), -1, dtype=np.int64)
    for i in range(9):
        sx, sy = x - EX[i], y - EY[i]
        inside = (sx >= 0) & (sx < nx) & (sy >= 0) & (sy < ny)
        inside[inside] &= ~solid[sy[inside], sx[inside]]
        sources[i] = np.where(inside, sy * nx + sx, -1).ravel()
    return sources


@njit(cache=True, nogil=True)
def flow_step(
    f: np.ndarray,
    out: np.ndarray,
    solid: np.ndarray,
    sources: np.ndarray,
    inlet: np.ndarray,
    tau: float,
    smagorinsky: float,
    buoyancy: float,
    temperature: np.ndarray,
    rho: np.ndarray,
    ux: np.ndarray,
    uy: np.ndarray,
) -> None:
    """One stream-and-collide step from ``f`` into ``out`` (``sources`` from :func:`pull_sources`); writes density
    and velocity (after the force)."""
    ny, nx = solid.shape
    cells = ny * nx
    pulled, written = f.reshape(9, cells), out.reshape(9, cells)
    is_solid, heat = solid.reshape(cells), temperature.reshape(cells)
    density, vel_x, vel_y = rho.reshape(cells), ux.reshape(cells), uy.reshape(cells)
    local = np.empty(9)
    for k in range(cells):
        if is_solid[k]:
            for i in range(9):
                written[i, k] = 0.0
            density[k], vel_x[k], vel_y[k] = 1.0, 0.0, 0.0
            continue
        for i in range(9):
            source = sources[i, k]
            local[i] = pulled[i, source] if source >= 0 else pulled[OPPOSITE[i], k]
        r = local[0] + local[1] + local[2] + local[3] + local[4] + local[5] + local[6] + local[7] + local[8]
        mx = local[1] - local[3] + local[5] - local[6] - local[7] + local[8]
        my = local[2] - local[4] + local[5] + local[6] - local[7] - local[8]
        force = buoyancy * heat[k] * r
        vx, vy = mx / r, (my + 0.5 * force) / r
        square = 1.5 * (vx * vx + vy * vy)
        t = tau
        if smagorinsky > 0.0:
            # Non-equilibrium momentum flux Σ e e (f − f_eq), with Σ e e f_eq = ρ (δ/3 + u u) exactly.
            pxx = local[1] + local[3] + local[5] + local[6] + local[7] + local[8] - r * (1.0 / 3.0 + vx * vx)
            pyy = local[2] + local[4] + local[5] + local[6] + local[7] + local[8] - r * (1.0 / 3.0 + vy * vy)
            pxy = local[5] - local[6] + local[7] - local[8] - r * vx * vy
            q = math.sqrt(2.0 * (pxx * pxx + pyy * pyy + 2.0 * pxy * pxy))
            t = 0.5 * (tau + math.sqrt(tau * tau + 18.0 * math.sqrt(2.0) * smagorinsky**2 * q / r))
        omega = 1.0 / t
        for i in range(9):
            eu = EX[i] * vx + EY[i] * vy
            feq = W[i] * r * (1.0 + 3.0 * eu + 4.5 * eu * eu - square)
            source_term = (1.0 - 0.5 * omega) * W[i] * (3.0 * (EY[i] - vy) + 9.0 * eu * EY[i]) * force
            written[i, k] = local[i] - (local[i] - feq) * omega + source_term
        density[k], vel_x[k], vel_y[k] = r, vx, vy
    # Inlet and outlet by non-equilibrium extrapolation (Guo, Zheng and Shi 2002): the boundary column takes the
    # equilibrium of its imposed state plus the neighbouring column's non-equilibrium part, which keeps the
    # boundaries from ringing (an equilibrium-only boundary leaves a checkerboard of pressure beside it).
    # Inlet: the imposed velocity at the density of the next column; outlet: reference density, upstream velocity.
    for y in range(ny):
        if not solid[y, 0]:
            v, r1, vx1, vy1 = inlet[y], rho[y, 1], ux[y, 1], uy[y, 1]
            for i in range(9):
                eu, eu1 = EX[i] * v, EX[i] * vx1 + EY[i] * vy1
                feq = W[i] * r1 * (1.0 + 3.0 * eu + 4.5 * eu * eu - 1.5 * v * v)
                feq1 = W[i] * r1 * (1.0 + 3.0 * eu1 + 4.5 * eu1 * eu1 - 1.5 * (vx1 * vx1 + vy1 * vy1))
                out[i, y, 0] = feq + out[i, y, 1] - feq1
            ux[y, 0], uy[y, 0], rho[y, 0] = v, 0.0, r1
        if not solid[y, nx - 1]:
            vx, vy, r2 = ux[y, nx - 2], uy[y, nx - 2], rho[y, nx - 2]
            square = 1.5 * (vx * vx + vy * vy)
            for i in range(9):
                eu = EX[i] * vx + EY[i] * vy
                shape = 1.0 + 3.0 * eu + 4.5 * eu * eu - square
                out[i, y, nx - 1] = W[i] * shape + out[i, y, nx - 2] - W[i] * r2 * shape
            ux[y, nx - 1], uy[y, nx - 1], rho[y, nx - 1] = vx, vy, 1.0


@njit(cache=True, nogil=True)
def heat_step(
    g: np.ndarray,
    out: np.ndarray,
    solid: np.ndarray,
    hot: np.ndarray,
    tau: float,
    ux: np.ndarray,
    uy: np.ndarray,
    temperature: np.ndarray,
) -> None:
    """One D2Q5 step of temperature: inflow at 0, fixed 1 on ``hot`` solid cells, adiabatic elsewhere."""
    ny, nx = solid.shape
    local = np.empty(5)
    for y in range(ny):
        for x in range(nx):
            if solid[y, x]:
                temperature[y, x] = 1.0 if hot[y, x] else 0.0
                continue
            for i in range(5):
                sx, sy = x - EX[i], y - EY[i]
                if sx < 0 or sx >= nx or sy < 0 or sy >= ny:
                    local[i] = g[OPPOSITE5[i], y, x]
                elif solid[sy, sx]:
                    local[i] = (2.0 * W5[i] - g[OPPOSITE5[i], y, x]) if hot[sy, sx] else g[OPPOSITE5[i], y, x]
                else:
                    local[i] = g[i, sy, sx]
            t = 0.0
            for i in range(5):
                t += local[i]
            for i in range(5):
                geq = W5[i] * t * (1.0 + 3.0 * (EX[i] * ux[y, x] + EY[i] * uy[y, x]))
                out[i, y, x] = local[i] - (local[i] - geq) / tau
            temperature[y, x] = t
    for y in range(ny):
        for i in range(5):
            out[i, y, 0] = 0.0
            out[i, y, nx - 1] = out[i, y, nx - 2]
        temperature[y, 0] = 0.0
        temperature[y, nx - 1] = temperature[y, nx - 2]
