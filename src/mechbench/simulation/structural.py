"""One generated structural simulation: a part, a material, a load case, the finite-element results and the
facts the SeeSim answers are read from (:mod:`mechbench.benchmarks.seesim.rules`).

The part's true outline is meshed with quadratic triangles (:mod:`mechbench.simulation.elastic`). Loads are static
(a ramp), cyclic (two fully reversed cycles, quasi-static) or sudden (a Newmark transient with the consistent mass
and 2 % damping). The plotted field is the one the material's failure criterion reads: von Mises stress for a
ductile material, the largest principal stress for a brittle one. Peaks are read from the averaged vertex stresses
(the plotted field), shares and means from the quadrature points. Facts are kept at the precision the model
supports (:mod:`mechbench.core.precision`), so the same set-up gives the same facts on any machine.

Loads are what an engineer would analyse (:func:`_loads`): sized by the governing factor of safety (strength,
fatigue for cyclic loads, buckling), overloads kept within what the part can take (elastic cycles, no collapse of a
ductile section, temperatures within the material's data), properties at the part's peak temperature. Where a load
passes a limit, the facts say what happens (:func:`outcome`: yields, cracks, buckles, fails in fatigue) and the
fields shown are the part's state, not the linear result past the limit: capped at yield where a ductile part yields,
at the cracking or buckling load otherwise. A sliding block is pushed at accelerations a machine part sees.

Kept as one module (~700 lines): the load history, the solves per frame and the checks (strength, buckling,
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
SLIDER_ACCELERATION = (0.5, 20.0)
"""g: the rigid-body acceleration a sliding block is pushed at (a conveyor's start to a machine slide's stop)."""
GRAVITY = 9810.0
"""mm/s²."""
IN_PLANE = "in-plane buckling (finite elements)"
BUCKLING_REACH = 12.0
"""Buckling load factors are found up to this multiple of the load at which the material's limit is reached; past it
buckling governs no factor of safety drawn (at most 5) and decides no buckling answer (threshold at most 5, margin
1.5), and it is reported as above that reach."""
CYCLIC_ELASTIC = 0.9
"""The largest failure index a cyclic load is given: its cycles stay elastic (no cyclic plasticity), so that its
fatigue is high-cycle fatigue, which the S–N data describe."""
COLLAPSE_SHARE = 0.9
"""An overloaded ductile part is loaded to at most this share of the plastic collapse load of its most stressed
section: it yields locally and carries the load, as a part an engineer analyses does."""
OVERLOAD_KEPT = 1 / 1.5
"""An overload past one of the limits above is pulled back to the limit when its governing factor of safety there is
at most this (still clearly an overload); otherwise it is drawn as a design load (:data:`DESIGN_FALLBACK`)."""
DESIGN_FALLBACK = 1.2
"""An overload a part cannot take within the limits above is drawn as the design load of factor of safety
``DESIGN_FALLBACK / target`` (1.8–3 for the overloads drawn) instead."""
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
    """The governing factor of safety the load is sized for: the smallest of strength, fatigue (cyclic loads) and
    buckling (a sliding block's load is set by its acceleration instead)."""
    part_seed: str
    thermal_share: float | None = None
    """For a hot spot: the share of the peak failure index the temperature alone should reach (None: as drawn)."""
    cycles: float | None = None
    """A cyclic load's cycles in service (the life its fatigue is assessed for)."""


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
    linear_frames: list[Frame] = field(default_factory=list)
    """The same instants as :attr:`frames`, as the linear analysis computes them at the applied load (no state past
    a limit): what SeeSim's higher levels plot."""
    linear: dict = field(default_factory=dict)
    """Raw results of the linear analysis at the shown instant (peaks, section, displacement), at the facts'
    precision: what SeeSim's higher levels print instead of the state and the derived figures."""

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
    rise = rng.uniform(min(20.0, material.max_rise / 2), min(150.0, material.max_rise))
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
    """A set-up's loads, sized to its drawn governing factor of safety, and the static unit responses they combine."""

    load: float  # N, the mechanical load
    heat: Heat
    unit: _State  # per newton of mechanical load
    thermal: _State
    material: Material
    """The material at the part's peak temperature (:meth:`Material.at_temperature`)."""
    fallback: bool = False
    """The drawn overload could not be taken within the part's limits: sized in the design band instead."""
    buckling: Mode | None = None
    """The mechanical load's buckling mode at the load as sized (None: found with the temperature, afterwards)."""


def _peak(material: Material, state: _State) -> float:
    return float(failure_index(material, state.vertex).max())


def collapse_factor(material: Material, cut: Section) -> float:
    """The multiple of a ductile section's force N and moment M at which it is fully plastic:
    (k N / N_p)² + k |M| / M_p = 1 (∞ for a section carrying nothing)."""
    fy = float(material.yield_strength or 0)
    a = (cut.force / (cut.plastic_force * fy)) ** 2
    b = abs(cut.moment) / (cut.plastic_moment * fy)
    if a <= 0:
        return 1 / b if b > 0 else math.inf
    return (-b + math.sqrt(b * b + 4 * a)) / (2 * a)


def _unit_buckling(
    setup: StructuralSetup, part: Part, material: Material, mesh: _Mesh, unit: _State, reach: float
) -> Mode:
    """The buckling mode of the mechanical load and its critical load in newtons, searched up to ``reach`` N (the
    smallest of the in-plane finite-element modes and the members' closed forms; a fully reversed load checked
    both ways; a sudden one at twice its static effect)."""
    amplify = IMPACT_AMPLIFICATION if setup.loading == "impact" else 1.0
    signs = (1.0, -1.0) if setup.loading == "cyclic" else (1.0,)
    modes = [
        Mode(IN_PLANE, mesh.model.buckling_factor(sign * amplify * unit.points, mesh.fixed, reach)) for sign in signs
    ]
    modes += _member_modes(setup, part, material, 1.0, 0.0)
    return min(modes, key=lambda m: m.factor)


def _fatigue_strength(setup: StructuralSetup, material: Material) -> float | None:
    if setup.loading != "cyclic" or material.fatigue_strength is None:
        return None
    return material.fatigue_strength_at(float(setup.cycles or material.fatigue_cycles or 1e6))


def _loads(setup: StructuralSetup, part: Part, material: Material, mesh: _Mesh, free_body: bool) -> _Loads:
    """Loads sized so that the governing factor of safety (the smallest of strength, fatigue and buckling) is the
    drawn one; a sliding block is pushed at a drawn acceleration; a bar between walls carries no load and its
    temperature is sized instead; a hot spot is scaled to its drawn share of the peak failure index.

    An overload (a factor below 1) is kept where a part an engineer analyses could see it: cycles stay elastic
    (:data:`CYCLIC_ELASTIC`), a ductile part stays below the plastic collapse of its most stressed section
    (:data:`COLLAPSE_SHARE`), a held temperature below the material's data (:attr:`Material.max_temperature`): at
    the limit when it is still clearly an overload there (:data:`OVERLOAD_KEPT`), otherwise sized in the design band
    (:data:`DESIGN_FALLBACK`). Properties are those at the part's
    peak temperature."""
    rng = random.Random(setup.part_seed + ":load")
    heat = _heat(part, setup.thermal, material, rng)
    model, zero = mesh.model, _zero(mesh.model)
    unit = zero if free_body else _solved(model, mesh.unit_load, mesh.fixed)
    thermal = zero
    if heat.rise and not free_body:
        thermal = _solved(model, model.thermal_load(heat), mesh.fixed, heat)
    if free_body:
        mass = material.density * part.thickness * model.area()
        load = mass * rng.uniform(*SLIDER_ACCELERATION) * GRAVITY
        return _Loads(load, heat, unit, thermal, material.at_temperature(AMBIENT + heat.rise))
    if setup.restrained:
        return _restrained(setup, part, material, mesh, heat, unit, thermal)
    amplify = IMPACT_AMPLIFICATION if setup.loading == "impact" else 1.0
    hot = material.at_temperature(AMBIENT + heat.rise)
    mode = _unit_buckling(setup, part, material, mesh, unit, BUCKLING_REACH / (amplify * _peak(hot, unit)))
    capacity = mode.factor  # N
    target, fallback = setup.target_fos, False
    load = 0.0
    for _ in range(3):  # a hot spot scaled to its share changes the temperature the strengths are read at
        per_newton = amplify * _peak(hot, unit)
        strength = _fatigue_strength(setup, hot)
        fatigue = float(plotted_field(hot, unit.vertex).max()) / strength if strength else 0.0
        governing = min(1 / per_newton, capacity, 1 / fatigue if fatigue else math.inf)
        load = governing / target
        if target < 1 and not fallback:
            limit = math.inf
            if setup.loading == "cyclic":
                limit = CYCLIC_ELASTIC / per_newton
            elif hot.ductile and governing == 1 / per_newton:
                at = _peak_at(model, hot, unit)
                cut = section(model, part, unit.vertex, at, vertical=_vertical(unit, model, at))
                limit = COLLAPSE_SHARE * collapse_factor(hot, cut) / amplify
            if load > limit and governing / limit <= OVERLOAD_KEPT:
                load = limit
            elif load > limit:
                target, fallback = DESIGN_FALLBACK / setup.target_fos, True
                load = governing / target
        if setup.thermal == "hot_spot" and setup.thermal_share is not None and _peak(hot, thermal) > 0:
            k = setup.thermal_share * _peak(hot, load * unit) / _peak(hot, thermal)
            k = min(k, material.max_rise / heat.rise)
            heat, thermal = replace(heat, rise=heat.rise * k), thermal * k
            hot = material.at_temperature(AMBIENT + heat.rise)
        else:
            break
    return _Loads(load, heat, unit, thermal, hot, fallback, Mode(mode.name, mode.factor / load))


def _restrained(
    setup: StructuralSetup, part: Part, material: Material, mesh: _Mesh, heat: Heat, unit: _State, thermal: _State
) -> _Loads:
    """A bar held between walls and heated: the rise whose governing factor of safety (yield, or buckling under the
    held expansion) is the drawn one, with the stiffness and strength at that temperature (thermal stress ∝ E; the
    buckling factor of a held expansion is independent of E). Yielding relieves a held expansion, so an overload
    yields rather than breaks; a rise past the material's data is sized in the design band instead."""
    per_kelvin = thermal * (1.0 / heat.rise)  # at the room-temperature stiffness
    cut = section(mesh.model, part, per_kelvin.vertex, (part.width / 2, 0.0), vertical=True)
    reach = BUCKLING_REACH / _peak(material, per_kelvin)
    in_plane = mesh.model.buckling_factor(per_kelvin.points, mesh.fixed, reach)  # λ at a 1 K rise
    member = min(
        [m.factor for m in _member_modes(setup, part, material, 0.0, max(0.0, -cut.force))] + [math.inf]
    )  # fmt: skip

    def fos(rise: float) -> float:
        hot = material.at_temperature(AMBIENT + rise)
        index = rise * (hot.young / material.young) * _peak(hot, per_kelvin)
        return min(1 / index, in_plane / rise, member / rise)

    target, fallback = setup.target_fos, False
    if fos(material.max_rise) > target:  # the data stop before the drawn factor is reached
        target, fallback = DESIGN_FALLBACK / setup.target_fos, True
    low, high = 1e-6, material.max_rise
    for _ in range(60):  # the factor of safety falls as the rise grows
        middle = (low + high) / 2
        low, high = (middle, high) if fos(middle) > target else (low, middle)
    rise = (low + high) / 2
    return _Loads(
        0.0, replace(heat, rise=rise), unit, per_kelvin * rise, material.at_temperature(AMBIENT + rise), fallback
    )


def _peak_at(model: Model, material: Material, state: _State) -> tuple[float, float]:
    vertex = int(np.argmax(failure_index(material, state.vertex)))
    return float(model.mesh.p[0, vertex]), float(model.mesh.p[1, vertex])


def _vertical(state: _State, model: Model, at: tuple[float, float]) -> bool:
    """Whether the most stressed point's normal stress runs along x (cut it vertically) rather than y."""
    vertex = int(np.argmin(np.hypot(model.mesh.p[0] - at[0], model.mesh.p[1] - at[1])))
    return abs(state.vertex[0, vertex]) >= abs(state.vertex[1, vertex])


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


def _buckling(setup: StructuralSetup, part: Part, material: Material, mesh: _Mesh, loads: _Loads, reach: float) -> Mode:
    """The smallest buckling load factor of the loads as sized, up to ``reach`` (in-plane finite elements,
    out-of-plane closed forms); a fully reversed load is checked both ways. A mechanical load alone scales the mode
    found when it was sized."""
    if loads.buckling is not None and not loads.heat.rise:
        return loads.buckling
    amplify = IMPACT_AMPLIFICATION if setup.loading == "impact" else 1.0
    signs = (1.0, -1.0) if setup.loading == "cyclic" else (1.0,)
    modes = []
    for sign in signs:
        prestress = (sign * amplify * loads.load * loads.unit + loads.thermal).points
        modes.append(Mode(IN_PLANE, mesh.model.buckling_factor(prestress, mesh.fixed, reach)))
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


@dataclass(frozen=True)
class Outcome:
    """What the part does under the load as sized: the governing criterion, its factor of safety, what happens
    past a limit (one line, :attr:`text`) and the load factor the fields are shown at (1, or the load at which a
    brittle part cracks or a member buckles: beyond it the linear fields do not describe the part)."""

    governing: str  # "strength", "fatigue" or "buckling"
    factor_of_safety: float
    state: str  # "holds", "yields", "fractures", "buckles", "fatigue"
    text: str
    shown_at: float = 1.0


def outcome(
    material: Material,
    index: float,
    fatigue: float | None,
    buckling: Mode,
    share: float,
    collapse: float,
    thermal_only: bool,
) -> Outcome:
    """The part's state at the applied load, from the linear failure index, the fatigue index (cyclic loads), the
    buckling mode, the share of the area past the limit and the section's collapse factor (ductile parts)."""
    criteria = {"strength": 1 / max(index, 1e-300), "buckling": buckling.factor}
    if fatigue is not None:
        criteria["fatigue"] = 1 / max(fatigue, 1e-300)
    governing = min(criteria, key=lambda k: criteria[k])
    fos = criteria[governing]
    if governing == "buckling" and fos < 1:
        return Outcome(
            governing,
            fos,
            "buckles",
            f"buckles: the critical load is {fos:.3g} × the applied load ({buckling.name}); the fields, displacement "
            "and stresses are shown at the critical load; reactions, energies and indices are those of the applied "
            "load",
            fos,
        )
    if index > 1 and not material.ductile:
        return Outcome(
            governing,
            fos,
            "fractures",
            f"cracks: the principal stresses reach the material's strength at {1 / index:.3g} × the applied load, "
            "and a brittle part fractures there; the fields, displacement and stresses are shown at that load; "
            "reactions, energies and indices are those of the applied load",
            1 / index,
        )
    if index > 1:
        assert material.yield_strength is not None
        if thermal_only:  # strain-controlled: the held expansion sets the strain
            strain = index * material.yield_strength / material.young
            how, rule = "the held expansion is relieved by yielding (a thermal stress limits itself)", "imposed"
        else:  # Neuber, no hardening past yield
            strain = index**2 * material.yield_strength / material.young
            how = f"the most stressed section carries it at {1 / collapse:.3g} of the load that yields it through"
            rule = "Neuber's rule"
        return Outcome(
            governing,
            fos,
            "yields",
            f"yields over {100 * share:.3g} % of the area (the load is {index:.3g} × the first-yield load); {how}. "
            f"Local strain at the peak about {100 * strain:.2g} % ({rule}, against {material.elongation:g} % at "
            "break); stresses past yield are shown at the yield strength",
        )
    if fatigue is not None and fatigue > 1:
        return Outcome(
            governing, fos, "fatigue", "holds under one load, but the cycles exceed the fatigue strength: see fatigue"
        )
    return Outcome(governing, fos, "holds", "none: the stresses stay within the material's elastic limit")


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


def run_structural(setup: StructuralSetup) -> StructuralRun:
    """Solve ``setup`` (its loads sized by :func:`_loads`) and read its facts."""
    room = MATERIALS[setup.material]
    part = make_part(setup.kind, random.Random(setup.part_seed), setup.cells_across)

    def holds(p: Part) -> tuple[Hold, ...]:
        return walls_on_both_ends(p) if setup.restrained else p.holds

    mesh = _mesh(part, room, holds(part))
    free_modes = mesh.model.rigid_modes_left(mesh.fixed)
    free_body = free_modes.shape[1] > 0
    loads = _loads(setup, part, room, mesh, free_body)
    material = loads.material
    if material.young != room.young:  # hot steel: solved again with its stiffness at temperature
        mesh = _mesh(part, material, holds(part))
        unit = _solved(mesh.model, mesh.unit_load, mesh.fixed)
        thermal = _solved(mesh.model, mesh.model.thermal_load(loads.heat), mesh.fixed, loads.heat)
        loads = replace(loads, unit=unit, thermal=thermal)
    model = mesh.model
    response = _response(setup, mesh, loads)
    indices = [float(failure_index(material, state.vertex).max()) for state in response.states]
    shown = int(np.argmax(indices))
    state = response.states[shown]
    weights = model.weights()
    index = failure_index(material, state.vertex)
    index_points = failure_index(material, state.points)
    peak_index = float(index.max())
    at = _peak_at(model, material, state)
    cut = section(model, part, state.vertex, at, vertical=_vertical(state, model, at))
    heat = loads.heat if loads.heat.rise else None
    static = loads.load * loads.unit + loads.thermal
    reach = BUCKLING_REACH / max(peak_index, 1e-12)
    mode = Mode("none (free to slide)", math.inf) if free_body else _buckling(setup, part, material, mesh, loads, reach)
    strength = _fatigue_strength(setup, material)
    amplitude = float(plotted_field(material, (loads.load * loads.unit).vertex).max()) if strength else 0.0
    mean = float(plotted_field(material, loads.thermal.vertex).max()) if strength and heat else 0.0
    fatigue = amplitude / strength + max(mean, 0.0) / material.tensile_strength if strength else None
    plastic_share = _area_share(von_mises(state.points) > (material.yield_strength or math.inf), weights)
    failed_share = _area_share(index_points > 1, weights)
    collapse = collapse_factor(material, cut) if material.ductile else math.inf
    result = outcome(material, peak_index, fatigue, mode, failed_share, collapse, loads.load == 0)
    # What the part's state is: the linear field, capped at yield where a ductile part yields, or the field at the
    # load a brittle part cracks or a member buckles at.
    shown_states = [_as_shown(material, result.shown_at * st) for st in response.states]
    frame_steps = sorted(set(response.frames) | {shown})
    frames = [
        Frame(response.labels[k], model.vertex_displacement(shown_states[k].u), shown_states[k].vertex)
        for k in frame_steps
    ]
    displayed = shown_states[shown]
    shown_cut = section(model, part, displayed.vertex, at, vertical=_vertical(state, model, at))
    vm_vertex, vm_points = von_mises(displayed.vertex), von_mises(displayed.points)
    s1, s2 = principal(displayed.vertex)
    applied = response.history[shown] * loads.load * mesh.unit_load
    thermal_force = model.thermal_load(loads.heat) if heat and not free_body else np.zeros(model.ndof)
    heated_now = response.history[shown] if setup.loading == "static" or loads.load == 0 else 1.0
    sums = _resultants(model, state.u, applied + heated_now * thermal_force, applied, mesh.fixed)
    restrained_scale = material.young * material.expansion * loads.heat.rise  # the stress of a fully held rise
    thermal_peak = float(plotted_field(material, loads.thermal.vertex).max()) if heat else 0.0
    if thermal_peak < NUMERICAL_ZERO * max(restrained_scale, 1e-30):
        thermal_peak = 0.0
    static_peak = float(plotted_field(material, static.vertex).max())
    energies, peaks = (None, None) if free_body else _convergence(setup, material, holds, loads, mesh)
    # Free to move and pushed along a free motion: the load has work to do on a rigid-body mode.
    rigid = free_body and float(np.abs(free_modes.T @ mesh.unit_load).max()) > 1e-9
    displacement = np.hypot(*model.vertex_displacement(displayed.u))
    accelerations = None
    if response.accelerations is not None:
        accelerations = float(np.hypot(*model.vertex_displacement(response.accelerations[shown])).max())
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
    # Spread and mean of the linear field: how evenly the load is carried, whatever yields.
    linear_points = von_mises(state.points)
    average = float((linear_points * weights).sum() / weights.sum())
    spread = math.sqrt(float(((linear_points - average) ** 2 * weights).sum() / weights.sum()))
    facts = {
        "ductile": material.ductile,
        "loading": setup.loading,
        "shown": response.labels[shown],
        "von_mises_peak": float(vm_vertex.max()),
        "von_mises_min": float(vm_vertex.min()),
        "von_mises_mean": float((vm_points * weights).sum() / weights.sum()),
        "sigma1_peak": float(s1.max()),
        "sigma2_peak": float(s2.min()),
        "plotted_peak": float(plotted_field(material, displayed.vertex).max()),
        "plotted_scale": max(float(plotted_field(material, f.stress).max()) for f in frames) or 1.0,
        "linear_peak": float(plotted_field(material, state.vertex).max()),
        "failure_index": peak_index,
        "failure_index_fine": peak_index * peaks[1] / peaks[0] if peaks and peaks[0] > 0 else None,
        "peak_change": ratio(peaks[0] - peaks[1], peaks[1]) if peaks else None,
        "factor_of_safety": result.factor_of_safety,
        "strength_factor": 1.0 / max(peak_index, 1e-12),
        "governing": result.governing,
        "state": result.state,
        "shown_at": result.shown_at,
        "plastic_fraction": plastic_share,
        "failed_fraction": failed_share,
        "collapse_factor": collapse,
        "limit_note": result.text,
        "sized_in_design_band": loads.fallback,
        "thermal": setup.thermal != "none",
        "thermal_peak_stress": max(thermal_peak, 0.0),
        "static_peak_stress": static_peak,
        "static_displacement": None if free_body else float(np.hypot(*model.vertex_displacement(static.u)).max()),
        "index_mesh": list(peaks) if peaks else None,
        "thermal_share": ratio(max(thermal_peak, 0.0), abs(static_peak)),
        "axial_stress": shown_cut.axial,
        "bending_stress": shown_cut.bending,
        "bending_ratio": ratio(shown_cut.bending, shown_cut.axial),
        "symmetric_loading": mirror_symmetric(part, holds(part), part.push if loads.load else None, loads.heat),
        "symmetric_loads_only": mirror_symmetric(
            part, holds(part), part.push if loads.load else None, loads.heat, supports=False
        ),
        "stress_spread": ratio(spread, average),
        "buckling_factor": mode.factor,
        "buckling_mode": mode.name,
        "buckling_bound": max(3.0, 1.0 / max(peak_index, 1e-12)),
        "buckling_reach": reach,
        **sums,
        "yield_strength": material.yield_strength,
        "tensile_strength": material.tensile_strength,
        "compressive_strength": material.compressive_strength,
        "young": material.young,
        "material_temperature": material.temperature,
        "endurance_limit": material.endurance_limit,
        "cycles": setup.cycles if setup.loading == "cyclic" else None,
        "fatigue_strength": strength,
        "stress_amplitude": amplitude if strength else None,
        "mean_stress": mean if strength else None,
        "fatigue_index": fatigue,
        "fatigue_index_unlimited": (
            amplitude / float(material.fatigue_strength) + max(mean, 0.0) / material.tensile_strength
            if strength and material.endurance_limit
            else None
        ),
        "fatigue_life": material.cycles_to_failure(amplitude / (1 - max(mean, 0.0) / material.tensile_strength))
        if strength
        else None,
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
    run.linear_frames = [
        Frame(response.labels[k], model.vertex_displacement(response.states[k].u), response.states[k].vertex)
        for k in frame_steps
    ]
    linear_s1, linear_s2 = principal(state.vertex)
    run.linear = rounded(
        {
            "von_mises_peak": float(von_mises(state.vertex).max()),
            "sigma1_peak": float(linear_s1.max()),
            "sigma2_peak": float(linear_s2.min()),
            "plotted_scale": max(float(plotted_field(material, f.stress).max()) for f in run.linear_frames) or 1.0,
            "plotted_low": min(0.0, min(float(plotted_field(material, f.stress).min()) for f in run.linear_frames)),
            "max_displacement": float(np.hypot(*model.vertex_displacement(state.u)).max()),
            "axial_stress": cut.axial,
            "bending_stress": cut.bending,
            "static_peaks": [i * material.yield_strength for i in peaks] if peaks and material.ductile else None,
        }
    )
    return run


def _as_shown(material: Material, state: _State) -> _State:
    """A ductile state with the stresses past yield brought back to the yield surface (radial return: what an
    elastic, then perfectly yielding material carries there); other states as they are."""
    if not material.ductile or material.yield_strength is None:
        return state
    fy = material.yield_strength

    def capped(stress: np.ndarray) -> np.ndarray:
        return stress * np.minimum(1.0, fy / np.maximum(von_mises(stress), 1e-300))

    return _State(state.u, capped(state.vertex), capped(state.points))
