"""Whole solves against closed-form results of textbook cases (symbols defined once at the top)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mechbench.frame import solve
from mechbench.frame.model import DEFAULT_E, DEFAULT_IZ
from tests.frame.helpers import (
    equilibrium_residual,
    line_load,
    link,
    link_force,
    model,
    moment,
    nodal_force,
    point,
    reaction,
    support,
)

E, I = DEFAULT_E, DEFAULT_IZ  # noqa: E741
EI = E * I
L = 6.0  # span (m)
P = 10.0  # point load (kN)
w = 5.0  # line load intensity (kN/m)
REL = 1e-9


def _moment_at(result: dict, link_id: str, s: float) -> float:
    samples = next(d for d in result["moment"] if d["linkId"] == link_id)["samples"]
    return min(samples, key=lambda x: abs(x["s"] - s))["m"]


def _diagram(result: dict, link_id: str, field: str = "m") -> tuple[np.ndarray, np.ndarray]:
    samples = next(d for d in result["moment"] if d["linkId"] == link_id)["samples"]
    return np.array([x["s"] for x in samples]), np.array([x[field] for x in samples])


def _simple_beam(loads: list[dict]) -> dict:
    return model(
        [point("P1", 0, 0), point("P2", L, 0)],
        [link("L1", "P1", "P2")],
        [support("S1", "P1", "pin"), support("S2", "P2", "roller")],
        loads,
    )


def test_cantilever_tip_load() -> None:
    data = model(
        [point("P1", 0, 0), point("P2", L, 0)],
        [link("L1", "P1", "P2")],
        [support("S1", "P1", "fixed")],
        [nodal_force("F", "P2", P, 270)],
    )
    result = solve(data, exact_supports=True)
    assert reaction(result, "S1", "uy") == pytest.approx(P, rel=REL)
    assert reaction(result, "S1", "ux") == pytest.approx(0, abs=1e-12)
    assert reaction(result, "S1", "rz") == pytest.approx(P * L, rel=REL)  # CCW, resisting the CW load
    tip = next(d for d in result["displacements"] if d["pointId"] == "P2")
    assert tip["uy"] == pytest.approx(-P * L**3 / (3 * EI), rel=REL)
    assert tip["rz"] == pytest.approx(-P * L**2 / (2 * EI), rel=REL)
    # m is the CCW moment of the A side: +PL at the wall (hogging), 0 at the tip.
    assert _moment_at(result, "L1", 0) == pytest.approx(P * L, rel=REL)
    assert _moment_at(result, "L1", L) == pytest.approx(0, abs=1e-9)
    assert result["maxMoment"]["overall"] == pytest.approx(P * L, rel=REL)


def test_simply_supported_uniform_load() -> None:
    result = solve(_simple_beam([line_load("Q", "L1", w)]), exact_supports=True)
    assert reaction(result, "S1", "uy") == pytest.approx(w * L / 2, rel=REL)
    assert reaction(result, "S2", "normal") == pytest.approx(w * L / 2, rel=REL)
    # Sagging is negative in FrameCalc's convention: m(s) = −w·s·(L − s)/2, v(s) = wL/2 − w·s.
    s, m = _diagram(result, "L1")
    np.testing.assert_allclose(m, -w * s * (L - s) / 2, atol=1e-9 * w * L**2)
    s, v = _diagram(result, "L1", "v")
    np.testing.assert_allclose(v, w * L / 2 - w * s, atol=1e-9 * w * L)
    assert result["maxMoment"]["overall"] == pytest.approx(w * L**2 / 8, rel=1e-5)
    rotation_a = next(d for d in result["displacements"] if d["pointId"] == "P1")["rz"]
    assert rotation_a == pytest.approx(-w * L**3 / (24 * EI), rel=REL)


def test_simply_supported_uniform_load_midspan_deflection() -> None:
    data = model(
        [point("P1", 0, 0), point("P2", L / 2, 0), point("P3", L, 0)],
        [link("L1", "P1", "P2"), link("L2", "P2", "P3")],
        [support("S1", "P1", "pin"), support("S2", "P3", "roller")],
        [line_load("Q1", "L1", w), line_load("Q2", "L2", w)],
    )
    result = solve(data, exact_supports=True)
    mid = next(d for d in result["displacements"] if d["pointId"] == "P2")
    assert mid["uy"] == pytest.approx(-5 * w * L**4 / (384 * EI), rel=REL)


def test_simply_supported_triangular_load() -> None:
    result = solve(_simple_beam([line_load("Q", "L1", 0.0, w)]))
    assert reaction(result, "S1", "uy") == pytest.approx(w * L / 6, rel=1e-9)
    assert reaction(result, "S2", "normal") == pytest.approx(w * L / 3, rel=1e-9)
    # Largest moment wL²/(9√3) at x = L/√3; 500 samples find it to within the sampling step.
    assert result["maxMoment"]["overall"] == pytest.approx(w * L**2 / (9 * math.sqrt(3)), rel=1e-5)
    s, m = _diagram(result, "L1")
    np.testing.assert_allclose(m, -(w * L / 6 * s - w * s**3 / (6 * L)), atol=1e-9 * w * L**2)


def test_partial_uniform_load() -> None:
    a, b = 1.0, 2.0  # loaded from 1 m to L - 2 m
    result = solve(_simple_beam([line_load("Q", "L1", w, from_start=a, from_end=b)]))
    total, centroid = w * (L - a - b), (a + L - b) / 2
    assert reaction(result, "S2", "normal") == pytest.approx(total * centroid / L, rel=1e-9)
    samples = result["moment"][0]["samples"]
    assert len(samples) == 3 * 500 - 2  # both ends of the load split the diagram


def test_point_load_and_moment_on_link() -> None:
    a = 2.0
    result = solve(_simple_beam([link_force("F", "L1", P, 270, a), moment("M", "link", "L1", 12.0, offset=4.0)]))
    # Moments about A: R_B·L − P·a + M = 0.
    assert reaction(result, "S2", "normal") == pytest.approx((P * a - 12.0) / L, rel=1e-9)
    assert len(result["moment"][0]["samples"]) == 3 * 500 - 2


def test_propped_cantilever_uniform_load() -> None:
    data = model(
        [point("P1", 0, 0), point("P2", L, 0)],
        [link("L1", "P1", "P2")],
        [support("S1", "P1", "fixed"), support("S2", "P2", "roller")],
        [line_load("Q", "L1", w)],
    )
    result = solve(data, exact_supports=True)
    assert reaction(result, "S2", "normal") == pytest.approx(3 * w * L / 8, rel=REL)
    assert reaction(result, "S1", "uy") == pytest.approx(5 * w * L / 8, rel=REL)
    assert reaction(result, "S1", "rz") == pytest.approx(w * L**2 / 8, rel=REL)


@pytest.mark.parametrize(
    ("loads", "end_moment", "mid_moment"),
    [
        ([line_load("Q", "L1", w)], w * L**2 / 12, w * L**2 / 24),
        ([link_force("F", "L1", P, 270, L / 2)], P * L / 8, P * L / 8),
    ],
)
def test_fixed_fixed_beam(loads: list[dict], end_moment: float, mid_moment: float) -> None:
    data = model(
        [point("P1", 0, 0), point("P2", L, 0)],
        [link("L1", "P1", "P2")],
        [support("S1", "P1", "fixed"), support("S2", "P2", "fixed")],
        loads,
    )
    result = solve(data, exact_supports=True)
    assert reaction(result, "S1", "rz") == pytest.approx(end_moment, rel=REL)
    assert reaction(result, "S2", "rz") == pytest.approx(-end_moment, rel=REL)
    _, m = _diagram(result, "L1")
    assert m[0] == pytest.approx(end_moment, rel=REL)
    assert -m.min() == pytest.approx(mid_moment, rel=1e-4)  # the sample nearest midspan


def test_three_hinged_portal_frame() -> None:
    h, span = 4.0, 8.0
    data = model(
        [
            point("P1", 0, 0),
            point("P2", 0, h),
            point("P3", span / 2, h),
            point("P4", span, h),
            point("P5", span, 0),
        ],
        [
            link("L1", "P1", "P2"),
            link("L2", "P2", "P3", end_b="hinge"),
            link("L3", "P3", "P4"),
            link("L4", "P4", "P5"),
        ],
        [support("S1", "P1", "pin"), support("S2", "P5", "pin")],
        [line_load("Q1", "L2", w), line_load("Q2", "L3", w)],
    )
    result = solve(data, exact_supports=True)
    horizontal = w * span**2 / (8 * h)
    assert reaction(result, "S1", "uy") == pytest.approx(w * span / 2, rel=REL)
    assert reaction(result, "S1", "ux") == pytest.approx(horizontal, rel=REL)
    assert reaction(result, "S2", "ux") == pytest.approx(-horizontal, rel=REL)
    assert _moment_at(result, "L2", span / 2) == pytest.approx(0.0, abs=1e-9)  # the hinge
    # Corner moment H·h, hogging on the outside of the frame.
    assert result["maxMoment"]["links"]["L1"] == pytest.approx(horizontal * h, rel=REL)


def test_statically_determinate_truss_with_pinned_joints() -> None:
    # Triangle A(0,0)–B(4,0)–C(2,2), every joint pinned (each link hinged at both ends), load P down at C.
    data = model(
        [point("A", 0, 0), point("B", 4, 0), point("C", 2, 2)],
        [
            link("AC", "A", "C", "hinge", "hinge"),
            link("CB", "C", "B", "hinge", "hinge"),
            link("AB", "A", "B", "hinge", "hinge"),
        ],
        [support("S1", "A", "pin"), support("S2", "B", "roller")],
        [nodal_force("F", "C", P, 270)],
    )
    result = solve(data, exact_supports=True)
    assert reaction(result, "S1", "uy") == pytest.approx(P / 2, rel=REL)
    assert reaction(result, "S2", "normal") == pytest.approx(P / 2, rel=REL)
    axial = {d["linkId"]: d["samples"][0]["n"] for d in result["axial"]}
    assert axial["AC"] == pytest.approx(P / math.sqrt(2), rel=REL)  # compression is positive
    assert axial["CB"] == pytest.approx(P / math.sqrt(2), rel=REL)
    assert axial["AB"] == pytest.approx(-P / 2, rel=REL)  # tension
    assert result["maxMoment"]["overall"] == pytest.approx(0.0, abs=1e-9)
    assert all(d["rz"] is None for d in result["displacements"])


@pytest.mark.parametrize(
    ("kind", "angle", "expected"),
    [
        ("roller", 0, (0.0, 1.0)),
        ("roller", 90, (-1.0, 0.0)),
        ("roller", 30, (-0.5, math.sqrt(3) / 2)),
        ("slider", 0, (1.0, 0.0)),
        ("slider", 90, (0.0, 1.0)),
        ("slider", 300, (0.5, -math.sqrt(3) / 2)),
    ],
)
def test_roller_and_slider_directions(kind: str, angle: float, expected: tuple[float, float]) -> None:
    """Cantilever fixed at A, roller/slider at B: the reported normal is the force along its direction."""
    data = model(
        [point("P1", 0, 0), point("P2", 3, 2)],
        [link("L1", "P1", "P2")],
        [support("S1", "P1", "fixed"), support("S2", "P2", kind, angle)],
        [nodal_force("F", "P2", P, 200)],
    )
    result = solve(data)
    fx, fy, mz = equilibrium_residual(data, result)
    # Reactions are −1e12 × tiny displacements: accurate to ~1e-9 relative, as in FrameCalc.
    assert max(abs(fx), abs(fy), abs(mz)) < 1e-7 * P
    displacement = next(d for d in result["displacements"] if d["pointId"] == "P2")
    along = displacement["ux"] * expected[0] + displacement["uy"] * expected[1]
    # The displacement along a 1e12 spring is ~1e-11 m beside ~1e-3 m across it: 1e-6 is what survives.
    assert reaction(result, "S2", "normal") == pytest.approx(-1e12 * along, rel=1e-6)


def test_inclined_member_relative_load_is_per_unit_link_length() -> None:
    data = model(
        [point("P1", 0, 0), point("P2", 3, 4)],
        [link("L1", "P1", "P2")],
        [support("S1", "P1", "pin"), support("S2", "P2", "pin")],
        [line_load("Q", "L1", w, angle=270, mode="relative")],  # perpendicular to the 5 m link
    )
    result = solve(data)
    fx = reaction(result, "S1", "ux") + reaction(result, "S2", "ux")
    fy = reaction(result, "S1", "uy") + reaction(result, "S2", "uy")
    assert math.hypot(fx, fy) == pytest.approx(w * 5.0, rel=1e-9)


def test_flip_reverses_every_load() -> None:
    base = _simple_beam([line_load("Q", "L1", w), link_force("F", "L1", P, 250, 2.0), moment("M", "point", "P2", 3.0)])
    flipped = {**base, "loads": [{**load, "flip": -1} for load in base["loads"]]}
    a = np.array([r["value"] for r in solve(base, diagrams=False)["reactions"]])
    b = np.array([r["value"] for r in solve(flipped, diagrams=False)["reactions"]])
    np.testing.assert_allclose(a, -b, rtol=1e-12, atol=1e-12)


# ---- maxMoment is the true peak, not the largest sample ------------------------------------------------------


def test_max_moment_between_samples_is_the_exact_peak() -> None:
    for loads, peak in (
        ([line_load("Q", "L1", w)], w * L**2 / 8),  # at midspan, which no sample hits (499 steps)
        ([line_load("Q", "L1", 0.0, w)], w * L**2 / (9 * math.sqrt(3))),  # at L/√3
    ):
        result = solve(_simple_beam(loads), exact_supports=True)
        _, sampled = _diagram(result, "L1")
        assert result["maxMoment"]["overall"] == pytest.approx(peak, rel=1e-12)
        assert np.abs(sampled).max() < peak * (1 - 1e-7)  # the samples alone would miss it


def test_max_moment_takes_the_left_limit_at_a_concentrated_moment() -> None:
    """A moment M0 at s = a on a simply supported beam: |m| jumps from M0·a/L to M0·(L − a)/L there; the
    samples list only the value after the jump."""
    a, m0 = 0.7 * L, 40.0
    result = solve(_simple_beam([moment("M", "link", "L1", m0, offset=a)]), exact_supports=True)
    _, sampled = _diagram(result, "L1")
    assert result["maxMoment"]["overall"] == pytest.approx(m0 * a / L, rel=1e-12)
    assert np.abs(sampled).max() < m0 * a / L * (1 - 1e-4)
