"""One generated structural simulation: a part, a material, a load case, the finite-element results and the
facts the SeeSim answers are read from (:mod:`mechbench.benchmarks.seesim.rules`).

Loads are static (a ramp), cyclic (two fully reversed cycles, quasi-static) or sudden (a Newmark transient).
The plotted field is the one the material's failure criterion reads: von Mises stress for a ductile material,
the largest principal stress for a brittle one. Facts are kept at the precision the model supports
(:mod:`mechbench.core.precision`), so the same set-up gives the same facts on any machine.

Kept as one module (~490 lines): the load history, the solves per frame and the checks (strength, buckling,
fatigue, thermal share) feed one facts record and are reviewed together; the element and the buckling formulas
live in :mod:`mechbench.fem` and :mod:`mechbench.simulation.buckling`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from mechbench.core.precision import ROUND_OFF, ratio, rounded
from mechbench.simulation import plane_stress as ps
from mechbench.simulation.buckling import Mode, lateral_torsional, out_of_plane_euler
from mechbench.simulation.materials import MATERIALS, Material
from mechbench.simulation.parts import Part, make_part, walls_on_both_ends

LOADINGS = ("static", "cyclic", "impact")
THERMAL = ("none", "uniform", "hot_spot")
IMPACT_AMPLIFICATION = 2.0
"""A load applied suddenly doubles the static response of an undamped system: struck parts get half the static
load of their drawn factor of safety, and their buckling check uses twice the load."""
STATIC_FRAMES = 12
CYCLIC_FRAMES = 17
"""Eight frames per fully reversed cycle."""
IMPACT_PERIODS = 4
"""Periods of the first mode a transient run covers (81 steps: 20 per period)."""
IMPACT_FRAME_PERIODS = 2
IMPACT_FRAMES_PER_PERIOD = 8
"""The animation of a struck part shows its first two periods at eight frames each: the vibration it is asked
about is resolved, not aliased."""
BUCKLING_SEARCH = 2.25
"""The in-plane buckling factor is computed exactly below this multiple of the largest bound a rule compares it
with (beyond it, it is reported as above)."""


@dataclass(frozen=True)
class StructuralSetup:
    """What the generator draws for one structural simulation."""

    kind: str
    material: int
    cells_across: int
    loading: str
    thermal: str
    restrained: bool
    target_fos: float
    part_seed: str
    thermal_share: float | None = None
    """For a hot spot: the share of the peak failure index the temperature alone should reach (None: as drawn)."""


@dataclass
class StructuralRun:
    """A solved structural simulation: inputs, fields for the media, and the facts for the answers."""

    setup: StructuralSetup
    part: Part
    material: Material
    load_newtons: float
    temperature_rise: np.ndarray
    fixed: np.ndarray
    displacement: np.ndarray
    stress: np.ndarray
    frames: list[tuple[str, np.ndarray, np.ndarray]]
    shown_frame: int
    """Index in :attr:`frames` of the most stressed instant (the one the image and the report show)."""
    field_name: str
    """What the plots show: ``von Mises`` (ductile) or ``maximum principal`` (brittle)."""
    field_limit: float
    """The material limit of the plotted field (yield strength, or tensile strength): the outline on the plots."""
    facts: dict = field(default_factory=dict)

    def plotted(self, stress: np.ndarray) -> np.ndarray:
        """The plotted field (MPa, per cell) of a stress state."""
        return plotted_field(self.material, stress)


def plotted_field(material: Material, stress: np.ndarray) -> np.ndarray:
    """von Mises stress for a ductile material, the largest principal stress for a brittle one (MPa)."""
    return ps.von_mises(stress) if material.ductile else ps.principal(stress)[0]


def _heat(part: Part, thermal: str, rng: random.Random) -> tuple[Callable[[np.ndarray, np.ndarray], np.ndarray], str]:
    """The temperature rise (K) as a function of position (mm), so that any mesh of the part samples the same field,
    and where it is (for the description)."""
    if thermal == "none":
        return (lambda x, y: 0.0 * x), ""
    rise = rng.uniform(20, 150)
    if thermal == "uniform":
        return (lambda x, y: rise + 0.0 * x), ""
    height, width = part.solid.shape[0] * part.h, part.solid.shape[1] * part.h
    rows, cols = part.solid.shape
    inner = np.zeros_like(part.solid)  # centred on material, clear of the edges
    inner[int(0.2 * rows) : int(np.ceil(0.8 * rows)), int(0.2 * cols) : int(np.ceil(0.8 * cols))] = True
    candidates = np.argwhere(part.solid & inner)
    r, c = candidates[rng.randrange(len(candidates))]
    cx, cy = (c + 0.5) * part.h, (r + 0.5) * part.h
    radius = 0.25 * min(height, width) + 0.1 * max(height, width)
    return (
        lambda x, y: rise * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * radius**2)),
        f"at x = {cx:.0f} mm, y = {height - cy:.0f} mm (from the bottom left, as plotted), decaying over "
        f"{radius:.0f} mm",
    )


def _heat_text(thermal: str, restrained: bool, peak: float, where: str) -> str:
    if thermal == "none":
        return "none (room temperature, 22 °C)"
    if thermal == "uniform":
        return f"uniform temperature rise of {peak:.0f} K" + (", both ends between rigid walls" if restrained else "")
    return f"local hot spot, {peak:.0f} K above ambient {where}"


def _cell_field(part: Part, fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    rows, cols = part.solid.shape
    y, x = np.meshgrid((np.arange(rows) + 0.5) * part.h, (np.arange(cols) + 0.5) * part.h, indexing="ij")
    return np.asarray(fn(x, y), dtype=float)


def failure_index(material: Material, stress: np.ndarray, solid: np.ndarray) -> np.ndarray:
    """Each cell's equivalent stress over strength (von Mises over yield, or Coulomb–Mohr), 0 outside the part."""
    s1, s2 = ps.principal(stress)
    return material.failure_index(ps.von_mises(stress), s1, s2) * solid


