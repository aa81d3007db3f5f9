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

Speed without changing a bit: the interior cells (most of a lattice) are collided in chunks through fixed-shape
buffers, which the compiler vectorises (several cells per instruction, each with the same IEEE operations as one
cell alone); the cells beside walls read their populations from a link table built once per lattice.
``tests/simulation/test_lbm_kernel.py`` holds both to a plain per-cell reference, bit for bit.
"""

from __future__ import annotations

from typing import NamedTuple

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
W_REST, W_AXIS, W_DIAGONAL = float(W[0]), float(W[1]), float(W[5])
"""D2Q9's weights as scalars, for the collision written out direction by direction."""
W5_REST, W5_AXIS = float(W5[0]), float(W5[1])
"""D2Q5's weights as scalars."""


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


class Cells(NamedTuple):
    """A lattice's cells as :func:`flow_step` and :func:`heat_step` visit them (from :func:`lattice_cells`)."""

    runs: np.ndarray
    """Runs of interior cells (all eight neighbours fluid and inside the domain) as (start, end) row-major indices,
    n × 2: their populations stream from fixed offsets, the fast, vectorised path."""
    solid: np.ndarray
    """The solid cells, row-major indices."""
    edge: np.ndarray
    """The other fluid cells (beside a wall or the domain's edge), row-major indices."""
    link: np.ndarray
    """For each edge cell and direction (edge × 9), how its population arrives: :data:`PULLED` (one population
    streamed or bounced back as it is), :data:`NEAR_WALL` or :data:`FAR_WALL` (interpolated, :func:`bounced`)."""
    first: np.ndarray
    """The flat index (direction × cells + cell) of the population it takes (edge × 9)."""
    second: np.ndarray
    """The flat index of the population it is interpolated with (edge × 9; unused for :data:`PULLED`)."""
    weights: np.ndarray
    """The interpolation's two coefficients (edge × 9 × 2), computed as :func:`bounced` computes them."""


PULLED, NEAR_WALL, FAR_WALL = 0, 1, 2
"""How an edge cell's population arrives (:attr:`Cells.link`)."""


def lattice_cells(solid: np.ndarray, sources: np.ndarray, q: np.ndarray) -> Cells:
    """The lattice's interior runs, solid cells and edge cells with their links (``sources`` from
    :func:`pull_sources`, ``q`` from :func:`wall_distances`), computed once per lattice."""
    ny, nx = solid.shape
    count = ny * nx
    fluid = np.zeros((ny + 2, nx + 2), dtype=bool)
    fluid[1:-1, 1:-1] = ~solid
    inner = ~solid
    for i in range(1, 9):
        inner = inner & fluid[1 - EY[i] : ny + 1 - EY[i], 1 - EX[i] : nx + 1 - EX[i]]
    # A run starts where a row's interior begins and ends where it stops (padded, so that no run crosses a row).
    padded = np.zeros((ny, nx + 2), dtype=np.int8)
    padded[:, 1:-1] = inner
    rows, starts = np.nonzero(np.diff(padded, axis=1) == 1)
    _, ends = np.nonzero(np.diff(padded, axis=1) == -1)
    runs = np.stack([rows * nx + starts, rows * nx + ends], axis=1).astype(np.int64).reshape(-1, 2)
    flat_solid = solid.ravel()
    edge = np.flatnonzero(~inner.ravel() & ~flat_solid).astype(np.int64)
    link = np.full((edge.size, 9), PULLED, dtype=np.int64)
    first, second = np.zeros((edge.size, 9), dtype=np.int64), np.zeros((edge.size, 9), dtype=np.int64)
    weights = np.zeros((edge.size, 9, 2))
    for e, k in enumerate(edge):
        for i in range(9):
            source, back, share = sources[i, k], OPPOSITE[i], q[i, k]
            if source >= 0:
                first[e, i] = i * count + source
                continue
            first[e, i] = back * count + k  # the population that moved towards the wall, bounced back
            ahead = sources[back, k]
            if share < 0.5 and ahead >= 0:
                link[e, i], second[e, i] = NEAR_WALL, back * count + ahead
                weights[e, i] = 2.0 * share, 1.0 - 2.0 * share
            elif share > 0.5:
                link[e, i], second[e, i] = FAR_WALL, i * count + k
                weights[e, i] = 2.0 * share - 1.0, 2.0 * share
    return Cells(runs, np.flatnonzero(flat_solid).astype(np.int64), edge, link, first, second, weights)


CHUNK = 64
"""Cells the vectorised path collides at once: its buffers (22 rows of this many values) stay in the L1 cache."""


