"""Simulations per second of ``mechbench generate seesim``, per generator family, and the flow kernel against a peer.

    python benchmarks/seesim_generator.py [--n 8] [--baseline REV]

In one run on this machine:
- per family (structural finite elements, lattice-Boltzmann flow): the physics alone, and with the media and
  report written (what the generator does per simulation), one process;
- the whole generator (``write_seesim``) with 1 and 2 worker processes, and with 2 beside a CPU-bound process;
  with ``--baseline REV``, the generator of that git revision beside it in the same run (ratio: this one's rate
  over the previous one's, so 0.5 is twice the time);
- the D2Q9 kernel (TRT, interpolated bounce-back) against the peer: the usual numpy-vectorised D2Q9 BGK
  (roll-based streaming, bounce-back on a mask) on the same lattice, in million lattice updates per second (MLUPS).
Prints a table and writes JSON next to it.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from results_io import publish

REPO = Path(__file__).resolve().parent.parent


def _family_rates(n: int) -> list[dict]:
    from mechbench.benchmarks.seesim.generated_set import simulate
    from mechbench.benchmarks.seesim.scenarios import draw_setup, template_order
    from mechbench.simulation import flow, structural

    rows = []
    for domain, run in (("structural", structural.run_structural), ("fluid", flow.run_flow)):
        order = template_order(domain, 99, "bench")
        setups = [draw_setup(domain, i, order, random.Random(f"bench:{domain}:{i}")) for i in range(n)]
        run(setups[0])  # compiled kernels loaded before timing
        start = time.perf_counter()
        for setup in setups:
            run(setup)
        physics = n / (time.perf_counter() - start)
        start = time.perf_counter()
        for i in range(n):
            simulate((domain, 99, i))
        whole = n / (time.perf_counter() - start)
        rows.append({"case": f"{domain}: physics only", "sims_per_s": physics})
        rows.append({"case": f"{domain}: physics + image, video, report", "sims_per_s": whole})
    return rows


TIMED = """
import sys, tempfile, time
from pathlib import Path
from mechbench.benchmarks.seesim.generated_set import write_seesim
n, workers = int(sys.argv[1]), int(sys.argv[2])
with tempfile.TemporaryDirectory() as out:
    write_seesim(Path(out) / "warm", 1, 4, questions="mechbench", workers=1)  # compiled kernels cached first
    start = time.perf_counter()
    write_seesim(Path(out) / "timed", n, 5, questions="mechbench", workers=workers)
    print(2 * n / (time.perf_counter() - start))
