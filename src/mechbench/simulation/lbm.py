"""Lattice-Boltzmann kernels (numba, single-threaded, no GIL): D2Q9 BGK flow with a Smagorinsky sub-grid model and a
Boussinesq body force, and D2Q5 advection–diffusion of temperature.

Lattice units (Δx = Δt = 1, c_s² = 1/3). Row 0 is the bottom of the domain (gravity along −y); column 0 the
inlet. Streaming pulls from the upwind neighbour; a solid neighbour reflects (half-way bounce-back: no-slip
walls; for temperature, adiabatic walls, or a fixed wall temperature by anti-bounce-back where ``hot`` is set).
The inlet imposes the velocity profile at the density of its neighbour; the outlet imposes the reference
density at the velocity of its neighbour.
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


@njit(cache=True, nogil=True, inline="always")
def _equilibrium(i: int, rho: float, ux: float, uy: float) -> float:
    eu = EX[i] * ux + EY[i] * uy
    return W[i] * rho * (1.0 + 3.0 * eu + 4.5 * eu * eu - 1.5 * (ux * ux + uy * uy))


def equilibrium(rho: np.ndarray, ux: np.ndarray, uy: np.ndarray) -> np.ndarray:
    """Equilibrium populations (9 × shape) of the macroscopic fields."""
    eu = EX[:, None, None] * ux[None] + EY[:, None, None] * uy[None]
    return W[:, None, None] * rho[None] * (1 + 3 * eu + 4.5 * eu**2 - 1.5 * (ux**2 + uy**2)[None])


@njit(cache=True, nogil=True)
def flow_step(
    f: np.ndarray,
    out: np.ndarray,
    solid: np.ndarray,
    inlet: np.ndarray,
    tau: float,
    smagorinsky: float,
    buoyancy: float,
    temperature: np.ndarray,
    rho: np.ndarray,
    ux: np.ndarray,
    uy: np.ndarray,
) -> None:
    """One stream-and-collide step from ``f`` into ``out``; writes density and velocity (after the force)."""
    ny, nx = solid.shape
    local = np.empty(9)
    for y in range(ny):
        for x in range(nx):
            if solid[y, x]:
                for i in range(9):
                    out[i, y, x] = 0.0
                rho[y, x], ux[y, x], uy[y, x] = 1.0, 0.0, 0.0
                continue
            for i in range(9):
                sx, sy = x - EX[i], y - EY[i]
                if sx < 0 or sx >= nx or sy < 0 or sy >= ny or solid[sy, sx]:
                    local[i] = f[OPPOSITE[i], y, x]
                else:
                    local[i] = f[i, sy, sx]
            r = 0.0
            mx = 0.0
            my = 0.0
            for i in range(9):
                r += local[i]
                mx += local[i] * EX[i]
                my += local[i] * EY[i]
            force = buoyancy * temperature[y, x] * r
            vx, vy = mx / r, (my + 0.5 * force) / r
            t = tau
            if smagorinsky > 0.0:
                pxx = pyy = pxy = 0.0
                for i in range(9):
                    neq = local[i] - _equilibrium(i, r, vx, vy)
                    pxx += EX[i] * EX[i] * neq
                    pyy += EY[i] * EY[i] * neq
                    pxy += EX[i] * EY[i] * neq
                q = math.sqrt(2.0 * (pxx * pxx + pyy * pyy + 2.0 * pxy * pxy))
                t = 0.5 * (tau + math.sqrt(tau * tau + 18.0 * math.sqrt(2.0) * smagorinsky**2 * q / r))
            for i in range(9):
                feq = _equilibrium(i, r, vx, vy)
                source = (1.0 - 0.5 / t) * W[i] * (3.0 * (EY[i] - vy) + 9.0 * (EX[i] * vx + EY[i] * vy) * EY[i]) * force
                out[i, y, x] = local[i] - (local[i] - feq) / t + source
            rho[y, x], ux[y, x], uy[y, x] = r, vx, vy
    # Inlet: the imposed velocity at the density of the next column; outlet: reference density, upstream velocity.
    for y in range(ny):
        if not solid[y, 0]:
            for i in range(9):
                out[i, y, 0] = _equilibrium(i, rho[y, 1], inlet[y], 0.0)
            ux[y, 0], uy[y, 0], rho[y, 0] = inlet[y], 0.0, rho[y, 1]
        if not solid[y, nx - 1]:
            vx, vy = ux[y, nx - 2], uy[y, nx - 2]
            for i in range(9):
                out[i, y, nx - 1] = _equilibrium(i, 1.0, vx, vy)
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
