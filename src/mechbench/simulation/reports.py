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

import numpy as np

from mechbench.core.precision import ROUND_OFF
from mechbench.simulation.elastic import QUALITY
from mechbench.simulation.flow import FLUIDS, PRANDTL, FlowRun, mass_flows, wall_band
from mechbench.simulation.structural import BUCKLING_SEARCH, DAMPING, RISE, StructuralRun
from mechbench.simulation.units import AMBIENT, FlowUnits

ANALYSIS = {
    "static": "Static structural (linear elastic), load (and any temperature change) applied once in a ramp",
    "cyclic": "Static structural (linear elastic), fully reversed cyclic load (many cycles in service), two cycles "
    "evaluated",
    "impact": "Transient structural (linear elastic, Newmark average acceleration), load applied suddenly at t = 0 "
    "and held",
}


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
    ENDURANCE = "Fatigue endurance limit"
    ELONGATION = "Elongation at break"
    ENERGY = "Strain energy of the static load case, this mesh"
    ENERGY_FINE = "Strain energy of the static load case, half the element size"
    ENERGY_SHOWN = "Strain energy at the instant evaluated"
    PEAK = "Largest failure index (equivalent stress over strength), this mesh"
    PEAK_MESH = "Largest failure index of the static load case, this mesh / half the element size"
    STATIC = "Same load applied slowly (static)"
    LIMIT = "Beyond linear elasticity"
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
    PROBE = "Cross-stream velocity at the probe, last quarter of the run"
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
    return f"above {figure(BUCKLING_SEARCH * facts['buckling_bound'])} (no buckling mode below)"


def structural_details(run: StructuralRun) -> list[tuple[str, str]]:
    """The computed figures the answers are read from, as named lines (the report's Results, the media's box)."""
    facts, material = run.facts, run.material
    s = StructuralLine
    peak = max(abs(facts["von_mises_peak"]), abs(facts["sigma1_peak"]), abs(facts["sigma2_peak"]), 1e-30)
    forces = max(max(map(abs, facts["reaction_resultant"])), max(map(abs, facts["applied_resultant"])), 1e-30)
    rows = [
        (s.INSTANT, facts["shown"] + (" (the most stressed)" if facts["loading"] != "static" else "")),
        (s.DISPLACEMENT, figure(facts["max_displacement"], "mm")),
        (s.VON_MISES_MAX, figure(facts["von_mises_peak"], "MPa")),
        (
            s.VON_MISES_SPREAD,
            f"mean {figure(facts['von_mises_mean'], 'MPa')}, coefficient of variation {figure(facts['stress_spread'])}",
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
                f"peak {run.field_name} stress {figure(facts['static_peak_stress'], 'MPa')}, largest displacement "
                f"{figure(facts['static_displacement'], 'mm')}",
            )
        )
    if material.ductile:
        rows.append((s.YIELDED, f"{figure(100 * facts['plastic_fraction'])} % of its area"))
    else:
        rows.append((s.PAST_STRENGTH, f"{figure(100 * facts['failed_fraction'])} % of its area (Coulomb–Mohr)"))
    rows += [
        (
            s.SECTION,
            f"axial part N/A {figure(facts['axial_stress'], 'MPa', peak)}, bending part M·c/I "
            f"{figure(facts['bending_stress'], 'MPa', peak)}",
        ),
        (s.THERMAL_ALONE, figure(facts["thermal_peak_stress"], "MPa") + f" ({run.field_name})"),
        (s.REACTIONS, ", ".join(figure(v, "N", forces) for v in facts["reaction_resultant"])),
        (s.APPLIED, ", ".join(figure(v, "N", forces) for v in facts["applied_resultant"])),
        (s.BUCKLING, _buckling(facts)),
    ]
    if facts["energy_mesh"]:
        rows.append((s.ENERGY, figure(facts["energy_mesh"][0] / 1e3, "J")))
        rows.append((s.ENERGY_FINE, figure(facts["energy_mesh"][1] / 1e3, "J")))
    if facts["energy_shown"] is not None:
        rows.append((s.ENERGY_SHOWN, figure(facts["energy_shown"] / 1e3, "J")))
    rows.append((s.LIMIT, facts["limit_note"]))
    return rows


def material_lines(run: StructuralRun) -> list[tuple[str, str]]:
    """The material's strengths, as the report and the details box print them."""
    material, s = run.material, StructuralLine
    return [
        (s.YIELD, figure(material.yield_strength, "MPa") if material.yield_strength else "n/a (brittle)"),
        (s.TENSILE, figure(material.tensile_strength, "MPa")),
        (s.COMPRESSIVE, figure(material.compressive_strength, "MPa")),
        (s.ENDURANCE, figure(material.endurance_limit, "MPa") if material.endurance_limit else "none"),
        (s.ELONGATION, f"{material.elongation:g} %"),
    ]