def _bending_share(body: ps.Body, stress: np.ndarray, peak: tuple[int, int]) -> tuple[float, float]:
    """(axial, bending) stress of the section through the most stressed cell: N/A and M·c/I of the normal stress,
    across the section whose normal stress at that cell is larger (a vertical cut for σx, a horizontal one for σy)."""
    r, c = peak
    vertical = abs(stress[r, c, 0]) >= abs(stress[r, c, 1])
    cells = body.solid[:, c] if vertical else body.solid[r, :]
    sigma = stress[:, c, 0] if vertical else stress[r, :, 1]
    s = (np.arange(len(cells)) + 0.5) * body.h
    s, sigma = s[cells], sigma[cells]
    if len(s) < 2:
        return abs(float(sigma.mean())), 0.0
    centroid = s.mean()
    inertia = float(((s - centroid) ** 2).sum() * body.h + len(s) * body.h**3 / 12)
    axial = abs(float(sigma.mean()))
    moment = float((sigma * (s - centroid)).sum() * body.h)
    bending = abs(moment) * float(np.abs(s - centroid).max()) / inertia  # at the outer cells, where σ is read
    total = axial + bending  # a part below round-off of the two is zero
    return (0.0 if axial < ROUND_OFF * total else axial), (0.0 if bending < ROUND_OFF * total else bending)


def _mirror_symmetric(
    part: Part, force: np.ndarray, fixed: np.ndarray, temperature: np.ndarray, supports: bool = True
) -> bool:
    """Geometry, loads, temperature field (and, with ``supports``, the supports) unchanged by a mirror about the
    part's mid-height or mid-length line."""
    rows, cols = part.solid.shape
    r, c = np.meshgrid(np.arange(rows + 1), np.arange(cols + 1), indexing="ij")
    fixed_set = np.zeros(2 * (rows + 1) * (cols + 1), dtype=bool)
    fixed_set[fixed] = True
    scale = max(float(np.abs(force).max()), 1e-12)
    for flip_rows in (True, False):
        mirror = ((rows - r) * (cols + 1) + c) if flip_rows else (r * (cols + 1) + (cols - c))
        mirror = mirror.ravel()
        dofs = np.empty(2 * len(mirror), dtype=np.int64)
        dofs[0::2], dofs[1::2] = 2 * mirror, 2 * mirror + 1
        sign = np.tile([1.0, -1.0] if flip_rows else [-1.0, 1.0], len(mirror))
        solid = part.solid[::-1] if flip_rows else part.solid[:, ::-1]
        heat = temperature[::-1] if flip_rows else temperature[:, ::-1]
        if (
            np.array_equal(solid, part.solid)
            and (not supports or np.array_equal(fixed_set[dofs], fixed_set))
            and np.allclose(force[dofs] * sign, force, atol=1e-9 * scale)
            and np.allclose(heat, temperature, atol=1e-6 * max(float(np.abs(temperature).max()), 1.0))
        ):
            return True
    return False


