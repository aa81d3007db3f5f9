"""Each family of structural answers read from a simulation that should give it, both ways."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mechbench.benchmarks.seesim.rules import answers, not_asked
from mechbench.simulation.materials import MATERIALS
from mechbench.simulation.parts import make_part
from mechbench.simulation.structural import StructuralRun, StructuralSetup, run_structural

STEEL, ALUMINIUM, GLASS, CAST_IRON = (
    next(i for i, m in enumerate(MATERIALS) if m.name.startswith(p)) for p in ("Struct", "Alum", "Soda", "Grey")
)
Q = {
    "exceeds_limits": "a7e94b2c6f1d83052c9e",
    "elastic": "b12d8f45e3a670c92178",
    "balanced": "d46c2b17e50f38a4271d",
    "von_mises": "e57f1d63c42a0589b63e",
    "buckling": "f68a3b09d15c7246a05f",
    "nonlinear": "g79d4e72b36d9105834a",
    "residual": "h80e6f18a47e0327642b",
    "bending": "i91f7a54c58f1549451c",
    "converged": "k13b9c27e70b3982172e",
    "thermal_negligible": "l24c0d81f81c4103083f",
    "plastic": "n46e2f9ba03e6545205b",
    "symmetric": "o57f3a01c14f7766316c",
    "uniform": "p68a4b37d25a8987427d",
    "ductile": "q79b5c63e36b9108538e",
    "fos_above_1": "r80c6d90f47c0329649f",
    "rigid": "s91d7e26a58d1540750a",
    "fatigue_negligible": "t02e8f52b69e2761861b",
}


def simulate(
    kind: str,
    material: int = STEEL,
    fos: float = 2.0,
    cells: int = 8,
    loading: str = "static",
    thermal: str = "none",
    restrained: bool = False,
    seed: str = "0.5",
    cycles: float | None = None,
) -> tuple[StructuralRun, dict[str, bool]]:
    if loading == "cyclic" and cycles is None:
        cycles = 1e7
    setup = StructuralSetup(kind, material, cells, loading, thermal, restrained, fos, seed, cycles=cycles)
    run = run_structural(setup)
    given = answers("structural", run.facts)
    return run, {name: given.get(qid) for name, qid in Q.items()}


def test_a_ductile_plate_loaded_past_yield_yields_locally_and_is_reported_in_its_state() -> None:
    run, a = simulate("plate_hole", STEEL, fos=0.6, cells=6)
    facts, fy = run.facts, run.material.yield_strength
    assert facts["state"] == "yields" and facts["failure_index"] == pytest.approx(1 / 0.6, rel=1e-3)
    assert a["plastic"] is True and a["nonlinear"] is True and a["exceeds_limits"] is True
    assert a["residual"] is True and a["fos_above_1"] is False
    # The state, not the linear result: stresses past yield brought back to it; the section does not collapse.
    assert facts["von_mises_peak"] == pytest.approx(fy) and facts["linear_peak"] > 1.5 * fy
    assert max(float(run.plotted(frame.stress).max()) for frame in run.frames) <= fy * (1 + 1e-9)
    assert facts["collapse_factor"] > 1 and "yields over" in facts["limit_note"] and "Neuber" in facts["limit_note"]
    _, a = simulate("plate_hole", STEEL, fos=2.5, cells=6)
    assert a["plastic"] is False and a["nonlinear"] is False and a["exceeds_limits"] is False
    assert a["residual"] is False and a["elastic"] is True and a["fos_above_1"] is True


def test_an_overload_a_part_cannot_take_is_drawn_as_a_design_load_instead() -> None:
    # A uniform bar pulled past yield yields through its whole section (it would collapse): a part no engineer
    # analyses for its stresses. It is sized at the design factor 1.2 / 0.5 instead, and says so.
    run, a = simulate("bar", STEEL, fos=0.5, cells=4)
    assert run.facts["sized_in_design_band"] and run.facts["factor_of_safety"] == pytest.approx(2.4, rel=1e-3)
    assert run.facts["state"] == "holds" and a["exceeds_limits"] is False


def test_close_calls_are_not_asked() -> None:
    run, a = simulate("plate_hole", STEEL, fos=1.1, cells=6)  # within a factor 1.5 of the limit
    assert a["exceeds_limits"] is a["fos_above_1"] is a["plastic"] is a["nonlinear"] is None
    reasons = not_asked("structural", run.facts)
    assert "too close to call" in reasons[Q["exceeds_limits"]]
    # Clear of the limit on this mesh, not on one with half the element size (a clamped corner's peak grows with
    # refinement: the corner of a fully held edge is a stress singularity).
    run, a = simulate("cantilever", STEEL, fos=1.55, cells=4)
    assert run.facts["failure_index"] <= 1 / 1.5 < run.facts["failure_index_fine"] and a["exceeds_limits"] is None
    assert "the mesh is too coarse to call it" in not_asked("structural", run.facts)[Q["exceeds_limits"]]


def test_a_heated_bar_held_between_walls_yields_and_relieves_itself_rather_than_breaking() -> None:
    run, a = simulate("bar", STEEL, fos=0.5, cells=4, thermal="uniform", restrained=True, seed="3")
    facts = run.facts
    assert facts["state"] == "yields" and "limits itself" in facts["limit_note"]
    assert "would break" not in facts["limit_note"] and "fracture" not in facts["limit_note"]
    assert a["plastic"] is True and a["uniform"] is True and a["elastic"] is False
    assert facts["plastic_fraction"] > 0.95
    assert a["residual"] is None  # yielding throughout keeps no self-equilibrating stress: too subtle to ask
    # Past 100 °C the steel's stiffness and yield strength are those at its temperature (EN 1993-1-2).
    hot = MATERIALS[STEEL].at_temperature(facts["temperature_peak"])
    assert facts["temperature_peak"] > 100 and facts["yield_strength"] == pytest.approx(hot.yield_strength, rel=1e-3)
    assert hot.young < MATERIALS[STEEL].young and facts["young"] == pytest.approx(hot.young, rel=1e-3)
    assert facts["von_mises_peak"] == pytest.approx(hot.yield_strength, rel=1e-3)


def test_materials_are_heated_only_where_their_data_hold() -> None:
    for material in MATERIALS:
        limit = 400.0 if material.name.startswith("Structural steel") else 100.0
        assert material.max_temperature == limit
        with pytest.raises(ValueError, match="no property data"):
            material.at_temperature(limit + 1)
    steel = MATERIALS[STEEL]
    assert steel.at_temperature(300).young == pytest.approx(0.8 * steel.young)
    assert steel.at_temperature(300).yield_strength == pytest.approx(0.78 * float(steel.yield_strength))
    assert steel.at_temperature(80) == steel.at_temperature(80.0)


def test_brittle_glass_fractures_without_plasticity_and_is_judged_by_principal_stress() -> None:
    run, a = simulate("plate_hole", GLASS, fos=0.5, cells=6)
    assert a["exceeds_limits"] is True and a["fos_above_1"] is False
    assert a["ductile"] is False and a["von_mises"] is False
    # It cracks: "primarily elastic", "plastic deformation" and "material nonlinearity" all presume otherwise.
    assert a["elastic"] is None and a["plastic"] is None and a["nonlinear"] is None
    assert run.field_name == "maximum principal" and run.field_limit == 45.0
    # Shown at the load it cracks at, not at the linear result past its strength.
    facts = run.facts
    assert facts["state"] == "fractures" and facts["shown_at"] == pytest.approx(0.5, rel=1e-3)
    assert facts["plotted_peak"] == pytest.approx(45.0, rel=1e-3) and "cracks" in facts["limit_note"]
    _, a = simulate("plate_hole", GLASS, fos=2.0, cells=6)
    assert a["plastic"] is False and a["elastic"] is True and a["residual"] is False
    _, a = simulate("plate_hole", STEEL, fos=0.6, cells=6)
    assert a["ductile"] and a["von_mises"]


def _strut_seed(thick_and_short: bool) -> str:
    for k in range(400):
        run = run_structural(StructuralSetup("column", STEEL, 4, "static", "none", False, 2.0, f"{k}"))
        stocky = run.part.thickness == run.part.depth and run.part.width / run.part.depth < 4
        slender = run.part.width / run.part.depth > 15
        if stocky if thick_and_short else slender:
            return f"{k}"
    raise AssertionError("no such strut among 400 seeds")


def test_a_slender_strut_buckles_out_of_its_plane_a_stocky_one_or_a_tie_cannot() -> None:
    run, a = simulate("column", STEEL, fos=2.0, cells=4, seed=_strut_seed(False))
    assert a["buckling"] is True and run.facts["buckling_factor"] <= 3 / 1.5 * (1 + 1e-6)
    assert run.facts["governing"] == "buckling" and run.facts["factor_of_safety"] == pytest.approx(2.0, rel=1e-3)
    assert "out-of-plane" in run.facts["buckling_mode"]  # the plane-stress model alone would not see it
    run, a = simulate("column", STEEL, fos=2.0, cells=4, seed=_strut_seed(True))
    assert a["buckling"] is False and run.facts["buckling_factor"] >= 4.5
    _, a = simulate("bar", STEEL, fos=2.0, cells=4)
    assert a["buckling"] is False


def test_a_strut_loaded_past_its_critical_load_is_reported_and_keyed_as_buckled() -> None:
    run, a = simulate("column", STEEL, fos=0.5, cells=4, seed=_strut_seed(False))
    facts = run.facts
    assert facts["state"] == "buckles" and facts["buckling_factor"] == pytest.approx(0.5, rel=1e-3)
    assert a["buckling"] is True and a["fos_above_1"] is False
    # Its stresses after buckling are not what a linear analysis computes: those questions are not asked.
    assert a["exceeds_limits"] is a["elastic"] is a["plastic"] is a["nonlinear"] is a["residual"] is None
    assert "buckles" in facts["limit_note"] and "elastic limit" not in facts["limit_note"]
    assert facts["plotted_peak"] == pytest.approx(0.5 * facts["linear_peak"], rel=1e-3)  # at the critical load


def test_a_fully_reversed_load_pushes_a_bar_and_a_thin_cantilever_tips_over() -> None:
    run, _ = simulate("bar", STEEL, fos=2.0, cells=4, loading="cyclic")
    assert run.facts["buckling_factor"] < float("inf") and "Euler" in run.facts["buckling_mode"]
    for seed in range(200):
        run = run_structural(StructuralSetup("cantilever", STEEL, 4, "static", "none", False, 1.8, f"{seed}"))
        if run.part.thickness == 5 and run.part.depth == 40:
            break
    # Its weakest mode is sideways twisting, which the plane-stress model cannot see: found in closed form.
    assert run.facts["buckling_mode"] == "lateral-torsional buckling" and run.facts["buckling_factor"] < 10


def test_reactions_balance_static_loads_but_not_a_struck_part_and_a_free_block_moves() -> None:
    _, a = simulate("cantilever", STEEL, cells=4)
    assert a["balanced"] and not a["rigid"]
    _, a = simulate("cantilever", STEEL, cells=4, loading="impact")
    assert not a["balanced"] and not a["rigid"]
    _, a = simulate("slider", STEEL, cells=4, loading="impact")
    assert a["rigid"] and not a["balanced"]
    assert a["converged"] is None  # no static problem to refine: the question is not asked of it


def test_convergence_reads_the_peak_as_well_as_the_energy() -> None:
    # A clamped edge's corners are stress singularities: the energy converges, the peak does not.
    run, a = simulate("cantilever", STEEL, cells=4)
    assert run.facts["energy_change"] < 0.01 < 0.045 < run.facts["peak_change"] and a["converged"] is False
    # A filleted bracket's peak converges on quadratic triangles.
    run, a = simulate("bracket", STEEL, cells=4)
    assert run.facts["peak_change"] < 0.02 and run.facts["energy_change"] < 0.02 and a["converged"] is True
    run, a = simulate("bar", STEEL, cells=4)  # uniform stress: any mesh is exact, and the refinement shows it
    assert run.facts["energy_change"] == 0.0 and a["converged"] is True


def test_thermal_stress_needs_restraint_or_an_uneven_temperature() -> None:
    _, a = simulate("bar", STEEL, fos=1.8, cells=4, thermal="uniform", restrained=True)
    assert not a["thermal_negligible"] and a["uniform"] and a["symmetric"] and not a["bending"]
    run, a = simulate("bar", STEEL, fos=1.5, cells=4, thermal="uniform", restrained=False)
    assert a["thermal_negligible"] and run.facts["thermal_share"] == 0  # free to expand: no stress at all
    assert run.facts["thermal_peak_stress"] == 0  # the solver's round-off is not printed as a stress
    run, a = simulate("plate_hole", STEEL, fos=3.0, cells=6, thermal="hot_spot")
    assert run.facts["thermal_share"] > 0


def _plate_seed(central: bool) -> str:
    """The first seed whose plate has its hole in the middle (or not): the part alone is drawn, nothing solved."""
    for k in range(100):
        if ("central" in make_part("plate_hole", random.Random(f"{k}"), 4).title) == central:
            return f"{k}"
    raise AssertionError("no such plate among 100 seeds")


@pytest.mark.long
def test_bending_and_symmetry() -> None:
    _, a = simulate("cantilever", STEEL, cells=8)
    assert a["bending"] and not a["symmetric"] and not a["uniform"]
    _, a = simulate("plate_hole", STEEL, cells=6, seed=_plate_seed(central=True))
    assert a["symmetric"] and not a["bending"] and not a["uniform"]
    _, a = simulate("plate_hole", STEEL, cells=6, seed=_plate_seed(central=False))
    assert not a["symmetric"]
    _, a = simulate("bar", STEEL, cells=4)
    assert a["symmetric"] and a["uniform"] and not a["bending"]


@pytest.mark.parametrize(
    ("kind", "material", "fos", "loading", "negligible"),
    [
        ("bar", STEEL, 2.0, "static", None),  # not asked: the analysis line states that no cycles load the part
        ("column", STEEL, 3.0, "cyclic", True),  # far below the endurance limit, and buckling governs
        ("bar", STEEL, 3.0, "cyclic", None),  # unlimited life, but fatigue governs: an engineer assesses it
        ("bar", CAST_IRON, 0.5, "cyclic", False),  # twice the fatigue strength at the cycles in service
        ("bar", ALUMINIUM, 3.0, "cyclic", False),  # no endurance limit
    ],
)
def test_fatigue_is_negligible_only_where_the_amplitude_is_far_below_the_endurance_limit_and_does_not_govern(
    kind: str, material: int, fos: float, loading: str, negligible: bool
) -> None:
    run, a = simulate(kind, material, fos=fos, cells=4, loading=loading)
    assert a["fatigue_negligible"] is negligible
    if negligible is True:
        assert run.facts["governing"] != "fatigue" and run.facts["fatigue_index_unlimited"] * 1.5 <= 1


def test_cyclic_loads_are_judged_on_fatigue_with_the_materials_s_n_data() -> None:
    # The case an engineer rejected: aluminium under a fully reversed load well below yield, judged statically.
    run, a = simulate("bracket", ALUMINIUM, fos=0.5, cells=4, loading="cyclic", cycles=5e8)
    facts = run.facts
    assert facts["governing"] == "fatigue" and facts["fatigue_index"] == pytest.approx(2.0, rel=1e-3)
    assert facts["fatigue_strength"] == pytest.approx(96.5) and facts["failure_index"] < 1  # elastic cycles
    assert a["exceeds_limits"] is True and a["fos_above_1"] is False and a["fatigue_negligible"] is False
    assert facts["fatigue_life"] < 5e8 and facts["state"] == "fatigue"
    # A Basquin line from 0.9 Sᵤ at 10³ cycles to the handbook point: 96.5 MPa at 5×10⁸ for 6061-T6.
    aluminium = MATERIALS[ALUMINIUM]
    assert aluminium.fatigue_strength_at(1e3) == pytest.approx(0.9 * 310)
    assert aluminium.cycles_to_failure(aluminium.fatigue_strength_at(1e6)) == pytest.approx(1e6, rel=1e-6)
    assert MATERIALS[STEEL].cycles_to_failure(200.0) == float("inf")  # below its endurance limit
    # Cycles never push a part past yield: an overload is a fatigue overload, the cycles stay elastic.
    run, _ = simulate("plate_hole", STEEL, fos=0.5, cells=4, loading="cyclic")
    assert run.facts["failure_index"] <= 0.9 + 1e-9


def test_holes_and_notches_are_meshed_on_their_true_outline_with_four_elements_across() -> None:
    import math

    run, _ = simulate("plate_hole", STEEL, cells=4, seed=_plate_seed(central=True))
    ((cx, cy, radius),) = run.part.shape.holes
    distance = np.hypot(run.vertices[0] - cx, run.vertices[1] - cy)
    on_hole = distance < radius + 0.25 * run.part.shape.size
    # Every vertex of the hole's edge sits on the circle (within the sagitta of one of its 64+ chords), none on a
    # staircase of square cells.
    assert on_hole.sum() >= 64
    assert np.all(distance[on_hole] >= radius * math.cos(math.pi / 64) - 1e-9)
    assert run.part.shape.size <= run.part.thinnest / 4 + 1e-12  # at least 4 elements across the ligament
