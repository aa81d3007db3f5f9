"""Text reports of generated simulations, laid out as simulation reports are (set-up, material, boundary
conditions, solver settings, results). Like the published reports they state the set-up and the computed
figures, and no verdicts (no factor of safety, no "converged", no "fully developed").

Every figure an answer is decided on is a named line (:class:`StructuralLine`, :class:`FluidLine`): the rules
point readers to those lines, and the details box of the images and videos prints the same lines. Figures are
printed to four significant digits, and a quantity that cancels to round-off prints as 0.

Kept as one module (~400 lines): the named lines are one vocabulary shared by the text report, the media's
details box and the answers' evidence; splitting it would scatter the wording a reviewer checks together.
"""

from __future__ import annotations

import math
from enum import StrEnum

import numpy as np

from mechbench.core.precision import ROUND_OFF
from mechbench.simulation.elastic import QUALITY
from mechbench.simulation.flow import (
    FLUIDS,
    MIN_TAU,
    PRANDTL,
    SETTLED_CHANGE,
    SETTLED_DRIFT,
    STEADY,
    FlowRun,
    mass_flows,
    offset_cells,
    wall_band,
)
from mechbench.simulation.materials import ROOM_LIMIT, Material
from mechbench.simulation.structural import DAMPING, RISE, StructuralRun
from mechbench.simulation.units import AMBIENT, FlowUnits

ANALYSIS = {
    "static": "Static structural (linear elastic), load (and any temperature change) applied once in a ramp",
    "cyclic": "Static structural (linear elastic), fully reversed cyclic load, two cycles evaluated; fatigue assessed "
    "on the material's S–N curve for the cycles in service (Goodman mean-stress correction)",
    "impact": "Transient structural (linear elastic, Newmark average acceleration), load applied suddenly at t = 0 "
    "and held",
}
STATE_NOTE = (
    "past a limit the part's state is reported, not the linear result: a ductile material's stresses past yield are "
    "brought back to yield (Neuber's rule for the local strain); a brittle part's or a buckling member's fields are "
    "shown at the load where it cracks or buckles"
)


class Disclosure(StrEnum):
    """How much of a simulation's results its media and report state (SeeSim's difficulty levels choose one)."""

    FULL = "full"
    """The state past a limit and every computed figure the answers are decided on: failure indices, shares,
    multipliers, the part's state, mesh changes, dimensionless flow measures."""
    RAW = "raw results"
    """The inputs and the raw results of the analysis as run (the linear field at the applied load, peak stresses,
    displacements, reactions, energies, velocities, pressures): the derived figures and verdicts are left to the
    reader."""
    SETUP = "set-up"
    """The inputs alone, and the fields with their colour bars: peaks are read off the legend."""


RAW_LEGEND = (
    "the colour bar labels the edges of its bands, its maximum and minimum among them, as analysis software's "
    "legends do"
)
LEGEND = "Colour bar of the plotted field (minimum to maximum)"
LINEAR_NOTE = "the linear-elastic result at the applied load is reported everywhere, whatever the material does there"


