"""One generated structural simulation: a part, a material, a load case, the finite-element results and the
facts the SeeSim answers are read from (:mod:`mechbench.benchmarks.seesim.rules`).

The part's true outline is meshed with quadratic triangles (:mod:`mechbench.simulation.elastic`). Loads are static
(a ramp), cyclic (two fully reversed cycles, quasi-static) or sudden (a Newmark transient with the consistent mass
and 2 % damping). The plotted field is the one the material's failure criterion reads: von Mises stress for a
ductile material, the largest principal stress for a brittle one. Peaks are read from the averaged vertex stresses
(the plotted field), shares and means from the quadrature points. Facts are kept at the precision the model
supports (:mod:`mechbench.core.precision`), so the same set-up gives the same facts on any machine.

Physical bounds hold by construction: a part is heated to at most half its melting point (kelvin), a sliding block
is pushed at accelerations a machine part sees, and where the linear result passes yield, strength or the plastic
capacity of the section, the facts say so in one line (:func:`limit_note`).

Kept as one module (~500 lines): the load history, the solves per frame and the checks (strength, buckling,
fatigue, thermal share, convergence) feed one facts record and are reviewed together; the element lives in
:mod:`mechbench.simulation.elastic`, sections and symmetry in :mod:`mechbench.simulation.readings`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from mechbench.core.precision import ROUND_OFF, ratio, rounded
from mechbench.simulation.buckling import Mode, lateral_torsional, out_of_plane_euler
from mechbench.simulation.elastic import Model, principal, von_mises
from mechbench.simulation.materials import AMBIENT, MATERIALS, Material
from mechbench.simulation.parts import Hold, Part, make_part, walls_on_both_ends
from mechbench.simulation.readings import Section, mirror_symmetric, section

LOADINGS = ("static", "cyclic", "impact")
THERMAL = ("none", "uniform", "hot_spot")
IMPACT_AMPLIFICATION = 2.0
"""A load applied suddenly at most doubles the static response of a linear system: struck parts get half the
static load of their drawn factor of safety, and their buckling check uses twice the load."""
DAMPING = 0.02
"""Damping ratio of a struck part's first mode (stiffness-proportional): a steel or aluminium part's own."""
STATIC_FRAMES = 12
CYCLIC_FRAMES = 17
"""Eight frames per fully reversed cycle."""
IMPACT_PERIODS = 4
"""Periods of the dominant mode (the one the load sets going) a transient run covers."""
RISE = 0.25
"""A sudden load rises to its full value in this share of the dominant mode's period: as a real blow does, and
the mesh's highest modes, which no struck part has, are not set ringing by an instantaneous step."""
STEPS_PER_PERIOD = 40
IMPACT_FRAME_PERIODS = 2
IMPACT_FRAMES_PER_PERIOD = 8
"""The animation of a struck part shows its first two periods at eight frames each: the vibration it is asked
about is resolved, not aliased."""
BUCKLING_SEARCH = 2.25
"""The in-plane buckling factor is reported below this multiple of the largest bound a rule compares it with
(beyond it, it is reported as above)."""
SLIDER_ACCELERATION = (0.5, 20.0)
"""g: the rigid-body acceleration a sliding block is pushed at (a conveyor's start to a machine slide's stop)."""
GRAVITY = 9810.0
"""mm/s²."""
NUMERICAL_ZERO = 1e-6
"""A stress below this share of the stresses it was computed from is the solver's round-off, reported as 0."""


@dataclass(frozen=True)
class StructuralSetup:
    """What the generator draws for one structural simulation."""

    kind: str
    material: int
    cells_across: int
    """Quadratic elements across the thinnest section (at least :data:`~mechbench.simulation.elastic.MIN_ACROSS`)."""
    loading: str
    thermal: str
    restrained: bool
    target_fos: float
    """The factor of safety the mechanical load is sized for (a sliding block's load is set by its acceleration)."""
    part_seed: str
    thermal_share: float | None = None
    """For a hot spot: the share of the peak failure index the temperature alone should reach (None: as drawn)."""


