"""The SeeSim questions answered from a generated simulation's computed results, one documented rule each.

Every rule reads the facts a solver produced (:mod:`mechbench.simulation.structural`,
:mod:`mechbench.simulation.flow`); none is set by hand. A rule gives, for one simulation, either an answer with its
evidence (the deciding quantity, its threshold, what it is, and where a reader of the media sees it) or the reason
the question is not asked of that simulation:

- a numeric answer is asked only when the quantity and its threshold are at least :data:`MARGIN` times apart, so
  that neither the solver's discretisation error nor a reader's reading of a plot can flip it;
- a question whose answer would be a judgement call for that simulation (a local yield zone and "primarily
  elastic", a fractured brittle part and "plastic deformation") is not asked of it.

Questions that mechbench's simulations cannot make both True and False are not asked at all (:data:`NOT_ASKED`).

Kept as one module (~650 lines): every question's rule, threshold, margin and evidence sit side by side, which
is how a reviewer checks that the key is decided with margin and consistently across questions.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass

from mechbench.simulation import flow
from mechbench.simulation.reports import FluidLine as F
from mechbench.simulation.reports import StructuralLine as S

MARGIN = 1.5
"""A numeric answer is asked only when the deciding quantity and its threshold are at least this factor apart. The
solvers' own uncertainty is a few per cent (mesh refinement changes strain energies by up to 3 %, the lattice's
compressibility errs by Ma² < 1 %), engineering thresholds are soft by tens of per cent (transition Reynolds numbers
and Richardson numbers vary by that much between textbooks), and a reader estimates a colour bar to about 20 %: a
factor 1.5 clears all three."""
BALANCE = 1e-3
"""Reactions balance the loads when their resultant differs by less than this share of the forces summed."""
CONVERGENCE = 0.03
"""Largest relative change of the strain energy and of the peak stress between the mesh and one with half the
element size that counts as converged."""
UNIFORM_SPREAD = 0.10
"""Coefficient of variation of the equivalent stress over the part below which the distribution is uniform."""
THERMAL_SHARE = 0.10
"""Thermal stresses are negligible when the temperature alone reaches less than this share of the peak stress."""
BUCKLING_MARGIN = 3.0
"""Buckling is a potential failure mode when the buckling load factor is below the larger of this margin (the usual
design factor against elastic instability) and the strength factor of safety (it would buckle before failing)."""
PRIMARILY_ELASTIC = 0.10
"""Share of the part above yield below which its deformation is primarily elastic."""
REVERSED_SHARE = 0.002
DEVELOPED = 0.02
RICHARDSON = 0.1
SEPARATION = 0.01
SYMMETRY = 0.02
HIGH_GRADIENT = 5.0

IMAGE = "image: the details box"
VIDEO = "video: the details box"


@dataclass(frozen=True)
class Evidence:
    """What an answer was decided on, and where a reader of the media sees it."""

    value: float | bool | None
    """The deciding quantity (None: unbounded), or the category a categorical answer reads."""
    threshold: float | None
    quantity: str
    shown_in: list[str]


@dataclass(frozen=True)
class Decision:
    """A rule's outcome for one simulation: an answer with its evidence, or why the question is not asked."""

    answer: bool | None
    evidence: Evidence | None = None
    not_asked: str | None = None


@dataclass(frozen=True)
class Rule:
    """How one question's answer is derived, and the rule itself."""

    qid: str
    wording: str  # mechbench's own wording, used when the published question file cannot be read
    derivation: str
    decide: Callable[[dict], Decision]


def _where(*lines: str, panels: tuple[str, ...] = ()) -> list[str]:
    return [f"report: {line}" for line in lines] + [IMAGE, VIDEO, *panels]


def _finite(value: float | None) -> float:
    return math.inf if value is None else float(value)


def compared(value: float | None, threshold: float, quantity: str, shown_in: list[str], above: bool = True) -> Decision:
    """The answer "``value`` is above ``threshold``" (or below, with ``above=False``), asked only with the margin."""
    value = _finite(value)
    # JSON has no infinity: an unbounded quantity (no compression to buckle, no axial stress beside bending) is null.
    evidence = Evidence(value if math.isfinite(value) else None, threshold, quantity, shown_in)  # type: ignore[arg-type]
    low, high = sorted((abs(value), threshold))
    if not (low == 0 and high > 0) and high < MARGIN * low:
        return Decision(
            None,
            not_asked=f"{quantity} is {value:.4g}, within a factor {MARGIN:g} of the threshold {threshold:g}: "
            "too close to call",
        )
    return Decision((value > threshold) == above, evidence)


