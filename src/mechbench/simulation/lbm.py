"""Lattice-Boltzmann kernels (numba, single-threaded, no GIL): D2Q9 flow with the two-relaxation-time (TRT)
collision and a Boussinesq body force, and D2Q5 advection–diffusion of temperature.

TRT (Ginzburg, d'Humières) relaxes the even part of the populations at the rate the viscosity sets and the odd part
at a rate of its own (:data:`MAGIC`, :data:`MAGIC_FROM`): the odd ghost modes that make BGK ring in a checkerboard
at low viscosity are damped. The solver is two-dimensional and laminar: no turbulence model.

Lattice units (Δx = Δt = 1, c_s² = 1/3). Row 0 is the bottom of the domain (gravity along −y); column 0 the
inlet. Streaming pulls from the upwind neighbour; a solid neighbour reflects: curved walls by the interpolated
bounce-back of Bouzidi, Firdaouss and Lallemand (2001) at the true wall distance ``q`` of each link (0.5 on a
straight wall: half-way bounce-back); for temperature, adiabatic walls, or a fixed wall temperature by
anti-bounce-back where ``hot`` is set.
The inlet imposes the velocity profile at the density of its neighbour; the outlet imposes the reference
density at the velocity of its neighbour (both by non-equilibrium extrapolation).
"""

from __future__ import annotations

import numpy as np
from numba import njit

EX = np.array([0, 1, 0, -1, 0, 1, -1, -1, 1], dtype=np.int64)
EY = np.array([0, 0, 1, 0, -1, 1, 1, -1, -1], dtype=np.int64)
W = np.array([4 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 36, 1 / 36, 1 / 36, 1 / 36])
OPPOSITE = np.array([0, 3, 4, 1, 2, 7, 8, 5, 6], dtype=np.int64)
W5 = np.array([1 / 3, 1 / 6, 1 / 6, 1 / 6, 1 / 6])
MAGIC = 3.0 / 16.0
"""TRT's Λ = (τ⁺ − ½)(τ⁻ − ½) where the viscosity allows it: a bounce-back wall then sits where it should whatever
the viscosity (Poiseuille flow exact on half-way walls, the forces on a curved wall accurate)."""
MAGIC_FROM = 0.55
"""τ⁺ from which Λ = 3/16 is used. Below it (the wakes' low viscosities) that Λ leaves the odd modes so slowly
relaxed (τ⁻ above 4) that the inlet and outlet extrapolation drives them unstable, and BGK rings in a pressure
checkerboard; there the odd part is relaxed at rate 1 (τ⁻ = 1), which damps them. The wall then moves by
O(Λ/H²) of a channel H cells across: well under 1 % on the flows that run there."""
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


def wall_distances(solid: np.ndarray, circles: tuple[tuple[float, float, float], ...] = ()) -> np.ndarray:
    """For each direction and cell (9 × cells), where the wall crosses the link from a fluid cell to its solid
    upwind neighbour, as a share of the link from the fluid cell (0.5 on a straight wall; the true distance to a
    circle of ``circles``, given as (x, y, radius) in cells with cell centres at integers)."""
    ny, nx = solid.shape
    q = np.full((9, ny * nx), 0.5)
    for cx, cy, r in circles:
        y, x = np.mgrid[0:ny, 0:nx]
        for i in range(1, 9):
            sx, sy = x - EX[i], y - EY[i]
            inside = (sx >= 0) & (sx < nx) & (sy >= 0) & (sy < ny)
            upwind = np.zeros_like(solid)
            upwind[inside] = solid[sy[inside], sx[inside]]
            link = upwind & ~solid & ((sx - cx) ** 2 + (sy - cy) ** 2 <= r * r)
            # |x_f − t e − c| = r for t in (0, 1]: the nearer root, where the link enters the circle.
            dx, dy = x - cx, y - cy
            a = float(EX[i] ** 2 + EY[i] ** 2)
            b = -2.0 * (dx * EX[i] + dy * EY[i])
            c = dx * dx + dy * dy - r * r
            root = (-b - np.sqrt(np.maximum(b * b - 4 * a * c, 0.0))) / (2 * a)
            q[i] = np.where(link.ravel(), np.clip(root, 1e-3, 1.0).ravel(), q[i])
    return q


