"""One generated flow simulation: a 2D channel configuration at a Reynolds number, run with the lattice-Boltzmann
kernels of :mod:`mechbench.simulation.lbm`, and the facts the SeeSim answers are read from.

The lattice stays incompressible: each configuration's inflow speed keeps the fastest fluid below Mach 0.1
(:data:`MAX_MACH`, checked after the run; a run past it is drawn again), so the lattice's compressibility error
(of order Ma², under 1 %) stays far below what any answer is decided on.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from mechbench.core.precision import ROUND_OFF, rounded
from mechbench.simulation import lbm

CONFIGURATIONS = ("channel", "cylinder", "step", "heated_cylinder")
INFLOW_SPEED = {"channel": 0.035, "cylinder": 0.025, "step": 0.035, "heated_cylinder": 0.024}
"""Mean inflow speed in lattice units per configuration: the fastest fluid (1.5× the mean between plates, about
twice it beside a cylinder, more with buoyancy) stays below Mach 0.1 against the lattice sound speed 1/√3."""
MAX_MACH = 0.1
MIN_TAU = 0.51
"""The smallest relaxation time a run may use. τ = 3ν + ½ in lattice units: as τ nears ½ the lattice's viscosity
vanishes and its error terms do not; 0.51 is the usual floor. The resolution (cells across the body) is chosen from
the Reynolds number so that τ stays above it (:func:`resolution`)."""
PRANDTL = {"water": 7.0, "air": 0.71}
FLUIDS = {
    # kinematic viscosity m²/s, density kg/m³, thermal expansion 1/K
    "water": (1.0e-6, 998.0, 2.1e-4),
    "air": (1.5e-5, 1.2, 1 / 293.0),
}
GRAVITY = 9.81
WAKE_TRANSITION = 190
"""Reynolds number where a cylinder's wake stops being two-dimensional and laminar (Williamson 1996: mode A at
about 190). The generator runs only wakes below it."""
CHANNEL_TRANSITION = 2300
"""Transition Reynolds number of channel flow on the hydraulic diameter (twice the height)."""
STEP_TRANSITION = 1200
"""Transition Reynolds number of flow over a backward-facing step on twice the inlet height (Armaly et al. 1983)."""
CYLINDER_CELLS = 20
"""Lattice cells across a cylinder's diameter at the least: its wall is resolved by interpolated bounce-back at this
size (more where the Reynolds number needs them to keep τ ≥ :data:`MIN_TAU`)."""
RAMP = 1.0
"""Flow-through times over which the inflow rises from rest to its full speed."""
MIN_FLOW_THROUGHS = 3.0
"""Flow-through times every run lasts at the least (the ramp, and the flow carried through the domain twice)."""
MAX_FLOW_THROUGHS = 16.0
"""The budget: a run not settled by then left the regime it is asked about and is drawn again."""
CHECK_EVERY = 0.25
"""Flow-through times between the checks of whether the run has settled."""
SETTLED_CHANGE = 0.02
"""An unsteady run has settled when its shedding amplitude changes by less than this share over its last three
periods."""
SETTLED_DRIFT = 1e-3
"""A steady run has settled when no cell's velocity moved by more than this share of the mean inflow over the last
check interval (a tenth of the 1 % the steadiness and separation verdicts compare with) and the probe varies by less
than a tenth of :data:`STEADY` over the last flow-through."""
MIN_PERIODS = 3
"""The fewest whole shedding periods an unsteady run's facts are averaged over."""
SAMPLES_PER_FLOW_THROUGH = 200
PERTURBATION = 0.1
FRAMES = 12
FRAME_STORE = 48
"""Frames kept while running (the last ones, at a fixed interval): the video's 12 are picked over the window."""
WALL_BAND = 0.2
"""Share of the characteristic length (the cylinder's diameter, the step's height) next to a wall where reverse
flow counts as separation: the same physical band at any resolution."""
REVERSED = 0.01
"""A cell moves against the main flow when its streamwise velocity is below −1 % of the mean inflow."""
STEADY = 0.01
"""A flow is steady when the cross-stream velocity at the wake probe varies by less than 1 % of the mean inflow over
the window the facts are measured on; an unsteady flow is reported in time."""
INLET_STRIP, OUTLET_STRIP = 0.1, 5
"""The share of the length behind the inlet and the columns before the outlet left out of the measured region (the
plug inflow's corners and the outlet condition): pressures and gradients are read, and plotted, inside it."""