def _history(loading: str, steps: int) -> np.ndarray:
    t = np.linspace(0.0, 1.0, steps)
    if loading == "cyclic":
        return np.sin(2 * np.pi * 2 * t)  # two fully reversed cycles
    if loading == "impact":
        return np.ones(steps)  # applied suddenly at t = 0 and held
    return t  # quasi-static ramp


def _static(
    part: Part, material: Material, load: float, temperature: np.ndarray, fixed: np.ndarray
) -> tuple[float, float]:
    """Strain energy (N·mm) and largest failure index of the static load case on ``part``'s mesh."""
    body = ps.Body(part.solid, part.h, part.thickness, material.young, material.poisson, material.density)
    force = load * part.unit_load + body.thermal_force(temperature, material.expansion)
    stress = body.stresses(ps.solve_static(body, force, fixed), temperature, material.expansion)
    return ps.elastic_energy(body, stress), float(failure_index(material, stress, part.solid).max())


@dataclass
class _Loads:
    """A set-up's loads, scaled to its drawn factor of safety, and the static unit responses they combine."""

    load: float  # N, the mechanical load
    mechanical: np.ndarray
    temperature: np.ndarray
    thermal_force: np.ndarray
    unit_stress: np.ndarray  # per newton of mechanical load
    thermal_stress: np.ndarray
    heat: Callable[[np.ndarray, np.ndarray], np.ndarray]
    heat_text: str


def _loads(setup: StructuralSetup, part: Part, material: Material, body: ps.Body, fixed: np.ndarray) -> _Loads:
    """The mechanical load is set so that, alone and static, it gives the drawn factor of safety (halved for a
    sudden load); a bar between walls carries no load and its temperature is scaled to that factor instead; a hot
    spot is scaled to reach its drawn share of the peak failure index."""
    heat, where = _heat(part, setup.thermal, random.Random(setup.part_seed + ":load"))
    temperature = _cell_field(part, heat)
    thermal_force = body.thermal_force(temperature, material.expansion)
    zero = np.zeros((*part.solid.shape, 3))
    free_body = ps.rigid_modes_left(body, fixed).shape[1] > 0
    unit_stress = zero if free_body else body.stresses(ps.solve_static(body, part.unit_load, fixed))
    thermal_stress = (
        zero
        if free_body
        else body.stresses(ps.solve_static(body, thermal_force, fixed), temperature, material.expansion)
    )

    def scaled(k: float) -> None:
        nonlocal temperature, thermal_stress, thermal_force, heat
        temperature, thermal_stress, thermal_force = temperature * k, thermal_stress * k, thermal_force * k
        heat = (lambda fn, f: lambda x, y: f * fn(x, y))(heat, k)

    if setup.restrained:
        scaled(1.0 / (setup.target_fos * failure_index(material, thermal_stress, part.solid).max()))
        load = 0.0
    elif free_body:
        strength = material.yield_strength or material.tensile_strength
        load = strength * part.thickness * part.depth / (IMPACT_AMPLIFICATION * setup.target_fos)
    else:
        load = 1.0 / (setup.target_fos * failure_index(material, unit_stress, part.solid).max())
        if setup.loading == "impact":
            load /= IMPACT_AMPLIFICATION
        if setup.thermal == "hot_spot" and setup.thermal_share is not None:
            mechanical_peak = failure_index(material, load * unit_stress, part.solid).max()
            thermal_peak = failure_index(material, thermal_stress, part.solid).max()
            if thermal_peak > 0:
                scaled(setup.thermal_share * mechanical_peak / thermal_peak)
    heat_text = _heat_text(setup.thermal, setup.restrained, float(temperature.max()), where)
    return _Loads(load, load * part.unit_load, temperature, thermal_force, unit_stress, thermal_stress, heat, heat_text)


@dataclass
class _Response:
    """Displacements, stresses and labels over the load history, the load factor of each instant and the frames."""

    us: np.ndarray
    stresses: list[np.ndarray]
    labels: list[str]
    accelerations: np.ndarray
    history: np.ndarray
    frames: list[int]
    period: float | None = None  # s, of the first mode (struck parts)
    step: float | None = None  # s