@njit(cache=True, nogil=True)
def bounced(pulled: np.ndarray, sources: np.ndarray, q: np.ndarray, i: int, k: int) -> float:
    """The population ``i`` a wall returns to fluid cell ``k`` (post-collision populations ``pulled``, 9 × cells):
    half-way bounce-back on a straight wall (q = ½), the linear interpolated bounce-back of Bouzidi, Firdaouss and
    Lallemand (2001) elsewhere. (Their quadratic variant is more accurate on paper but drives the wakes' low
    viscosities unstable.)"""
    back = OPPOSITE[i]  # the population that moved towards the wall
    share = q[i, k]
    if share == 0.5:
        return pulled[back, k]
    if share < 0.5:
        ahead = sources[back, k]  # the fluid cell beyond this one, away from the wall
        if ahead >= 0:
            return 2.0 * share * pulled[back, k] + (1.0 - 2.0 * share) * pulled[back, ahead]
        return pulled[back, k]
    # Past the middle of the link the reflected population lands between this cell and the wall; it is
    # interpolated with the population leaving this cell away from the wall.
    return (pulled[back, k] + (2.0 * share - 1.0) * pulled[i, k]) / (2.0 * share)


def interior_cells(solid: np.ndarray) -> np.ndarray:
    """Fluid cells (row-major) whose eight neighbours are all fluid and inside the domain: their populations stream
    from fixed offsets, with no wall to bounce from (most of a lattice; :func:`flow_step` takes a fast path there)."""
    ny, nx = solid.shape
    fluid = np.zeros((ny + 2, nx + 2), dtype=bool)
    fluid[1:-1, 1:-1] = ~solid
    inner = ~solid
    for i in range(1, 9):
        inner = inner & fluid[1 - EY[i] : ny + 1 - EY[i], 1 - EX[i] : nx + 1 - EX[i]]
    return inner.ravel()


