"""The lattice-Boltzmann kernels against a plain per-cell reference: the same bits.

The compiled kernels collide interior cells in vectorised chunks, with every direction written out, and take edge
cells' populations from a link table. The reference below visits every cell in turn, looks each population up
through ``pull_sources`` and :func:`~mechbench.simulation.lbm.bounced`, and loops over the direction tables, in plain
Python (IEEE double arithmetic like the compiled code, no fused multiply-add). A generated set is only the same on
every machine if both agree to the last bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from mechbench.simulation import lbm
from mechbench.simulation.lbm import EX, EY, OPPOSITE, OPPOSITE5, W5, W


def _reference_flow_step(f, out, solid, sources, q, inlet, tau, buoyancy, temperature, rho, ux, uy, magic=-1.0):
    ny, nx = solid.shape
    cells = ny * nx
    pulled, written = f.reshape(9, cells), out.reshape(9, cells)
    is_solid, heat = solid.reshape(cells), temperature.reshape(cells)
    density, vel_x, vel_y = rho.reshape(cells), ux.reshape(cells), uy.reshape(cells)
    omega_even = 1.0 / tau
    if magic < 0.0:
        magic = lbm.MAGIC if tau >= lbm.MAGIC_FROM else 0.5 * (tau - 0.5)
    omega_odd = 1.0 / (magic / (tau - 0.5) + 0.5)
    ex, ey, w = [float(v) for v in EX], [float(v) for v in EY], [float(v) for v in W]
    for k in range(cells):
        if is_solid[k]:
            written[:, k] = 0.0
            density[k], vel_x[k], vel_y[k] = 1.0, 0.0, 0.0
            continue
        local = [
            float(pulled[i, sources[i, k]]) if sources[i, k] >= 0 else float(lbm.bounced(pulled, sources, q, i, k))
            for i in range(9)
        ]
        r = 0.0 + local[0]
        for i in range(1, 9):
            r += local[i]
        mx = local[1] - local[3] + local[5] - local[6] - local[7] + local[8]
        my = local[2] - local[4] + local[5] + local[6] - local[7] - local[8]
        force = buoyancy * float(heat[k]) * r
        vx, vy = mx / r, (my + 0.5 * force) / r
        square = 1.5 * (vx * vx + vy * vy)
        eq = []
        for i in range(9):
            eu = ex[i] * vx + ey[i] * vy
            eq.append(w[i] * r * (1.0 - square) if i == 0 else w[i] * r * (1.0 + 3.0 * eu + 4.5 * eu * eu - square))
        post = [local[0] - omega_even * (local[0] - eq[0])] + [0.0] * 8
        for i in (1, 2, 5, 6):
            b = int(OPPOSITE[i])
            even = 0.5 * (local[i] + local[b] - eq[i] - eq[b])
            odd = 0.5 * (local[i] - local[b] - eq[i] + eq[b])
            post[i] = local[i] - omega_even * even - omega_odd * odd
            post[b] = local[b] - omega_even * even + omega_odd * odd
        if force != 0.0:
            source = []
            for i in range(9):
                eu = ex[i] * vx + ey[i] * vy
                source.append(w[i] * (3.0 * (ey[i] - vy) + 9.0 * eu * ey[i]) * force)
            post[0] += (1.0 - 0.5 * omega_even) * source[0]
            for i in (1, 2, 5, 6):
                b = int(OPPOSITE[i])
                even_source, odd_source = 0.5 * (source[i] + source[b]), 0.5 * (source[i] - source[b])
                post[i] += (1.0 - 0.5 * omega_even) * even_source + (1.0 - 0.5 * omega_odd) * odd_source
                post[b] += (1.0 - 0.5 * omega_even) * even_source - (1.0 - 0.5 * omega_odd) * odd_source
        written[:, k] = post
        density[k], vel_x[k], vel_y[k] = r, vx, vy
    for y in range(ny):
        if not solid[y, 0]:
            v, r1, vx1, vy1 = float(inlet[y]), float(rho[y, 1]), float(ux[y, 1]), float(uy[y, 1])
            for i in range(9):
                eu, eu1 = ex[i] * v, ex[i] * vx1 + ey[i] * vy1
                feq = w[i] * r1 * (1.0 + 3.0 * eu + 4.5 * eu * eu - 1.5 * v * v)
                feq1 = w[i] * r1 * (1.0 + 3.0 * eu1 + 4.5 * eu1 * eu1 - 1.5 * (vx1 * vx1 + vy1 * vy1))
                out[i, y, 0] = feq + float(out[i, y, 1]) - feq1
            ux[y, 0], uy[y, 0], rho[y, 0] = v, 0.0, r1
        if not solid[y, nx - 1]:
            vx, vy, r2 = float(ux[y, nx - 2]), float(uy[y, nx - 2]), float(rho[y, nx - 2])
            square = 1.5 * (vx * vx + vy * vy)
            for i in range(9):
                eu = ex[i] * vx + ey[i] * vy
                shape = 1.0 + 3.0 * eu + 4.5 * eu * eu - square
                out[i, y, nx - 1] = w[i] * shape + float(out[i, y, nx - 2]) - w[i] * r2 * shape
            ux[y, nx - 1], uy[y, nx - 1], rho[y, nx - 1] = vx, vy, 1.0


def _reference_heat_step(g, out, solid, hot, tau, ux, uy, temperature):
    ny, nx = solid.shape
    ex, ey, w5 = [float(v) for v in EX[:5]], [float(v) for v in EY[:5]], [float(v) for v in W5]
    for y in range(ny):
        for x in range(nx):
            if solid[y, x]:
                temperature[y, x] = 1.0 if hot[y, x] else 0.0
                continue
            local = []
            for i in range(5):
                sx, sy, back = x - int(EX[i]), y - int(EY[i]), int(OPPOSITE5[i])
                if sx < 0 or sx >= nx or sy < 0 or sy >= ny:
                    local.append(float(g[back, y, x]))
                elif solid[sy, sx]:
                    local.append(2.0 * w5[i] - float(g[back, y, x]) if hot[sy, sx] else float(g[back, y, x]))
                else:
                    local.append(float(g[i, sy, sx]))
            t = 0.0
            for value in local:
                t += value
            for i in range(5):
                geq = w5[i] * t * (1.0 + 3.0 * (ex[i] * float(ux[y, x]) + ey[i] * float(uy[y, x])))
                out[i, y, x] = local[i] - (local[i] - geq) / tau
            temperature[y, x] = t
    out[:, :, 0] = 0.0
    out[:, :, nx - 1] = out[:, :, nx - 2]
    temperature[:, 0] = 0.0
    temperature[:, nx - 1] = temperature[:, nx - 2]


def _lattice(ny: int, nx: int, circle: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A channel (solid top and bottom rows) with a cylinder: straight walls, curved walls on both sides of the
    link's middle, and interior runs longer than the kernel's chunk."""
    y, x = np.mgrid[0:ny, 0:nx]
    cx, cy, radius = circle
    solid = (x - cx) ** 2 + (y - cy) ** 2 <= radius**2
    solid[0, :], solid[-1, :] = True, True
    q = lbm.wall_distances(solid, (circle,))
    return solid, lbm.pull_sources(solid), q