def structural_report(run: StructuralRun, name: str) -> str:
    """The report of one structural simulation."""
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
            [(s.ANALYSIS, ANALYSIS[run.setup.loading])]
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
                if run.setup.loading == "impact"
                else []
            )
            + (
                [("Load over the part's mass", figure(facts["load_over_mass"] / 1e3, "m/s²"))]
                if run.setup.loading == "impact"
                else []
            ),
        ),
        _table(
            "Results",
            structural_details(run),
        ),
    ]
    return "\n".join(sections)


def _physical_velocity(value: float, units: FlowUnits) -> float:
    return value * units.velocity


def flow_details(run: FlowRun, units: FlowUnits) -> list[tuple[str, str]]:
    """The computed figures the answers are read from, as named lines (the report's Results, the media's box)."""
    facts, setup = run.facts, run.setup
    f = FluidLine
    inflow = run.inflow * units.velocity
    gradient = facts["gradient_ratio"] * 0.5 * units.pressure * run.inflow**2 / (run.scale * units.dx)  # Pa/m
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
            f"{figure(gradient, 'Pa/m')} ({figure(facts['gradient_ratio'])} dynamic pressures ½ρU² over "
            f"{_characteristic(setup.configuration)}, {figure(run.scale * units.dx * 1e3, 'mm')})",
        ),
    ]
    inflow_mass, outflow_mass = (m * units.velocity * units.dx * FLUIDS[setup.fluid][1] for m in mass_flows(run))
    rows.append(
        (f.MASS_FLOW, f"{figure(inflow_mass, 'kg/s')} / {figure(outflow_mass, 'kg/s')} (mean over the last quarter)")
    )
    return rows


def _characteristic(configuration: str) -> str:
    return {"channel": "the channel height", "step": "the step height"}.get(configuration, "the cylinder diameter")


def _reynolds_basis(configuration: str) -> str:
    return {
        "channel": "on the hydraulic diameter, twice the channel height",
        "step": "on the step height",
    }.get(configuration, "on the cylinder diameter")


def flow_report(run: FlowRun, units: FlowUnits, name: str) -> str:
    """The report of one flow simulation."""
    setup, facts = run.setup, run.facts
    nu, density, expansion = FLUIDS[setup.fluid]
    ny, nx = run.solid.shape
    fluid = ~run.solid
    heated = facts["heated"]
    f = FluidLine
    speed = np.hypot(run.ux, run.uy) * units.velocity
    pressure = run.pressure * units.pressure
    pressure_scale = float(np.abs(pressure[fluid]).max()) or 1.0
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
        ("Inlet (left)", f"uniform velocity {figure(inlet_speed, 'm/s')}" + (f", {AMBIENT:g} °C" if heated else "")),
        ("Outlet (right)", "pressure outlet, 0 Pa gauge"),
        ("Top and bottom walls", "no slip, stationary" + (", adiabatic" if heated else "")),
    ]
    if setup.configuration in ("cylinder", "heated_cylinder"):
        side = "above" if setup.offset > 0 else "below"
        where = (
            "on the centre line"
            if setup.offset == 0
            else f"{abs(setup.offset) * units.dx * 1e3:.3g} mm {side} the centre line"
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
    results = [
        ("Maximum velocity magnitude", figure(float(speed[fluid].max()), "m/s")),
        (
            "Pressure range (gauge)",
            f"{figure(float(pressure[fluid].min()), 'Pa', pressure_scale)} to "
            f"{figure(float(pressure[fluid].max()), 'Pa', pressure_scale)}",
        ),
        (
            "Pressure drop inlet to outlet (mean over the last quarter)",
            figure(facts["pressure_drop"] * units.pressure, "Pa", pressure_scale),
        ),
        ("Probe position", f"x = {probe_x:.4g} mm, y = {probe_y:.4g} mm"),
        *flow_details(run, units),
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
                        "Reference length",
                        figure(setup.length * (2 if setup.configuration == "channel" else 1), "m")
                        + (" (hydraulic diameter)" if setup.configuration == "channel" else ""),
                    ),
                    ("Reference velocity (mean inflow)", figure(inlet_speed, "m/s")),
                ],
            ),
            _table("Run information", run_info),
            _table("Results (end of run)", results),
        ]
    )