def strength(
    f: dict,
    value: float,
    threshold: float,
    quantity: str,
    shown_in: list[str],
    above: bool = True,
    inverse: bool = False,
) -> Decision:
    """:func:`compared` for a quantity proportional to the peak stress (``inverse``: to its reciprocal), asked only
    when the mesh with half the element size puts it on the same side of the threshold with the same margin (a
    coarse mesh may misjudge it)."""
    decision = compared(value, threshold, quantity, shown_in, above)
    fine, index = f.get("failure_index_fine"), f["failure_index"]
    if decision.answer is None or not fine or not index:
        return decision
    refined = value * (index / fine if inverse else fine / index)
    if compared(refined, threshold, quantity, shown_in, above).answer != decision.answer:
        return Decision(
            None,
            not_asked=f"{quantity} is {value:.4g} on this mesh and {refined:.4g} on one with half the element size: "
            "the mesh is too coarse to call it",
        )
    return decision


def categorical(answer: bool, quantity: str, shown_in: list[str]) -> Decision:
    """An answer read from a category of the set-up (a material's ductility, a support that lets the part slide)."""
    return Decision(answer, Evidence(answer, None, quantity, shown_in))


# --- structural -------------------------------------------------------------------------------------------------

STRENGTH_LINES = (S.VON_MISES_MAX, S.PRINCIPAL_MAX, S.PRINCIPAL_MIN, S.PEAK, S.PEAK_MESH, S.YIELD, S.TENSILE,
                  S.COMPRESSIVE)  # fmt: skip
INDEX = "largest failure index (von Mises over yield, or Coulomb–Mohr over the strengths), dimensionless"


def _yielded(f: dict) -> tuple[str, ...]:
    """The yield-share line, which reports of ductile parts carry."""
    return (S.YIELDED,) if f["ductile"] else ()


FATIGUE_LINES = (S.CYCLES, S.FATIGUE_STRENGTH, S.AMPLITUDE, S.FATIGUE_INDEX, S.LIFE)
BUCKLED = (
    "the part buckles before its material is tested: what its stresses do after buckling is not what the analysis "
    "computes"
)


def _buckled(f: dict) -> bool:
    return f["state"] == "buckles"


def _fatigue_lines(f: dict) -> tuple[str, ...]:
    return FATIGUE_LINES if f["fatigue_index"] is not None else ()


def _exceeds(f: dict) -> Decision:
    if _buckled(f):
        return Decision(None, not_asked=BUCKLED)
    if f["fatigue_index"] is not None:
        return strength(
            f,
            max(f["failure_index"], f["fatigue_index"]),
            1.0,
            "the larger of the failure index of the linear analysis and the fatigue index (Goodman) for the cycles "
            "in service",
            _where(*STRENGTH_LINES, *FATIGUE_LINES),
        )
    return strength(f, f["failure_index"], 1.0, INDEX, _where(*STRENGTH_LINES, S.LIMIT))


def _factor_of_safety(f: dict) -> Decision:
    quantity = (
        "governing factor of safety: the smallest of strength (1 / failure index), fatigue (1 / fatigue index, "
        "cyclic loads) and the buckling load multiplier"
    )
    where = _where(*STRENGTH_LINES, *_fatigue_lines(f), S.BUCKLING, S.LIMIT)
    if f["governing"] == "buckling":
        return compared(f["factor_of_safety"], 1.0, quantity, where)
    return strength(f, f["factor_of_safety"], 1.0, quantity, where, inverse=True)


def _elastic(f: dict) -> Decision:
    if _buckled(f):
        return Decision(None, not_asked=BUCKLED)
    index, share = max(f["failure_index"], f.get("failure_index_fine") or 0.0), f["plastic_fraction"]
    where = _where(*_yielded(f), *STRENGTH_LINES)
    quantity = "share of the part above the yield strength"
    if index <= 1 / MARGIN:
        return Decision(True, Evidence(share, PRIMARILY_ELASTIC, quantity, where))
    if f["ductile"] and index >= MARGIN and share >= MARGIN * PRIMARILY_ELASTIC:
        return Decision(False, Evidence(share, PRIMARILY_ELASTIC, quantity, where))
    if not f["ductile"] and index >= MARGIN:
        return Decision(
            None, not_asked="a brittle part past its strength fractures: 'primarily elastic' presumes it holds"
        )
    return Decision(None, not_asked="the part yields locally or is close to its limit: 'primarily' is a judgement call")


