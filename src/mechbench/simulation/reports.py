"""Text reports of generated simulations, laid out as simulation reports are (set-up, material, boundary
conditions, solver settings, results). Like the published reports they state the set-up and the computed
figures, and no verdicts (no factor of safety, no "converged", no "fully developed")."""

from __future__ import annotations

import math

import numpy as np

from mechbench.simulation import plane_stress as ps
from mechbench.simulation.flow import FLUIDS, PRANDTL, SMAGORINSKY, U_LATTICE, FlowRun
from mechbench.simulation.structural import StructuralRun
from mechbench.simulation.units import AMBIENT, FlowUnits

ANALYSIS = {
    "static": "Static structural (linear elastic), load applied in a ramp",
    "cyclic": "Static structural (linear elastic), fully reversed cyclic load, two cycles evaluated",
    "impact": "Transient structural (linear elastic, Newmark average acceleration), load applied suddenly at t = 0",
}


def _table(title: str, rows: list[tuple[str, str]]) -> str:
    width = max(len(k) for k, _ in rows)
    return f"{title}\n" + "\n".join(f"  {k.ljust(width)}  {v}" for k, v in rows) + "\n"


def _g(value: float, unit: str = "") -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "n/a"
    return f"{value:.4g}{(' ' + unit) if unit else ''}"