class RegimeError(FloatingPointError):
    """A run left the regime its model is valid in (diverged, past Mach 0.1, or not settled within the budget): it
    is drawn again."""


@dataclass(frozen=True)
class FlowSetup:
    """What the generator draws for one flow simulation."""

    configuration: str
    reynolds: float
    richardson: float
    offset: int
    """Cells from the centre line to the cylinder's centre at :data:`CYLINDER_CELLS` across it (+: up)."""
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
    """(step, speed, temperature) over the window the facts are measured on."""
    probe: tuple[float, float]
    """(y, x) of the probe in cells from the bottom left corner of the domain (cell centres at k + ½)."""
    probe_steps: np.ndarray
    probe_values: np.ndarray  # cross-stream velocity at the probe, lattice units
    profile_columns: tuple[int, int]
    steps: int
    window: tuple[int, int] = (0, 0)
    """First and last step of the window the facts are measured on: the last whole shedding periods (at least
    :data:`MIN_PERIODS`) of an unsteady run, the last flow-through of a steady one."""
    settling: dict = field(default_factory=dict)
    """How the run settled: ``periods`` averaged (0 when steady), ``period`` in steps, ``amplitude_change`` over the
    last three periods, ``flow_throughs`` run, ``field_change`` of a steady run over its last check."""
    mean_boundary: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Mass flow in, out, and the inlet-to-outlet pressure drop, averaged over the window (lattice units)."""
    facts: dict = field(default_factory=dict)


def heated_length(reynolds: float, richardson: float, fluid: str, delta_t: float) -> float:
    """The cylinder diameter (m) at which a wall ``delta_t`` kelvin above the inflow gives ``richardson`` at
    ``reynolds``: Ri = Gr / Re² with Gr = g β ΔT D³ / ν²."""
    nu, _, beta = FLUIDS[fluid]
    return (richardson * reynolds**2 * nu**2 / (GRAVITY * beta * delta_t)) ** (1 / 3)


def resolution(configuration: str, reynolds: float) -> int:
    """Cells across the characteristic length: the configuration's own, or more where the Reynolds number would
    otherwise take τ below :data:`MIN_TAU` (τ − ½ = 3 u L / Re on the Reynolds length L)."""
    base = {"channel": 24, "step": 13}.get(configuration, CYLINDER_CELLS)
    basis = 2.0 if configuration == "channel" else 1.0  # the channel's Reynolds number is on twice its height
    needed = (MIN_TAU - 0.5) * reynolds / (3 * INFLOW_SPEED[configuration] * basis)
    return max(base, 2 * math.ceil(needed / 2))


def _geometry(
    setup: FlowSetup,
) -> tuple[np.ndarray, np.ndarray, int, tuple[float, float], list[tuple[int, int]], np.ndarray]:
    """Solid cells, heated cells, cells per characteristic length, the probe's position (y, x in cells), the cells
    averaged for it (two straddling a mirror line that runs between cell centres) and the wall distance of every
    boundary link (:func:`~mechbench.simulation.lbm.wall_distances`)."""
    circles: tuple[tuple[float, float, float], ...] = ()
    scale = resolution(setup.configuration, setup.reynolds)
    if setup.configuration == "channel":
        ny, nx = scale + 2, round(6.25 * scale)
        solid = np.zeros((ny, nx), dtype=bool)
        centre_y, probe_x = ny / 2 - 0.5, int(0.6 * nx)  # the centre line between the walls (cell centres at k)
    elif setup.configuration == "step":
        ny, nx = round(40 * scale / 13), round(180 * scale / 13)
        solid = np.zeros((ny, nx), dtype=bool)
        solid[: scale + 1, : round(25 * scale / 13)] = True
        centre_y, probe_x = scale + 3.0, round(60 * scale / 13)
    else:  # 2 diameters upstream, 6 downstream, 4.1 across (the blockage of the DFG benchmark, about a quarter)
        ny, nx = round(4.1 * scale) + 2, 8 * scale
        solid = np.zeros((ny, nx), dtype=bool)
        y, x = np.mgrid[0:ny, 0:nx]
        centre_x, centre_y = 2.0 * scale, ny / 2 - 0.5 + offset_cells(setup, scale)
        solid |= (x - centre_x) ** 2 + (y - centre_y) ** 2 <= (scale / 2) ** 2
        probe_x = round(centre_x) + 2 * scale
        circles = ((centre_x, centre_y, scale / 2),)
    rows = sorted({math.floor(centre_y), math.ceil(centre_y)})
    hot = solid.copy() if setup.configuration == "heated_cylinder" else np.zeros_like(solid)
    solid[0, :], solid[-1, :] = True, True
    probe = (centre_y + 0.5, probe_x + 0.5)
    return solid, hot, scale, probe, [(r, probe_x) for r in rows], lbm.wall_distances(solid, circles)


def reynolds_length(setup: FlowSetup, scale: int, solid: np.ndarray) -> tuple[float, float]:
    """(lattice length the Reynolds number is based on, transition Reynolds number)."""
    if setup.configuration == "channel":
        return 2.0 * (solid.shape[0] - 2), CHANNEL_TRANSITION  # hydraulic diameter of parallel plates
    if setup.configuration == "step":
        return float(scale), STEP_TRANSITION * scale / (2.0 * (solid.shape[0] - 2 - scale))
    return float(scale), WAKE_TRANSITION


def offset_cells(setup: FlowSetup, scale: int) -> float:
    """A cylinder's offset from the centre line in cells: ``setup.offset`` is in cells at :data:`CYLINDER_CELLS`
    across the diameter (the same share of the diameter at any resolution)."""
    return setup.offset * scale / CYLINDER_CELLS


def measured_region(solid: np.ndarray) -> np.ndarray:
    """The fluid clear of the inlet's first tenth and the outlet's last columns: where pressures and their gradients
    are read, and what the pressure plot shows."""
    nx = solid.shape[1]
    region = ~solid
    region[:, : int(INLET_STRIP * nx)] = False
    region[:, -OUTLET_STRIP:] = False
    return region


def _boundary_sums(solid: np.ndarray, rho: np.ndarray, ux: np.ndarray) -> tuple[float, float, float]:
    """Mass flow through the first and last inner columns (Σ ρ u over the fluid) and the mean pressure
    difference between them, lattice units."""
    fluid = ~solid
    inflow = float((rho[:, 1] * ux[:, 1])[fluid[:, 1]].sum())
    outflow = float((rho[:, -2] * ux[:, -2])[fluid[:, -2]].sum())
    drop = float(rho[fluid[:, 1], 1].mean() - rho[fluid[:, -2], -2].mean()) / 3.0
    return inflow, outflow, drop


def mass_flows(run: FlowRun) -> tuple[float, float]:
    """Mass flow (lattice units, per unit depth) in and out, averaged over the window."""
    return run.mean_boundary[0], run.mean_boundary[1]


def _inlet(setup: FlowSetup, solid: np.ndarray, speed: float) -> np.ndarray:
    """The inflow profile: a developed (parabolic) one between the step's inlet walls, where the separation
    depends on the incoming boundary layers; a plug elsewhere (a channel develops from it, which is what is
    asked of it; a cylinder sits in the core)."""
    open_rows = np.flatnonzero(~solid[:, 0])
    if setup.configuration != "step":
        return np.where(solid[:, 0], 0.0, speed)
    low, high = open_rows[0] - 0.5, open_rows[-1] + 0.5  # the walls lie half a cell outside the fluid cells
    y = np.arange(solid.shape[0], dtype=float)
    profile = 6.0 * speed * (y - low) * (high - y) / (high - low) ** 2  # mean speed, peak 1.5×
    return np.where(solid[:, 0], 0.0, profile)


def shedding(values: np.ndarray, floor: float) -> tuple[list[int], list[float]]:
    """The whole periods of an oscillating probe signal: the sample indices where it crosses its mean upward, and
    each period's amplitude (half its peak-to-peak); none when it varies by less than ``floor``."""
    if values.size < 8 or float(values.max() - values.min()) < floor:
        return [], []
    centred = values - values.mean()
    ups = np.flatnonzero((centred[:-1] < 0) & (centred[1:] >= 0)) + 1
    # Crossings closer than a fifth of the typical spacing are noise on one crossing.
    if ups.size > 1:
        spacing = float(np.median(np.diff(ups)))
        keep = [int(ups[0])]
        for k in ups[1:]:
            if k - keep[-1] >= 0.2 * spacing:
                keep.append(int(k))
        ups = np.array(keep)
    amplitudes = [float(values[a:b].max() - values[a:b].min()) / 2 for a, b in itertools.pairwise(ups)]
    return ups.tolist(), amplitudes