@njit(cache=True, nogil=True, inline="always")
def _relax_pair(
    f: float, back: float, q: float, q_back: float, omega_even: float, omega_odd: float
) -> tuple[float, float]:
    """TRT relaxation of an opposite pair: its even part at ``omega_even``, its odd part at ``omega_odd``."""
    even, odd = 0.5 * (f + back - q - q_back), 0.5 * (f - back - q + q_back)
    return f - omega_even * even - omega_odd * odd, back - omega_even * even + omega_odd * odd


@njit(cache=True, nogil=True, inline="always")
def _force_pair(
    o: float, back: float, s: float, s_back: float, even_part: float, odd_part: float
) -> tuple[float, float]:
    """Guo's source terms added to an opposite pair, split into even and odd parts like the populations."""
    even, odd = 0.5 * (s + s_back), 0.5 * (s - s_back)
    return o + (even_part * even + odd_part * odd), back + (even_part * even - odd_part * odd)


@njit(cache=True, nogil=True, inline="always", error_model="numpy")
def _collide(
    f0: float, f1: float, f2: float, f3: float, f4: float, f5: float, f6: float, f7: float, f8: float,
    heat: float, buoyancy: float, omega_even: float, omega_odd: float, forced: bool = True,
) -> tuple[float, float, float, float, float, float, float, float, float, float, float, float]:  # fmt: skip
    """One cell's TRT collision with Guo's forcing: the nine post-collision populations, then density and velocity
    (after the force). One fixed order of operations, the same bits on any machine (no fast-math, no fused
    multiply-add); e_i·u written out (0·v and 1·v are exact). ``forced=False`` (a constant where it is called)
    leaves the forcing out of the compiled code: with no buoyancy the force is zero and it would never apply."""
    r = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8
    mx = f1 - f3 + f5 - f6 - f7 + f8
    my = f2 - f4 + f5 + f6 - f7 - f8
    force = buoyancy * heat * r
    vx, vy = mx / r, (my + 0.5 * force) / r
    square = 1.5 * (vx * vx + vy * vy)
    w0, w1, w5 = W_REST * r, W_AXIS * r, W_DIAGONAL * r
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
    o0 = f0 - omega_even * (f0 - q0)
    o1, o3 = _relax_pair(f1, f3, q1, q3, omega_even, omega_odd)
    o2, o4 = _relax_pair(f2, f4, q2, q4, omega_even, omega_odd)
    o5, o7 = _relax_pair(f5, f7, q5, q7, omega_even, omega_odd)
    o6, o8 = _relax_pair(f6, f8, q6, q8, omega_even, omega_odd)
    if forced and force != 0.0:  # Guo's forcing, split into its even and odd parts like the populations
        # s_i = w_i (3 (e_iy − v_y) + 9 (e_i·u) e_iy) F, with each direction's e_ix, e_iy written out as floats.
        s0 = W_REST * (3.0 * (0.0 - vy) + 9.0 * (0.0 * vx + 0.0 * vy) * 0.0) * force
        s1 = W_AXIS * (3.0 * (0.0 - vy) + 9.0 * (1.0 * vx + 0.0 * vy) * 0.0) * force
        s2 = W_AXIS * (3.0 * (1.0 - vy) + 9.0 * (0.0 * vx + 1.0 * vy) * 1.0) * force
        s3 = W_AXIS * (3.0 * (0.0 - vy) + 9.0 * (-1.0 * vx + 0.0 * vy) * 0.0) * force
        s4 = W_AXIS * (3.0 * (-1.0 - vy) + 9.0 * (0.0 * vx + -1.0 * vy) * -1.0) * force
        s5 = W_DIAGONAL * (3.0 * (1.0 - vy) + 9.0 * (1.0 * vx + 1.0 * vy) * 1.0) * force
        s6 = W_DIAGONAL * (3.0 * (1.0 - vy) + 9.0 * (-1.0 * vx + 1.0 * vy) * 1.0) * force
        s7 = W_DIAGONAL * (3.0 * (-1.0 - vy) + 9.0 * (-1.0 * vx + -1.0 * vy) * -1.0) * force
        s8 = W_DIAGONAL * (3.0 * (-1.0 - vy) + 9.0 * (1.0 * vx + -1.0 * vy) * -1.0) * force
        even_part, odd_part = 1.0 - 0.5 * omega_even, 1.0 - 0.5 * omega_odd
        o0 += even_part * s0
        o1, o3 = _force_pair(o1, o3, s1, s3, even_part, odd_part)
        o2, o4 = _force_pair(o2, o4, s2, s4, even_part, odd_part)
        o5, o7 = _force_pair(o5, o7, s5, s7, even_part, odd_part)
        o6, o8 = _force_pair(o6, o8, s6, s8, even_part, odd_part)
    return o0, o1, o2, o3, o4, o5, o6, o7, o8, r, vx, vy