@dataclass(frozen=True)
class Frame:
    """One instant of the load history, at the mesh vertices."""

    label: str
    displacement: np.ndarray
    """2 × vertices (mm)."""
    stress: np.ndarray
    """σx, σy, τxy: 3 × vertices (MPa)."""


@dataclass
class StructuralRun:
    """A solved structural simulation: inputs, the mesh and fields for the media, and the facts for the answers."""

    setup: StructuralSetup
    part: Part
    material: Material
    load_newtons: float
    vertices: np.ndarray
    """2 × vertices (mm, y up)."""
    triangles: np.ndarray
    """3 × elements (vertex indices)."""
    nodes: int
    """Nodes of the quadratic mesh (vertices and mid-side nodes)."""
    fixed_vertices: np.ndarray
    loaded_vertices: np.ndarray
    frames: list[Frame]
    shown_frame: int
    """Index in :attr:`frames` of the most stressed instant (the one the image and the report show)."""
    field_name: str
    """What the plots show: ``von Mises`` (ductile) or ``maximum principal`` (brittle)."""
    field_limit: float
    """The material limit of the plotted field (yield strength, or tensile strength): the outline on the plots."""
    facts: dict = field(default_factory=dict)

    def plotted(self, stress: np.ndarray) -> np.ndarray:
        """The plotted field (MPa) of a stress state."""
        return plotted_field(self.material, stress)


def plotted_field(material: Material, stress: np.ndarray) -> np.ndarray:
    """von Mises stress for a ductile material, the largest principal stress for a brittle one (MPa)."""
    return von_mises(stress) if material.ductile else principal(stress)[0]


def failure_index(material: Material, stress: np.ndarray) -> np.ndarray:
    """Equivalent stress over strength (von Mises over yield, or Coulomb–Mohr) of each stress state."""
    s1, s2 = principal(stress)
    return material.failure_index(von_mises(stress), s1, s2)


