"""Which SeeSim questions a level's media still decide, and from what.

Above level 1 (:mod:`mechbench.benchmarks.seesim.levels`) the figures a key is decided on are withdrawn: a reader
forms them from what is shown (a failure index from the peak stress and the strength, a Richardson number from the
fluid's properties, the wall temperature, the diameter and the inflow). A question is asked at a level only when
the figures that level prints (:func:`readings`, at the precision they are printed) decide it on the same side as the
key, with the key's margin (:data:`~mechbench.benchmarks.seesim.rules.MARGIN`); a quantity the level's figures only
bound (a brittle part's Coulomb–Mohr index from peaks that need not sit at one point) is asked only when the whole
bound clears the threshold. Everything else is not asked, with the reason; the set is then balanced as at level 1.

Categorical questions (ductility from the elongation at break, symmetry and free motion from the set-up) read
inputs every level shows and are asked at every level.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from mechbench.benchmarks.seesim import rules
from mechbench.benchmarks.seesim.levels import Level, withdrawn
from mechbench.simulation.flow import FLUIDS, GRAVITY, STEADY, FlowRun
from mechbench.simulation.reports import LEGEND, Disclosure, FluidLine, StructuralLine
from mechbench.simulation.structural import StructuralRun
from mechbench.simulation.units import FlowUnits

Readings = dict[str, Any]
Bounds = tuple[float, float]


def printed(value: float | None) -> float | None:
    """``value`` as the media print it (four significant digits)."""
    return None if value is None else float(f"{value:.4g}")


def structural_readings(run: StructuralRun) -> Readings:
    """The figures a structural simulation's levels print, as printed (level 2: the raw lines; level 3: the legend)."""
    facts, linear, material, part = run.facts, run.linear, run.material, run.part
    return {
        "kind": run.setup.kind,
        "loading": run.setup.loading,
        "held_between_walls": run.setup.restrained,
        "heated": run.setup.thermal != "none",
        "load_text": part.load,
        "load": printed(run.load_newtons),
        "length": printed(part.width),
        "depth": printed(part.depth),
        "thickness": printed(part.thickness),
        "young": printed(material.young),
        "ductile": material.ductile,
        "peak_raw": printed(linear["von_mises_peak"] if material.ductile else linear["sigma1_peak"]),
        "peak_legend": printed(linear["plotted_scale"]),
        "sigma1": printed(linear["sigma1_peak"]),
        "sigma2": printed(linear["sigma2_peak"]),
        "yield": printed(material.yield_strength),
        "tensile": printed(material.tensile_strength),
        "compressive": printed(material.compressive_strength),
        "endurance": printed(material.fatigue_strength) if material.endurance_limit else None,
        "static_peaks": [printed(v) for v in linear["static_peaks"]] if linear["static_peaks"] else None,
        "energies": [printed(v / 1e3) for v in facts["energy_mesh"]] if facts["energy_mesh"] else None,
        "axial": printed(abs(linear["axial_stress"])),
        "bending": printed(abs(linear["bending_stress"])),
        "thermal": printed(facts["thermal_peak_stress"]),
        "reactions": [printed(v) for v in facts["reaction_resultant"]],
        "applied": [printed(v) for v in facts["applied_resultant"]],
        "fatigue_strength": printed(facts["fatigue_strength"]),
        "amplitude": printed(facts["stress_amplitude"]),
        "mean": printed(facts["mean_stress"]),
    }


def flow_readings(run: FlowRun, units: FlowUnits) -> Readings:
    """The figures a flow simulation's levels print, as printed."""
    facts = run.facts
    _, density, expansion = FLUIDS[run.setup.fluid]
    return {
        "inflow": printed(run.inflow * units.velocity),
        "reference": printed(facts["reference_cells"] * units.dx * 1e3),  # mm
        "density": printed(density),
        "expansion": printed(expansion),
        "wall_rise": printed(units.wall_rise) if facts["heated"] else None,
        "wall_reverse": printed(facts["wall_reverse"] * run.inflow * units.velocity),
        "probe": printed(facts["probe_variation"] * run.inflow * units.velocity),
        "gradient": printed(
            facts["gradient_ratio"] * 0.5 * units.pressure * run.inflow**2 / (facts["reference_cells"] * units.dx)
        ),
    }


# --- what a level's figures give ------------------------------------------------------------------------------

Derived = tuple[Bounds, float, bool, list[str]]
"""The deciding quantity's bounds from the printed figures, its threshold, whether the answer is "above" it, and
the lines read."""
Derivation = Derived | str
"""What a level's figures give, or why they cannot give it."""


