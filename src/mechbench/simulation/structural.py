"""One generated structural simulation: a part, a material, a load case, the finite-element results and the
facts the SeeSim answers are read from (:mod:`mechbench.simulation.answers`)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from mechbench.simulation import plane_stress as ps
from mechbench.simulation.materials import MATERIALS, Material
from mechbench.simulation.parts import PART_KINDS, Part, make_part, walls_on_both_ends

LOADINGS = ("static", "cyclic", "impact")
PART_WEIGHTS = (2.5, 2, 1, 1.5, 1, 2, 1.5)
"""Parts drawn after one of each (order of :data:`PART_KINDS`): bars and struts more often, since they are the
parts with uniform stress, symmetric loading and buckling."""
THERMAL = ("none", "uniform", "hot_spot")
CONVERGENCE_TOLERANCE = 0.03
"""Largest relative change of strain energy between the mesh and one with half the element size that counts as
converged."""
UNIFORM_SPREAD = 0.10
"""Coefficient of variation of the von Mises stress over the part below which the distribution is uniform."""
THERMAL_SHARE = 0.10
"""Thermal stresses are negligible when the thermal load alone reaches less than this share of the peak stress."""
BUCKLING_MARGIN = 3.0
"""Buckling is a potential failure mode when the buckling load factor is below the larger of this margin (the usual
design factor against elastic instability) and the strength factor of safety (it would buckle before failing)."""
BALANCE_TOLERANCE = 1e-3
"""Reactions balance the loads when their resultant differs by less than this share of the larger of the two."""
MESH_DENSITIES = {"plate_hole": (8, 16, 24), "notched_bar": (4, 8, 12)} | {
    kind: (2, 4, 8) for kind in ("bar", "cantilever", "bracket", "column", "slider")
}
"""Elements across each part's depth the generator draws from: the coarse ones fail the convergence check."""
IMPACT_AMPLIFICATION = 2.0
"""A load applied suddenly doubles the static response of an undamped system: struck parts get half the static
load of their drawn factor of safety, so that both outcomes stay likely."""
FRAMES = 12


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
    facts: dict = field(default_factory=dict)


def sample_setup(rng: random.Random, index: int) -> StructuralSetup:
    """Draw one simulation; the load case follows the part (a sliding block is only ever struck)."""
    kind = PART_KINDS[index] if index < len(PART_KINDS) else rng.choices(PART_KINDS, weights=PART_WEIGHTS)[0]
    loading = "impact" if kind == "slider" else rng.choice(LOADINGS)
    thermal = "none" if kind == "slider" or rng.random() < 0.5 else rng.choice(THERMAL[1:])
    restrained = kind == "bar" and thermal != "none" and rng.random() < 0.5
    return StructuralSetup(
        kind=kind,
        material=rng.randrange(len(MATERIALS)),
        cells_across=rng.choice(MESH_DENSITIES[kind]),
        loading=loading,
        thermal=thermal,
        restrained=restrained,
        target_fos=math.exp(rng.uniform(math.log(0.4), math.log(2.5))),
        part_seed=f"{rng.random():.17f}",
    )


def _heat(part: Part, thermal: str, rng: random.Random) -> tuple[Callable[[np.ndarray, np.ndarray], np.ndarray], str]:
    """The temperature rise (K) as a function of position (mm), so that any mesh of the part samples the same field."""
    if thermal == "none":
        return (lambda x, y: 0.0 * x), "none (room temperature, 22 °C)"
    rise = rng.uniform(20, 150)
    if thermal == "uniform":
        return (lambda x, y: rise + 0.0 * x), f"uniform temperature rise of {rise:.0f} K"
    height, width = part.solid.shape[0] * part.h, part.solid.shape[1] * part.h
    cx, cy = rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height
    radius = 0.25 * min(height, width) + 0.1 * max(height, width)
    where = f"({cx:.0f} mm, {cy:.0f} mm from the top left)"
    return (
        lambda x, y: rise * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * radius**2)),
        f"local hot spot, {rise:.0f} K above ambient at {where}, decaying over {radius:.0f} mm",
    )