class StructuralLine:
    """Named lines of a structural report (and of the details box of its image and video)."""

    PART = "Part"
    SUPPORTS = "Supports"
    LOAD = "Mechanical load"
    THERMAL_CONDITION = "Thermal condition"
    ANALYSIS = "Analysis type"
    INSTANT = "Instant evaluated"
    DISPLACEMENT = "Maximum total displacement"
    YIELD = "Tensile yield strength"
    TENSILE = "Ultimate tensile strength"
    COMPRESSIVE = "Ultimate compressive strength"
    ENDURANCE = "Fatigue data (fully reversed, smooth specimens)"
    TEMPERATURE_PROPERTIES = "Properties at"
    CYCLES = "Load cycles in service"
    FATIGUE_STRENGTH = "Fatigue strength at the cycles in service"
    AMPLITUDE = "Stress amplitude / mean at the most stressed point"
    FATIGUE_INDEX = "Fatigue index (Goodman: σa/Sf + σm/Su)"
    LIFE = "Fatigue life at that amplitude"
    ELONGATION = "Elongation at break"
    ENERGY = "Strain energy of the static load case, this mesh"
    ENERGY_FINE = "Strain energy of the static load case, half the element size"
    ENERGY_SHOWN = "Strain energy at the instant evaluated"
    PEAK = "Largest failure index of the linear analysis (von Mises over yield; Coulomb–Mohr if brittle), this mesh"
    PEAK_MESH = "Largest failure index of the static load case, this mesh / half the element size"
    STATIC = "Same load applied slowly (static)"
    LIMIT = "State of the part at the applied load"
    TEMPERATURE = "Peak temperature"
    VON_MISES_MAX = "Maximum equivalent (von Mises) stress"
    VON_MISES_SPREAD = "Equivalent (von Mises) stress over the part"
    PRINCIPAL_MAX = "Maximum principal stress"
    PRINCIPAL_MIN = "Minimum principal stress"
    YIELDED = "Share of the part above the yield strength"
    PAST_STRENGTH = "Share of the part past its strength"
    SECTION = "Normal stress across the most stressed section"
    THERMAL_ALONE = "Peak stress from the temperature alone"
    REACTIONS = "Sum of support reactions (x, y up)"
    APPLIED = "Applied external force (x, y up)"
    BUCKLING = "Linear buckling load multiplier"
    STATIC_PEAKS = "Largest equivalent (von Mises) stress of the static load case, this mesh / half the element size"


class FluidLine:
    """Named lines of a flow report (and of the details box of its image and video)."""

    CASE = "Case"
    ENERGY = "Energy equation"
    ANALYSIS = "Analysis type"
    REYNOLDS = "Reynolds number"
    RICHARDSON = "Richardson number Gr/Re²"
    TEMPERATURE_RANGE = "Fluid temperature range"
    REVERSED = "Fluid moving against the main flow"
    WALL_REVERSE = "Strongest reverse flow next to a wall"
    PROFILES = "Velocity profiles at 60 % and 75 % of the length"
    PROBE = "Cross-stream velocity at the probe, over the averaging window"
    ASYMMETRY = "Departure from mirror symmetry about the centre line"
    GRADIENT = "Steepest pressure gradient"
    MASS_FLOW = "Mass flow in / out (per m depth)"


def figure(value: float | None, unit: str = "", scale: float | None = None) -> str:
    """``value`` to four significant digits with its unit; below round-off of ``scale``, 0; n/a when undefined."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if math.isinf(value):
        return "∞"
    if scale is not None and abs(value) < ROUND_OFF * abs(scale):
        value = 0.0
    text = "0" if value == 0 else f"{value:.4g}"
    return f"{text} {unit}".rstrip() if unit else text


def _table(title: str, rows: list[tuple[str, str]]) -> str:
    width = max(len(k) for k, _ in rows)
    return f"{title}\n" + "\n".join(f"  {k.ljust(width)}  {v}" for k, v in rows) + "\n"


def _buckling(facts: dict) -> str:
    if facts["rigid_body_motion"]:
        return "n/a (the part is not restrained)"
    value = facts["buckling_factor"]
    if value is not None and math.isfinite(value):
        return f"{figure(value)} ({facts['buckling_mode']})"
    return f"above {figure(facts['buckling_reach'])} (no buckling mode below it)"


def _capped(value: float, run: StructuralRun) -> str:
    """A stress of the part's state, marked where it sits at the yield strength because the part yields there."""
    text = figure(value, "MPa")
    return text + " (at yield: the part yields)" if run.facts["state"] == "yields" else text