def _lines(*names: str, legend: bool = False) -> list[str]:
    places = (
        ["image: the colour bar", "video: the colour bar"]
        if legend
        else ["image: the details box", "video: the details box"]
    )
    return [f"report: {name}" for name in names] + places


def _index(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
    """The largest failure index of the linear analysis, from the peak and the strengths the level prints, against
    1 (past it: the material's limit is reached)."""
    s = StructuralLine
    legend = disclosure == Disclosure.SETUP
    peak = r["peak_legend"] if legend else r["peak_raw"]
    if r["ductile"]:
        value = peak / r["yield"]
        return (value, value), 1.0, True, _lines(s.YIELD, LEGEND if legend else s.VON_MISES_MAX, legend=legend)
    if legend:  # the largest principal stress alone bounds Coulomb–Mohr from below
        return (max(peak, 0.0) / r["tensile"], math.inf), 1.0, True, _lines(s.TENSILE, LEGEND, legend=True)
    tension, compression = max(r["sigma1"], 0.0) / r["tensile"], max(-r["sigma2"], 0.0) / r["compressive"]
    lines = _lines(s.TENSILE, s.COMPRESSIVE, s.PRINCIPAL_MAX, s.PRINCIPAL_MIN)
    return (max(tension, compression), tension + compression), 1.0, True, lines


def _fatigue(r: Readings, strength: float | None) -> float:
    return r["amplitude"] / strength + max(r["mean"], 0.0) / r["tensile"]


def _raw_only(disclosure: Disclosure, derive: Callable[[], Derivation]) -> Derivation:
    if disclosure == Disclosure.SETUP:
        return "the figures it is formed from are results, and this level shows the set-up and the fields alone"
    return derive()


def _exceeds(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
    index = _index(f, r, disclosure)
    if f["fatigue_index"] is None or isinstance(index, str):
        return index
    if disclosure == Disclosure.SETUP:
        return "a cyclic load's fatigue index needs the stress amplitude and mean, which this level does not print"
    (low, high), _, _, lines = index
    fatigue = _fatigue(r, r["fatigue_strength"])
    s = StructuralLine
    lines = [*lines, f"report: {s.AMPLITUDE}", f"report: {s.FATIGUE_STRENGTH}"]
    return (max(low, fatigue), max(high, fatigue)), 1.0, True, lines


def _elastic(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
    index = _index(f, r, disclosure)
    if isinstance(index, str) or index[0][1] * rules.MARGIN > 1:
        return "only 'nothing yields' is decided by the peak stress; how much yields is withdrawn at this level"
    return index[0], 1.0, False, index[3]


def _balanced(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
    def derive() -> Derivation:
        size = max(max(map(abs, r["reactions"])), max(map(abs, r["applied"])), 1e-30)
        value = max(abs(a + b) for a, b in zip(r["reactions"], r["applied"], strict=True)) / size
        return (value, value), rules.BALANCE, False, _lines(StructuralLine.REACTIONS, StructuralLine.APPLIED)

    return _raw_only(disclosure, derive)


def _bending(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
    def derive() -> Derivation:
        value = r["bending"] / r["axial"] if r["axial"] else math.inf
        return (value, value), 1.0, True, _lines(StructuralLine.SECTION)

    return _raw_only(disclosure, derive)


def _converged(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
    def derive() -> Derivation:
        if not (r["energies"] and r["static_peaks"]):
            return "the peak failure index on the finer mesh is not printed for a brittle part at this level"
        changes = [abs(a - b) / b for a, b in (r["energies"], r["static_peaks"])]
        lines = _lines(StructuralLine.ENERGY, StructuralLine.ENERGY_FINE, StructuralLine.STATIC_PEAKS)
        return (max(changes), max(changes)), rules.CONVERGENCE, False, lines

    return _raw_only(disclosure, derive)


def _thermal(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
    def derive() -> Derivation:
        if f["loading"] != "static":
            return "the peak of the static load case is printed only for a static load at this level"
        value = r["thermal"] / r["peak_raw"]
        lines = _lines(StructuralLine.THERMAL_ALONE, StructuralLine.VON_MISES_MAX)
        return (value, value), rules.THERMAL_SHARE, False, lines

    return _raw_only(disclosure, derive)


PULLED = ("bar", "plate_hole", "notched_bar")
"""Parts a static or sudden load only pulls (their load line says tension): no member is compressed to buckle."""
EULER = 1.25
"""The factor either way on a hand Euler estimate of a strut's buckling load a level asks from (the closed form the
key also takes for the strut's weak plane; the margin covers the in-plane finite-element mode beside it)."""


def _buckling_load(f: dict, r: Readings) -> tuple[Bounds, list[str]] | str:
    """The buckling load factor a reader forms from the set-up: none for a part only pulled; for a strut clamped at
    one end and pushed at the other, Euler's π²EI/(2L)² on its weaker plane over the load."""
    s = StructuralLine
    lines = _lines(s.PART, s.SUPPORTS, s.LOAD, "Bounding box", "Thickness", "Young's modulus")
    if r["heated"] or r["held_between_walls"]:
        return "a temperature change adds forces a hand estimate from the set-up does not bound"
    if r["kind"] in PULLED and r["loading"] != "cyclic" and r["load_text"].startswith("tension"):
        return (math.inf, math.inf), lines
    if r["kind"] == "column" and r["loading"] == "static":
        weak = min(r["depth"] * r["thickness"] ** 3, r["thickness"] * r["depth"] ** 3) / 12
        factor = math.pi**2 * r["young"] * weak / (2 * r["length"]) ** 2 / r["load"]
        return (factor / EULER, factor * EULER), lines
    return "the part's buckling load is not one a hand calculation from the set-up decides with margin"


def _buckling(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
    """The buckling load factor against the larger of 3 and the strength factor of safety, as their ratio."""
    load, index = _buckling_load(f, r), _index(f, r, disclosure)
    if isinstance(load, str) or isinstance(index, str):
        return load if isinstance(load, str) else index
    (b_low, b_high), lines = load
    (i_low, i_high), _, _, index_lines = index
    bound_low, bound_high = max(rules.BUCKLING_MARGIN, 1 / i_high), max(rules.BUCKLING_MARGIN, 1 / max(i_low, 1e-300))
    return (b_low / bound_high, b_high / bound_low), 1.0, False, [*lines, *index_lines]


def _factor_of_safety(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
    index = _exceeds(f, r, disclosure)
    if isinstance(index, str):
        return index
    (low, high), _, _, lines = index
    load = _buckling_load(f, r) if f["fatigue_index"] is None else "cyclic"
    if isinstance(load, str):
        if low < rules.MARGIN:
            return "the set-up does not decide the buckling load: only a strength or fatigue index past 1 decides it"
        return (0.0, 1.0 / low), 1.0, True, lines  # at most the reciprocal of that index, whatever buckling gives
    (b_low, b_high), buckling_lines = load
    strength_low, strength_high = 1 / high, 1 / max(low, 1e-300)
    return (min(strength_low, b_low), min(strength_high, b_high)), 1.0, True, [*lines, *buckling_lines]


def _fatigue_neglect(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
    def derive() -> Derivation:
        s = StructuralLine
        lines = _lines(s.ENDURANCE, s.AMPLITUDE, s.TENSILE)
        if f["fatigue_index_unlimited"] is not None and f["fatigue_index_unlimited"] * rules.MARGIN <= 1:
            value = _fatigue(r, r["endurance"])
        else:
            value, lines = _fatigue(r, r["fatigue_strength"]), [*lines, f"report: {s.FATIGUE_STRENGTH}"]
        return (value, value), 1.0, False, lines

    return _raw_only(disclosure, derive)


STRUCTURAL: dict[str, Callable[[dict, Readings, Disclosure], Derivation]] = {
    "a7e94b2c6f1d83052c9e": _exceeds,
    "b12d8f45e3a670c92178": _elastic,
    "d46c2b17e50f38a4271d": _balanced,
    "f68a3b09d15c7246a05f": _buckling,
    "g79d4e72b36d9105834a": lambda f, r, d: _index(f, r, d),
    "h80e6f18a47e0327642b": lambda f, r, d: _index(f, r, d),
    "i91f7a54c58f1549451c": _bending,
    "k13b9c27e70b3982172e": _converged,
    "l24c0d81f81c4103083f": _thermal,
    "n46e2f9ba03e6545205b": lambda f, r, d: _index(f, r, d),
    "r80c6d90f47c0329649f": _factor_of_safety,
    "t02e8f52b69e2761861b": _fatigue_neglect,
}
"""How each structural question's deciding quantity is formed from a level's figures (the rest are categorical or
withdrawn)."""


def _richardson(above: bool) -> Callable[[dict, Readings, Disclosure], Derivation]:
    def derive(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
        value = GRAVITY * r["expansion"] * r["wall_rise"] * r["reference"] / 1e3 / r["inflow"] ** 2
        return (value, value), rules.RICHARDSON, above, RICHARDSON_LINES

    return derive


RICHARDSON_LINES = [
    f"report: {FluidLine.CASE}",
    "report: Thermal expansion coefficient",
    "report: Cylinder",
    "report: Reference velocity (mean inflow)",
    "image: the details box",
    "video: the details box",
]


def _over_inflow(
    key: str, line: str, threshold: float, above: bool
) -> Callable[[dict, Readings, Disclosure], Derivation]:
    def derive(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
        def inner() -> Derivation:
            value = r[key] / r["inflow"]
            return (value, value), threshold, above, _lines(line, "Reference velocity (mean inflow)")

        return _raw_only(disclosure, inner)

    return derive


def _gradient(f: dict, r: Readings, disclosure: Disclosure) -> Derivation:
    def derive() -> Derivation:
        value = r["gradient"] * r["reference"] / 1e3 / (0.5 * r["density"] * r["inflow"] ** 2)
        lines = _lines(FluidLine.GRADIENT, "Density", "Reference velocity (mean inflow)")
        return (value, value), rules.HIGH_GRADIENT, True, lines

    return _raw_only(disclosure, derive)


def _symmetric_flow(f: dict, r: Readings, disclosure: Disclosure) -> Derivation | None:
    if f["asymmetry"] is None or math.isinf(f["asymmetry"]):
        return None  # a geometry without a mirror line: the case line states it at every level
    return "the departure from symmetry is withdrawn at this level, and a field read by eye does not decide it"


FLUID: dict[str, Callable[[dict, Readings, Disclosure], Derivation | None]] = {
    "x46c2d01f03c6546905f": _richardson(above=True),
    "ii7b3c37e14b7767016e": _richardson(above=False),
    "ll0e6f65b47e0320349b": _richardson(above=False),
    "y57d3e37a14d7767016a": _over_inflow("probe", FluidLine.PROBE, STEADY, above=False),
    "hh6a2b01d03a6546905d": _over_inflow("wall_reverse", FluidLine.WALL_REVERSE, rules.SEPARATION, above=True),
    "kk9d5e29a36d9109238a": _gradient,
    "jj8c4d83f25c8988127f": _symmetric_flow,
}
WITHDRAWN = "its deciding figure is withdrawn above level 1 and what this level shows does not decide it with margin"


def _decided(derived: Derived) -> bool | None:
    """The answer the printed figures give with the key's margin at both ends of their bounds, else None."""
    bounds, threshold, above, lines = derived
    answers = {rules.compared(v, threshold, "", lines, above).answer for v in bounds}
    return answers.pop() if len(answers) == 1 else None


def _still_shown(decision: rules.Decision, gone: tuple[str, ...]) -> rules.Decision:
    """A categorical decision whose evidence names only the lines the level still shows."""
    evidence = decision.evidence
    if evidence is None:
        return decision
    kept = [place for place in evidence.shown_in if place.removeprefix("report: ") not in gone]
    return rules.Decision(decision.answer, replace(evidence, shown_in=kept))


def at_level(domain: str, facts: dict, readings: Readings, level: Level) -> dict[str, rules.Decision]:
    """Every rule's decision for one simulation shown at ``level``: level 1's decisions, each kept only where the
    level's printed figures decide it with the key's margin (its evidence then the figures formed and the lines
    read), else not asked with the reason."""
    decisions = rules.decide(domain, facts)
    if level.disclosure == Disclosure.FULL:
        return decisions
    table = STRUCTURAL if domain == "structural" else FLUID
    out = {}
    for qid, decision in decisions.items():
        categorical = decision.evidence is not None and decision.evidence.threshold is None
        if decision.answer is None:
            out[qid] = decision
            continue
        if categorical:
            out[qid] = _still_shown(decision, withdrawn(level.number, domain))
            continue
        derive = table.get(qid)
        derivation = derive(facts, readings, level.disclosure) if derive else WITHDRAWN
        if derivation is None:  # categorical at this level
            out[qid] = decision
            continue
        if isinstance(derivation, str):
            out[qid] = rules.Decision(None, not_asked=f"level {level.number}: {derivation}")
            continue
        bounds, threshold, _, lines = derivation
        evidence = decision.evidence
        if evidence is None or _decided(derivation) != decision.answer:
            out[qid] = rules.Decision(
                None, not_asked=f"level {level.number}: {WITHDRAWN} (formed from the printed figures: {bounds})"
            )
            continue
        value = bounds[0] if bounds[0] == bounds[1] else None
        out[qid] = rules.Decision(
            decision.answer,
            rules.Evidence(
                value,
                threshold,
                f"{evidence.quantity}; formed by the reader from the figures shown"
                + ("" if value is not None else f" (between {bounds[0]:.4g} and {bounds[1]:.4g})"),
                lines,
            ),
        )
    return out