@njit(cache=True, nogil=True, inline="always", error_model="numpy")
def _collide_chunk(
    given: np.ndarray, taken: np.ndarray, m: int, buoyancy: float, omega_even: float, omega_odd: float, forced: bool
) -> None:
    """Collide the first ``m`` cells of the buffer ``given`` (nine populations and temperature by row) into
    ``taken`` (nine populations, density, velocity)."""
    for j in range(m):
        o0, o1, o2, o3, o4, o5, o6, o7, o8, r, vx, vy = _collide(
            given[0, j], given[1, j], given[2, j], given[3, j], given[4, j], given[5, j], given[6, j],
            given[7, j], given[8, j], given[9, j], buoyancy, omega_even, omega_odd, forced,
        )  # fmt: skip
        taken[0, j], taken[1, j], taken[2, j], taken[3, j], taken[4, j] = o0, o1, o2, o3, o4
        taken[5, j], taken[6, j], taken[7, j], taken[8, j] = o5, o6, o7, o8
        taken[9, j], taken[10, j], taken[11, j] = r, vx, vy


@njit(cache=True, nogil=True, error_model="numpy")
def _collide_runs(
    pulled: np.ndarray,
    written: np.ndarray,
    heat: np.ndarray,
    density: np.ndarray,
    vel_x: np.ndarray,
    vel_y: np.ndarray,
    runs: np.ndarray,
    nx: int,
    buoyancy: float,
    omega_even: float,
    omega_odd: float,
) -> None:
    """Stream and collide the interior runs, :data:`CHUNK` cells at a time: copied in from their fixed offsets,
    collided, copied out. The compiler cannot tell that the lattice's nine planes do not overlap, and would check
    every pair before each loop (too many: it gives up vectorising); between two buffers of fixed shape it checks
    one pair, and collides four or more cells per instruction."""
    given = np.empty((10, CHUNK))
    taken = np.empty((12, CHUNK))
    offsets = (0, -1, -nx, 1, nx, -nx - 1, -nx + 1, nx + 1, nx - 1)
    for run in range(runs.shape[0]):
        for a in range(runs[run, 0], runs[run, 1], CHUNK):
            m = min(CHUNK, runs[run, 1] - a)
            for i in range(9):
                _copy(given[i], pulled[i, a + offsets[i] : a + offsets[i] + m], m)
            _copy(given[9], heat[a : a + m], m)
            if buoyancy != 0.0:
                _collide_chunk(given, taken, m, buoyancy, omega_even, omega_odd, True)
            else:
                _collide_chunk(given, taken, m, buoyancy, omega_even, omega_odd, False)
            for i in range(9):
                _copy(written[i, a : a + m], taken[i], m)
            _copy(density[a : a + m], taken[9], m)
            _copy(vel_x[a : a + m], taken[10], m)
            _copy(vel_y[a : a + m], taken[11], m)


@njit(cache=True, nogil=True, inline="always")
def _copy(target: np.ndarray, source: np.ndarray, m: int) -> None:
    """The first ``m`` values of ``source`` into ``target``: a plain loop between two one-dimensional views, which
    the compiler vectorises (a slice assignment would check for overlap and may copy through a temporary)."""
    for j in range(m):
        target[j] = source[j]


@njit(cache=True, nogil=True, error_model="numpy")
def flow_step(
    f: np.ndarray,
    out: np.ndarray,
    solid: np.ndarray,
    inlet: np.ndarray,
    tau: float,
    buoyancy: float,
    temperature: np.ndarray,
    rho: np.ndarray,
    ux: np.ndarray,
    uy: np.ndarray,
    cells: Cells,
    magic: float = -1.0,
) -> None:
    """One stream-and-collide step from ``f`` into ``out`` (``cells`` from :func:`lattice_cells`); writes density
    and velocity (after the force). ``magic``: TRT's Λ = (τ⁺ − ½)(τ⁻ − ½) (default: :data:`MAGIC` from
    τ⁺ = :data:`MAGIC_FROM`, τ⁻ = 1 below). A zero density gives infinities (a diverged run), never an exception."""
    ny, nx = solid.shape
    count = ny * nx
    pulled, written = f.reshape(9, count), out.reshape(9, count)
    flat, heat = f.reshape(9 * count), temperature.reshape(count)
    density, vel_x, vel_y = rho.reshape(count), ux.reshape(count), uy.reshape(count)
    omega_even = 1.0 / tau
    if magic < 0.0:
        magic = MAGIC if tau >= MAGIC_FROM else 0.5 * (tau - 0.5)  # the latter: τ⁻ = 1
    omega_odd = 1.0 / (magic / (tau - 0.5) + 0.5)
    _collide_runs(pulled, written, heat, density, vel_x, vel_y, cells.runs, nx, buoyancy, omega_even, omega_odd)
    for k in cells.solid:
        for i in range(9):
            written[i, k] = 0.0
        density[k], vel_x[k], vel_y[k] = 1.0, 0.0, 0.0
    local = np.empty(9)
    link, first, second, weights = cells.link, cells.first, cells.second, cells.weights
    for e, k in enumerate(cells.edge):  # fluid cells beside a wall or the domain's edge
        for i in range(9):
            kind, taken = link[e, i], flat[first[e, i]]
            if kind == PULLED:
                local[i] = taken
            elif kind == NEAR_WALL:  # as :func:`bounced` computes it, operation for operation
                local[i] = weights[e, i, 0] * taken + weights[e, i, 1] * flat[second[e, i]]
            else:
                local[i] = (taken + weights[e, i, 0] * flat[second[e, i]]) / weights[e, i, 1]
        values = _collide(
            local[0], local[1], local[2], local[3], local[4], local[5], local[6], local[7], local[8], heat[k],
            buoyancy, omega_even, omega_odd,
        )  # fmt: skip
        for i in range(9):
            written[i, k] = values[i]
        density[k], vel_x[k], vel_y[k] = values[9], values[10], values[11]
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


