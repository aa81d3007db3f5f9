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


def test_a_slow_channel_flow_is_laminar_steady_developed_and_symmetric() -> None:
    _, a = simulate("channel", 30)
    assert a["laminar"] and not a["turbulent"] and a["steady"] and a["developed"] and a["symmetric"]
    assert not a["recirculation"] and not a["separation"] and not a["steep_gradients"]
    # An isothermal run: its energy setting states the answers, so they are not asked; nor is the analysis type,
    # which every generated run reports alike (in physical time).
    assert a["buoyancy_negligible"] is a["natural_convection"] is a["thermal_negligible"] is a["transient"] is None


def test_a_fast_channel_flow_is_still_developing_at_the_outlet() -> None:
    _, a = simulate("channel", 600)
    assert not a["developed"] and a["laminar"] and a["steady"]


def test_a_creeping_cylinder_wake_has_a_steady_symmetric_recirculation() -> None:
    _, a = simulate("cylinder", 25)
    assert a["recirculation"] and a["separation"] and a["steady"] and a["symmetric"] and a["steep_gradients"]
    assert a["laminar"]


def test_a_cylinder_at_reynolds_120_sheds_vortices() -> None:
    run, a = simulate("cylinder", 120)
    assert not a["steady"] and not a["symmetric"] and a["recirculation"] and a["laminar"]
    assert run.facts["probe_variation"] > 0.1


def test_a_cylinder_wake_past_transition_is_turbulent_and_no_turbulence_model_is_claimed() -> None:
    run, a = simulate("cylinder", 500)
    assert a["turbulent"] and not a["laminar"] and not a["steady"]
    # The answer reads the Reynolds number against the wake's transition; the solver is 2-D and laminar, and says so.
    assert run.facts["turbulence_model"] == "none (two-dimensional laminar solver)"


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