def run_flow(setup: FlowSetup) -> FlowRun:
    """Run ``setup`` until what its facts are read from has settled, then read them (a :class:`RegimeError` when it
    left the model's regime: diverged, past Mach 0.1, or not settled within :data:`MAX_FLOW_THROUGHS`)."""
    solid, hot, scale, probe, probe_cells, q = _geometry(setup)
    ny, nx = solid.shape
    length, critical = reynolds_length(setup, scale, solid)
    speed_in = INFLOW_SPEED[setup.configuration]
    nu = speed_in * length / setup.reynolds
    tau = 3 * nu + 0.5
    if tau < MIN_TAU - 1e-12:
        raise RegimeError(f"τ = {tau:.4f} is below {MIN_TAU} ({setup})")
    heated = setup.configuration == "heated_cylinder"
    buoyancy = setup.richardson * speed_in**2 / scale if heated else 0.0  # g·β·ΔT with ΔT = 1
    tau_heat = 3 * nu / PRANDTL[setup.fluid] + 0.5
    inlet = _inlet(setup, solid, speed_in)
    cells = lbm.lattice_cells(solid, lbm.pull_sources(solid), q)
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
    probe_every = max(1, round(flow_through / SAMPLES_PER_FLOW_THROUGH))
    check_every = probe_every * max(1, round(CHECK_EVERY * SAMPLES_PER_FLOW_THROUGH))
    frame_every = probe_every * max(1, round(SAMPLES_PER_FLOW_THROUGH / 24))
    least, most = int(MIN_FLOW_THROUGHS * flow_through), int(MAX_FLOW_THROUGHS * flow_through)
    if setup.configuration == "channel":  # the profile develops by diffusion from the walls
        least = int(min(max(least, 0.6 * (ny - 2) ** 2 / (4 * nu)), 6 * flow_through))
    probe_steps: list[int] = []
    probe_values: list[float] = []
    sums: list[tuple[int, tuple[float, float, float]]] = []
    stored: deque[tuple[int, np.ndarray, np.ndarray]] = deque(maxlen=FRAME_STORE)
    ramp = max(1, int(RAMP * flow_through))
    previous = ux.copy()
    settled: dict | None = None
    step = 0
    while step < most:
        step += 1
        x = min(1.0, step / ramp)
        # A smooth start (3x² − 2x³, no transcendental function: the same bits on any machine's maths library).
        lbm.flow_step(f, out, solid, inlet * (x * x * (3.0 - 2.0 * x)), tau, buoyancy, temperature, rho, ux, uy, cells)
        f, out = out, f
        if heated:
            lbm.heat_step(g, g_out, solid, hot, tau_heat, ux, uy, temperature, cells)
            g, g_out = g_out, g
        if step % probe_every == 0:
            # The cross-stream velocity: vortex shedding moves it, the long acoustic modes of the channel do not.
            probe_steps.append(step)
            probe_values.append(float(np.mean([uy[cell] for cell in probe_cells])))
            if not math.isfinite(probe_values[-1]):
                break  # diverged: no point running on
            sums.append((step, _boundary_sums(solid, rho, ux)))
        if step % frame_every == 0:
            stored.append((step, np.hypot(ux, uy) * ~solid, temperature.copy()))
        if step % check_every == 0 and step >= least:
            change = float(np.abs(ux - previous)[~solid].max()) / speed_in
            previous = ux.copy()
            settled = _settled(np.array(probe_steps), np.array(probe_values), speed_in, flow_through, change, step)
            if settled is not None:
                break
    if not np.isfinite(ux).all():
        raise RegimeError(f"the lattice-Boltzmann run diverged ({setup})")
    if settled is None:
        raise RegimeError(f"not settled within {MAX_FLOW_THROUGHS:g} flow-through times ({setup})")
    first, last = settled["window"]
    window = [v for k, v in sums if first <= k <= last]
    in_window = [frame for frame in stored if first <= frame[0] <= last]
    chosen = np.linspace(0, len(in_window) - 1, FRAMES).round().astype(int) if in_window else []
    frames = [in_window[k] for k in sorted(set(chosen.tolist()))] if in_window else [stored[-1]]
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
        step,
        (first, last),
        {k: v for k, v in settled.items() if k != "window"} | {"flow_throughs": step / flow_through},
        tuple(float(v) for v in np.mean(window, axis=0)) if window else _boundary_sums(solid, rho, ux),
    )
    run.facts = _facts(run, critical, nu, tau, length)
    if run.facts["max_mach"] > MAX_MACH:
        raise RegimeError(f"the flow reached Mach {run.facts['max_mach']:.3f} on the lattice ({setup})")
    return run