def _plastic(f: dict) -> Decision:
    if _buckled(f):
        return Decision(None, not_asked=BUCKLED)
    if not f["ductile"]:
        if f["failure_index"] >= MARGIN:
            return Decision(None, not_asked="a brittle part past its strength fractures rather than deforming")
        return categorical(
            False,
            "a brittle material (elongation at break under 5 %): no plastic deformation",
            _where(S.ELONGATION, *STRENGTH_LINES),
        )
    return strength(
        f,
        f["failure_index"],
        1.0,
        "largest von Mises stress over the yield strength",
        _where(S.YIELDED, *STRENGTH_LINES),
    )


def _nonlinear(f: dict) -> Decision:
    if _buckled(f):
        return Decision(None, not_asked=BUCKLED)
    if not f["ductile"] and f["failure_index"] >= MARGIN:
        return Decision(
            None,
            not_asked="a brittle part past its strength cracks: whether that is 'material "
            "nonlinearity' (a term for plasticity) is a reading of the word",
        )
    return strength(f, f["failure_index"], 1.0, INDEX, _where(*STRENGTH_LINES))


def _residual(f: dict) -> Decision:
    if _buckled(f):
        return Decision(None, not_asked=BUCKLED)
    where = _where(*_yielded(f), S.VON_MISES_SPREAD, *STRENGTH_LINES)
    if not f["ductile"]:
        if f["failure_index"] >= MARGIN:
            return Decision(None, not_asked="a brittle part past its strength fractures: no residual state to speak of")
        return categorical(False, "a brittle material below its strength: nothing yields, nothing remains", where)
    if f["failure_index"] >= MARGIN and f["stress_spread"] < MARGIN * UNIFORM_SPREAD:
        return Decision(None, not_asked="the part yields evenly: it keeps a residual strain, hardly a residual stress")
    return strength(
        f,
        f["failure_index"],
        1.0,
        "largest von Mises stress over the yield strength, in a part whose stress varies (what yields is held back by "
        "what springs back)",
        where,
    )


def _balanced(f: dict) -> Decision:
    return compared(
        f["reaction_imbalance"],
        BALANCE,
        "resultant of reactions and applied loads over the forces summed, at the instant shown",
        _where(S.REACTIONS, S.APPLIED, S.INSTANT),
        above=False,
    )


def _buckling(f: dict) -> Decision:
    if f["rigid_body_motion"]:
        return Decision(None, not_asked="the part is not held: it slides, it cannot buckle against a support")
    return compared(
        f["buckling_factor"],
        f["buckling_bound"],
        "smallest buckling load factor (in-plane finite elements, out-of-plane and lateral-torsional closed forms) "
        "against the larger of 3 and the factor of safety",
        _where(S.BUCKLING, *STRENGTH_LINES),
        above=False,
    )


def _bending(f: dict) -> Decision:
    return compared(
        f["bending_ratio"],
        1.0,
        "bending over axial normal stress at the most stressed section",
        _where(S.SECTION),
    )


def _converged(f: dict) -> Decision:
    if f["energy_change"] is None:
        return Decision(None, not_asked="no static problem to refine: the part moves as a rigid body")
    return compared(
        max(f["energy_change"], f["peak_change"]),
        CONVERGENCE,
        "larger relative change, of the strain energy and of the peak failure index, when the element size is halved",
        _where(S.ENERGY, S.ENERGY_FINE, S.PEAK_MESH),
        above=False,
    )


def _thermal(f: dict) -> Decision:
    if not f["thermal"]:
        return Decision(
            None,
            not_asked="no temperature change: the thermal condition line states it, so the question would test "
            "reading a setting",
        )
    return compared(
        f["thermal_share"],
        THERMAL_SHARE,
        "peak stress from the temperature alone over the peak stress of all loads",
        _where(S.THERMAL_ALONE, S.VON_MISES_MAX, S.PRINCIPAL_MAX, S.THERMAL_CONDITION),
        above=False,
    )