def structural_report(run: StructuralRun, name: str) -> str:
    """The report of one structural simulation."""
    part, material, facts = run.part, run.material, run.facts
    rows, cols = part.solid.shape
    elements = int(part.solid.sum())
    nodes = int(ps.Body(part.solid, part.h, part.thickness, 1.0, 0.3).active.sum() // 2)
    vm = ps.von_mises(run.stress)
    s1, s2 = ps.principal(run.stress)
    sections = [
        _table(
            f"Simulation report: {name}",
            [("Solver", "mechbench plane-stress finite elements"), ("Units", "mm, N, MPa, s, °C")],
        ),
        _table(
            "Geometry",
            [
                ("Part", part.title),
                ("Bounding box", f"{cols * part.h:.1f} mm × {rows * part.h:.1f} mm"),
                ("Thickness", f"{part.thickness:g} mm (plane stress)"),
            ],
        ),
        _table(
            f"Material: {material.name}",
            [
                ("Young's modulus", _g(material.young, "MPa")),
                ("Poisson's ratio", _g(material.poisson)),
                ("Density", _g(material.density * 1e12, "kg/m³")),
                ("Thermal expansion", f"{material.expansion:.3g} 1/°C"),
                ("Tensile yield strength", _g(material.yield_strength, "MPa") if material.yield_strength else "n/a"),
                ("Ultimate tensile strength", _g(material.tensile_strength, "MPa")),
                ("Ultimate compressive strength", _g(material.compressive_strength, "MPa")),
                (
                    "Fatigue endurance limit",
                    _g(material.endurance_limit, "MPa") if material.endurance_limit else "none",
                ),
                ("Elongation at break", f"{material.elongation:g} %"),
            ],
        ),
        _table(
            "Mesh",
            [
                ("Element type", "4-node quadrilateral, plane stress, 2×2 Gauss integration"),
                ("Element size", f"{part.h:.3g} mm ({part.cells_across} elements across {part.depth:g} mm)"),
                ("Elements / nodes", f"{elements} / {nodes}"),
            ],
        ),
        _table(
            "Analysis settings",
            [("Analysis type", ANALYSIS[run.setup.loading])]
            + ([("Time shown", facts["shown"])] if run.setup.loading == "impact" else []),
        ),
        _table(
            "Loads and supports",
            [
                ("Supports", part.supports + ("; right end held between rigid walls" if run.setup.restrained else "")),
                ("Mechanical load", f"{part.load}, {run.load_newtons:.4g} N" if run.load_newtons else "none"),
                ("Thermal condition", facts["heat"]),
            ],
        ),
    ]
    energies = facts["energy_mesh"]
    solution = [("Solver", "sparse direct (LU)")]
    if energies:
        solution.append(("Strain energy, this mesh", _g(energies[0] / 1e3, "J")))
        solution.append(("Strain energy, half the element size", _g(energies[1] / 1e3, "J")))
    if run.setup.loading == "impact":
        solution.append(("Peak acceleration", _g(facts["accelerations"] / 1e3, "m/s²")))
    sections.append(_table("Solution information", solution))
    results = [
        ("Instant evaluated", facts["shown"] + (" (the most stressed)" if run.setup.loading != "static" else "")),
        ("Maximum total displacement", _g(facts["max_displacement"], "mm")),
        ("Maximum equivalent (von Mises) stress", _g(float(vm[part.solid].max()), "MPa")),
        ("Minimum equivalent (von Mises) stress", _g(float(vm[part.solid].min()), "MPa")),
        ("Maximum principal stress", _g(float(s1[part.solid].max()), "MPa")),
        ("Minimum principal stress", _g(float(s2[part.solid].min()), "MPa")),
        ("Sum of support reactions (x, y up)", ", ".join(_g(v, "N") for v in facts["reaction_resultant"])),
        ("Applied external force (x, y up)", ", ".join(_g(v, "N") for v in facts["applied_resultant"])),
        ("Linear buckling load multiplier", _buckling(facts)),
    ]
    sections.append(_table("Results", results))
    return "\n".join(sections)


def _buckling(facts: dict) -> str:
    if facts["rigid_body_motion"]:
        return "n/a (the part is not restrained)"
    value = facts["buckling_factor"]
    if math.isfinite(value):
        return _g(value)
    return f"above {facts['buckling_bound']:.3g} (no buckling mode below; checked by positive definiteness)"


def flow_report(run: FlowRun, units: FlowUnits, name: str) -> str:
    """The report of one flow simulation."""
    setup, facts = run.setup, run.facts
    nu, density, expansion = FLUIDS[setup.fluid]
    ny, nx = run.solid.shape
    fluid = ~run.solid
    heated = facts["heated"]
    speed = np.hypot(run.ux, run.uy) * units.velocity
    pressure = run.pressure * units.pressure
    inflow = float(run.ux[fluid[:, 1], 1].sum()) * units.velocity * units.dx * density
    outflow = float(run.ux[fluid[:, -2], -2].sum()) * units.velocity * units.dx * density
    models = [
        ("Solver", "mechbench lattice Boltzmann, D2Q9, BGK collision, 2D"),
        (
            "Viscous model",
            f"LES, Smagorinsky sub-grid model (C_s = {SMAGORINSKY:.2f})"
            if facts["turbulence_model"] != "none (laminar)"
            else "laminar",
        ),
        ("Energy equation", "on (D2Q5 advection–diffusion)" if heated else "off"),
        ("Gravity", f"{9.81} m/s², Boussinesq buoyancy" if heated else "off"),
    ]
    material = [
        ("Fluid", setup.fluid),
        ("Density", _g(density, "kg/m³")),
        ("Kinematic viscosity", _g(nu, "m²/s")),
    ] + (
        [("Thermal expansion coefficient", _g(expansion, "1/K")), ("Prandtl number", _g(PRANDTL[setup.fluid]))]
        if heated
        else []
    )
    inlet_speed = units.velocity * U_LATTICE
    boundaries = [
        ("Inlet (left)", f"uniform velocity {inlet_speed:.4g} m/s" + (f", {AMBIENT:g} °C" if heated else "")),
        ("Outlet (right)", "pressure outlet, 0 Pa gauge"),
        ("Top and bottom walls", "no slip, stationary" + (", adiabatic" if heated else "")),
    ]
    if setup.configuration != "channel" and setup.configuration != "step":
        boundaries.append(
            (
                "Cylinder",
                f"no slip, diameter {setup.length * 1e3:g} mm"
                + (f", {units.temperature(np.array(1.0)):.4g} °C" if heated else ""),
            )
        )
    if setup.configuration == "step":
        boundaries.append(("Step", f"no slip, height {setup.length * 1e3:g} mm"))
    run_info = [
        ("Analysis type", "transient" if units.transient else "steady (pseudo-time iterations to convergence)"),
        ("Time step" if units.transient else "Pseudo time step", _g(units.dt, "s")),
        ("Steps run", str(run.steps)),
    ] + ([("Physical time simulated", _g(run.steps * units.dt, "s"))] if units.transient else [])
    results = [
        ("Maximum velocity magnitude", _g(float(speed[fluid].max()), "m/s")),
        (
            "Pressure range (gauge)",
            f"{_g(float(pressure[fluid].min()), 'Pa')} to {_g(float(pressure[fluid].max()), 'Pa')}",
        ),
        (
            "Pressure drop inlet to outlet",
            _g(float(pressure[fluid[:, 1], 1].mean() - pressure[fluid[:, -2], -2].mean()), "Pa"),
        ),
        ("Mass flow in / out (per m depth)", f"{_g(inflow, 'kg/s')} / {_g(outflow, 'kg/s')}"),
    ]
    if heated:
        t = units.temperature(run.temperature)[fluid]
        results.append(("Fluid temperature range", f"{_g(float(t.min()), '°C')} to {_g(float(t.max()), '°C')}"))
    return "\n".join(
        [
            _table(f"Simulation report: {name}", [("Case", units.title), ("Units", "SI")]),
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
                        _g(setup.length * (2 if setup.configuration == "channel" else 1), "m")
                        + (" (hydraulic diameter)" if setup.configuration == "channel" else ""),
                    ),
                    ("Reference velocity (mean inflow)", _g(inlet_speed, "m/s")),
                ],
            ),
            _table("Run information", run_info),
            _table("Results (end of run)", results),
        ]
    )
