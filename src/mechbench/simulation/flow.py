"""One generated flow simulation: a 2D channel configuration at a Reynolds number, run with the lattice-Boltzmann
kernels of :mod:`mechbench.simulation.lbm`, and the facts the SeeSim answers are read from."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from mechbench.simulation import lbm

CONFIGURATIONS = ("channel", "cylinder", "step", "heated_cylinder")
CONFIGURATION_WEIGHTS = (2, 4, 1.5, 3)
"""Drawn after one of each; weighted towards the configurations that turn the rarer answers True (turbulent
wakes, natural convection)."""
U_LATTICE = 0.08
"""Mean inflow speed in lattice units (Mach 0.14 against c_s; compressibility errors of order Ma², 2 %)."""
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
REVERSED_SHARE = 0.002
DEVELOPED = 0.02
RICHARDSON = 0.1
MAX_RICHARDSON = 3.0
"""Buoyant velocities grow as U·√Ri: beyond this they would reach Mach 0.3 on the lattice, where it stops being
incompressible (and BGK goes unstable)."""
STEADY = 0.01
SYMMETRY = 0.02
HIGH_GRADIENT = 5.0
SMAGORINSKY = 0.17
RAMP = 1.0
PERTURBATION = 0.02
"""Flow-through times over which the inflow rises from rest to its full speed."""
FRAMES = 12
PROBES = 400


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


@dataclass
class FlowRun:
    """A finished flow simulation: the lattice, the shown fields, the frames and the facts."""

    setup: FlowSetup
    solid: np.ndarray
    hot: np.ndarray
    scale: int  # lattice cells per characteristic length
    ux: np.ndarray
    uy: np.ndarray
    pressure: np.ndarray
    temperature: np.ndarray
    frames: list[tuple[float, np.ndarray]]
    steps: int
    facts: dict = field(default_factory=dict)


def sample_setup(rng: random.Random, index: int) -> FlowSetup:
    """Draw one flow; Reynolds ranges chosen so that each configuration shows both sides of its transitions."""
    configuration = (
        CONFIGURATIONS[index % len(CONFIGURATIONS)] if index < len(CONFIGURATIONS) else rng.choice(CONFIGURATIONS)
    )
    if configuration == "channel":
        reynolds = math.exp(rng.uniform(math.log(20), math.log(600)))
    elif configuration == "cylinder":
        regime = rng.choice(("steady", "shedding", "turbulent"))
        low, high = {"steady": (6, 40), "shedding": (60, 180), "turbulent": (300, 1000)}[regime]
        reynolds = rng.uniform(low, high)
    elif configuration == "step":
        reynolds = rng.uniform(20, 100)
    else:
        reynolds = rng.uniform(10, 60)
    heated = configuration == "heated_cylinder"
    return FlowSetup(
        configuration=configuration,
        reynolds=reynolds,
        richardson=math.exp(rng.uniform(math.log(0.01), math.log(MAX_RICHARDSON))) if heated else 0.0,
        offset=0 if configuration in ("channel", "step") or rng.random() < 0.6 else rng.choice((-3, 3)),
        fluid="air" if heated and rng.random() < 0.5 else rng.choice(("water", "air")),
        length=rng.choice((0.01, 0.02, 0.05)),
        time_resolved=rng.random() < 0.5,
    )


def _geometry(setup: FlowSetup) -> tuple[np.ndarray, np.ndarray, int, tuple[int, int]]:
    """Solid cells, heated cells, cells per characteristic length, probe cell (row, column)."""
    if setup.configuration == "channel":
        ny, nx, scale = 26, 150, 24
        solid = np.zeros((ny, nx), dtype=bool)
        probe = (ny // 2, int(0.6 * nx))
    elif setup.configuration == "step":
        ny, nx, scale = 40, 220, 13
        solid = np.zeros((ny, nx), dtype=bool)
        solid[: scale + 1, :25] = True
        probe = (scale + 3, 60)
    else:
        ny, nx, scale = 52, 170, 10
        solid = np.zeros((ny, nx), dtype=bool)
        y, x = np.mgrid[0:ny, 0:nx]
        centre_y = ny / 2 - 0.5 + setup.offset
        solid |= (x - 40) ** 2 + (y - centre_y) ** 2 <= (scale / 2) ** 2
        probe = (round(centre_y), 40 + 2 * scale)
    hot = solid.copy() if setup.configuration == "heated_cylinder" else np.zeros_like(solid)
    solid[0, :], solid[-1, :] = True, True
    return solid, hot, scale, probe


def _reynolds_length(setup: FlowSetup, scale: int, solid: np.ndarray) -> tuple[float, float]:
    """(lattice length the Reynolds number is based on, transition Reynolds number)."""
    if setup.configuration == "channel":
        return 2.0 * (solid.shape[0] - 2), CHANNEL_TRANSITION  # hydraulic diameter of parallel plates
    if setup.configuration == "step":
        return float(scale), STEP_TRANSITION * scale / (2.0 * (solid.shape[0] - 2 - scale))
    return float(scale), WAKE_TRANSITION


def run_flow(setup: FlowSetup) -> FlowRun:
    """Run ``setup`` to a statistically settled state and read its facts."""
    solid, hot, scale, probe = _geometry(setup)
    ny, nx = solid.shape
    length, critical = _reynolds_length(setup, scale, solid)
    nu = U_LATTICE * length / setup.reynolds
    tau = 3 * nu + 0.5
    smagorinsky = SMAGORINSKY if setup.reynolds >= critical else 0.0
    heated = setup.configuration == "heated_cylinder"
    buoyancy = setup.richardson * U_LATTICE**2 / scale if heated else 0.0  # g·β·ΔT with ΔT = 1
    tau_heat = 3 * nu / PRANDTL[setup.fluid] + 0.5
    inlet = np.where(solid[:, 0], 0.0, U_LATTICE)
    rho = np.ones((ny, nx))
    ux = np.zeros((ny, nx))  # from rest; the inflow ramps up smoothly, so that no pressure wave rings on
    # A small cross-stream disturbance behind the inlet breaks the exact mirror symmetry of the lattice: stable
    # flows damp it away, unstable ones (vortex shedding) grow from it as they would from any imperfection.
    kick = PERTURBATION * U_LATTICE if setup.configuration in ("cylinder", "heated_cylinder") else 0.0
    uy = np.where(solid, 0.0, kick * np.sin(np.pi * np.arange(nx) / nx)[None, :])
    f = lbm.equilibrium(rho, ux, uy)
    out = np.empty_like(f)
    temperature = np.zeros((ny, nx))
    g = lbm.W5[:, None, None] * temperature[None]
    g_out = np.empty_like(g)
    flow_through = nx / U_LATTICE
    viscous = (ny - 2) ** 2 / (4 * nu)
    steps = int(min(max(3 * flow_through, 0.6 * viscous), 6 * flow_through))
    probe_every = max(1, steps // PROBES)
    frame_every = max(1, steps // FRAMES)
    history, frames = [], []
    ramp = max(1, int(RAMP * flow_through))
    for step in range(1, steps + 1):
        speed = inlet * math.sin(0.5 * math.pi * min(1.0, step / ramp)) ** 2
        lbm.flow_step(f, out, solid, speed, tau, smagorinsky, buoyancy, temperature, rho, ux, uy)
        f, out = out, f
        if heated:
            lbm.heat_step(g, g_out, solid, hot, tau_heat, ux, uy, temperature)
            g, g_out = g_out, g
        if step % probe_every == 0:
            # The cross-stream velocity: vortex shedding moves it, the long acoustic modes of the channel do not.
            history.append(float(uy[probe]))
            if not math.isfinite(history[-1]):
                break  # diverged: no point running on
        if step % frame_every == 0 and len(frames) < FRAMES:
            frames.append((step, np.hypot(ux, uy) * ~solid))
    if not np.isfinite(ux).all():
        raise FloatingPointError(f"the lattice-Boltzmann run diverged ({setup})")
    pressure = (rho - 1.0) / 3.0
    run = FlowRun(setup, solid, hot, scale, ux.copy(), uy.copy(), pressure, temperature.copy(), frames, steps)
    run.facts = _facts(run, history, critical, nu, buoyancy)
    return run


def _facts(run: FlowRun, history: list[float], critical: float, nu: float, buoyancy: float) -> dict:
    """What the answers are read from, measured on the run's final state and its probe history."""
    setup, solid, ux, uy = run.setup, run.solid, run.ux, run.uy
    fluid = ~solid
    nx = solid.shape[1]
    inner = fluid.copy()
    inner[:, 0] = inner[:, -1] = False
    reversed_share = float((ux[inner] < -0.01 * U_LATTICE).sum() / inner.sum())
    near_wall = solid.copy()
    for _ in range(2):  # within two cells of a wall: the first fluid cell barely moves (no slip half a cell away)
        grown = near_wall.copy()
        grown[1:] |= near_wall[:-1]
        grown[:-1] |= near_wall[1:]
        grown[:, 1:] |= near_wall[:, :-1]
        grown[:, :-1] |= near_wall[:, 1:]
        near_wall = grown
    wall_reversal = bool((ux[near_wall & inner] < -0.01 * U_LATTICE).any())
    a, b = int(0.6 * nx), int(0.75 * nx)  # clear of the outlet, whose boundary condition bends the profile
    rows = fluid[:, a] & fluid[:, b]
    # Shapes compared (each profile over its mean): the lattice fluid is slightly compressible, so the mean speed
    # creeps up along a channel as the pressure falls even where the flow is fully developed.
    shape_a, shape_b = ux[rows, a] / ux[rows, a].mean(), ux[rows, b] / ux[rows, b].mean()
    profile_change = float(np.abs(shape_a - shape_b).max())
    tail = np.array(history[len(history) * 3 // 4 :])
    probe_variation = float((tail.max() - tail.min()) / U_LATTICE)
    if np.array_equal(solid[::-1], solid):
        both = inner & inner[::-1]
        asymmetry = float(max(np.abs(ux - ux[::-1])[both].max(), np.abs(uy + uy[::-1])[both].max()) / U_LATTICE)
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
    gradient_ratio = float(gradient.max() * run.scale / (0.5 * U_LATTICE**2))
    delta_t = float(run.temperature[fluid].max() - run.temperature[fluid].min()) if buoyancy else 0.0
    richardson = buoyancy * delta_t * run.scale / U_LATTICE**2
    unsteady = probe_variation >= STEADY
    density = 1.0 + 3.0 * p
    inflow = float((density[:, 1] * ux[:, 1])[fluid[:, 1]].sum())
    outflow = float((density[:, -2] * ux[:, -2])[fluid[:, -2]].sum())
    return {
        "configuration": setup.configuration,
        "reynolds": setup.reynolds,
        "critical_reynolds": critical,
        "turbulence_model": "Smagorinsky LES" if setup.reynolds >= critical else "none (laminar)",
        "reversed_share": reversed_share,
        "wall_reversal": wall_reversal,
        "profile_change": profile_change,
        "probe_variation": probe_variation,
        "transient": unsteady or setup.time_resolved,
        "asymmetry": asymmetry,
        "gradient_ratio": gradient_ratio,
        "heated": setup.configuration == "heated_cylinder",
        "richardson": richardson,
        "mass_imbalance": abs(inflow - outflow) / inflow,
        "max_mach": float(np.hypot(ux, uy).max() * math.sqrt(3)),
        "viscosity_lattice": nu,
    }