def structural_details(run: StructuralRun) -> list[tuple[str, str]]:
    """The computed figures the answers are read from, as named lines (the report's Results, the media's box)."""
    facts, material = run.facts, run.material
    s = StructuralLine
    peak = max(abs(facts["von_mises_peak"]), abs(facts["sigma1_peak"]), abs(facts["sigma2_peak"]), 1e-30)
    forces = max(max(map(abs, facts["reaction_resultant"])), max(map(abs, facts["applied_resultant"])), 1e-30)
    limit = run.field_limit
    rows = [
        (s.INSTANT, facts["shown"] + (" (the most stressed)" if facts["loading"] != "static" else "")),
        (s.DISPLACEMENT, figure(facts["max_displacement"], "mm")),
        (s.VON_MISES_MAX, _capped(facts["von_mises_peak"], run)),
        (
            s.VON_MISES_SPREAD,
            f"mean {figure(facts['von_mises_mean'], 'MPa')}, coefficient of variation {figure(facts['stress_spread'])}"
            + (" (of the linear field)" if facts["state"] == "yields" else ""),
        ),
        (s.PRINCIPAL_MAX, figure(facts["sigma1_peak"], "MPa", peak)),
        (s.PRINCIPAL_MIN, figure(facts["sigma2_peak"], "MPa", peak)),
        (s.PEAK, figure(facts["failure_index"])),
    ]
    if facts["index_mesh"] is not None:
        coarse, fine = facts["index_mesh"]
        rows.append((s.PEAK_MESH, f"{figure(coarse)} / {figure(fine)} (change {figure(100 * facts['peak_change'])} %)"))
    else:
        rows.append((s.PEAK_MESH, "n/a (no static load case to refine)"))
    if facts["loading"] == "impact" and facts["static_displacement"] is not None:
        rows.append(
            (
                s.STATIC,
                f"peak {run.field_name} stress {figure(min(facts['static_peak_stress'], limit), 'MPa')}, largest "
                f"displacement {figure(facts['static_displacement'], 'mm')}",
            )
        )
    estimate = " at the applied load (linear estimate)" if facts["state"] in ("yields", "fractures") else ""
    if material.ductile:
        rows.append((s.YIELDED, f"{figure(100 * facts['plastic_fraction'])} % of its area{estimate}"))
    else:
        rows.append(
            (s.PAST_STRENGTH, f"{figure(100 * facts['failed_fraction'])} % of its area{estimate} (Coulomb–Mohr)")
        )
    thermal = facts["thermal_peak_stress"]
    rows += [
        (
            s.SECTION,
            f"axial part N/A {figure(facts['axial_stress'], 'MPa', peak)}, bending part M·c/I "
            f"{figure(facts['bending_stress'], 'MPa', peak)} (nominal)",
        ),
        (
            s.THERMAL_ALONE,
            f"{figure(min(thermal, limit), 'MPa')} ({run.field_name}"
            + (", capped at yield" if thermal > limit and material.ductile else "")
            + f"), {figure(100 * facts['thermal_share'])} % of the peak stress of all loads",
        ),
        (s.REACTIONS, ", ".join(figure(v, "N", forces) for v in facts["reaction_resultant"])),
        (s.APPLIED, ", ".join(figure(v, "N", forces) for v in facts["applied_resultant"])),
        (s.BUCKLING, _buckling(facts)),
    ]
    if facts["fatigue_index"] is not None:
        life = facts["fatigue_life"]
        rows += [
            (s.CYCLES, f"{facts['cycles']:.3g}"),
            (s.FATIGUE_STRENGTH, figure(facts["fatigue_strength"], "MPa")),
            (s.AMPLITUDE, f"{figure(facts['stress_amplitude'], 'MPa')} / {figure(facts['mean_stress'], 'MPa')}"),
            (s.FATIGUE_INDEX, figure(facts["fatigue_index"])),
            (s.LIFE, "unlimited (below the endurance limit)" if math.isinf(life) else f"{life:.3g} cycles"),
        ]
    if facts["energy_mesh"]:
        rows.append((s.ENERGY, figure(facts["energy_mesh"][0] / 1e3, "J")))
        rows.append((s.ENERGY_FINE, figure(facts["energy_mesh"][1] / 1e3, "J")))
    if facts["energy_shown"] is not None:
        rows.append((s.ENERGY_SHOWN, figure(facts["energy_shown"] / 1e3, "J")))
    rows.append((s.LIMIT, facts["limit_note"]))
    return rows