def _symmetric(f: dict) -> Decision:
    if f["symmetric_loads_only"] and not f["symmetric_loading"]:
        return Decision(None, not_asked="the loads are symmetric but the supports are not: it depends on the reading")
    return categorical(
        f["symmetric_loading"],
        "mirror symmetry of geometry, supports, loads and temperature",
        _where(S.PART, S.SUPPORTS, S.LOAD, S.THERMAL_CONDITION, panels=("image: the drawn supports and loads",)),
    )


def _fatigue(f: dict) -> Decision:
    if f["loading"] != "cyclic":
        return Decision(
            None,
            not_asked="the load is applied once: the analysis line states that no cycles load the part, so the "
            "question would test reading a setting",
        )
    if not f["endurance_limit"]:
        return categorical(
            False, "cyclic load on a material without an endurance limit", _where(S.ANALYSIS, S.ENDURANCE)
        )
    where = _where(S.ANALYSIS, S.ENDURANCE, *FATIGUE_LINES)
    unlimited = f["fatigue_index_unlimited"]
    if unlimited * MARGIN <= 1 and f["governing"] == "fatigue":
        return Decision(
            None,
            not_asked="an unlimited life, but fatigue governs the part's factor of safety: an engineer assesses it "
            "(a blind reading disputed 'can be neglected' here), so the question is not asked",
        )
    if unlimited * MARGIN <= 1:  # an unlimited life with margin, and another criterion governs
        return strength(
            f,
            unlimited,
            1.0,
            "fatigue index against the endurance limit (Goodman: stress amplitude over the endurance limit plus mean "
            "stress over the ultimate strength)",
            where,
            above=False,
        )
    if f["fatigue_index"] >= MARGIN:
        return strength(
            f,
            f["fatigue_index"],
            1.0,
            "fatigue index for the cycles in service (Goodman: stress amplitude over the fatigue strength at those "
            "cycles plus mean stress over the ultimate strength)",
            where,
            above=False,
        )
    return Decision(
        None,
        not_asked="the amplitude lies between the endurance limit and the fatigue strength at the cycles in service: "
        "fatigue has to be checked, and whether a check it passes 'neglects' it is a reading of the word",
    )


