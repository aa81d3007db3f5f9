"""One generated flow simulation: a 2D channel configuration at a Reynolds number, run with the lattice-Boltzmann
kernels of :mod:`mechbench.simulation.lbm`, and the facts the SeeSim answers are read from.

The lattice stays incompressible: each configuration's inflow speed keeps the fastest fluid below Mach 0.1
(:data:`MAX_MACH`, checked after the run; a run past it is drawn again), so the lattice's compressibility error
(of order Ma², under 1 %) stays far below what any answer is decided on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from mechbench.core.precision import ROUND_OFF, rounded
from mechbench.simulation import lbm

CONFIGURATIONS = ("channel", "cylinder", "step", "heated_cylinder")
INFLOW_SPEED = {"channel": 0.035, "cylinder": 0.025, "step": 0.035, "heated_cylinder": 0.024}
"""Mean inflow speed in lattice units per configuration: the fastest fluid (1.5× the mean between plates, about
twice it beside a cylinder, more with buoyancy) stays below Mach 0.1 against the lattice sound speed 1/√3."""
MAX_MACH = 0.1
PRANDTL = {"water": 7.0, "air": 0.71}
FLUIDS = {
    # kinematic viscosity m²/s, density kg/m³, thermal expansion 1/K
    "water": (1.0e-6, 998.0, 2.1e-4),
    "air": (1.5e-5, 1.2, 1 / 293.0),
}
GRAVITY = 9.81
WAKE_TRANSITION = 200
"""Reynolds number where a cylinder's wake stops being laminar (three-dimensional transition, Williamson 1996)."""
CHANNEL_TRANSITION = 2300
"""Transition Reynolds number of channel flow on the hydraulic diameter (twice the height)."""
STEP_TRANSITION = 1200
"""Transition Reynolds number of flow over a backward-facing step on twice the inlet height (Armaly et al. 1983)."""
CYLINDER_CELLS = 20
"""Lattice cells across a cylinder's diameter: its wall is resolved by interpolated bounce-back at this size."""
RAMP = 1.0
"""Flow-through times over which the inflow rises from rest to its full speed."""
FLOW_THROUGHS = 3.5
"""Flow-through times run past obstacles: the ramp, the wake settling (or its shedding established), and the last
quarter the facts are measured on (two or more shedding periods)."""
PERTURBATION = 0.1
FRAMES = 12
PROBES = 400
WALL_BAND = 0.2
"""Share of the characteristic length (the cylinder's diameter, the step's height) next to a wall where reverse
flow counts as separation: the same physical band at any resolution."""
REVERSED = 0.01
"""A cell moves against the main flow when its streamwise velocity is below −1 % of the mean inflow."""
STEADY = 0.01
"""A flow is steady when the cross-stream velocity at the wake probe varies by less than 1 % of the mean inflow over
the last quarter of the run (the window the facts are measured on); an unsteady flow is reported in time."""


class RegimeError(FloatingPointError):
    """A run left the regime its model is valid in (diverged, or past Mach 0.1): it is drawn again."""


@dataclass(frozen=True)
class FlowSetup:
    """What the generator draws for one flow simulation."""

    configuration: str
    reynolds: float
    richardson: float
    offset: int
    fluid: str
    length: float  # m, the characteristic length (channel height, cylinder diameter, step height)
    time_resolved: bool  # a steady flow reported in physical time (a transient analysis), not as iterations
    delta_t: float = 0.0
    """K: the heated cylinder above the inflow (0: set by the Richardson number and the length)."""


