"""What starting the local pool's workers costs: mechbench's fork server against spawning every worker (the peer,
what the pool did before), on the same work in the same run.

    python benchmarks/pool_startup.py [--pools 3] [--repeat 3]

Each case is a fresh process that runs ``--pools`` small StructuralEval sets and as many small SPhyR sets, one after
the other, each on a pool of 2 workers (as the tests and ``mechbench generate`` do). Alone, the CPU time is counted
over the whole machine (``/proc/stat``: the workers of a fork server are not the caller's children); beside a
CPU-bound process only the wall time is. Linux only. Prints a table and writes JSON next to it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from results_io import publish

WORK = """
import sys, tempfile
from pathlib import Path
from mechbench.core import executor
from mechbench.benchmarks.structural_eval.generated_set import write_structural
from mechbench.benchmarks.sphyr.generated_set import write_sphyr

if __name__ == "__main__":
    if sys.argv[1] == "spawn":
        import multiprocessing
        executor._pool_context = lambda fn: multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as folder:
        for k in range(int(sys.argv[2])):
            write_structural(Path(folder) / f"s{k}", 4, 11 + k, diagrams=False, workers=2)
            write_sphyr(Path(folder) / f"p{k}", 2, 11 + k, workers=2)
"""


def _busy_seconds() -> float:
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _run(method: str, pools: int, script: str) -> tuple[float, float]:
    busy, start = _busy_seconds(), time.perf_counter()
    subprocess.run([sys.executable, script, method, str(pools)], check=True, capture_output=True)
    return time.perf_counter() - start, _busy_seconds() - busy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pools", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "pool_startup_work.tmp")
    with open(script, "w") as out:
        out.write(WORK)
    rows = []
    try:
        _run("forkserver", 1, script)  # warm numba's and Python's caches
        for beside_hog in (False, True):
            hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if beside_hog else None
            try:
                timed = {m: [_run(m, args.pools, script) for _ in range(args.repeat)] for m in ("forkserver", "spawn")}
            finally:
                if hog:
                    hog.kill()
            for method, runs in timed.items():
                wall = statistics.median(w for w, _ in runs)
                cpu = None if beside_hog else statistics.median(c for _, c in runs)
                rows.append({"start": method, "beside_hog": beside_hog, "wall": wall, "cpu": cpu})
    finally:
        os.remove(script)
    peer = {r["beside_hog"]: r for r in rows if r["start"] == "spawn"}
    lines = [f"local pool start-up, {args.pools} + {args.pools} pools of 2 workers, median of {args.repeat}, "
             f"{os.cpu_count()} cores", ""]  # fmt: skip
    lines += ["| workers from | beside a CPU hog | wall s | CPU s (whole machine) | wall × spawn |"]
    lines += ["|---|---|---|---|---|"]
    for r in rows:
        cpu = f"{r['cpu']:.1f}" if r["cpu"] is not None else "—"
        ratio = r["wall"] / peer[r["beside_hog"]]["wall"]
        lines.append(f"| {r['start']} | {'yes' if r['beside_hog'] else 'no'} | {r['wall']:.1f} | {cpu} | {ratio:.2f} |")
    publish("pool_startup", "\n".join(lines), rows)


if __name__ == "__main__":
    main()