def _response(
    setup: StructuralSetup, part: Part, material: Material, body: ps.Body, fixed: np.ndarray, loads: _Loads
) -> _Response:
    """The load history solved (temperature held): static and cyclic quasi-statically, a sudden load in time."""
    u_heat = ps.solve_static(body, loads.thermal_force, fixed) if setup.thermal != "none" else np.zeros(body.ndof)
    if setup.loading == "impact":
        steps = IMPACT_PERIODS * 20 + 1
        history = _history("impact", steps)
        free_body = ps.rigid_modes_left(body, fixed).shape[1] > 0
        wave = 4 * part.solid.shape[1] * part.h / math.sqrt(material.young / material.density)
        period = wave if free_body else 1 / ps.first_frequency(body, fixed)
        dt = IMPACT_PERIODS * period / (steps - 1)
        us, accs = ps.newmark(body, loads.mechanical, fixed, history, dt)
        us = us + u_heat[None, :]
        stresses = [body.stresses(u, loads.temperature, material.expansion) for u in us]
        labels = [f"t = {k * dt * 1e3:.3f} ms" for k in range(steps)]
        every = (steps - 1) // (IMPACT_PERIODS * IMPACT_FRAMES_PER_PERIOD)
        frames = list(range(0, IMPACT_FRAME_PERIODS * IMPACT_FRAMES_PER_PERIOD * every + 1, every))
        return _Response(us, stresses, labels, accs, history, frames, period, dt)
    steps = 41
    history = _history(setup.loading, steps)
    count = CYCLIC_FRAMES if setup.loading == "cyclic" else STATIC_FRAMES
    frames = sorted(set(np.linspace(0, steps - 1, count).round().astype(int).tolist()))
    if loads.load == 0:  # heated between walls, nothing else: the temperature is what rises
        us = np.array([k * u_heat for k in history])
        stresses = [k * loads.thermal_stress for k in history]
        labels = [f"temperature rise × {k:.2f}" for k in history]
        return _Response(us, stresses, labels, np.zeros_like(us), history, frames)
    u_mech = ps.solve_static(body, loads.mechanical, fixed)
    # A ramp applies the load and the temperature together; cycles act on a part held at its temperature.
    held = 0.0 if setup.loading == "static" else 1.0
    us = np.array([k * u_mech + (held + (1 - held) * k) * u_heat for k in history])
    stresses = [k * loads.load * loads.unit_stress + (held + (1 - held) * k) * loads.thermal_stress for k in history]
    labels = [f"load factor {round(k, 2) + 0.0:+.2f}" for k in history]  # never "-0.00"
    return _Response(us, stresses, labels, np.zeros_like(us), history, frames)


def _member_modes(
    setup: StructuralSetup, part: Part, material: Material, load: float, thermal_axial: float
) -> list[Mode]:
    """The out-of-plane modes of the part's members under the mechanical load (twice it when sudden) and the
    axial force of a restrained temperature rise; a fully reversed load also pushes what it pulls."""
    e, t = material.young, part.thickness
    rows, cols = part.solid.shape
    length, depth = cols * part.h, part.depth
    force = load * (IMPACT_AMPLIFICATION if setup.loading == "impact" else 1.0)
    if setup.kind in ("bar", "plate_hole", "notched_bar"):
        width = rows * part.h
        compression = force if setup.loading == "cyclic" else 0.0  # pulled, except in the reversed half-cycles
        modes = [out_of_plane_euler(e, width, t, length, 2.0, compression)]
        if thermal_axial > 0:  # both ends held along the bar: pinned out of plane at each end
            modes.append(out_of_plane_euler(e, width, t, length, 1.0, thermal_axial))
        return modes
    if setup.kind == "column":
        return [out_of_plane_euler(e, depth, t, length, 2.0, force)]
    if setup.kind == "cantilever":
        return [lateral_torsional(e, material.poisson, depth, t, length, force)]
    if setup.kind == "bracket":
        arm = depth  # the arm and the upright are one depth wide
        return [
            lateral_torsional(e, material.poisson, arm, t, length - arm, force),
            out_of_plane_euler(e, arm, t, rows * part.h, 2.0, force),
        ]
    return []  # a block sliding on a floor: nothing holds it to push against


