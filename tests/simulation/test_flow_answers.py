"""The lattice-Boltzmann solver against Poiseuille flow, and each family of fluid answers both ways."""

from __future__ import annotations

import numpy as np
import pytest

from mechbench.benchmarks.seesim.rules import answers
from mechbench.simulation.flow import FlowRun, FlowSetup, run_flow

pytestmark = pytest.mark.slow  # whole Inspect runs, servers or simulations: left out of -m 'not slow'

Q = {
    "recirculation": "u13f9a63c70f3982972c",
    "developed": "v24a0b19d81a4103783d",
    "natural_convection": "x46c2d01f03c6546905f",
    "steady": "y57d3e37a14d7767016a",
    "laminar": "bb0a6b65d47a0320349d",
    "turbulent": "ee3d9e73a70d3983672a",
    "transient": "ff4e0f19b81e4104783b",
    "separation": "hh6a2b01d03a6546905d",
    "buoyancy_negligible": "ii7b3c37e14b7767016e",
    "symmetric": "jj8c4d83f25c8988127f",
    "steep_gradients": "kk9d5e29a36d9109238a",
    "thermal_negligible": "ll0e6f65b47e0320349b",
}
_runs: dict[FlowSetup, FlowRun] = {}


def simulate(
    configuration: str, reynolds: float, richardson: float = 0.0, time_resolved: bool = False
) -> tuple[FlowRun, dict]:
    setup = FlowSetup(configuration, reynolds, richardson, 0, "air", 0.02, time_resolved)
    if setup not in _runs:
        _runs[setup] = run_flow(setup)
    given = answers("fluid", _runs[setup].facts)
    return _runs[setup], {name: given.get(qid) for name, qid in Q.items()}


def test_low_reynolds_channel_flow_is_poiseuille() -> None:
    run, _ = simulate("channel", 30)
    column = int(0.75 * run.solid.shape[1])
    profile = run.ux[1:-1, column]
    width = len(profile)
    y = np.arange(width) + 0.5  # half-way bounce-back puts the walls half a cell outside the fluid
    parabola = 6 * profile.mean() * y * (width - y) / width**2
    assert np.abs(profile - parabola).max() < 0.02 * profile.max()


def test_a_slow_channel_flow_is_steady_developed_and_symmetric() -> None:
    _, a = simulate("channel", 30)
    assert a["steady"] and a["developed"] and a["symmetric"]
    assert not a["recirculation"] and not a["separation"] and a["steep_gradients"] is not True
    # An isothermal run: its energy setting states the answers, so they are not asked; nor is the analysis type,
    # which every generated run reports alike (in physical time).
    assert a["buoyancy_negligible"] is a["natural_convection"] is a["thermal_negligible"] is a["transient"] is None


def test_a_fast_channel_flow_is_still_developing_at_the_outlet() -> None:
    run, a = simulate("channel", 480)
    assert not a["developed"] and a["steady"]
    assert run.facts["tau"] >= 0.51  # the lattice keeps its viscosity clear of τ = ½


@pytest.mark.long
def test_a_creeping_cylinder_wake_has_a_steady_symmetric_recirculation() -> None:
    run, a = simulate("cylinder", 25)
    assert a["recirculation"] and a["separation"] and a["steady"] and a["symmetric"] and a["steep_gradients"]
    # The probe sits on the centre line (between two rows of cells, averaged): a symmetric flow has no cross-flow there.
    assert abs(run.probe_values[-1]) < 1e-4 * run.inflow
    assert run.probe[0] == run.solid.shape[0] / 2  # y in cells from the bottom edge: half the domain's height