def raw_structural_details(run: StructuralRun) -> list[tuple[str, str]]:
    """The raw results of the linear analysis as run (:attr:`Disclosure.RAW`): peak stresses, displacement,
    section, reactions, energies and fatigue loading, with no failure index, share, multiplier or state."""
    facts, linear, s = run.facts, run.linear, StructuralLine
    peak = max(abs(linear["von_mises_peak"]), abs(linear["sigma1_peak"]), abs(linear["sigma2_peak"]), 1e-30)
    forces = max(max(map(abs, facts["reaction_resultant"])), max(map(abs, facts["applied_resultant"])), 1e-30)
    rows = [
        (s.INSTANT, facts["shown"] + (" (the most stressed)" if facts["loading"] != "static" else "")),
        (s.DISPLACEMENT, figure(linear["max_displacement"], "mm")),
        (s.VON_MISES_MAX, figure(linear["von_mises_peak"], "MPa")),
        (s.PRINCIPAL_MAX, figure(linear["sigma1_peak"], "MPa", peak)),
        (s.PRINCIPAL_MIN, figure(linear["sigma2_peak"], "MPa", peak)),
    ]
    if linear["static_peaks"]:
        rows.append((s.STATIC_PEAKS, " / ".join(figure(v, "MPa") for v in linear["static_peaks"])))
    if facts["loading"] == "impact" and facts["static_displacement"] is not None:
        rows.append(
            (
                s.STATIC,
                f"peak {run.field_name} stress {figure(facts['static_peak_stress'], 'MPa')}, largest displacement "
                f"{figure(facts['static_displacement'], 'mm')}",
            )
        )
    rows += [
        (
            s.SECTION,
            f"axial part N/A {figure(linear['axial_stress'], 'MPa', peak)}, bending part M·c/I "
            f"{figure(linear['bending_stress'], 'MPa', peak)} (nominal)",
        ),
        (s.THERMAL_ALONE, f"{figure(facts['thermal_peak_stress'], 'MPa')} ({run.field_name})"),
        (s.REACTIONS, ", ".join(figure(v, "N", forces) for v in facts["reaction_resultant"])),
        (s.APPLIED, ", ".join(figure(v, "N", forces) for v in facts["applied_resultant"])),
    ]
    if facts["fatigue_index"] is not None:
        rows += [
            (s.CYCLES, f"{facts['cycles']:.3g}"),
            (s.FATIGUE_STRENGTH, figure(facts["fatigue_strength"], "MPa")),
            (s.AMPLITUDE, f"{figure(facts['stress_amplitude'], 'MPa')} / {figure(facts['mean_stress'], 'MPa')}"),
        ]
    if facts["energy_mesh"]:
        rows.append((s.ENERGY, figure(facts["energy_mesh"][0] / 1e3, "J")))
        rows.append((s.ENERGY_FINE, figure(facts["energy_mesh"][1] / 1e3, "J")))
    if facts["energy_shown"] is not None:
        rows.append((s.ENERGY_SHOWN, figure(facts["energy_shown"] / 1e3, "J")))
    return rows


def results_lines(run: StructuralRun, disclosure: Disclosure) -> list[tuple[str, str]]:
    """The results a disclosure states: every computed figure, the raw results, or the colour bar's range alone."""
    if disclosure == Disclosure.FULL:
        return structural_details(run)
    if disclosure == Disclosure.RAW:
        return raw_structural_details(run)
    low, high = run.linear["plotted_low"], run.linear["plotted_scale"]
    return [(LEGEND, f"{figure(low, 'MPa')} to {figure(high, 'MPa')} ({run.field_name} stress, the linear analysis)")]


def material_lines(run: StructuralRun) -> list[tuple[str, str]]:
    """The material's strengths, as the report and the details box print them."""
    material, s = run.material, StructuralLine
    return [
        (s.TEMPERATURE_PROPERTIES, temperature_properties(material)),
        (s.YIELD, figure(material.yield_strength, "MPa") if material.yield_strength else "n/a (brittle)"),
        (s.TENSILE, figure(material.tensile_strength, "MPa")),
        (s.COMPRESSIVE, figure(material.compressive_strength, "MPa")),
        (s.ENDURANCE, fatigue_data(material)),
        (s.ELONGATION, f"{material.elongation:g} %"),
    ]


def fatigue_data(material: Material) -> str:
    """The material's fatigue data as the report states it."""
    if material.fatigue_strength is None:
        return material.fatigue_source
    point = f"{figure(material.fatigue_strength, 'MPa')} at {material.fatigue_cycles:.3g} cycles"
    kind = "endurance limit" if material.endurance_limit else "fatigue strength (no endurance limit)"
    return f"{kind} {point}; S–N line from 0.9 Sᵤ at 10³ cycles; source: {material.fatigue_source}"