def _cell_field(part: Part, fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    rows, cols = part.solid.shape
    y, x = np.meshgrid((np.arange(rows) + 0.5) * part.h, (np.arange(cols) + 0.5) * part.h, indexing="ij")
    return np.asarray(fn(x, y), dtype=float)


def _peaks(material: Material, stress: np.ndarray, solid: np.ndarray) -> tuple[float, float, float, np.ndarray]:
    """Largest von Mises stress, largest σ1, smallest σ2 and the failure index of each cell."""
    vm = ps.von_mises(stress)
    s1, s2 = ps.principal(stress)
    index = material.failure_index(vm, s1, s2) * solid
    return float(vm[solid].max()), float(s1[solid].max()), float(s2[solid].min()), index


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
    axial = float(sigma.mean())
    moment = float((sigma * (s - centroid)).sum() * body.h)
    reach = float(np.abs(s - centroid).max() + body.h / 2)
    return abs(axial), abs(moment) * reach / inertia


def _mirror_symmetric(part: Part, force: np.ndarray, fixed: np.ndarray, temperature: np.ndarray) -> bool:
    """Geometry, supports, loads and temperature field unchanged by a mirror about the part's mid-height or
    mid-length line."""
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
            and np.array_equal(fixed_set[dofs], fixed_set)
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


def _energy(part: Part, material: Material, load: float, temperature: np.ndarray, fixed: np.ndarray) -> float:
    body = ps.Body(part.solid, part.h, part.thickness, material.young, material.poisson, material.density)
    force = load * part.unit_load + body.thermal_force(temperature, material.expansion)
    u = ps.solve_static(body, force, fixed)
    return ps.elastic_energy(body, body.stresses(u, temperature, material.expansion))


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
    sudden load); a bar between walls carries no load and its temperature is scaled to that factor instead."""
    heat, heat_text = _heat(part, setup.thermal, random.Random(setup.part_seed + ":load"))
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
    if setup.restrained:
        scale = 1.0 / (setup.target_fos * _peaks(material, thermal_stress, part.solid)[3].max())
        temperature, thermal_stress, thermal_force = temperature * scale, thermal_stress * scale, thermal_force * scale
        heat = (lambda fn, k: lambda x, y: k * fn(x, y))(heat, scale)
        heat_text = f"uniform temperature rise of {float(temperature.max()):.0f} K, both ends between rigid walls"
        load = 0.0
    elif free_body:
        strength = material.yield_strength or material.tensile_strength
        load = strength * part.thickness * part.depth / (IMPACT_AMPLIFICATION * setup.target_fos)
    else:
        load = 1.0 / (setup.target_fos * _peaks(material, unit_stress, part.solid)[3].max())
        if setup.loading == "impact":
            load /= IMPACT_AMPLIFICATION
    return _Loads(load, load * part.unit_load, temperature, thermal_force, unit_stress, thermal_stress, heat, heat_text)


def _response(
    setup: StructuralSetup, part: Part, material: Material, body: ps.Body, fixed: np.ndarray, loads: _Loads
) -> tuple[np.ndarray, list[np.ndarray], list[str], np.ndarray, np.ndarray]:
    """Displacements, stresses, labels, accelerations and load factors over the load history (temperature held)."""
    steps = 81 if setup.loading == "impact" else 41
    history = _history(setup.loading, steps)
    u_heat = ps.solve_static(body, loads.thermal_force, fixed) if setup.thermal != "none" else np.zeros(body.ndof)
    if setup.loading == "impact":
        free_body = ps.rigid_modes_left(body, fixed).shape[1] > 0
        wave = 4 * part.solid.shape[1] * part.h / math.sqrt(material.young / material.density)
        period = wave if free_body else 1 / ps.first_frequency(body, fixed)
        dt = 4 * period / (steps - 1)
        us, accs = ps.newmark(body, loads.mechanical, fixed, history, dt)
        us = us + u_heat[None, :]
        stresses = [body.stresses(u, loads.temperature, material.expansion) for u in us]
        labels = [f"t = {k * dt * 1e3:.3f} ms" for k in range(steps)]
    else:
        u_mech = np.zeros(body.ndof) if loads.load == 0 else ps.solve_static(body, loads.mechanical, fixed)
        us = np.array([k * u_mech + u_heat for k in history])
        stresses = [k * loads.load * loads.unit_stress + loads.thermal_stress for k in history]
        labels = [f"load factor {k:+.2f}" for k in history]
        accs = np.zeros_like(us)
    return us, stresses, labels, accs, history


def run_structural(setup: StructuralSetup) -> StructuralRun:
    """Solve ``setup``: static, cyclic (quasi-static, fully reversed) or struck (transient), and read its facts."""
    material = MATERIALS[setup.material]
    part = make_part(setup.kind, random.Random(setup.part_seed), setup.cells_across)
    fixed = walls_on_both_ends(part) if setup.restrained else part.fixed
    body = ps.Body(part.solid, part.h, part.thickness, material.young, material.poisson, material.density)
    free_modes = ps.rigid_modes_left(body, fixed)
    free_body = free_modes.shape[1] > 0
    loads = _loads(setup, part, material, body, fixed)
    load, mechanical, temperature, thermal_force = loads.load, loads.mechanical, loads.temperature, loads.thermal_force
    unit_stress, thermal_stress = loads.unit_stress, loads.thermal_stress
    us, stresses, labels, accs, history = _response(setup, part, material, body, fixed, loads)
    indices = [_peaks(material, s, part.solid)[3].max() for s in stresses]
    shown = int(np.argmax(indices))
    frames = [(labels[k], us[k], stresses[k]) for k in np.linspace(0, len(us) - 1, FRAMES).round().astype(int)]
    stress, u = stresses[shown], us[shown]
    vm_peak, s1_peak, s2_peak, index = _peaks(material, stress, part.solid)
    vm = ps.von_mises(stress)
    cells = vm[part.solid]
    peak_cell = np.unravel_index(int(np.argmax(np.where(part.solid, index, -1))), part.solid.shape)
    axial, bending = _bending_share(body, stress, peak_cell)
    applied = history[shown] * mechanical + thermal_force
    reaction = ps.reactions(body, u, applied, fixed)
    reaction_vec = np.zeros(body.ndof)
    reaction_vec[fixed] = reaction
    external = history[shown] * mechanical
    imbalance = np.array([(reaction_vec + external)[0::2].sum(), (reaction_vec + external)[1::2].sum()])
    size = max(float(np.abs(external).sum()), float(np.abs(reaction).sum()), 1e-9)
    fos = 1.0 / max(float(index.max()), 1e-12)
    plastic_cells = (vm > (material.yield_strength or math.inf)) & part.solid
    thermal_peak = _peaks(material, thermal_stress, part.solid)[3].max() if setup.thermal != "none" else 0.0
    static_peak = _peaks(material, load * unit_stress + thermal_stress, part.solid)[3].max()
    buckling_bound = max(BUCKLING_MARGIN, fos)
    buckling = (
        math.inf if free_body else ps.buckling_factor(body, load * unit_stress + thermal_stress, fixed, buckling_bound)
    )
    energies = None
    if not free_body:
        fine = make_part(setup.kind, random.Random(setup.part_seed), 2 * setup.cells_across)
        fine_fixed = walls_on_both_ends(fine) if setup.restrained else fine.fixed
        energies = (
            _energy(part, material, load, temperature, fixed),
            _energy(fine, material, load, _cell_field(fine, loads.heat), fine_fixed),
        )
    # Free to move and pushed along a free motion: the load has work to do on a rigid-body mode.
    rigid = free_body and float(np.abs(free_modes.T @ mechanical).max()) > 1e-9 * float(np.abs(mechanical).sum())
    heat_text = loads.heat_text
    run = StructuralRun(setup, part, material, load, temperature, fixed, u, stress, frames)
    run.facts = {
        "ductile": material.ductile,
        "loading": setup.loading,
        "shown": labels[shown],
        "von_mises_peak": vm_peak,
        "sigma1_peak": s1_peak,
        "sigma2_peak": s2_peak,
        "factor_of_safety": fos,
        "plastic_fraction": float(plastic_cells.sum() / part.solid.sum()),
        "thermal": setup.thermal != "none",
        "thermal_share": float(thermal_peak / static_peak) if static_peak > 0 else 0.0,
        "axial_stress": axial,
        "bending_stress": bending,
        "symmetric_loading": _mirror_symmetric(part, mechanical + thermal_force, fixed, temperature),
        "stress_spread": float(cells.std() / cells.mean()) if cells.mean() > 0 else 0.0,
        "buckling_factor": buckling,
        "buckling_bound": buckling_bound,
        "reaction_imbalance": float(np.abs(imbalance).max() / size),
        # Resultants with +y up (the grid's y points down).
        "reaction_resultant": [float(reaction_vec[0::2].sum()), -float(reaction_vec[1::2].sum())],
        "applied_resultant": [float(external[0::2].sum()), -float(external[1::2].sum())],
        "yield_strength": material.yield_strength,
        "endurance_limit": material.endurance_limit,
        "energy_mesh": energies,
        "rigid_body_motion": rigid,
        "max_displacement": float(np.abs(u).max()),
        "stress_amplitude_index": float(index.max()),
        "heat": heat_text,
        "accelerations": float(np.abs(accs[shown]).max()),
    }
    return run