@pytest.mark.long
def test_a_shedding_wake_is_run_until_its_amplitude_settles_and_read_over_whole_periods() -> None:
    from mechbench.simulation.flow import MIN_PERIODS, SETTLED_CHANGE, shedding

    run, a = simulate("cylinder", 120)
    assert not a["steady"] and not a["symmetric"] and a["recirculation"]
    assert run.facts["probe_variation"] > 0.1
    assert run.facts["periods_averaged"] >= MIN_PERIODS and run.facts["amplitude_change"] < SETTLED_CHANGE
    first, last = run.window
    inside = (run.probe_steps >= first) & (run.probe_steps <= last)
    _, amplitudes = shedding(run.probe_values[inside], 0.001 * run.inflow)
    assert len(amplitudes) >= MIN_PERIODS - 1  # the window holds the whole periods it says it holds
    assert (max(amplitudes) - min(amplitudes)) / max(amplitudes) < 0.05


@pytest.mark.long
def test_the_resolution_follows_the_reynolds_number_and_the_generator_stays_laminar() -> None:
    from mechbench.benchmarks.seesim.rules import NOT_ASKED
    from mechbench.simulation.flow import CYLINDER_CELLS, MIN_TAU, WAKE_TRANSITION, resolution

    assert resolution("cylinder", 100) == CYLINDER_CELLS
    for reynolds in (150, 180):
        cells = resolution("cylinder", reynolds)
        assert cells > CYLINDER_CELLS and 3 * 0.025 * cells / reynolds + 0.5 >= MIN_TAU
    run, a = simulate("cylinder", 170)
    assert run.scale == resolution("cylinder", 170) and run.facts["tau"] >= MIN_TAU and not a["steady"]
    assert run.facts["reynolds"] < WAKE_TRANSITION
    # A 2-D laminar solver represents no turbulent flow, so none is generated, and laminar/turbulent is not asked.
    assert a["laminar"] is a["turbulent"] is None
    assert "laminar" in NOT_ASKED[Q["laminar"]] and Q["turbulent"] in NOT_ASKED
    assert run.facts["turbulence_model"] == "none (two-dimensional laminar solver)"


def test_a_run_that_does_not_settle_within_its_budget_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    from mechbench.simulation import flow

    monkeypatch.setattr(flow, "MAX_FLOW_THROUGHS", flow.MIN_FLOW_THROUGHS)  # no time to settle a shedding wake
    with pytest.raises(flow.RegimeError, match="not settled"):
        run_flow(FlowSetup("cylinder", 120, 0.0, 0, "air", 0.02, False))


def test_the_step_is_fed_a_developed_profile_and_extrema_are_read_where_the_plots_show() -> None:
    from mechbench.simulation.flow import measured_region

    run, a = simulate("step", 100)
    inflow = run.ux[:, 1][~run.solid[:, 1]]
    assert inflow.max() > 1.3 * inflow.mean()  # parabolic (peak 1.5× the mean), not a plug
    region = measured_region(run.solid)
    assert run.facts["pressure_high"] == pytest.approx(float(run.pressure[region].max()), rel=1e-4)
    assert run.facts["pressure_low"] == pytest.approx(float(run.pressure[region].min()), rel=1e-4)
    assert a["recirculation"] and a["separation"]


@pytest.mark.long
@pytest.mark.parametrize(("richardson", "significant"), [(1.5, True), (0.02, False)])
def test_natural_convection_follows_the_computed_richardson_number(richardson: float, significant: bool) -> None:
    run, a = simulate("heated_cylinder", 30, richardson)
    assert a["natural_convection"] is significant and a["buoyancy_negligible"] is not significant
    # Heated and buoyant: thermal effects matter; heated with weak buoyancy: "negligible" depends on the purpose.
    assert a["thermal_negligible"] is (False if significant else None)
    assert run.facts["richardson"] == pytest.approx(richardson, rel=0.1)  # the heated wall sets ΔT


def test_every_run_is_reported_in_physical_time_so_the_analysis_line_states_no_answer() -> None:
    for time_resolved in (False, True):
        run, a = simulate("channel", 30, time_resolved=time_resolved)
        assert run.facts["transient"] and a["steady"] and a["transient"] is None