STRUCTURAL_RULES = (
    Rule(
        "a7e94b2c6f1d83052c9e",
        "Does the stress anywhere exceed what the material can withstand?",
        "the largest failure index of the linear analysis at the most loaded instant exceeds 1 (von Mises stress over "
        "yield strength for ductile materials, Coulomb–Mohr on the principal stresses for brittle ones), or, for "
        "cyclic loads, the fatigue index (Goodman) for the cycles in service does; a buckling part is not asked",
        _exceeds,
    ),
    Rule(
        "b12d8f45e3a670c92178",
        "Does the part deform mainly elastically?",
        "nothing yields (True), or a ductile part yields over at least 15 % of its area (False); asked only then",
        _elastic,
    ),
    Rule(
        "d46c2b17e50f38a4271d",
        "Are the external loads balanced by the support reactions?",
        f"the support reactions and the applied loads sum to zero within {BALANCE:g} of the forces summed at the "
        "instant shown (a struck part's inertia breaks the balance)",
        _balanced,
    ),
    Rule(
        "e57f1d63c42a0589b63e",
        "Is the von Mises criterion the right failure criterion for this part?",
        "the material is ductile (brittle materials: Coulomb–Mohr); not asked of a part that buckles (no stress "
        "criterion describes its failure)",
        lambda f: (
            Decision(None, not_asked=BUCKLED)
            if _buckled(f)
            else categorical(f["ductile"], "the material's ductility (elongation at break ≥ 5 %)", _where(S.ELONGATION))
        ),
    ),
    Rule(
        "f68a3b09d15c7246a05f",
        "Could the part fail by buckling?",
        f"the smallest buckling load factor of the static load (in-plane finite elements; out-of-plane Euler and "
        f"lateral-torsional buckling in closed form; a reversed load checked both ways) is below the larger of "
        f"{BUCKLING_MARGIN:g} and the factor of safety",
        _buckling,
    ),
    Rule(
        "g79d4e72b36d9105834a",
        "Would nonlinear material behaviour change the result?",
        "the linear-elastic stress passes the material's limit somewhere (yield, or a brittle material's strength): "
        "an elastic-plastic law would change the result (a brittle part past its strength is not asked)",
        _nonlinear,
    ),
    Rule(
        "h80e6f18a47e0327642b",
        "Would significant residual stresses remain in the part after unloading?",
        "a ductile part whose stress varies yields somewhere: the unyielded rest springs back against it on unloading "
        "(a part yielding evenly is not asked)",
        _residual,
    ),
    Rule(
        "i91f7a54c58f1549451c",
        "Is the normal stress dominated by bending rather than by axial load?",
        "across the section through the most loaded cell, the bending part of the normal stress (M·c/I) exceeds the "
        "axial part (N/A)",
        _bending,
    ),
    Rule(
        "k13b9c27e70b3982172e",
        "Is the solution converged to within an acceptable error?",
        f"the strain energy and the peak failure index each change by at most {CONVERGENCE:.0%} when the element size "
        "is halved",
        _converged,
    ),
    Rule(
        "l24c0d81f81c4103083f",
        "Can thermal stresses be neglected here?",
        f"the temperature field alone reaches less than {THERMAL_SHARE:.0%} of the peak stress (asked of parts whose "
        "temperature changes)",
        _thermal,
    ),
    Rule(
        "n46e2f9ba03e6545205b",
        "Does the part deform plastically anywhere?",
        "a ductile material whose von Mises stress exceeds yield somewhere (a brittle one below its strength: False)",
        _plastic,
    ),
    Rule(
        "o57f3a01c14f7766316c",
        "Is the part loaded symmetrically?",
        "geometry, supports, loads and temperature are unchanged by a mirror about the part's mid-height or "
        "mid-length line",
        _symmetric,
    ),
    Rule(
        "p68a4b37d25a8987427d",
        "Is the stress spread evenly over the part?",
        f"the von Mises stress varies over the part by a coefficient of variation below {UNIFORM_SPREAD:g}",
        lambda f: compared(
            f["stress_spread"],
            UNIFORM_SPREAD,
            "coefficient of variation of the von Mises stress over the part",
            _where(S.VON_MISES_SPREAD, panels=("image: the stress field and its colour bar",)),
            above=False,
        ),
    ),
    Rule(
        "q79b5c63e36b9108538e",
        "Is the part's material ductile?",
        "the material's elongation at break is at least 5 %",
        lambda f: categorical(
            f["ductile"], "the material's elongation at break (≥ 5 %: ductile)", _where(S.ELONGATION)
        ),
    ),
    Rule(
        "r80c6d90f47c0329649f",
        "Is the factor of safety above 1?",
        "the governing factor of safety, the smallest of strength (1 / failure index), fatigue (1 / fatigue index, "
        "cyclic loads) and buckling (the load multiplier), exceeds 1",
        _factor_of_safety,
    ),
    Rule(
        "s91d7e26a58d1540750a",
        "Does the part move as a rigid body?",
        "the supports leave a rigid-body motion free and the load pushes along it (the transient shows it moving)",
        lambda f: categorical(
            f["rigid_body_motion"],
            "supports that leave a free motion the load pushes along",
            _where(S.SUPPORTS, S.LOAD, panels=("video: the part's motion",)),
        ),
    ),
    Rule(
        "t02e8f52b69e2761861b",
        "Can fatigue be neglected for this part?",
        "asked of cyclic loads: a material without an endurance limit (aluminium) cannot neglect it (False); else "
        "True when the amplitude is below the endurance limit (Goodman) with margin and another criterion governs, "
        "False when the fatigue index for the cycles in service is past 1 with margin",
        _fatigue,
    ),
)

# --- fluid ------------------------------------------------------------------------------------------------------


ISOTHERMAL = (
    "an isothermal run: the report's energy setting states that temperature plays no part, so the question would "
    "test reading a setting, not the flow"
)


def _natural_convection(f: dict, significant: bool) -> Decision:
    if not f["heated"]:
        return Decision(None, not_asked=ISOTHERMAL)
    decision = compared(
        f["richardson"],
        RICHARDSON,
        "Richardson number Gr/Re² of the heated cylinder",
        _where(F.RICHARDSON, F.TEMPERATURE_RANGE, panels=("image: the temperature panel",)),
    )
    if decision.answer is None:
        return decision
    return Decision(decision.answer == significant, decision.evidence)