def temperature_properties(material: Material) -> str:
    """At which temperature the material's values hold, and where they come from."""
    if material.temperature <= ROOM_LIMIT:
        return f"room temperature (the part stays at or below {ROOM_LIMIT:g} °C, where they hold)"
    return (
        f"{figure(material.temperature, '°C')}, the part's peak temperature (Young's modulus and yield strength "
        "reduced as EN 1993-1-2 gives them; the whole part taken at its peak temperature)"
    )


def structural_report(run: StructuralRun, name: str, disclosure: Disclosure = Disclosure.FULL) -> str:
    """The report of one structural simulation, stating as much as ``disclosure`` says."""
    part, material, facts = run.part, run.material, run.facts
    s = StructuralLine
    sections = [
        _table(
            f"Simulation report: {name}",
            [("Solver", "mechbench plane-stress finite elements"), ("Units", "mm, N, MPa, s, °C")],
        ),
        _table(
            "Geometry",
            [
                (s.PART, part.title),
                ("Bounding box", f"{part.width:.1f} mm × {part.height:.1f} mm"),
                ("Thickness", f"{part.thickness:g} mm (plane stress; out-of-plane buckling checked separately)"),
            ],
        ),
        _table(
            f"Material: {material.name}",
            [
                ("Young's modulus", figure(material.young, "MPa")),
                ("Poisson's ratio", figure(material.poisson)),
                ("Density", figure(material.density * 1e12, "kg/m³")),
                ("Thermal expansion", f"{material.expansion:.3g} 1/°C"),
                *material_lines(run),
            ],
        ),
        _table(
            "Mesh",
            [
                ("Element type", "6-node triangle (quadratic), plane stress, 6-point Gauss integration"),
                ("Mesher", f"Triangle, conforming to the true outline (smallest angle {QUALITY}°)"),
                (
                    "Element size",
                    f"{facts['element_size']:.3g} mm ({part.across} elements across the thinnest section, "
                    f"{part.thinnest:.3g} mm)",
                ),
                ("Elements / nodes", f"{facts['elements']} / {run.nodes}"),
            ],
        ),
        _table(
            "Analysis settings",
            [
                (s.ANALYSIS, ANALYSIS[run.setup.loading]),
                ("Beyond the limits", STATE_NOTE if disclosure == Disclosure.FULL else LINEAR_NOTE),
            ]
            + (
                [
                    ("Time step", figure(facts["time_step"] * 1e3, "ms")),
                    ("Period of the mode the load excites", figure(facts["first_period"] * 1e3, "ms")),
                    ("Load rise time", figure(RISE * facts["first_period"] * 1e3, "ms")),
                    ("Damping", f"{100 * DAMPING:g} % of critical at that mode (stiffness-proportional)"),
                ]
                if run.setup.loading == "impact"
                else []
            ),
        ),
        _table(
            "Loads and supports",
            [
                (s.SUPPORTS, part.supports + ("; right end held between rigid walls" if run.setup.restrained else "")),
                (s.LOAD, f"{part.load}, {figure(run.load_newtons, 'N')}" if run.load_newtons else "none"),
                *([(s.CYCLES, f"{facts['cycles']:.3g}")] if facts["cycles"] else []),
                (s.THERMAL_CONDITION, facts["heat"]),
                (
                    s.TEMPERATURE,
                    f"{figure(facts['temperature_peak'], '°C')} (melting point {figure(facts['melting_point'], '°C')})",
                ),
            ],
        ),
        _table(
            "Solution information",
            [("Solver", "sparse direct (LU)")]
            + (
                [("Peak acceleration", figure(facts["accelerations"] / 1e3, "m/s²"))]
                if run.setup.loading == "impact" and disclosure != Disclosure.SETUP
                else []
            )
            + (
                [("Load over the part's mass", figure(facts["load_over_mass"] / 1e3, "m/s²"))]
                if run.setup.loading == "impact"
                else []
            ),
        ),
    ]
    results = results_lines(run, disclosure)
    if results:
        sections.append(_table("Results", results))
    return "\n".join(sections)


