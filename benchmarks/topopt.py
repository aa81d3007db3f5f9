"""Speed of mechbench.topopt against a straightforward scipy port of the classic 88-line SIMP code.

    python benchmarks/topopt.py [--data ../shared/data/sphyr]

Cases: one compliance (FE solve) on 10×10 and 20×20 grids, one reference re-optimisation of a SPhyR
sample (mechbench's full candidate set vs one 88-line run), and the physics rescoring of the available
samples of a subject, extrapolated to a whole subject (1296 samples) on this machine's cores.
Prints a table (case, ours, peer, ratio) and writes JSON next to it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from mechbench.benchmarks.sphyr.dataset import read_records
from mechbench.benchmarks.sphyr.physics_scoring import physics_score
from mechbench.topopt import Problem, densities, element_stiffness, load_case, reference_optimum, solve
from mechbench.topopt.simp import _CACHE, _Solver

REPO = Path(__file__).resolve().parent.parent


# -- the peer: the 88-line code's structure (Andreassen et al. 2011), ported plainly to numpy/scipy -------
def top88_edof(nelx: int, elx: int, ely: int) -> np.ndarray:
    """The eight degrees of freedom of element (elx, ely), corners counter-clockwise from its top left."""
    n = [
        ely * (nelx + 1) + elx,
        ely * (nelx + 1) + elx + 1,
        (ely + 1) * (nelx + 1) + elx + 1,
        (ely + 1) * (nelx + 1) + elx,
    ]
    return np.array([[2 * k, 2 * k + 1] for k in n]).ravel()


def top88_fe(nelx: int, nely: int, x: np.ndarray, force: np.ndarray, fixed: np.ndarray, penal: float = 3.0):
    """One assembly + sparse solve as the 88-line code does it (column-major element numbering)."""
    ke = element_stiffness()
    ndof = 2 * (nelx + 1) * (nely + 1)
    rows, cols, vals = [], [], []
    for elx in range(nelx):
        for ely in range(nely):
            edof = top88_edof(nelx, elx, ely)
            young = 1e-9 + x[ely, elx] ** penal * (1 - 1e-9)
            rows.append(np.repeat(edof, 8))
            cols.append(np.tile(edof, 8))
            vals.append((ke * young).ravel())
    K = sp.coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(ndof, ndof))
    K = K.tocsc()
    free = np.setdiff1d(np.arange(ndof), fixed)
    u = np.zeros(ndof)
    u[free] = spla.spsolve(K[free][:, free], force[free])
    return u, K


def top88(
    nelx: int,
    nely: int,
    volfrac: float,
    force: np.ndarray,
    fixed: np.ndarray,
    rmin: float = 1.2,
    penal: float = 3.0,
    max_iter: int = 500,
) -> tuple[np.ndarray, float]:
    """The 88-line optimality-criteria loop with a density filter (one run, no candidates)."""
    from mechbench.topopt.simp import filter_matrix

    ke = element_stiffness()
    H = filter_matrix(nely, nelx, rmin)
    x = np.full((nely, nelx), volfrac)
    for _ in range(max_iter):
        phys = (H @ x.ravel()).reshape(nely, nelx)
        u, _ = top88_fe(nelx, nely, phys, force, fixed, penal)
        compliance = float(force @ u)
        dc = np.zeros((nely, nelx))
        for elx in range(nelx):
            for ely in range(nely):
                ue = u[top88_edof(nelx, elx, ely)]
                dc[ely, elx] = -penal * phys[ely, elx] ** (penal - 1) * ue @ ke @ ue
        dc = (H.T @ dc.ravel()).reshape(nely, nelx)
        dv = (H.T @ np.ones(nelx * nely)).reshape(nely, nelx)
        l1, l2 = 0.0, 1e9
        while (l2 - l1) / (l1 + l2) > 1e-3:
            lmid = 0.5 * (l1 + l2)
            new = np.clip(x * np.sqrt(np.maximum(-dc, 0) / dv / lmid), np.maximum(0, x - 0.2), np.minimum(1, x + 0.2))
            if (H @ new.ravel()).sum() > volfrac * nelx * nely:
                l1 = lmid
            else:
                l2 = lmid
        change = float(np.abs(new - x).max())
        x = new
        if change < 1e-3:
            break
    return x, compliance


def median_time(fn: Callable[[], object], repeat: int) -> float:
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _grid_case(n: int):
    truth = [["0"] * n for _ in range(n)]
    truth[0] = ["L"] * (n // 3) + ["0"] * (n - n // 3)
    truth[-1] = ["S"] * (n // 2) + ["0"] * (n - n // 2)
    return truth, load_case(truth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared/data/sphyr")
    parser.add_argument("--subject", default="full_easy")
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks/results/topopt.json")
    args = parser.parse_args()
    rows = []
    for n in (10, 20):
        _truth, case = _grid_case(n)
        rho = np.full((n, n), 0.5)
        fast = _Solver(case)
        ours = median_time(lambda fast=fast, rho=rho: fast.analyse(rho, 3.0), args.repeat)
        exact = median_time(lambda case=case, rho=rho: solve(rho, case), args.repeat)
        peer = median_time(lambda n=n, rho=rho, case=case: top88_fe(n, n, rho, case.force, case.fixed), args.repeat)
        rows.append({"case": f"compliance {n}×{n} (optimiser's banded solve)", "ours": ours, "peer": peer})
        rows.append({"case": f"compliance {n}×{n} (scoring's sparse solve)", "ours": exact, "peer": peer})
    records = read_records(args.data / f"{args.subject}.jsonl")
    times, peer_times = [], []
    for record in records[:5]:
        rho_truth, _, _ = densities(record.ground_truth, (10, 10))
        case = load_case(record.ground_truth)
        free = np.array([[c == "V" for c in row] for row in record.input_grid])
        problem = Problem(case, free, rho_truth, float(rho_truth.sum()))
        _CACHE.clear()
        start = time.perf_counter()
        reference_optimum(problem, seeds=[rho_truth])
        times.append(time.perf_counter() - start)
        start = time.perf_counter()
        top88(10, 10, float(rho_truth.mean()), case.force, case.fixed)
        peer_times.append(time.perf_counter() - start)
    rows.append(
        {
            "case": f"reference optimum, {args.subject} (ours: all candidates; peer: one 88-line run)",
            "ours": statistics.median(times),
            "peer": statistics.median(peer_times),
        }
    )
    _CACHE.clear()
    start = time.perf_counter()
    for record in records:
        physics_score(record.input_grid, record.ground_truth, record.ground_truth)
    per_sample = (time.perf_counter() - start) / len(records)
    cores = os.cpu_count() or 1
    subject = {
        "samples_timed": len(records),
        "seconds_per_sample": per_sample,
        "cores": cores,
        "estimated_subject_seconds": per_sample * 1296 / cores,
    }
    print(f"{'case':<78}{'ours ms':>10}{'peer ms':>10}{'ratio':>8}")
    for row in rows:
        print(f"{row['case']:<78}{row['ours'] * 1e3:10.3f}{row['peer'] * 1e3:10.3f}{row['peer'] / row['ours']:7.1f}×")
    print(
        f"\nphysics rescoring of {args.subject}: {per_sample:.3f} s per sample; a whole subject (1296 samples) on "
        f"{cores} cores ≈ {subject['estimated_subject_seconds'] / 60:.1f} min"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"cases": rows, "subject": subject}, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