@njit(cache=True, nogil=True, error_model="numpy")
def _heat_runs(
    g: np.ndarray, out: np.ndarray, ux: np.ndarray, uy: np.ndarray, temperature: np.ndarray, runs: np.ndarray,
    nx: int, tau: float,
) -> None:  # fmt: skip
    """D2Q5 stream and collide on the interior runs, :data:`CHUNK` cells at a time (see :func:`_collide_runs`)."""
    given = np.empty((7, CHUNK))
    taken = np.empty((6, CHUNK))
    offsets = (0, -1, -nx, 1, nx)
    for run in range(runs.shape[0]):
        for a in range(runs[run, 0], runs[run, 1], CHUNK):
            m = min(CHUNK, runs[run, 1] - a)
            for i in range(5):
                _copy(given[i], g[i, a + offsets[i] : a + offsets[i] + m], m)
            _copy(given[5], ux[a : a + m], m)
            _copy(given[6], uy[a : a + m], m)
            for j in range(m):
                l0, l1, l2, l3, l4 = given[0, j], given[1, j], given[2, j], given[3, j], given[4, j]
                vx, vy = given[5, j], given[6, j]
                t = 0.0 + l0 + l1 + l2 + l3 + l4
                # The table's e_ix, e_iy as floats: the same products, the same bits.
                taken[0, j] = l0 - (l0 - W5_REST * t * (1.0 + 3.0 * (0.0 * vx + 0.0 * vy))) / tau
                taken[1, j] = l1 - (l1 - W5_AXIS * t * (1.0 + 3.0 * (1.0 * vx + 0.0 * vy))) / tau
                taken[2, j] = l2 - (l2 - W5_AXIS * t * (1.0 + 3.0 * (0.0 * vx + 1.0 * vy))) / tau
                taken[3, j] = l3 - (l3 - W5_AXIS * t * (1.0 + 3.0 * (-1.0 * vx + 0.0 * vy))) / tau
                taken[4, j] = l4 - (l4 - W5_AXIS * t * (1.0 + 3.0 * (0.0 * vx + -1.0 * vy))) / tau
                taken[5, j] = t
            for i in range(5):
                _copy(out[i, a : a + m], taken[i], m)
            _copy(temperature[a : a + m], taken[5], m)


@njit(cache=True, nogil=True, error_model="numpy")
def heat_step(
    g: np.ndarray,
    out: np.ndarray,
    solid: np.ndarray,
    hot: np.ndarray,
    tau: float,
    ux: np.ndarray,
    uy: np.ndarray,
    temperature: np.ndarray,
    cells: Cells,
) -> None:
    """One D2Q5 step of temperature: inflow at 0, fixed 1 on ``hot`` solid cells, adiabatic elsewhere (``cells``
    from :func:`lattice_cells`)."""
    ny, nx = solid.shape
    count = ny * nx
    _heat_runs(g.reshape(5, count), out.reshape(5, count), ux.reshape(count), uy.reshape(count),
               temperature.reshape(count), cells.runs, nx, tau)  # fmt: skip
    flat_temperature, flat_hot = temperature.reshape(count), hot.reshape(count)
    for k in cells.solid:
        flat_temperature[k] = 1.0 if flat_hot[k] else 0.0
    local = np.empty(5)
    for k in cells.edge:
        y, x = k // nx, k % nx
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