@dataclass
class FlowRun:
    """A finished flow simulation: the lattice, the shown fields, the frames, the probe and the facts."""

    setup: FlowSetup
    solid: np.ndarray
    hot: np.ndarray
    scale: int  # lattice cells per characteristic length
    inflow: float  # lattice units
    ux: np.ndarray
    uy: np.ndarray
    pressure: np.ndarray
    temperature: np.ndarray
    frames: list[tuple[int, np.ndarray, np.ndarray]]
    """(step, speed, temperature) over the last quarter of the run, the window the facts are measured on."""
    probe: tuple[int, int]
    probe_steps: np.ndarray
    probe_values: np.ndarray  # cross-stream velocity at the probe, lattice units
    profile_columns: tuple[int, int]
    steps: int
    mean_boundary: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Mass flow in, out, and the inlet-to-outlet pressure drop, averaged over the last quarter (lattice units)."""
    facts: dict = field(default_factory=dict)


def heated_length(reynolds: float, richardson: float, fluid: str, delta_t: float) -> float:
    """The cylinder diameter (m) at which a wall ``delta_t`` kelvin above the inflow gives ``richardson`` at
    ``reynolds``: Ri = Gr / Re² with Gr = g β ΔT D³ / ν²."""
    nu, _, beta = FLUIDS[fluid]
    return (richardson * reynolds**2 * nu**2 / (GRAVITY * beta * delta_t)) ** (1 / 3)


def _geometry(setup: FlowSetup) -> tuple[np.ndarray, np.ndarray, int, tuple[int, int], np.ndarray]:
    """Solid cells, heated cells, cells per characteristic length, probe cell (row, column) and the wall distance
    of every boundary link (:func:`~mechbench.simulation.lbm.wall_distances`)."""
    circles: tuple[tuple[float, float, float], ...] = ()
    if setup.configuration == "channel":
        ny, nx, scale = 26, 150, 24
        solid = np.zeros((ny, nx), dtype=bool)
        probe = (ny // 2, int(0.6 * nx))
    elif setup.configuration == "step":
        ny, nx, scale = 40, 180, 13
        solid = np.zeros((ny, nx), dtype=bool)
        solid[: scale + 1, :25] = True
        probe = (scale + 3, 60)
    else:  # 2 diameters upstream, 6 downstream, 4.1 across (the blockage of the DFG benchmark, about a quarter)
        scale = CYLINDER_CELLS
        ny, nx = round(4.1 * scale) + 2, 8 * scale
        solid = np.zeros((ny, nx), dtype=bool)
        y, x = np.mgrid[0:ny, 0:nx]
        centre_x, centre_y = 2.0 * scale, ny / 2 - 0.5 + setup.offset
        solid |= (x - centre_x) ** 2 + (y - centre_y) ** 2 <= (scale / 2) ** 2
        probe = (round(centre_y), round(centre_x) + 2 * scale)
        circles = ((centre_x, centre_y, scale / 2),)
    hot = solid.copy() if setup.configuration == "heated_cylinder" else np.zeros_like(solid)
    solid[0, :], solid[-1, :] = True, True
    return solid, hot, scale, probe, lbm.wall_distances(solid, circles)


def reynolds_length(setup: FlowSetup, scale: int, solid: np.ndarray) -> tuple[float, float]:
    """(lattice length the Reynolds number is based on, transition Reynolds number)."""
    if setup.configuration == "channel":
        return 2.0 * (solid.shape[0] - 2), CHANNEL_TRANSITION  # hydraulic diameter of parallel plates
    if setup.configuration == "step":
        return float(scale), STEP_TRANSITION * scale / (2.0 * (solid.shape[0] - 2 - scale))
    return float(scale), WAKE_TRANSITION


def _boundary_sums(solid: np.ndarray, rho: np.ndarray, ux: np.ndarray) -> tuple[float, float, float]:
    """Mass flow through the first and last inner columns (Σ ρ u over the fluid) and the mean pressure
    difference between them, lattice units."""
    fluid = ~solid
    inflow = float((rho[:, 1] * ux[:, 1])[fluid[:, 1]].sum())
    outflow = float((rho[:, -2] * ux[:, -2])[fluid[:, -2]].sum())
    drop = float(rho[fluid[:, 1], 1].mean() - rho[fluid[:, -2], -2].mean()) / 3.0
    return inflow, outflow, drop


def mass_flows(run: FlowRun) -> tuple[float, float]:
    """Mass flow (lattice units, per unit depth) in and out, averaged over the last quarter of the run."""
    return run.mean_boundary[0], run.mean_boundary[1]


def run_flow(setup: FlowSetup) -> FlowRun:
    """Run ``setup`` to a statistically settled state and read its facts (a :class:`RegimeError` when it left the
    model's regime)."""
    solid, hot, scale, probe, q = _geometry(setup)
    ny, nx = solid.shape
    length, critical = reynolds_length(setup, scale, solid)
    speed_in = INFLOW_SPEED[setup.configuration]
    nu = speed_in * length / setup.reynolds
    tau = 3 * nu + 0.5
    heated = setup.configuration == "heated_cylinder"
    buoyancy = setup.richardson * speed_in**2 / scale if heated else 0.0  # g·β·ΔT with ΔT = 1
    tau_heat = 3 * nu / PRANDTL[setup.fluid] + 0.5
    inlet = np.where(solid[:, 0], 0.0, speed_in)
    sources, interior = lbm.pull_sources(solid), lbm.interior_cells(solid)
    rho = np.ones((ny, nx))
    ux = np.zeros((ny, nx))  # from rest; the inflow ramps up smoothly, so that no pressure wave rings on
    # A small cross-stream disturbance behind the inlet breaks the exact mirror symmetry of the lattice: stable
    # flows damp it away, unstable ones (vortex shedding) grow from it as they would from any imperfection.
    kick = PERTURBATION * speed_in if setup.configuration in ("cylinder", "heated_cylinder") else 0.0
    along = np.arange(nx) / nx
    uy = np.where(solid, 0.0, kick * (4.0 * along * (1.0 - along))[None, :])  # arithmetic only: same bits anywhere
    f = lbm.equilibrium(rho, ux, uy)
    out = np.empty_like(f)
    temperature = np.zeros((ny, nx))
    g = lbm.W5[:, None, None] * temperature[None]
    g_out = np.empty_like(g)
    flow_through = nx / speed_in
    if setup.configuration == "channel":  # the profile develops by diffusion from the walls
        steps = int(min(max(3 * flow_through, 0.6 * (ny - 2) ** 2 / (4 * nu)), 6 * flow_through))
    else:
        steps = int(FLOW_THROUGHS * flow_through)
    probe_every = max(1, steps // PROBES)
    window = steps - steps // 4
    frame_steps = set(np.linspace(window, steps, FRAMES).round().astype(int).tolist())
    probe_steps, probe_values, frames, averages = [], [], [], []
    ramp = max(1, int(RAMP * flow_through))
    for step in range(1, steps + 1):
        x = min(1.0, step / ramp)
        # A smooth start (3x² − 2x³, no transcendental function: the same bits on any machine's maths library).
        speed = inlet * (x * x * (3.0 - 2.0 * x))
        lbm.flow_step(f, out, solid, sources, q, speed, tau, buoyancy, temperature, rho, ux, uy, interior)
        f, out = out, f
        if heated:
            lbm.heat_step(g, g_out, solid, hot, tau_heat, ux, uy, temperature)
            g, g_out = g_out, g
        if step % probe_every == 0:
            # The cross-stream velocity: vortex shedding moves it, the long acoustic modes of the channel do not.
            probe_steps.append(step)
            probe_values.append(float(uy[probe]))
            if not math.isfinite(probe_values[-1]):
                break  # diverged: no point running on
            if step > window:  # mass flows and the pressure drop averaged over the window the facts describe
                averages.append(_boundary_sums(solid, rho, ux))
        if step in frame_steps:
            frames.append((step, np.hypot(ux, uy) * ~solid, temperature.copy()))
    if not np.isfinite(ux).all():
        raise RegimeError(f"the lattice-Boltzmann run diverged ({setup})")
    a, b = int(0.6 * nx), int(0.75 * nx)  # clear of the outlet, whose boundary condition bends the profile
    run = FlowRun(
        setup,
        solid,
        hot,
        scale,
        speed_in,
        ux.copy(),
        uy.copy(),
        (rho - 1.0) / 3.0,
        temperature.copy(),
        frames,
        probe,
        np.array(probe_steps),
        np.array(probe_values),
        (a, b),
        steps,
        tuple(float(v) for v in np.mean(averages, axis=0)) if averages else _boundary_sums(solid, rho, ux),
    )
    run.facts = _facts(run, critical, nu)
    if run.facts["max_mach"] > MAX_MACH:
        raise RegimeError(f"the flow reached Mach {run.facts['max_mach']:.3f} on the lattice ({setup})")
    return run


def wall_band(scale: int) -> int:
    """Cells next to a wall searched for reverse flow: a fifth of the characteristic length, two at the least."""
    return max(2, round(WALL_BAND * scale))


def _near_wall(solid: np.ndarray, cells: int = 2) -> np.ndarray:
    """Cells within ``cells`` of a solid (the first fluid cell barely moves: no slip half a cell away)."""
    near = solid.copy()
    for _ in range(cells):
        grown = near.copy()
        grown[1:] |= near[:-1]
        grown[:-1] |= near[1:]
        grown[:, 1:] |= near[:, :-1]
        grown[:, :-1] |= near[:, 1:]
        near = grown
    return near


def _facts(run: FlowRun, critical: float, nu: float) -> dict:
    """What the answers are read from, measured on the run's final state and its probe history (lattice units)."""
    setup, solid, ux, uy, speed_in = run.setup, run.solid, run.ux, run.uy, run.inflow
    fluid = ~solid
    nx = solid.shape[1]
    inner = fluid.copy()
    inner[:, 0] = inner[:, -1] = False
    reversed_share = float((ux[inner] < -REVERSED * speed_in).sum() / inner.sum())
    wall = _near_wall(solid, wall_band(run.scale)) & inner
    wall_reverse = max(0.0, float(-ux[wall].min()) / speed_in)
    a, b = run.profile_columns
    rows = fluid[:, a] & fluid[:, b]
    # Shapes compared (each profile over its mean): the lattice fluid is slightly compressible, so the mean speed
    # creeps up along a channel as the pressure falls even where the flow is fully developed.
    shape_a, shape_b = ux[rows, a] / ux[rows, a].mean(), ux[rows, b] / ux[rows, b].mean()
    profile_change = float(np.abs(shape_a - shape_b).max())
    tail = run.probe_values[len(run.probe_values) * 3 // 4 :]
    probe_variation = float((tail.max() - tail.min()) / speed_in)
    if np.array_equal(solid[::-1], solid):
        both = inner & inner[::-1]
        asymmetry = float(max(np.abs(ux - ux[::-1])[both].max(), np.abs(uy + uy[::-1])[both].max()) / speed_in)
        asymmetry = 0.0 if asymmetry < ROUND_OFF else asymmetry  # a mirror-exact lattice run: round-off is 0
    else:
        asymmetry = math.inf  # the geometry itself has no mirror line along the flow
    p = run.pressure
    interior = inner.copy()
    interior[1:-1, 1:-1] &= fluid[:-2, 1:-1] & fluid[2:, 1:-1] & fluid[1:-1, :-2] & fluid[1:-1, 2:]
    interior[[0, -1], :] = False
    interior[:, : int(0.1 * nx)] = False  # the plug inflow's corners are an artefact of the inlet, not the flow
    interior[:, -5:] = False
    gy, gx = np.gradient(p)
    gradient = np.hypot(gx, gy)[interior]
    # The steepest pressure change over one characteristic length, in dynamic pressures (ρ = 1 in lattice units).
    gradient_ratio = float(gradient.max() * run.scale / (0.5 * speed_in**2))
    inflow, outflow = mass_flows(run)
    heated = setup.configuration == "heated_cylinder"
    facts = {
        "configuration": setup.configuration,
        "reynolds": setup.reynolds,
        "critical_reynolds": critical,
        "turbulence_model": "none (two-dimensional laminar solver)",
        "reversed_share": reversed_share,
        "wall_reverse": wall_reverse,
        "profile_change": profile_change,
        "probe_variation": probe_variation,
        # Every run is reported in physical time: a report that called steady runs "iterations" would state the answer
        # to "is the flow steady?" in its analysis line.
        "transient": True,
        "asymmetry": asymmetry,
        "gradient_ratio": gradient_ratio,
        "heated": heated,
        "richardson": setup.richardson if heated else 0.0,
        "grashof": setup.richardson * setup.reynolds**2 if heated else 0.0,
        "mass_in": inflow,
        "mass_out": outflow,
        "mass_imbalance": abs(inflow - outflow) / inflow,
        "pressure_drop": run.mean_boundary[2],
        "max_mach": float(np.hypot(ux, uy)[fluid].max() * math.sqrt(3)),
        "viscosity_lattice": nu,
        "inflow_lattice": speed_in,
    }
    return rounded(facts)  # type: ignore[return-value]