def _buckling(
    setup: StructuralSetup,
    part: Part,
    material: Material,
    body: ps.Body,
    fixed: np.ndarray,
    loads: _Loads,
    bound: float,
) -> Mode:
    """The smallest buckling load factor of the static load case (in-plane finite elements, out-of-plane closed
    forms); a fully reversed load is checked both ways."""
    amplify = IMPACT_AMPLIFICATION if setup.loading == "impact" else 1.0
    signs = (1.0, -1.0) if setup.loading == "cyclic" else (1.0,)
    modes = []
    for sign in signs:
        prestress = sign * amplify * loads.load * loads.unit_stress + loads.thermal_stress
        factor = ps.buckling_factor(body, prestress, fixed, BUCKLING_SEARCH * bound)
        modes.append(Mode("in-plane buckling (finite elements)", factor))
    if setup.restrained:
        middle = part.solid.shape[1] // 2
        column = loads.thermal_stress[:, middle, 0][part.solid[:, middle]]
        thermal_axial = max(0.0, -float(column.sum()) * part.h * part.thickness)
    else:
        thermal_axial = 0.0
    modes += _member_modes(setup, part, material, loads.load, thermal_axial)
    return min(modes, key=lambda m: m.factor)


def _resultants(body: ps.Body, u: np.ndarray, applied: np.ndarray, external: np.ndarray, fixed: np.ndarray) -> dict:
    """Sums of support reactions and of applied forces (x, +y up), round-off shown as 0, and their imbalance."""
    reaction = np.zeros(body.ndof)
    reaction[fixed] = ps.reactions(body, u, applied, fixed)
    size = max(float(np.abs(external).sum()), float(np.abs(reaction).sum()), 1e-9)
    sums = {
        "reaction_resultant": [float(reaction[0::2].sum()), -float(reaction[1::2].sum())],
        "applied_resultant": [float(external[0::2].sum()), -float(external[1::2].sum())],
    }
    for key in sums:
        sums[key] = [0.0 if abs(v) < ROUND_OFF * size else v for v in sums[key]]
    imbalance = np.array(sums["reaction_resultant"]) + np.array(sums["applied_resultant"])  # zero in equilibrium
    share = float(np.abs(imbalance).max() / size)
    sums["reaction_imbalance"] = 0.0 if share < ROUND_OFF else share
    return sums


