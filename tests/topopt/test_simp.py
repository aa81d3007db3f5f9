"""SIMP optimiser: the MBB beam's known behaviour, pinned cells, volume budget, binarisation, cache."""

from __future__ import annotations

import numpy as np

from mechbench.topopt import LoadCase, Mesh, Problem, best_optimum, optimise, solve
from mechbench.topopt.simp import binarise


def _mbb(rows: int = 10, cols: int = 30) -> LoadCase:
    """Half MBB beam: symmetry (x fixed) on the left edge, roller at the bottom right, load down top left."""
    mesh = Mesh(rows, cols)
    force = np.zeros(mesh.ndof)
    force[2 * mesh.node(0, 0) + 1] = 1.0
    fixed = [2 * mesh.node(r, 0) for r in range(rows + 1)] + [2 * mesh.node(rows, cols) + 1]
    return LoadCase(mesh=mesh, force=force, fixed=np.array(sorted(fixed)))


def test_mbb_beam_optimum() -> None:
    case = _mbb()
    free = np.ones((10, 30), dtype=bool)
    problem = Problem(case, free, np.zeros((10, 30)), volume=0.5 * 300)
    uniform = np.full((10, 30), 0.5)
    c_uniform = solve(uniform, case).compliance
    design = optimise(problem, uniform, [3.0])
    assert design.sum() <= 150 + 1e-6
    c_opt = solve(design, case).compliance
    assert c_opt < 0.5 * c_uniform  # the classic result: far stiffer than spreading the material evenly
    # Known shape: material along the top and bottom chords, little at mid-height far from the load.
    assert design[0, :].mean() > 0.7 and design[-1, 5:].mean() > 0.7
    assert design[5, 10:25].mean() < 0.4


def test_continuation_trend_and_binarisation() -> None:
    case = _mbb(6, 18)
    problem = Problem(case, np.ones((6, 18), dtype=bool), np.zeros((6, 18)), volume=0.4 * 108)
    start = np.full((6, 18), 0.4)
    continuous = optimise(problem, start, [1.0, 2.0, 3.0])
    binary = binarise(problem, continuous)
    assert set(np.unique(binary)) <= {0.0, 1.0} and binary.sum() <= 0.4 * 108
    assert solve(binary, case).compliance < solve(start, case).compliance


def test_pinned_cells_stay_and_the_truth_is_never_beaten() -> None:
    case = _mbb(6, 18)
    truth = np.zeros((6, 18))
    truth[0, :] = truth[-1, :] = 1.0
    truth[:, 0] = 1.0
    free = np.zeros((6, 18), dtype=bool)
    free[1:-1, 1:] = True
    problem = Problem(case, free, truth, volume=float(truth.sum()))
    best = best_optimum(problem, seeds=[truth])
    assert np.array_equal(best.densities[~free], truth[~free])
    assert best.compliance <= solve(truth, case).compliance * (1 + 1e-9)
    assert best_optimum(problem, seeds=[truth]) is best  # cached by problem