def _physical_velocity(value: float, units: FlowUnits) -> float:
    return value * units.velocity


def flow_details(run: FlowRun, units: FlowUnits) -> list[tuple[str, str]]:
    """The computed figures the answers are read from, as named lines (the report's Results, the media's box)."""
    facts, setup = run.facts, run.setup
    f = FluidLine
    inflow = run.inflow * units.velocity
    reference = facts["reference_cells"] * units.dx  # m: the Reynolds number's length, the one reference length
    gradient = facts["gradient_ratio"] * 0.5 * units.pressure * run.inflow**2 / reference  # Pa/m
    rows = [
        (f.REYNOLDS, f"{figure(facts['reynolds'])} ({_reynolds_basis(setup.configuration)})"),
    ]
    if facts["heated"]:
        rows.append((f.RICHARDSON, f"{figure(facts['richardson'])} (Grashof number {figure(facts['grashof'])})"))
        warmest = float(units.temperature(run.temperature)[~run.solid].max())
        wall = float(units.temperature(np.array(1.0)))
        rows.append(
            (
                f.TEMPERATURE_RANGE,
                f"from the inflow's {figure(AMBIENT, '°C')} up to {figure(warmest, '°C')} (heated wall "
                f"{figure(wall, '°C')}, {figure(units.wall_rise, 'K')} above the inflow)",
            )
        )
    rows += [
        (
            f.REVERSED,
            f"{figure(100 * facts['reversed_share'])} % of the fluid (streamwise velocity below −1 % of "
            "the mean inflow)",
        ),
        (
            f.WALL_REVERSE,
            f"{figure(facts['wall_reverse'] * inflow, 'm/s')} ({figure(100 * facts['wall_reverse'])} % "
            f"of the mean inflow, within {figure(wall_band(run.scale) * units.dx * 1e3, 'mm')} of a wall)",
        ),
        (f.PROFILES, f"shapes u/ū differ by up to {figure(100 * facts['profile_change'])} %"),
        (
            f.PROBE,
            f"varies by {figure(facts['probe_variation'] * inflow, 'm/s')} "
            f"({figure(100 * facts['probe_variation'])} % of the mean inflow)",
        ),
        (
            f.ASYMMETRY,
            "n/a (the geometry has no mirror line along the flow)"
            if math.isinf(facts["asymmetry"])
            else f"up to {figure(100 * facts['asymmetry'])} % of the mean inflow",
        ),
        (
            f.GRADIENT,
            f"{figure(gradient, 'Pa/m')} ({figure(facts['gradient_ratio'])} dynamic pressures ½ρU² over the "
            f"reference length, {figure(reference * 1e3, 'mm')}; inlet and outlet strips excluded)",
        ),
    ]
    inflow_mass, outflow_mass = (m * units.velocity * units.dx * FLUIDS[setup.fluid][1] for m in mass_flows(run))
    rows.append(
        (
            f.MASS_FLOW,
            f"{figure(inflow_mass, 'kg/s')} / {figure(outflow_mass, 'kg/s')} (means over the averaging window; they "
            f"differ by {figure(100 * facts['mass_imbalance'])} %, the lattice fluid's slight compressibility)",
        )
    )
    return rows