def _steep_gradient(f: dict) -> Decision:
    if f["configuration"] == "step":
        return Decision(
            None,
            not_asked="the step's corner is a pressure singularity: whether its spot counts as a "
            "steep gradient is a judgement call",
        )
    return compared(
        f["gradient_ratio"],
        HIGH_GRADIENT,
        "steepest pressure gradient times the characteristic length, in dynamic pressures",
        _where(F.GRADIENT, panels=("image: the pressure panel",)),
    )


def _thermal_effects(f: dict) -> Decision:
    if not f["heated"]:
        return Decision(None, not_asked=ISOTHERMAL)
    if f["richardson"] >= MARGIN * RICHARDSON:
        return Decision(
            False,
            Evidence(
                f["richardson"],
                RICHARDSON,
                "Richardson number: the heating drives the flow",
                _where(F.RICHARDSON, F.TEMPERATURE_RANGE, panels=("image: the temperature panel",)),
            ),
        )
    return Decision(None, not_asked="heated, but buoyancy barely moves the flow: 'negligible' depends on the purpose")


FLUID_RULES = (
    Rule(
        "u13f9a63c70f3982972c",
        "Does the flow contain recirculation or vortices?",
        f"more than {REVERSED_SHARE:.1%} of the fluid moves against the main flow direction at the instant shown",
        lambda f: compared(
            f["reversed_share"],
            REVERSED_SHARE,
            "share of the fluid moving against the main flow",
            _where(F.REVERSED, panels=("image: the streamlines",)),
        ),
    ),
    Rule(
        "v24a0b19d81a4103783d",
        "Has the flow become fully developed?",
        "the shapes of the streamwise velocity profiles (each over its mean) at 60 % and 75 % of the length differ "
        f"by less than {DEVELOPED:.0%}",
        lambda f: compared(
            f["profile_change"],
            DEVELOPED,
            "largest difference between the normalised velocity profiles at 60 % and 75 % of the length",
            _where(F.PROFILES, panels=("image: the velocity profile panel",)),
            above=False,
        ),
    ),
    Rule(
        "x46c2d01f03c6546905f",
        "Does natural convection matter in this flow?",
        f"the Richardson number Gr/Re² of the heated cylinder exceeds {RICHARDSON:g} (asked of heated flows)",
        lambda f: _natural_convection(f, significant=True),
    ),
    Rule(
        "y57d3e37a14d7767016a",
        "Is the flow steady?",
        f"the cross-stream velocity at a probe in the wake varies by less than {flow.STEADY:.0%} of the mean "
        "velocity over the averaging window (at least three whole shedding periods of a settled run)",
        lambda f: compared(
            f["probe_variation"],
            flow.STEADY,
            "variation of the cross-stream velocity at the wake probe over the averaging window, over the mean inflow",
            _where(F.PROBE, panels=("image: the probe history panel", "video: the frames of the averaging window")),
            above=False,
        ),
    ),
    Rule(
        "hh6a2b01d03a6546905d",
        "Does the flow separate from a surface anywhere?",
        f"fluid next to a solid surface moves against the main flow at more than {SEPARATION:.0%} of the mean inflow "
        "(the boundary layer has detached)",
        lambda f: compared(
            f["wall_reverse"],
            SEPARATION,
            "strongest reverse velocity within a fifth of the characteristic length of a wall, over the mean inflow",
            _where(F.WALL_REVERSE, panels=("image: the streamlines",)),
        ),
    ),
    Rule(
        "ii7b3c37e14b7767016e",
        "Can buoyancy be neglected in this flow?",
        f"the Richardson number is at most {RICHARDSON:g} (asked of heated flows)",
        lambda f: _natural_convection(f, significant=False),
    ),
    Rule(
        "jj8c4d83f25c8988127f",
        "Is the flow field symmetric about an axis?",
        f"mirrored about the channel's centre line, the velocity field matches itself within {SYMMETRY:.0%} of the "
        "mean velocity (a geometry without that mirror line: False)",
        lambda f: (
            categorical(False, "a geometry without a mirror line along the flow", _where(F.CASE))
            if f["asymmetry"] is None or math.isinf(f["asymmetry"])
            else compared(
                f["asymmetry"],
                SYMMETRY,
                "largest velocity difference from the mirror image about the centre line, over the mean inflow",
                _where(F.ASYMMETRY),
                above=False,
            )
        ),
    ),
    Rule(
        "kk9d5e29a36d9109238a",
        "Are there regions of steep pressure gradient?",
        f"the steepest pressure gradient, times the characteristic length, exceeds {HIGH_GRADIENT:g} dynamic "
        "pressures ½ρU² (inlet and outlet columns excluded)",
        _steep_gradient,
    ),
    Rule(
        "ll0e6f65b47e0320349b",
        "Can thermal effects be neglected in this analysis?",
        "asked of heated flows: a heated cylinder whose buoyancy drives the flow, Richardson number at least "
        f"{MARGIN * RICHARDSON:g}, cannot neglect it (False); a heated run with weak buoyancy is not asked",
        _thermal_effects,
    ),
)