"""


def _rate(source: Path, n: int, workers: int, hog: bool) -> float:
    """Simulations per second of ``write_seesim`` from the package in ``source`` (a fresh process, kernels warm)."""
    beside = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if hog else None
    try:
        env = {**os.environ, "PYTHONPATH": str(source)}
        out = subprocess.run(
            [sys.executable, "-c", TIMED, str(n), str(workers)], env=env, capture_output=True, text=True, check=True
        )
    finally:
        if beside:
            beside.kill()
    return float(out.stdout.split()[-1])


def _generator_rates(n: int, baseline: str | None) -> list[dict]:
    """The whole generator, and the previous generator (``baseline``, a git revision) beside it in the same run."""
    rows = []
    with tempfile.TemporaryDirectory() as tree:
        previous = None
        if baseline:
            subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", tree, baseline], check=True)
            previous = Path(tree) / "src"
        try:
            for label, workers, hog in (
                ("1 worker", 1, False),
                ("2 workers", 2, False),
                ("2 workers, CPU hog", 2, True),
            ):
                rate = _rate(REPO / "src", n, workers, hog)
                row = {"case": f"write_seesim, {n}+{n} simulations, {label}", "sims_per_s": rate}
                if previous is not None and workers == 2:
                    before = _rate(previous, n, workers, hog)
                    rows.append({"case": f"  previous generator ({baseline}), {label}", "sims_per_s": before})
                    row["vs_peer"] = rate / before
                rows.append(row)
        finally:
            if baseline:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", tree], check=False)
    return rows


def _peer_step(f: np.ndarray, solid: np.ndarray, inlet: np.ndarray, tau: float) -> np.ndarray:
    """One step of the textbook numpy D2Q9: streaming by np.roll, bounce-back on the mask, equilibrium inlet."""
    from mechbench.simulation.lbm import EX, EY, OPPOSITE, W

    for i in range(9):
        f[i] = np.roll(np.roll(f[i], EX[i], axis=1), EY[i], axis=0)
    bounced = f[:, solid]
    f[:, solid] = bounced[OPPOSITE]
    rho = f.sum(axis=0)
    ux = (f * EX[:, None, None]).sum(axis=0) / rho
    uy = (f * EY[:, None, None]).sum(axis=0) / rho
    ux[:, 0], uy[:, 0] = inlet, 0.0
    eu = EX[:, None, None] * ux + EY[:, None, None] * uy
    feq = W[:, None, None] * rho * (1 + 3 * eu + 4.5 * eu**2 - 1.5 * (ux**2 + uy**2))
    fluid = ~solid
    f[:, fluid] += (feq[:, fluid] - f[:, fluid]) / tau
    return f


def _kernel_vs_peer(steps: int) -> list[dict]:
    from mechbench.simulation import lbm
    from mechbench.simulation.flow import FlowSetup, _geometry

    solid, _, _, _, _, q = _geometry(FlowSetup("cylinder", 100, 0.0, 0, "water", 0.02, False))
    ny, nx = solid.shape
    inlet = np.where(solid[:, 0], 0.0, 0.08)
    rho, ux, uy = np.ones((ny, nx)), np.zeros((ny, nx)), np.zeros((ny, nx))
    f = lbm.equilibrium(rho, ux, uy)
    out, temperature = np.empty_like(f), np.zeros((ny, nx))
    cells = lbm.lattice_cells(solid, lbm.pull_sources(solid), q)
    lbm.flow_step(f, out, solid, inlet, 0.53, 0.0, temperature, rho, ux, uy, cells)
    start = time.perf_counter()
    for _ in range(steps):
        lbm.flow_step(f, out, solid, inlet, 0.53, 0.0, temperature, rho, ux, uy, cells)
        f, out = out, f
    mine = steps * nx * ny / (time.perf_counter() - start) / 1e6
    g = lbm.equilibrium(np.ones((ny, nx)), np.zeros((ny, nx)), np.zeros((ny, nx)))
    start = time.perf_counter()
    for _ in range(steps):
        g = _peer_step(g, solid, 0.08, 0.53)
    peer = steps * nx * ny / (time.perf_counter() - start) / 1e6
    return [
        {"case": f"D2Q9 kernel, {nx}×{ny} lattice (MLUPS)", "mlups": mine, "vs_peer": mine / peer},
        {"case": "peer: numpy-vectorised D2Q9 (MLUPS)", "mlups": peer, "vs_peer": 1.0},
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=8, help="simulations per domain and case")
    parser.add_argument("--baseline", help="a git revision whose generator is timed beside this one's")
    args = parser.parse_args()
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        rows = _family_rates(args.n) + _kernel_vs_peer(2000)
    rows += _generator_rates(args.n, args.baseline)
    lines = [f"machine: {os.cpu_count()} cores", "", f"{'case':<62}{'value':>12}{'vs peer':>10}"]
    for row in rows:
        value = row.get("sims_per_s", row.get("mlups"))
        unit = " sims/s" if "sims_per_s" in row else " MLUPS"
        ratio = f"{row['vs_peer']:.2f}" if "vs_peer" in row else ""
        lines.append(f"{row['case']:<62}{value:>7.2f}{unit:<7}{ratio:>8}")
    publish("seesim_generator", "\n".join(lines), rows)


if __name__ == "__main__":
    main()