def raw_flow_details(run: FlowRun, units: FlowUnits) -> list[tuple[str, str]]:
    """The raw results of a flow run (:attr:`Disclosure.RAW`): the Reynolds number of the set-up, temperatures,
    velocities and pressures, with no dimensionless measure of reverse flow, development, symmetry or gradient."""
    facts, setup, f = run.facts, run.setup, FluidLine
    inflow = run.inflow * units.velocity
    reference = facts["reference_cells"] * units.dx
    gradient = facts["gradient_ratio"] * 0.5 * units.pressure * run.inflow**2 / reference  # Pa/m
    rows = [(f.REYNOLDS, f"{figure(facts['reynolds'])} ({_reynolds_basis(setup.configuration)})")]
    if facts["heated"]:
        warmest = float(units.temperature(run.temperature)[~run.solid].max())
        rows.append((f.TEMPERATURE_RANGE, f"from the inflow's {figure(AMBIENT, '°C')} up to {figure(warmest, '°C')}"))
    inflow_mass, outflow_mass = (m * units.velocity * units.dx * FLUIDS[setup.fluid][1] for m in mass_flows(run))
    wall = figure(wall_band(run.scale) * units.dx * 1e3, "mm")
    return [
        *rows,
        (f.WALL_REVERSE, f"{figure(facts['wall_reverse'] * inflow, 'm/s')} (within {wall} of a wall)"),
        (f.PROBE, f"varies by {figure(facts['probe_variation'] * inflow, 'm/s')}"),
        (f.GRADIENT, f"{figure(gradient, 'Pa/m')} (inlet and outlet strips excluded)"),
        (
            f.MASS_FLOW,
            f"{figure(inflow_mass, 'kg/s')} / {figure(outflow_mass, 'kg/s')} (means over the averaging window)",
        ),
    ]


def flow_results(run: FlowRun, units: FlowUnits, disclosure: Disclosure) -> list[tuple[str, str]]:
    """The flow results a disclosure states: every computed figure, the raw results, or none."""
    if disclosure == Disclosure.FULL:
        return flow_details(run, units)
    return raw_flow_details(run, units) if disclosure == Disclosure.RAW else []


def _reynolds_basis(configuration: str) -> str:
    return {
        "channel": "on the hydraulic diameter, twice the channel height",
        "step": "on the step height",
    }.get(configuration, "on the cylinder diameter")


def settling_lines(run: FlowRun, units: FlowUnits, disclosure: Disclosure = Disclosure.FULL) -> list[tuple[str, str]]:
    """How long the run went and why it stopped there, the averaging window, and the lattice's resolution (past
    :attr:`Disclosure.FULL`, the lengths alone: why a run stopped names what its flow does)."""
    facts, settling = run.facts, run.settling
    first, last = run.window
    span = f"{figure(first * units.dt, 's')} to {figure(last * units.dt, 's')}"
    if disclosure != Disclosure.FULL:
        stop, window = "run until the flow settled (SeeSim's generator documents the rule)", span
    elif settling.get("periods"):
        stop = (
            f"run until the shedding amplitude at the probe changed by {figure(100 * settling['amplitude_change'])} % "
            f"over the last three periods (below {100 * SETTLED_CHANGE:g} %)"
        )
        window = f"{span}: {settling['periods']} whole shedding periods of {figure(settling['period'] * units.dt, 's')}"
    else:
        stop = (
            "run until the velocity field changed by less than "
            f"{figure(100 * SETTLED_DRIFT, '%')} of the mean inflow over a quarter flow-through time and the probe "
            f"varied by less than {figure(10 * STEADY, '%')} of it over the last flow-through"
        )
        window = f"{span}: the last flow-through time"
    return [
        ("Run length", f"{figure(facts['flow_throughs'])} flow-through times; {stop}"),
        ("Averaging window", window),
        (
            "Lattice resolution",
            f"{run.scale} cells across {_resolved(run.setup.configuration)}, relaxation time τ = "
            f"{figure(facts['tau'])} (kept at {MIN_TAU:g} or above)",
        ),
    ]


def _resolved(configuration: str) -> str:
    return {"channel": "the channel", "step": "the step height"}.get(configuration, "the cylinder diameter")