NOT_ASKED = {
    "bb0a6b65d47a0320349d": (
        "laminar: every generated flow is laminar and two-dimensional, as the solver is (a wake past its 3-D "
        "transition, or a turbulent channel, is not something a 2-D laminar solver represents, so none is generated); "
        "the report's flow-model line states it"
    ),
    "ee3d9e73a70d3983672a": "turbulent: no generated flow is (see the laminar question)",
    "ff4e0f19b81e4104783b": (
        "transient analysis: every generated run is reported in physical time, and the report's analysis line states "
        "it; asking it would test reading a setting"
    ),
    "c39e5d0af86b2417593c": "contact/boundary enforcement: the solver always enforces its supports exactly",
    "j02a8b90d69a2760361d": "whether supports represent the real constraints: not a property of a computed field",
    "m35d1e36a92d5324194a": "torsion: plane stress has none, so it is always negligible",
    "w35b1c65e92b5324894e": "wall functions: the lattice-Boltzmann solver resolves the walls, never uses them",
    "z68e4f83b25e8988127b": "shock waves: the flows are incompressible",
    "aa9f5a29c36f9109238c": "multiphase: the flows are single-phase",
    "cc1b7c01e58b1541450e": (
        "mass conservation: the incompressible flows conserve mass by construction; the lattice's small "
        "inflow–outflow differences (under 2 % while vortices shed) come from its slight compressibility, not the "
        "flow's, so a False would be an artefact"
    ),
    "dd2c8d37f69c2762561f": "supersonic flow: the flows are incompressible",
    "gg5f1a65c92f5325894c": "compressibility: the flows are incompressible",
    "mm1f7a01c58f1541450c": "cavitation: the flows are single-phase and their pressures stay far above vapour pressure",
    "nn2a8b37d69a2762561d": "fluid-structure interaction: the solid walls and obstacles are rigid",
}

RULES = {"structural": STRUCTURAL_RULES, "fluid": FLUID_RULES}


def decide(domain: str, facts: dict) -> dict[str, Decision]:
    """Every rule's decision for one simulation's facts."""
    return {rule.qid: rule.decide(facts) for rule in RULES[domain]}


def answers_of(decisions: dict[str, Decision]) -> dict[str, bool]:
    """The asked questions' answers among ``decisions``."""
    return {qid: d.answer for qid, d in decisions.items() if d.answer is not None}


def evidence_of(decisions: dict[str, Decision]) -> dict[str, dict]:
    """The asked answers' evidence among ``decisions``, as ``generated.json`` keeps it."""
    return {qid: asdict(d.evidence) for qid, d in decisions.items() if d.evidence is not None}


def not_asked_of(decisions: dict[str, Decision]) -> dict[str, str]:
    """Why each question not asked among ``decisions`` is not asked."""
    return {qid: d.not_asked for qid, d in decisions.items() if d.answer is None and d.not_asked}


def answers(domain: str, facts: dict) -> dict[str, bool]:
    """Each asked question's answer for one simulation's facts (questions not asked of it are omitted)."""
    return answers_of(decide(domain, facts))


def evidence(domain: str, facts: dict) -> dict[str, dict]:
    """Each asked answer's evidence, as ``generated.json`` keeps it."""
    return evidence_of(decide(domain, facts))


def not_asked(domain: str, facts: dict) -> dict[str, str]:
    """Why each question not asked of this simulation is not asked."""
    return not_asked_of(decide(domain, facts))