def run_structural(setup: StructuralSetup, bound: Callable[[float], float] | None = None) -> StructuralRun:
    """Solve ``setup`` and read its facts. ``bound(fos)``: the largest buckling factor a rule compares with
    (default: 3 or the factor of safety), below which the in-plane factor is computed exactly."""
    material = MATERIALS[setup.material]
    part = make_part(setup.kind, random.Random(setup.part_seed), setup.cells_across)
    fixed = walls_on_both_ends(part) if setup.restrained else part.fixed
    body = ps.Body(part.solid, part.h, part.thickness, material.young, material.poisson, material.density)
    free_modes = ps.rigid_modes_left(body, fixed)
    free_body = free_modes.shape[1] > 0
    loads = _loads(setup, part, material, body, fixed)
    response = _response(setup, part, material, body, fixed, loads)
    indices = [failure_index(material, s, part.solid).max() for s in response.stresses]
    shown = int(np.argmax(indices))
    frame_steps = sorted(set(response.frames) | {shown})
    frames = [(response.labels[k], response.us[k], response.stresses[k]) for k in frame_steps]
    stress, u = response.stresses[shown], response.us[shown]
    vm = ps.von_mises(stress)
    s1, s2 = ps.principal(stress)
    index = failure_index(material, stress, part.solid)
    cells = vm[part.solid]
    peak_cell = np.unravel_index(int(np.argmax(np.where(part.solid, index, -1))), part.solid.shape)
    axial, bending = _bending_share(body, stress, peak_cell)
    external = response.history[shown] * loads.mechanical
    sums = _resultants(body, u, external + loads.thermal_force, external, fixed)
    fos = 1.0 / max(float(index.max()), 1e-12)
    plastic_cells = (vm > (material.yield_strength or math.inf)) & part.solid
    static_stress = loads.load * loads.unit_stress + loads.thermal_stress
    thermal_peak = (
        float(plotted_field(material, loads.thermal_stress)[part.solid].max()) if setup.thermal != "none" else 0.0
    )
    static_peak = float(plotted_field(material, static_stress)[part.solid].max())
    buckling_bound = (bound or (lambda f: max(3.0, f)))(fos)
    mode = (
        Mode("none (free to slide)", math.inf)
        if free_body
        else _buckling(setup, part, material, body, fixed, loads, buckling_bound)
    )
    energies, index_fine = None, None
    if not free_body:
        fine = make_part(setup.kind, random.Random(setup.part_seed), setup.cells_across, refine=2)
        fine_fixed = walls_on_both_ends(fine) if setup.restrained else fine.fixed
        coarse_static = _static(part, material, loads.load, loads.temperature, fixed)
        fine_static = _static(fine, material, loads.load, _cell_field(fine, loads.heat), fine_fixed)
        energies = (coarse_static[0], fine_static[0])
        # The shown instant's failure index on the finer mesh, as the static case changes with refinement.
        index_fine = float(index.max()) * fine_static[1] / coarse_static[1] if coarse_static[1] > 0 else None
    # Free to move and pushed along a free motion: the load has work to do on a rigid-body mode.
    rigid = free_body and float(np.abs(free_modes.T @ loads.mechanical).max()) > 1e-9 * float(
        np.abs(loads.mechanical).sum()
    )
    field_values = plotted_field(material, stress)
    limit = float(material.yield_strength or material.tensile_strength)
    run = StructuralRun(
        setup,
        part,
        material,
        loads.load,
        loads.temperature,
        fixed,
        u,
        stress,
        frames,
        frame_steps.index(shown),
        "von Mises" if material.ductile else "maximum principal",
        limit,
    )
    shown_peaks = [float(plotted_field(material, s)[part.solid].max()) for _, _, s in frames]
    facts = {
        "ductile": material.ductile,
        "loading": setup.loading,
        "shown": response.labels[shown],
        "von_mises_peak": float(vm[part.solid].max()),
        "von_mises_min": float(vm[part.solid].min()),
        "von_mises_mean": float(cells.mean()),
        "sigma1_peak": float(s1[part.solid].max()),
        "sigma2_peak": float(s2[part.solid].min()),
        "plotted_peak": float(field_values[part.solid].max()),
        "plotted_scale": max([*shown_peaks, 0.0]) or 1.0,
        "failure_index": float(index.max()),
        "failure_index_fine": index_fine,
        "factor_of_safety": fos,
        "plastic_fraction": float(plastic_cells.sum() / part.solid.sum()),
        "failed_fraction": float(((index > 1) & part.solid).sum() / part.solid.sum()),
        "thermal": setup.thermal != "none",
        "thermal_peak_stress": max(thermal_peak, 0.0),
        "static_peak_stress": static_peak,
        "thermal_share": ratio(max(thermal_peak, 0.0), abs(static_peak)),
        "axial_stress": axial,
        "bending_stress": bending,
        "bending_ratio": ratio(bending, axial),
        "symmetric_loading": _mirror_symmetric(part, loads.mechanical + loads.thermal_force, fixed, loads.temperature),
        "symmetric_loads_only": _mirror_symmetric(
            part, loads.mechanical + loads.thermal_force, fixed, loads.temperature, supports=False
        ),
        "stress_spread": ratio(float(cells.std()), float(cells.mean())),
        "buckling_factor": mode.factor,
        "buckling_mode": mode.name,
        "buckling_bound": buckling_bound,
        **sums,
        "yield_strength": material.yield_strength,
        "tensile_strength": material.tensile_strength,
        "compressive_strength": material.compressive_strength,
        "endurance_limit": material.endurance_limit,
        "stress_amplitude": float(vm[part.solid].max() if material.ductile else max(s1[part.solid].max(), 0.0)),
        "energy_mesh": list(energies) if energies else None,
        "energy_change": ratio(energies[0] - energies[1], energies[1]) if energies else None,
        "rigid_body_motion": rigid,
        "max_displacement": float(np.abs(u).max()),
        "heat": loads.heat_text,
        "temperature_peak": float(loads.temperature.max()),
        "accelerations": float(np.abs(response.accelerations[shown]).max()),
        "first_period": response.period,
        "time_step": response.step,
    }
    run.facts = rounded(facts)  # type: ignore[assignment]
    return run