def flow_report(run: FlowRun, units: FlowUnits, name: str, disclosure: Disclosure = Disclosure.FULL) -> str:
    """The report of one flow simulation, stating as much as ``disclosure`` says."""
    setup, facts = run.setup, run.facts
    nu, density, expansion = FLUIDS[setup.fluid]
    ny, nx = run.solid.shape
    fluid = ~run.solid
    heated = facts["heated"]
    f = FluidLine
    speed = np.hypot(run.ux, run.uy) * units.velocity
    low, high = facts["pressure_low"] * units.pressure, facts["pressure_high"] * units.pressure
    pressure_scale = max(abs(low), abs(high)) or 1.0
    models = [
        ("Solver", "mechbench lattice Boltzmann, D2Q9, two-relaxation-time (TRT) collision, 2D"),
        ("Flow model", "laminar, two-dimensional (no turbulence model)"),
        (f.ENERGY, "on (D2Q5 advection–diffusion)" if heated else "off (isothermal)"),
        ("Gravity", "9.81 m/s², Boussinesq buoyancy" if heated else "off"),
    ]
    material = [
        ("Fluid", setup.fluid),
        ("Density", figure(density, "kg/m³")),
        ("Kinematic viscosity", figure(nu, "m²/s")),
    ] + (
        [("Thermal expansion coefficient", figure(expansion, "1/K")), ("Prandtl number", figure(PRANDTL[setup.fluid]))]
        if heated
        else []
    )
    inlet_speed = units.velocity * run.inflow
    boundaries = [
        (
            "Inlet (left)",
            (
                f"developed (parabolic) velocity profile, mean {figure(inlet_speed, 'm/s')}"
                if setup.configuration == "step"
                else f"uniform velocity {figure(inlet_speed, 'm/s')}"
            )
            + (f", {AMBIENT:g} °C" if heated else ""),
        ),
        ("Outlet (right)", "pressure outlet, 0 Pa gauge"),
        ("Top and bottom walls", "no slip, stationary" + (", adiabatic" if heated else "")),
    ]
    if setup.configuration in ("cylinder", "heated_cylinder"):
        side = "above" if setup.offset > 0 else "below"
        where = (
            "on the centre line"
            if setup.offset == 0
            else f"{abs(offset_cells(setup, run.scale)) * units.dx * 1e3:.3g} mm {side} the centre line"
        )
        boundaries.append(
            (
                "Cylinder",
                f"no slip, diameter {figure(setup.length * 1e3, 'mm')}, {where}"
                + (f", wall at {figure(float(units.temperature(np.array(1.0))), '°C')}" if heated else ""),
            )
        )
    if setup.configuration == "step":
        boundaries.append(("Step", f"no slip, height {figure(setup.length * 1e3, 'mm')}"))
    probe_x, probe_y = run.probe[1] * units.dx * 1e3, run.probe[0] * units.dx * 1e3
    run_info = [
        (f.ANALYSIS, "transient"),
        ("Time step" if units.transient else "Pseudo time step", figure(units.dt, "s")),
        ("Steps run", str(run.steps)),
    ] + ([("Physical time simulated", figure(run.steps * units.dt, "s"))] if units.transient else [])
    run_info += settling_lines(run, units, disclosure)
    results = [
        ("Maximum velocity magnitude", figure(float(speed[fluid].max()), "m/s")),
        (
            "Pressure range (gauge, inlet and outlet strips excluded)",
            f"{figure(low, 'Pa', pressure_scale)} to {figure(high, 'Pa', pressure_scale)}",
        ),
        (
            "Pressure drop inlet to outlet (mean over the averaging window)",
            figure(facts["pressure_drop"] * units.pressure, "Pa", pressure_scale),
        ),
        ("Probe position", f"x = {probe_x:.4g} mm, y = {probe_y:.4g} mm"),
        *flow_results(run, units, disclosure),
    ]
    return "\n".join(
        [
            _table(f"Simulation report: {name}", [(f.CASE, units.title), ("Units", "SI")]),
            _table(
                "Geometry and mesh",
                [
                    ("Domain", f"{nx * units.dx * 1e3:.4g} mm × {ny * units.dx * 1e3:.4g} mm"),
                    (
                        "Cells",
                        f"{nx} × {ny} uniform square cells of {units.dx * 1e3:.3g} mm ({int(fluid.sum())} fluid)",
                    ),
                ],
            ),
            _table("Models", models),
            _table("Material properties", material),
            _table("Boundary conditions", boundaries),
            _table(
                "Reference values",
                [
                    (
                        "Reference length (Reynolds number, pressure gradient)",
                        figure(facts["reference_cells"] * units.dx, "m")
                        + f" ({_reynolds_basis(setup.configuration).removeprefix('on ')})",
                    ),
                    ("Reference velocity (mean inflow)", figure(inlet_speed, "m/s")),
                ],
            ),
            _table("Run information", run_info),
            *([_table("Results (end of run)", results)] if disclosure != Disclosure.SETUP else []),
        ]
    )
