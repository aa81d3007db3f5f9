"""The SeeSim questions answered from a generated simulation's computed results, one documented rule each.

Every rule reads the facts a solver produced (:mod:`mechbench.simulation.structural`,
:mod:`mechbench.simulation.flow`); none is set by hand. Questions that mechbench's simulations cannot make
both True and False are not asked of generated files (:data:`NOT_ASKED`, with the reason).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mechbench.simulation import flow, structural


@dataclass(frozen=True)
class Rule:
    """How one question's answer is derived, and the derivation itself (None: not defined for this run)."""

    qid: str
    wording: str  # mechbench's own wording, used when the published question file cannot be read
    derivation: str
    answer: Callable[[dict], bool | None]


def _plastic(f: dict) -> bool:
    return bool(f["ductile"] and f["von_mises_peak"] > f["yield_strength"])


def _fatigue_negligible(f: dict) -> bool:
    if f["loading"] != "cyclic":
        return True
    if f["endurance_limit"] is None:
        return False
    amplitude = f["von_mises_peak"] if f["ductile"] else max(f["sigma1_peak"], 0.0)
    return amplitude < f["endurance_limit"]


def _converged(f: dict) -> bool | None:
    if f["energy_mesh"] is None:
        return None
    coarse, fine = f["energy_mesh"]
    return abs(coarse - fine) <= structural.CONVERGENCE_TOLERANCE * abs(fine)


STRUCTURAL_RULES = (
    Rule(
        "a7e94b2c6f1d83052c9e",
        "Does the stress anywhere exceed what the material can withstand?",
        "the largest failure index at the most loaded instant exceeds 1 (von Mises stress over yield strength for "
        "ductile materials, Coulomb–Mohr on the principal stresses for brittle ones)",
        lambda f: f["factor_of_safety"] < 1,
    ),
    Rule(
        "b12d8f45e3a670c92178",
        "Does the part deform mainly elastically?",
        "no cell's von Mises stress exceeds the yield strength (brittle: always)",
        lambda f: not _plastic(f),
    ),
    Rule(
        "d46c2b17e50f38a4271d",
        "Are the external loads balanced by the support reactions?",
        f"the support reactions and the applied loads sum to zero within {structural.BALANCE_TOLERANCE:g} of the "
        "larger at the instant shown (a struck part's inertia breaks the balance)",
        lambda f: f["reaction_imbalance"] < structural.BALANCE_TOLERANCE,
    ),
    Rule(
        "e57f1d63c42a0589b63e",
        "Is the von Mises criterion the right failure criterion for this part?",
        "the material is ductile (brittle materials: Coulomb–Mohr)",
        lambda f: f["ductile"],
    ),
    Rule(
        "f68a3b09d15c7246a05f",
        "Could the part fail by buckling?",
        f"the linear buckling load factor of the static load is below the larger of {structural.BUCKLING_MARGIN:g} "
        "and the strength factor of safety (∞ without compression)",
        lambda f: f["buckling_factor"] is not None and f["buckling_factor"] < f["buckling_bound"],
    ),
    Rule(
        "g79d4e72b36d9105834a",
        "Would nonlinear material behaviour change the result?",
        "the linear-elastic stress passes yield somewhere, so an elastic-plastic material law would change the result",
        _plastic,
    ),
    Rule(
        "h80e6f18a47e0327642b",
        "Would significant residual stresses remain in the part after unloading?",
        "part, but not all, of the part yields: the unyielded rest springs back against it on unloading",
        lambda f: _plastic(f) and f["plastic_fraction"] < 0.95,
    ),
    Rule(
        "i91f7a54c58f1549451c",
        "Is the normal stress dominated by bending rather than by axial load?",
        "across the section through the most loaded cell, the bending part of the normal stress (M·c/I) exceeds the "
        "axial part (N/A)",
        lambda f: f["bending_stress"] > f["axial_stress"],
    ),
    Rule(
        "k13b9c27e70b3982172e",
        "Is the solution converged to within an acceptable error?",
        f"the strain energy changes by at most {structural.CONVERGENCE_TOLERANCE:.0%} when the element size is halved",
        _converged,
    ),
    Rule(
        "l24c0d81f81c4103083f",
        "Can thermal stresses be neglected here?",
        f"the temperature field alone reaches less than {structural.THERMAL_SHARE:.0%} of the peak failure index "
        "(no temperature change: True)",
        lambda f: f["thermal_share"] < structural.THERMAL_SHARE,
    ),
    Rule(
        "n46e2f9ba03e6545205b",
        "Does the part deform plastically anywhere?",
        "a ductile material whose von Mises stress exceeds yield somewhere",
        _plastic,
    ),
    Rule(
        "o57f3a01c14f7766316c",
        "Is the part loaded symmetrically?",
        "geometry, supports, loads and temperature are unchanged by a mirror about the part's mid-height or "
        "mid-length line",
        lambda f: f["symmetric_loading"],
    ),
    Rule(
        "p68a4b37d25a8987427d",
        "Is the stress spread evenly over the part?",
        f"the von Mises stress varies over the part by a coefficient of variation below {structural.UNIFORM_SPREAD:g}",
        lambda f: f["stress_spread"] < structural.UNIFORM_SPREAD,
    ),
    Rule(
        "q79b5c63e36b9108538e",
        "Is the part's material ductile?",
        "the material's elongation at break is at least 5 %",
        lambda f: f["ductile"],
    ),
    Rule(
        "r80c6d90f47c0329649f",
        "Is the factor of safety above 1?",
        "the strength factor of safety (1 / largest failure index) exceeds 1",
        lambda f: f["factor_of_safety"] > 1,
    ),
    Rule(
        "s91d7e26a58d1540750a",
        "Does the part move as a rigid body?",
        "the supports leave a rigid-body motion free and the load pushes along it (the transient shows it moving)",
        lambda f: f["rigid_body_motion"],
    ),
    Rule(
        "t02e8f52b69e2761861b",
        "Can fatigue be neglected for this part?",
        "the load is not cyclic, or its stress amplitude stays below the material's endurance limit (none for "
        "aluminium alloys and glass)",
        _fatigue_negligible,
    ),
)