def _settled(
    steps: np.ndarray, values: np.ndarray, speed: float, flow_through: float, change: float, step: int
) -> dict | None:
    """Whether a run has settled, and the window its facts are measured on; None while it has not.

    Unsteady: the probe oscillates, its last three whole periods' amplitudes within :data:`SETTLED_CHANGE` of each
    other; the window is the whole periods (up-crossing to up-crossing) of the last flow-through, at least
    :data:`MIN_PERIODS`. Steady: the probe
    varies by less than a tenth of :data:`STEADY` over the last flow-through and the field moved by less than
    :data:`SETTLED_DRIFT` over the last check; the window is that flow-through."""
    recent = steps >= step - flow_through
    tail = values[recent]
    ups, amplitudes = shedding(values[steps >= step - 2 * flow_through], 0.1 * STEADY * speed)
    offset = int(np.flatnonzero(steps >= step - 2 * flow_through)[0])
    if len(amplitudes) >= MIN_PERIODS:
        last = amplitudes[-3:]
        spread = (max(last) - min(last)) / max(float(np.mean(last)), 1e-300)
        if spread < SETTLED_CHANGE:
            starts = [offset + u for u in ups]
            whole = [k for k in starts if steps[k] >= step - flow_through]
            if len(whole) < MIN_PERIODS + 1:  # long periods: the last three, whatever their span
                whole = starts[-(MIN_PERIODS + 1) :]
            return {
                "window": (int(steps[whole[0]]), int(steps[whole[-1]])),
                "periods": len(whole) - 1,
                "period": float(np.mean(np.diff(steps[starts[-(MIN_PERIODS + 1) :]]))),
                "amplitude_change": spread,
                "field_change": None,
            }
        return None
    if tail.size and float(tail.max() - tail.min()) < 0.1 * STEADY * speed and change < SETTLED_DRIFT:
        return {
            "window": (int(step - flow_through), step),
            "periods": 0,
            "period": None,
            "amplitude_change": None,
            "field_change": change,
        }
    return None


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


