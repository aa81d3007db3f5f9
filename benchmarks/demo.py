"""Time of ``mechbench demo`` (every benchmark offline, the report included), as a new user runs it.

    python benchmarks/demo.py

In one run on this machine, each a fresh process: the demo with warm caches (alone), the same beside a CPU-bound
process (the ratio to alone is what a busy machine costs), and a first run in a fresh environment (empty mechbench,
numba and matplotlib caches: what the README's first command meets). The budget is 60 s each on 2 cores, and 1.3×
beside a hog. Prints a table and writes JSON next to it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_io import publish

BUDGET_S = 60.0


def _demo(fresh: bool, hog: bool) -> float:
    beside = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if hog else None
    try:
        with tempfile.TemporaryDirectory() as folder:
            env = dict(os.environ)
            if fresh:
                caches = Path(folder) / "caches"
                env.update(
                    MECHBENCH_CACHE=str(caches / "mechbench"),
                    NUMBA_CACHE_DIR=str(caches / "numba"),
                    MPLCONFIGDIR=str(caches / "matplotlib"),
                    XDG_CACHE_HOME=str(caches),
                )
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "mechbench", "demo", "-o", str(Path(folder) / "out")], env=env,
                           check=True, capture_output=True)  # fmt: skip
            return time.perf_counter() - start
    finally:
        if beside:
            beside.kill()


def main() -> None:
    _demo(fresh=False, hog=False)  # warm: the caches a second run finds
    alone = _demo(fresh=False, hog=False)
    busy = _demo(fresh=False, hog=True)
    first = _demo(fresh=True, hog=False)
    rows = [
        {"case": "warm caches, alone", "seconds": alone, "vs_alone": 1.0},
        {"case": "warm caches, beside a CPU hog", "seconds": busy, "vs_alone": busy / alone},
        {"case": "first run in a fresh environment", "seconds": first, "vs_alone": first / alone},
    ]
    lines = [f"mechbench demo (every benchmark, the report), {os.cpu_count()} cores; budget {BUDGET_S:g} s", ""]
    lines += ["| case | seconds | × alone | within budget |", "|---|---|---|---|"]
    for r in rows:
        ok = r["seconds"] <= BUDGET_S and (r["case"] != "warm caches, beside a CPU hog" or r["vs_alone"] <= 1.3)
        lines.append(f"| {r['case']} | {r['seconds']:.1f} | {r['vs_alone']:.2f} | {'yes' if ok else 'NO'} |")
    publish("demo", "\n".join(lines), rows)


if __name__ == "__main__":
    main()