@njit(cache=True, nogil=True)
def flow_step(
    f: np.ndarray,
    out: np.ndarray,
    solid: np.ndarray,
    sources: np.ndarray,
    q: np.ndarray,
    inlet: np.ndarray,
    tau: float,
    buoyancy: float,
    temperature: np.ndarray,
    rho: np.ndarray,
    ux: np.ndarray,
    uy: np.ndarray,
    interior: np.ndarray,
    magic: float = -1.0,
) -> None:
    """One stream-and-collide step from ``f`` into ``out`` (``sources`` from :func:`pull_sources`, ``q`` from
    :func:`wall_distances`, ``interior`` from :func:`interior_cells`); writes density and velocity (after the force).
    ``magic``: TRT's Λ = (τ⁺ − ½)(τ⁻ − ½) (default: :data:`MAGIC` from τ⁺ = :data:`MAGIC_FROM`, τ⁻ = 1 below)."""
    ny, nx = solid.shape
    cells = ny * nx
    pulled, written = f.reshape(9, cells), out.reshape(9, cells)
    is_solid, heat = solid.reshape(cells), temperature.reshape(cells)
    density, vel_x, vel_y = rho.reshape(cells), ux.reshape(cells), uy.reshape(cells)
    local = np.empty(9)
    source_term = np.empty(9)
    omega_even = 1.0 / tau
    if magic < 0.0:
        magic = MAGIC if tau >= MAGIC_FROM else 0.5 * (tau - 0.5)  # the latter: τ⁻ = 1
    omega_odd = 1.0 / (magic / (tau - 0.5) + 0.5)
    for k in range(cells):
        if interior[k]:  # streamed from the eight neighbours at fixed offsets: no wall, no lookup
            local[0] = pulled[0, k]
            local[1] = pulled[1, k - 1]
            local[2] = pulled[2, k - nx]
            local[3] = pulled[3, k + 1]
            local[4] = pulled[4, k + nx]
            local[5] = pulled[5, k - nx - 1]
            local[6] = pulled[6, k - nx + 1]
            local[7] = pulled[7, k + nx + 1]
            local[8] = pulled[8, k + nx - 1]
        elif is_solid[k]:
            for i in range(9):
                written[i, k] = 0.0
            density[k], vel_x[k], vel_y[k] = 1.0, 0.0, 0.0
            continue
        else:
            for i in range(9):
                source = sources[i, k]
                if source >= 0:
                    local[i] = pulled[i, source]
                    continue
                local[i] = bounced(pulled, sources, q, i, k)
        # The collision, in one fixed order of operations: the same bits on any machine (no fast-math). Scalars,
        # not arrays: the compiler keeps them in registers (e_i·u written out: 0·v and 1·v are exact).
        f0, f1, f2, f3, f4 = local[0], local[1], local[2], local[3], local[4]
        f5, f6, f7, f8 = local[5], local[6], local[7], local[8]
        r = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8
        mx = f1 - f3 + f5 - f6 - f7 + f8
        my = f2 - f4 + f5 + f6 - f7 - f8
        force = buoyancy * heat[k] * r
        vx, vy = mx / r, (my + 0.5 * force) / r
        square = 1.5 * (vx * vx + vy * vy)
        w0, w1, w5 = W[0] * r, W[1] * r, W[5] * r
        e1, e2, e3, e4 = vx, vy, -vx, -vy
        e5, e6, e7, e8 = vx + vy, -vx + vy, -vx - vy, vx - vy
        q0 = w0 * (1.0 - square)
        q1 = w1 * (1.0 + 3.0 * e1 + 4.5 * e1 * e1 - square)
        q2 = w1 * (1.0 + 3.0 * e2 + 4.5 * e2 * e2 - square)
        q3 = w1 * (1.0 + 3.0 * e3 + 4.5 * e3 * e3 - square)
        q4 = w1 * (1.0 + 3.0 * e4 + 4.5 * e4 * e4 - square)
        q5 = w5 * (1.0 + 3.0 * e5 + 4.5 * e5 * e5 - square)
        q6 = w5 * (1.0 + 3.0 * e6 + 4.5 * e6 * e6 - square)
        q7 = w5 * (1.0 + 3.0 * e7 + 4.5 * e7 * e7 - square)
        q8 = w5 * (1.0 + 3.0 * e8 + 4.5 * e8 * e8 - square)
        # The rest population is even; each opposite pair (1, 3), (2, 4), (5, 7), (6, 8) relaxes together.
        written[0, k] = f0 - omega_even * (f0 - q0)
        even, odd = 0.5 * (f1 + f3 - q1 - q3), 0.5 * (f1 - f3 - q1 + q3)
        written[1, k], written[3, k] = (
            f1 - omega_even * even - omega_odd * odd,
            f3 - omega_even * even + omega_odd * odd,
        )
        even, odd = 0.5 * (f2 + f4 - q2 - q4), 0.5 * (f2 - f4 - q2 + q4)
        written[2, k], written[4, k] = (
            f2 - omega_even * even - omega_odd * odd,
            f4 - omega_even * even + omega_odd * odd,
        )
        even, odd = 0.5 * (f5 + f7 - q5 - q7), 0.5 * (f5 - f7 - q5 + q7)
        written[5, k], written[7, k] = (
            f5 - omega_even * even - omega_odd * odd,
            f7 - omega_even * even + omega_odd * odd,
        )
        even, odd = 0.5 * (f6 + f8 - q6 - q8), 0.5 * (f6 - f8 - q6 + q8)
        written[6, k], written[8, k] = (
            f6 - omega_even * even - omega_odd * odd,
            f8 - omega_even * even + omega_odd * odd,
        )
        if force != 0.0:  # Guo's forcing, split into its even and odd parts like the populations
            for i in range(9):
                eu = EX[i] * vx + EY[i] * vy
                source_term[i] = W[i] * (3.0 * (EY[i] - vy) + 9.0 * eu * EY[i]) * force
            written[0, k] += (1.0 - 0.5 * omega_even) * source_term[0]
            for i in (1, 2, 5, 6):
                back = OPPOSITE[i]
                even_source = 0.5 * (source_term[i] + source_term[back])
                odd_source = 0.5 * (source_term[i] - source_term[back])
                written[i, k] += (1.0 - 0.5 * omega_even) * even_source + (1.0 - 0.5 * omega_odd) * odd_source
                written[back, k] += (1.0 - 0.5 * omega_even) * even_source - (1.0 - 0.5 * omega_odd) * odd_source
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
