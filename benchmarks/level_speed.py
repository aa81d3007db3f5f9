"""Time to generate one item at each difficulty level: a HandCalc item (its truth, no drawing) and a StructuralEval
task with its drawing and solution, on one core (issue 64: under 50 ms and 1 s).

    python benchmarks/level_speed.py [--items 40] [--tasks 8]

Each level is timed in this process (imports done, a warm-up item first), median and worst over fresh seeds, alone
and beside a CPU-bound process; the peer is the textbook mix (levels 1-5) timed the same way in the same run.
Prints a table and writes JSON next to it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

from results_io import publish


def _hand_calc(level: int | None, count: int) -> list[float]:
    from mechbench.benchmarks.hand_calc.generated_set import make_item

    make_item(99, 0, level)
    times = []
    for k in range(count):
        start = time.perf_counter()
        make_item(7, k, level)
        times.append(time.perf_counter() - start)
    return times


def _structural(level: int | None, count: int) -> list[float]:
    from mechbench.benchmarks.structural_eval.generated_set import structural_task

    kinds = ("beam", "frame", "truss")
    structural_task((99, 0, level or 1, kinds, False))
    times = []
    for k in range(count):
        start = time.perf_counter()
        structural_task((7, k, level if level is not None else random.Random(k).randint(1, 5), kinds, False))
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=40)
    parser.add_argument("--tasks", type=int, default=8)
    args = parser.parse_args()
    rows = []
    for hog in (False, True):
        beside = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if hog else None
        try:
            for level in (None, *range(1, 11)):
                hc = _hand_calc(level, args.items)
                se = _structural(level, args.tasks)
                rows.append({"level": "mix 1-5" if level is None else level, "hog": hog,
                             "hand_calc_ms": 1e3 * statistics.median(hc), "hand_calc_worst_ms": 1e3 * max(hc),
                             "structural_s": statistics.median(se), "structural_worst_s": max(se)})  # fmt: skip
        finally:
            if beside:
                beside.kill()
    title = "One item per level on one core: HandCalc (truth, no drawing) and StructuralEval (task, drawing, truth)"
    lines = [title, ""]
    lines += ["| level | beside a CPU hog | HandCalc item, median (worst) | StructuralEval task, median (worst) |",
              "|---|---|---|---|"]  # fmt: skip
    for r in rows:
        hand_calc = f"{r['hand_calc_ms']:.1f} ms ({r['hand_calc_worst_ms']:.1f})"
        structural = f"{r['structural_s']:.2f} s ({r['structural_worst_s']:.2f})"
        lines.append(f"| {r['level']} | {'yes' if r['hog'] else 'no'} | {hand_calc} | {structural} |")
    publish("level_speed", "\n".join(lines), rows)


if __name__ == "__main__":
    main()