FLUID_RULES = (
    Rule(
        "u13f9a63c70f3982972c",
        "Does the flow contain recirculation or vortices?",
        f"more than {flow.REVERSED_SHARE:.1%} of the fluid moves against the main flow direction at the instant shown",
        lambda f: f["reversed_share"] > flow.REVERSED_SHARE,
    ),
    Rule(
        "v24a0b19d81a4103783d",
        "Has the flow become fully developed?",
        "the shapes of the streamwise velocity profiles (each over its mean) at 60 % and 75 % of the length differ "
        f"by less than {flow.DEVELOPED:.0%}",
        lambda f: f["profile_change"] < flow.DEVELOPED,
    ),
    Rule(
        "x46c2d01f03c6546905f",
        "Does natural convection matter in this flow?",
        f"the Richardson number Gr/Re² of the computed temperatures and velocities exceeds {flow.RICHARDSON:g}",
        lambda f: f["richardson"] > flow.RICHARDSON,
    ),
    Rule(
        "y57d3e37a14d7767016a",
        "Is the flow steady?",
        f"the cross-stream velocity at a probe in the wake varies by less than {flow.STEADY:.1%} of the mean velocity "
        "over the last quarter of the run",
        lambda f: f["probe_variation"] < flow.STEADY,
    ),
    Rule(
        "bb0a6b65d47a0320349d",
        "Is this flow laminar?",
        "the Reynolds number is below the transition value of the configuration (channel 2300 on the hydraulic "
        f"diameter; cylinder wake {flow.WAKE_TRANSITION}; step {flow.STEP_TRANSITION} on twice the inlet height)",
        lambda f: f["reynolds"] < f["critical_reynolds"],
    ),
    Rule(
        "ee3d9e73a70d3983672a",
        "Is this flow turbulent?",
        "the Reynolds number is at or above the transition value",
        lambda f: f["reynolds"] >= f["critical_reynolds"],
    ),
    Rule(
        "ff4e0f19b81e4104783b",
        "Is the simulation run as a transient analysis?",
        "the run resolves physical time: every unsteady flow, and the steady ones the generator reports in time",
        lambda f: f["transient"],
    ),
    Rule(
        "hh6a2b01d03a6546905d",
        "Does the flow separate from a surface anywhere?",
        "fluid next to a solid surface moves against the main flow direction (the boundary layer has detached)",
        lambda f: f["wall_reversal"],
    ),
    Rule(
        "ii7b3c37e14b7767016e",
        "Can buoyancy be neglected in this flow?",
        f"the Richardson number is at most {flow.RICHARDSON:g}",
        lambda f: f["richardson"] <= flow.RICHARDSON,
    ),
    Rule(
        "jj8c4d83f25c8988127f",
        "Is the flow field symmetric about an axis?",
        "mirrored about the channel's centre line, the velocity field matches itself within "
        f"{flow.SYMMETRY:.0%} of the mean velocity",
        lambda f: f["asymmetry"] < flow.SYMMETRY,
    ),
    Rule(
        "kk9d5e29a36d9109238a",
        "Are there regions of steep pressure gradient?",
        f"the steepest pressure gradient, times the characteristic length, exceeds {flow.HIGH_GRADIENT:g} dynamic "
        "pressures ½ρU² (inlet and outlet columns excluded)",
        lambda f: f["gradient_ratio"] > flow.HIGH_GRADIENT,
    ),
    Rule(
        "ll0e6f65b47e0320349b",
        "Can thermal effects be neglected in this analysis?",
        "no temperature differences are computed (an isothermal run)",
        lambda f: not f["heated"],
    ),
)

NOT_ASKED = {
    "c39e5d0af86b2417593c": "contact/boundary enforcement: the solver always enforces its supports exactly",
    "j02a8b90d69a2760361d": "whether supports represent the real constraints: not a property of a computed field",
    "m35d1e36a92d5324194a": "torsion: plane stress has none, so it is always negligible",
    "w35b1c65e92b5324894e": "wall functions: the lattice-Boltzmann solver resolves the walls, never uses them",
    "z68e4f83b25e8988127b": "shock waves: the flows are incompressible",
    "aa9f5a29c36f9109238c": "multiphase: the flows are single-phase",
    "cc1b7c01e58b1541450e": (
        "mass conservation: the incompressible flows conserve mass by construction; what differs between the "
        "lattice's inflow and outflow (about 1 % once settled, more while vortices shed) is the method's slight "
        "compressibility, not the flow's, so a False would be an artefact"
    ),
    "dd2c8d37f69c2762561f": "supersonic flow: the flows are incompressible",
    "gg5f1a65c92f5325894c": "compressibility: the flows are incompressible",
    "mm1f7a01c58f1541450c": "cavitation: the flows are single-phase and their pressures stay far above vapour pressure",
    "nn2a8b37d69a2762561d": "fluid-structure interaction: the solid walls and obstacles are rigid",
}

RULES = {"structural": STRUCTURAL_RULES, "fluid": FLUID_RULES}


def answers(domain: str, facts: dict) -> dict[str, bool]:
    """Each answerable question's answer for one simulation's facts (questions undefined for it are omitted)."""
    out = {}
    for rule in RULES[domain]:
        value = rule.answer(facts)
        if value is not None:
            out[rule.qid] = bool(value)
    return out