@dataclass(frozen=True)
class Heat:
    """A temperature rise (K): uniform, or a Gaussian hot spot centred at (x, y) mm decaying over ``radius``."""

    rise: float = 0.0
    x: float | None = None
    y: float | None = None
    radius: float = 1.0

    def __call__(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        if self.x is None or self.y is None:
            return self.rise + 0.0 * x
        return self.rise * np.exp(-((x - self.x) ** 2 + (y - self.y) ** 2) / (2 * self.radius**2))

    def text(self, restrained: bool) -> str:
        """The thermal condition as the report states it."""
        if not self.rise:
            return "none (room temperature throughout)"
        peak = f"{self.rise:.4g} K above {AMBIENT:g} °C ambient"
        if self.x is None:
            return f"uniform temperature rise of {peak}" + (", both ends held by rigid walls" if restrained else "")
        return (
            f"hot spot, peak rise {peak}, at x = {self.x:.0f} mm, y = {self.y:.0f} mm (from the bottom left, as "
            f"plotted), decaying over {self.radius:.0f} mm"
        )


def _heat(part: Part, thermal: str, material: Material, rng: random.Random) -> Heat:
    """The drawn temperature field (a hot spot on material, clear of the edges), at most the material's limit."""
    if thermal == "none":
        return Heat()
    rise = rng.uniform(20, min(150.0, material.max_rise))
    if thermal == "uniform":
        return Heat(rise)
    while True:
        x, y = rng.uniform(0.2, 0.8) * part.width, rng.uniform(0.2, 0.8) * part.height
        if part.inside(np.array([x]), np.array([y]))[0]:
            break
    radius = 0.25 * min(part.height, part.width) + 0.1 * max(part.height, part.width)
    return Heat(rise, x, y, radius)


@dataclass
class _State:
    """A stress state: displacements, and stresses at the vertices (peaks, plots) and quadrature points (areas)."""

    u: np.ndarray
    vertex: np.ndarray
    points: np.ndarray

    def __add__(self, other: _State) -> _State:
        return _State(self.u + other.u, self.vertex + other.vertex, self.points + other.points)

    def __mul__(self, k: float) -> _State:
        return _State(k * self.u, k * self.vertex, k * self.points)

    __rmul__ = __mul__


def _solved(model: Model, force: np.ndarray, fixed: np.ndarray, heat: Heat | None = None) -> _State:
    u = model.solve(force, fixed)
    return _State(u, model.vertex_stress(u, heat), model.stress_field(u, heat))


def _zero(model: Model) -> _State:
    u = np.zeros(model.ndof)
    return _State(u, np.zeros((3, model.mesh.p.shape[1])), model.stress_field(u))


@dataclass(frozen=True)
class _Mesh:
    """A part meshed for one material, with its supports and unit load."""

    model: Model
    fixed: np.ndarray
    unit_load: np.ndarray


def _mesh(part: Part, material: Material, holds: tuple[Hold, ...]) -> _Mesh:
    model = Model(part.shape, part.thickness, material.young, material.poisson, material.density, material.expansion)
    dofs = []
    for hold in holds:
        if hold.point is not None:
            dofs.append(model.point_dofs(hold.point, hold.x, hold.y))
        else:
            edge, span = hold.edge, hold.span
            dofs.append(model.dofs_on(lambda x, y, e=edge, s=span: part.on_edge(e, s, x, y), hold.x, hold.y))
    fixed = np.unique(np.concatenate(dofs)).astype(np.int64)
    push = part.push
    unit = model.traction(lambda x, y: part.on_edge(push.edge, push.span, x, y), push.direction)
    return _Mesh(model, fixed, unit)


@dataclass
class _Loads:
    """A set-up's loads, sized to its drawn factor of safety, and the static unit responses they combine."""

    load: float  # N, the mechanical load
    heat: Heat
    unit: _State  # per newton of mechanical load
    thermal: _State


def _loads(setup: StructuralSetup, part: Part, material: Material, mesh: _Mesh, free_body: bool) -> _Loads:
    """The mechanical load is set so that, alone and static, it gives the drawn factor of safety (halved for a
    sudden load); a sliding block is pushed at a drawn acceleration; a bar between walls carries no load and its
    temperature is scaled to that factor instead; a hot spot is scaled to reach its drawn share of the peak failure
    index. No temperature passes the material's limit (:attr:`Material.max_rise`)."""
    rng = random.Random(setup.part_seed + ":load")
    heat = _heat(part, setup.thermal, material, rng)
    model, zero = mesh.model, _zero(mesh.model)
    unit = zero if free_body else _solved(model, mesh.unit_load, mesh.fixed)
    thermal = zero
    if heat.rise and not free_body:
        thermal = _solved(model, model.thermal_load(heat), mesh.fixed, heat)

    def peak(state: _State) -> float:
        return float(failure_index(material, state.vertex).max())

    def heated_to(k: float) -> None:
        nonlocal heat, thermal
        k = min(k, material.max_rise / heat.rise)
        heat, thermal = replace(heat, rise=heat.rise * k), thermal * k

    if setup.restrained:
        heated_to(1.0 / (setup.target_fos * peak(thermal)))
        return _Loads(0.0, heat, unit, thermal)
    if free_body:
        mass = material.density * part.thickness * model.area()
        load = mass * rng.uniform(*SLIDER_ACCELERATION) * GRAVITY
        return _Loads(load, heat, unit, thermal)
    load = 1.0 / (setup.target_fos * peak(unit))
    if setup.loading == "impact":
        load /= IMPACT_AMPLIFICATION
    if setup.thermal == "hot_spot" and setup.thermal_share is not None and peak(thermal) > 0:
        heated_to(setup.thermal_share * peak(load * unit) / peak(thermal))
    return _Loads(load, heat, unit, thermal)


@dataclass
class _Response:
    """The states over the load history, their labels, the load factor of each instant and the frames."""

    states: list[_State]
    labels: list[str]
    history: np.ndarray
    frames: list[int]
    accelerations: np.ndarray | None = None  # per step, over all DOFs (mm/s²)
    period: float | None = None  # s, of the first flexible mode (struck parts)
    step: float | None = None  # s


def _history(loading: str, steps: int) -> np.ndarray:
    t = np.linspace(0.0, 1.0, steps)
    if loading == "cyclic":
        return np.sin(2 * np.pi * 2 * t)  # two fully reversed cycles
    if loading == "impact":  # applied suddenly at t = 0 (full in a tenth of a period) and held
        return np.minimum(t * IMPACT_PERIODS / RISE, 1.0)
    return t  # quasi-static ramp


def _response(setup: StructuralSetup, mesh: _Mesh, loads: _Loads) -> _Response:
    """The load history solved (temperature held): static and cyclic quasi-statically, a sudden load in time."""
    model = mesh.model
    if setup.loading == "impact":
        steps = IMPACT_PERIODS * STEPS_PER_PERIOD + 1
        history = _history("impact", steps)
        frequency = model.dominant_mode(mesh.unit_load, mesh.fixed)
        period = 1 / frequency
        dt = period / STEPS_PER_PERIOD
        us, accelerations = model.newmark(loads.load * mesh.unit_load, mesh.fixed, history, dt, DAMPING, frequency)
        states = [_State(u, model.vertex_stress(u), model.stress_field(u)) + loads.thermal for u in us]
        labels = [f"t = {k * dt * 1e3:.4g} ms" for k in range(steps)]
        every = STEPS_PER_PERIOD // IMPACT_FRAMES_PER_PERIOD
        frames = list(range(0, IMPACT_FRAME_PERIODS * STEPS_PER_PERIOD + 1, every))
        return _Response(states, labels, history, frames, accelerations, period, dt)
    steps = 41
    history = _history(setup.loading, steps)
    count = CYCLIC_FRAMES if setup.loading == "cyclic" else STATIC_FRAMES
    frames = sorted(set(np.linspace(0, steps - 1, count).round().astype(int).tolist()))
    if loads.load == 0:  # heated between walls, nothing else: the temperature is what rises
        labels = [f"temperature rise × {k:.2f}" for k in history]
        return _Response([k * loads.thermal for k in history], labels, history, frames)
    # A ramp applies the load and the temperature together; cycles act on a part held at its temperature.
    held = 0.0 if setup.loading == "static" else 1.0
    states = [k * loads.load * loads.unit + (held + (1 - held) * k) * loads.thermal for k in history]
    labels = [f"load factor {round(k, 2) + 0.0:+.2f}" for k in history]  # never "-0.00"
    return _Response(states, labels, history, frames)


def _member_modes(setup: StructuralSetup, part: Part, material: Material, load: float, thermal_axial: float) -> list:
    """The out-of-plane modes of the part's members under the mechanical load (twice it when sudden) and the
    axial force of a restrained temperature rise; a fully reversed load also pushes what it pulls."""
    e, t, length = material.young, part.thickness, part.width
    force = load * (IMPACT_AMPLIFICATION if setup.loading == "impact" else 1.0)
    if setup.kind in ("bar", "plate_hole", "notched_bar"):
        compression = force if setup.loading == "cyclic" else 0.0  # pulled, except in the reversed half-cycles
        modes = [out_of_plane_euler(e, part.height, t, length, 2.0, compression)]
        if thermal_axial > 0:  # both ends held along the bar: pinned out of plane at each end
            modes.append(out_of_plane_euler(e, part.height, t, length, 1.0, thermal_axial))
        return modes
    if setup.kind == "column":
        return [out_of_plane_euler(e, part.depth, t, length, 2.0, force)]
    if setup.kind == "cantilever":
        return [lateral_torsional(e, material.poisson, part.depth, t, length, force)]
    if setup.kind == "bracket":
        arm = part.depth  # the arm and the upright are one depth wide
        return [
            lateral_torsional(e, material.poisson, arm, t, length - arm, force),
            out_of_plane_euler(e, arm, t, part.height, 2.0, force),
        ]
    return []  # a block sliding on a floor: nothing holds it to push against


def _buckling(setup: StructuralSetup, part: Part, material: Material, mesh: _Mesh, loads: _Loads, bound: float) -> Mode:
    """The smallest buckling load factor of the static load case (in-plane finite elements, out-of-plane closed
    forms); a fully reversed load is checked both ways."""
    amplify = IMPACT_AMPLIFICATION if setup.loading == "impact" else 1.0
    signs = (1.0, -1.0) if setup.loading == "cyclic" else (1.0,)
    modes = []
    for sign in signs:
        prestress = (sign * amplify * loads.load * loads.unit + loads.thermal).points
        factor = mesh.model.buckling_factor(prestress, mesh.fixed, BUCKLING_SEARCH * bound)
        modes.append(Mode("in-plane buckling (finite elements)", factor))
    thermal_axial = 0.0
    if setup.restrained:
        cut = section(mesh.model, part, loads.thermal.vertex, (part.width / 2, 0.0), vertical=True)
        thermal_axial = max(0.0, -cut.force)
    modes += _member_modes(setup, part, material, loads.load, thermal_axial)
    return min(modes, key=lambda m: m.factor)


def _resultants(model: Model, u: np.ndarray, force: np.ndarray, applied: np.ndarray, fixed: np.ndarray) -> dict:
    """Sums of support reactions and of applied forces (x, y up), round-off shown as 0, and their imbalance."""
    reaction = np.zeros(model.ndof)
    reaction[fixed] = model.reactions(u, force, fixed)
    size = max(float(np.abs(applied).sum()), float(np.abs(reaction).sum()), 1e-9)
    sums = {"reaction_resultant": list(model.resultant(reaction)), "applied_resultant": list(model.resultant(applied))}
    for key in sums:
        sums[key] = [0.0 if abs(v) < ROUND_OFF * size else v for v in sums[key]]
    imbalance = np.array(sums["reaction_resultant"]) + np.array(sums["applied_resultant"])  # zero in equilibrium
    share = float(np.abs(imbalance).max() / size)
    sums["reaction_imbalance"] = 0.0 if share < ROUND_OFF else share
    return sums


def limit_note(material: Material, index: float, share: float, cut: Section) -> str:
    """One line on where the linear-elastic result stops describing the real part (``share``: of the area past
    the limit), or that it does not."""
    if index <= 1:
        return "none: the stresses stay within the material's elastic limit"
    where = f"over {100 * share:.3g} % of the area" if share > 0 else "at the peak"
    if not material.ductile:
        return f"the principal stresses pass the material's strength {where}: a real part would crack there"
    assert material.yield_strength is not None
    yielded = cut.plastic_force * material.yield_strength, cut.plastic_moment * material.yield_strength
    interaction = (cut.force / yielded[0]) ** 2 + abs(cut.moment) / yielded[1]
    if abs(cut.force) / cut.area > material.tensile_strength:
        return "the mean stress on the most stressed section passes the ultimate strength: a real part would break"
    if interaction >= 1:
        return (
            f"the force and moment on the most stressed section pass its fully plastic capacity (interaction "
            f"{interaction:.3g} ≥ 1): a real part would collapse"
        )
    return f"the von Mises stress passes the yield strength {where}: a real part yields there and sheds the stress"


def _convergence(
    setup: StructuralSetup, material: Material, holds: Callable[[Part], tuple[Hold, ...]], loads: _Loads, mesh: _Mesh
) -> tuple[tuple[float, float], tuple[float, float]]:
    """(strain energy, peak failure index) of the static load case on the mesh and on one with half the element
    size: the convergence figures of the whole field and of its peak."""
    heat = loads.heat if loads.heat.rise else None
    energies, peaks = [], []
    for refine in (1, 2):
        part = make_part(setup.kind, random.Random(setup.part_seed), setup.cells_across, refine=refine)
        current = mesh if refine == 1 else _mesh(part, material, holds(part))
        model = current.model
        force = loads.load * current.unit_load + (model.thermal_load(loads.heat) if heat else 0.0)
        state = _solved(model, force, current.fixed, heat)
        energies.append(model.energy(state.u, heat))
        peaks.append(float(failure_index(material, state.vertex).max()))
    return (energies[0], energies[1]), (peaks[0], peaks[1])


def _area_share(mask: np.ndarray, weights: np.ndarray) -> float:
    return float(weights[mask].sum() / weights.sum())


def run_structural(setup: StructuralSetup, bound: Callable[[float], float] | None = None) -> StructuralRun:
    """Solve ``setup`` and read its facts. ``bound(fos)``: the largest buckling factor a rule compares with
    (default: 3 or the factor of safety), below which the in-plane factor is reported exactly."""
    material = MATERIALS[setup.material]
    part = make_part(setup.kind, random.Random(setup.part_seed), setup.cells_across)

    def holds(p: Part) -> tuple[Hold, ...]:
        return walls_on_both_ends(p) if setup.restrained else p.holds

    mesh = _mesh(part, material, holds(part))
    model = mesh.model
    free_modes = model.rigid_modes_left(mesh.fixed)
    free_body = free_modes.shape[1] > 0
    loads = _loads(setup, part, material, mesh, free_body)
    response = _response(setup, mesh, loads)
    indices = [float(failure_index(material, state.vertex).max()) for state in response.states]
    shown = int(np.argmax(indices))
    frame_steps = sorted(set(response.frames) | {shown})
    frames = [
        Frame(response.labels[k], model.vertex_displacement(response.states[k].u), response.states[k].vertex)
        for k in frame_steps
    ]
    state = response.states[shown]
    weights = model.weights()
    vm_vertex, vm_points = von_mises(state.vertex), von_mises(state.points)
    s1, s2 = principal(state.vertex)
    index = failure_index(material, state.vertex)
    index_points = failure_index(material, state.points)
    peak_vertex = int(np.argmax(index))
    at = (float(model.mesh.p[0, peak_vertex]), float(model.mesh.p[1, peak_vertex]))
    sx, sy = state.vertex[0, peak_vertex], state.vertex[1, peak_vertex]
    cut = section(model, part, state.vertex, at, vertical=abs(sx) >= abs(sy))
    heat = loads.heat if loads.heat.rise else None
    applied = response.history[shown] * loads.load * mesh.unit_load
    thermal_force = model.thermal_load(loads.heat) if heat and not free_body else np.zeros(model.ndof)
    heated_now = response.history[shown] if setup.loading == "static" or loads.load == 0 else 1.0
    sums = _resultants(model, state.u, applied + heated_now * thermal_force, applied, mesh.fixed)
    peak_index = float(index.max())
    static = loads.load * loads.unit + loads.thermal
    restrained_scale = material.young * material.expansion * loads.heat.rise  # the stress of a fully held rise
    thermal_peak = float(plotted_field(material, loads.thermal.vertex).max()) if heat else 0.0
    if thermal_peak < NUMERICAL_ZERO * max(restrained_scale, 1e-30):
        thermal_peak = 0.0
    static_peak = float(plotted_field(material, static.vertex).max())
    buckling_bound = (bound or (lambda f: max(3.0, f)))(1.0 / max(peak_index, 1e-12))
    mode = (
        Mode("none (free to slide)", math.inf)
        if free_body
        else _buckling(setup, part, material, mesh, loads, buckling_bound)
    )
    energies, peaks = (None, None) if free_body else _convergence(setup, material, holds, loads, mesh)
    # Free to move and pushed along a free motion: the load has work to do on a rigid-body mode.
    rigid = free_body and float(np.abs(free_modes.T @ mesh.unit_load).max()) > 1e-9
    displacement = np.hypot(*model.vertex_displacement(state.u))
    accelerations = None
    if response.accelerations is not None:
        accelerations = float(np.hypot(*model.vertex_displacement(response.accelerations[shown])).max())
    plastic_share = _area_share(vm_points > (material.yield_strength or math.inf), weights)
    failed_share = _area_share(index_points > 1, weights)
    run = StructuralRun(
        setup=setup,
        part=part,
        material=material,
        load_newtons=loads.load,
        vertices=model.mesh.p.copy(),
        triangles=model.mesh.t.copy(),
        nodes=int(model.ndof // 2),
        fixed_vertices=np.flatnonzero(np.isin(model.basis.nodal_dofs, mesh.fixed).any(axis=0)),
        loaded_vertices=np.flatnonzero(part.on_edge(part.push.edge, part.push.span, *model.mesh.p)),
        frames=frames,
        shown_frame=frame_steps.index(shown),
        field_name="von Mises" if material.ductile else "maximum principal",
        field_limit=float(material.yield_strength or material.tensile_strength),
    )
    mean = float((vm_points * weights).sum() / weights.sum())
    spread = math.sqrt(float(((vm_points - mean) ** 2 * weights).sum() / weights.sum()))
    facts = {
        "ductile": material.ductile,
        "loading": setup.loading,
        "shown": response.labels[shown],
        "von_mises_peak": float(vm_vertex.max()),
        "von_mises_min": float(vm_vertex.min()),
        "von_mises_mean": mean,
        "sigma1_peak": float(s1.max()),
        "sigma2_peak": float(s2.min()),
        "plotted_peak": float(plotted_field(material, state.vertex).max()),
        "plotted_scale": max(float(plotted_field(material, f.stress).max()) for f in frames) or 1.0,
        "failure_index": peak_index,
        "failure_index_fine": peak_index * peaks[1] / peaks[0] if peaks and peaks[0] > 0 else None,
        "peak_change": ratio(peaks[0] - peaks[1], peaks[1]) if peaks else None,
        "factor_of_safety": 1.0 / max(peak_index, 1e-12),
        "plastic_fraction": plastic_share,
        "failed_fraction": failed_share,
        "limit_note": limit_note(material, peak_index, failed_share, cut),
        "thermal": setup.thermal != "none",
        "thermal_peak_stress": max(thermal_peak, 0.0),
        "static_peak_stress": static_peak,
        "static_displacement": None if free_body else float(np.hypot(*model.vertex_displacement(static.u)).max()),
        "index_mesh": list(peaks) if peaks else None,
        "thermal_share": ratio(max(thermal_peak, 0.0), abs(static_peak)),
        "axial_stress": cut.axial,
        "bending_stress": cut.bending,
        "bending_ratio": ratio(cut.bending, cut.axial),
        "symmetric_loading": mirror_symmetric(part, holds(part), part.push if loads.load else None, loads.heat),
        "symmetric_loads_only": mirror_symmetric(
            part, holds(part), part.push if loads.load else None, loads.heat, supports=False
        ),
        "stress_spread": ratio(spread, mean),
        "buckling_factor": mode.factor,
        "buckling_mode": mode.name,
        "buckling_bound": buckling_bound,
        **sums,
        "yield_strength": material.yield_strength,
        "tensile_strength": material.tensile_strength,
        "compressive_strength": material.compressive_strength,
        "endurance_limit": material.endurance_limit,
        "stress_amplitude": float(vm_vertex.max() if material.ductile else max(s1.max(), 0.0)),
        "energy_mesh": list(energies) if energies else None,
        "energy_change": ratio(energies[0] - energies[1], energies[1]) if energies else None,
        "energy_shown": model.energy(state.u) if setup.loading == "impact" and not loads.heat.rise else None,
        "rigid_body_motion": rigid,
        "max_displacement": float(displacement.max()),
        "heat": loads.heat.text(setup.restrained),
        "temperature_peak": AMBIENT + loads.heat.rise,
        "melting_point": material.melting_point,
        "accelerations": accelerations,
        "load_over_mass": loads.load / (material.density * part.thickness * model.area()),
        "first_period": response.period,
        "time_step": response.step,
        "elements": int(model.mesh.t.shape[1]),
        "element_size": part.shape.size,
    }
    run.facts = rounded(facts)  # type: ignore[assignment]
    return run