def _facts(run: FlowRun, critical: float, nu: float, tau: float, length: float) -> dict:
    """What the answers are read from, measured on the run's final state and its probe history over the window
    (lattice units); ``length`` is the Reynolds number's reference length in cells."""
    setup, solid, ux, uy, speed_in = run.setup, run.solid, run.ux, run.uy, run.inflow
    fluid = ~solid
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
    first, last = run.window
    in_window = (run.probe_steps >= first) & (run.probe_steps <= last)
    tail = run.probe_values[in_window] if in_window.any() else run.probe_values[-1:]
    probe_variation = float((tail.max() - tail.min()) / speed_in)
    probe_variation = 0.0 if probe_variation < ROUND_OFF else probe_variation  # a centre line's zero, by symmetry
    if np.array_equal(solid[::-1], solid):
        both = inner & inner[::-1]
        asymmetry = float(max(np.abs(ux - ux[::-1])[both].max(), np.abs(uy + uy[::-1])[both].max()) / speed_in)
        asymmetry = 0.0 if asymmetry < ROUND_OFF else asymmetry  # a mirror-exact lattice run: round-off is 0
    else:
        asymmetry = math.inf  # the geometry itself has no mirror line along the flow
    p = run.pressure
    region = measured_region(solid)
    interior = region.copy()  # a gradient needs fluid on all four sides
    interior[1:-1, 1:-1] &= fluid[:-2, 1:-1] & fluid[2:, 1:-1] & fluid[1:-1, :-2] & fluid[1:-1, 2:]
    interior[[0, -1], :] = False
    gy, gx = np.gradient(p)
    gradient = np.hypot(gx, gy)[interior]
    # The steepest pressure change over one reference length (the Reynolds number's), in dynamic pressures (ρ = 1).
    gradient_ratio = float(gradient.max() * length / (0.5 * speed_in**2))
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
        "pressure_low": float(p[region].min()),
        "pressure_high": float(p[region].max()),
        "viscosity_lattice": nu,
        "inflow_lattice": speed_in,
        "tau": tau,
        "cells_across": run.scale,
        "reference_cells": length,
        "periods_averaged": run.settling.get("periods", 0),
        "amplitude_change": run.settling.get("amplitude_change"),
        "flow_throughs": run.settling.get("flow_throughs"),
    }
    return rounded(facts)  # type: ignore[return-value]
