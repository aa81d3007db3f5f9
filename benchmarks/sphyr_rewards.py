"""Rewards per second of the SPhyR RL reward (:func:`mechbench.benchmarks.sphyr.rl.topology_rewards`).

    python benchmarks/sphyr_rewards.py [--data ../shared/data]

A training loop revisits its samples, so the reference optimum of each problem is computed once (cold) and
then read from the cache (warm); what remains per reward is parsing, the graph metrics and three FE solves.
Cases, in one run on this machine, on the v2 (10×10) and v2-20 (20×20) records of the shared data, each
sample answered by a noisy copy of its truth (5 % of cells flipped):
- cold cache, one thread (every problem's reference optimum computed);
- warm cache, one thread — the peer: the same rewards one call at a time;
- warm cache, batched over 2 threads, alone and with a CPU-bound process running beside it.
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

from results_io import publish

REPO = Path(__file__).resolve().parent.parent


def _batch(folder: Path, repeat: int) -> tuple[list[str], list]:
    from mechbench.benchmarks.sphyr.dataset import read_records
    from mechbench.benchmarks.sphyr.rl import Problem

    rng = random.Random(0)
    completions, problems = [], []
    for file in sorted(folder.glob("*.jsonl")):
        for record in read_records(file):
            grid = [
                [t if t in ("L", "S") or rng.random() > 0.05 else ("0" if t in ("1", "1.0") else "1") for t in row]
                for row in record.ground_truth
            ]
            completions.append("\n".join(" ".join(row) for row in grid))
            problems.append(Problem.from_record(record))
    return completions * repeat, problems * repeat


def _rate(completions: list[str], problems: list, workers: int) -> float:
    from mechbench.benchmarks.sphyr.rl import topology_rewards

    start = time.perf_counter()
    topology_rewards(completions, problems, workers=workers)
    return len(completions) / (time.perf_counter() - start)


def measure(folder: Path, label: str) -> list[dict]:
    """The four cases on one data folder (a fresh cache, so the cold case is cold)."""
    from mechbench.benchmarks.sphyr import optimum_cache

    completions, problems = _batch(folder, 1)
    optimum_cache.clear_memory()
    cold = _rate(completions, problems, 1)
    warm_completions, warm_problems = _batch(folder, 3)
    warm_one = _rate(warm_completions, warm_problems, 1)
    warm_two = _rate(warm_completions, warm_problems, 2)
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        busy_two = _rate(warm_completions, warm_problems, 2)
    finally:
        hog.kill()
    rows = [
        ("cold cache, 1 thread", cold),
        ("warm cache, 1 thread (peer)", warm_one),
        ("warm cache, 2 threads", warm_two),
        ("warm cache, 2 threads, CPU hog beside", busy_two),
    ]
    return [
        {"grid": label, "case": case, "rewards_per_s": rate, "vs_peer": rate / warm_one, "samples": len(problems)}
        for case, rate in rows
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["MECHBENCH_CACHE"] = cache
        rows = measure(args.data / "sphyr_v2", "10×10 (v2)") + measure(args.data / "sphyr_v2_20", "20×20 (v2-20)")
    lines = [f"machine: {os.cpu_count()} cores; {rows[0]['samples']} / {rows[-1]['samples']} distinct samples", ""]
    lines.append(f"{'grid':<15}{'case':<42}{'rewards/s':>12}{'vs peer':>10}")
    for row in rows:
        lines.append(f"{row['grid']:<15}{row['case']:<42}{row['rewards_per_s']:>12.1f}{row['vs_peer']:>10.2f}")
    publish("sphyr_rewards", "\n".join(lines), rows)


if __name__ == "__main__":
    main()
