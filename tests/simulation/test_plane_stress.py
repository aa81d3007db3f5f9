"""The plane-stress solver against closed-form mechanics."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mechbench.simulation import plane_stress as ps

ROWS, COLS, H, THICK, E = 8, 80, 2.5, 10.0, 200e3  # a 200 × 20 mm strip, 10 mm thick
INERTIA = THICK * (ROWS * H) ** 3 / 12
LENGTH = COLS * H


def _node(r: int, c: int) -> int:
    return r * (COLS + 1) + c


def _strip() -> ps.Body:
    return ps.Body(np.ones((ROWS, COLS), dtype=bool), H, THICK, E, 0.3)


def _clamped_left() -> np.ndarray:
    return np.array([d for r in range(ROWS + 1) for d in (2 * _node(r, 0), 2 * _node(r, 0) + 1)])


def _end_load(direction: int, total: float) -> np.ndarray:
    f = np.zeros(2 * (ROWS + 1) * (COLS + 1))
    for r in range(ROWS + 1):
        f[2 * _node(r, COLS) + direction] += total / (ROWS + 1)
    return f


def test_cantilever_tip_deflection_and_reactions_match_beam_theory() -> None:
    body, fixed = _strip(), _clamped_left()
    force = _end_load(1, 1000.0)
    u = ps.solve_static(body, force, fixed)
    tip = u[2 * _node(ROWS // 2, COLS) + 1]
    assert tip == pytest.approx(1000.0 * LENGTH**3 / (3 * E * INERTIA), rel=0.01)
    reactions = ps.reactions(body, u, force, fixed)
    assert reactions[1::2].sum() == pytest.approx(-1000.0, rel=1e-9)
    assert abs(reactions[0::2].sum()) < 1e-6


def test_clamped_strut_buckles_at_the_euler_load() -> None:
    body, fixed = _strip(), _clamped_left()
    stress = body.stresses(ps.solve_static(body, _end_load(0, -1.0), fixed))
    euler = math.pi**2 * E * INERTIA / (2 * LENGTH) ** 2  # fixed-free column, effective length 2L
    assert ps.buckling_factor(body, stress, fixed, below=2 * euler) == pytest.approx(euler, rel=0.01)
    assert ps.buckling_factor(body, stress, fixed, below=0.5 * euler) == math.inf  # none below half of it
    assert ps.buckling_factor(body, -stress, fixed, below=2 * euler) == math.inf  # pulled: no compression


def test_restrained_heated_bar_carries_minus_e_alpha_delta_t() -> None:
    body = _strip()
    walls = [2 * _node(r, c) for r in range(ROWS + 1) for c in (0, COLS)] + [2 * _node(ROWS // 2, 0) + 1]
    fixed = np.array(sorted(walls))
    rise = np.full((ROWS, COLS), 50.0)
    u = ps.solve_static(body, body.thermal_force(rise, 12e-6), fixed)
    stress = body.stresses(u, rise, 12e-6)
    assert np.allclose(stress[..., 0], -E * 12e-6 * 50, rtol=1e-9)
    assert np.abs(stress[..., 1:]).max() < 1e-6


def test_first_frequency_matches_the_cantilever_formula() -> None:
    body = _strip()
    area = THICK * ROWS * H
    expected = 1.8751**2 / (2 * math.pi) * math.sqrt(E * INERTIA / (body.density * area * LENGTH**4))
    assert ps.first_frequency(body, _clamped_left()) == pytest.approx(expected, rel=0.02)


def test_a_suddenly_applied_load_doubles_the_static_deflection() -> None:
    body, fixed = _strip(), _clamped_left()
    force = _end_load(1, 100.0)
    static = ps.solve_static(body, force, fixed)[2 * _node(ROWS // 2, COLS) + 1]
    period = 1 / ps.first_frequency(body, fixed)
    history = np.ones(201)
    us, _ = ps.newmark(body, force, fixed, history, 2 * period / 200, damping_ratio=0.0)
    peak = us[:, 2 * _node(ROWS // 2, COLS) + 1].max()
    assert peak == pytest.approx(2 * static, rel=0.03)


def test_supports_that_leave_a_rigid_motion_are_found_and_refused_for_statics() -> None:
    body = _strip()
    floor = np.array([2 * _node(ROWS, c) + 1 for c in range(COLS + 1)])  # held vertically only
    modes = ps.rigid_modes_left(body, floor)
    assert modes.shape[1] == 1 and np.allclose(modes[1::2, 0], 0) and np.ptp(modes[0::2, 0]) < 1e-12
    with pytest.raises(ValueError, match="rigid body"):
        ps.solve_static(body, _end_load(0, 1.0), floor)
    assert ps.rigid_modes_left(body, _clamped_left()).shape[1] == 0