@pytest.mark.parametrize(("buoyancy", "tau"), [(0.0, 0.53), (2e-4, 0.8), (0.0, 0.9)])
def test_the_flow_kernel_gives_the_reference_bits(buoyancy: float, tau: float) -> None:
    solid, sources, q = _lattice(13, 2 * lbm.CHUNK + 23, (31.3, 6.2, 3.4))
    links = lbm.lattice_cells(solid, sources, q).link
    assert {lbm.PULLED, lbm.NEAR_WALL, lbm.FAR_WALL} <= set(links.ravel().tolist())  # every kind of link is met
    ny, nx = solid.shape
    rng = np.random.default_rng(7)
    ux0 = np.where(solid, 0.0, 0.05 * (1 + 0.2 * rng.standard_normal((ny, nx))))
    uy0 = np.where(solid, 0.0, 0.01 * rng.standard_normal((ny, nx)))
    f0 = lbm.equilibrium(1 + 0.01 * rng.standard_normal((ny, nx)), ux0, uy0)
    temperature = np.where(solid, 0.0, rng.random((ny, nx)))
    temperature[3, 40:50] = 0.0  # no force there: the forcing is skipped cell by cell
    inlet = np.where(solid[:, 0], 0.0, 0.05)
    cells = lbm.lattice_cells(solid, sources, q)
    results = []
    for step in (lbm.flow_step, None):
        f, out = f0.copy(), np.empty_like(f0)
        rho, ux, uy = np.ones((ny, nx)), ux0.copy(), uy0.copy()
        for _ in range(3):
            if step is None:
                _reference_flow_step(f, out, solid, sources, q, inlet, tau, buoyancy, temperature, rho, ux, uy)
            else:
                step(f, out, solid, inlet, tau, buoyancy, temperature, rho, ux, uy, cells)
            f, out = out, f
        results.append((f, rho, ux, uy))
    for ours, theirs in zip(*results, strict=True):
        assert np.array_equal(ours, theirs)  # bit for bit, not approximately


def test_the_heat_kernel_gives_the_reference_bits() -> None:
    solid, sources, q = _lattice(11, lbm.CHUNK + 40, (25.0, 5.0, 3.0))
    hot = solid.copy()
    hot[0, :], hot[-1, :] = False, False  # the cylinder is heated, the channel walls are adiabatic
    ny, nx = solid.shape
    rng = np.random.default_rng(3)
    ux, uy = 0.05 * rng.random((ny, nx)), 0.01 * rng.standard_normal((ny, nx))
    g0 = W5[:, None, None] * rng.random((ny, nx))[None]
    cells = lbm.lattice_cells(solid, sources, q)
    results = []
    for step in (lbm.heat_step, None):
        # Neither writes a solid cell's populations: both start from the same (zero) values there.
        g, out, temperature = g0.copy(), np.zeros_like(g0), np.zeros((ny, nx))
        for _ in range(3):
            if step is None:
                _reference_heat_step(g, out, solid, hot, 0.7, ux, uy, temperature)
            else:
                step(g, out, solid, hot, 0.7, ux, uy, temperature, cells)
            g, out = out, g
        results.append((g, temperature))
    for ours, theirs in zip(*results, strict=True):
        assert np.array_equal(ours, theirs)
