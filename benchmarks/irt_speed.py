"""What item response theory costs (issue 65: calibrating 10 models × 2,000 items under 10 s; the adaptive loop under
50 ms per item beyond the model's call).

    python benchmarks/irt_speed.py [--models 10] [--items 2000] [--steps 40]

Calibration: ``mechbench.core.irt.fit_2pl`` on simulated 2PL answers of ``--models`` responders to ``--items`` items
(each asked of every responder), median of three fits. The adaptive loop: what HandCalc's adaptive solver does
around one model call (the next level from the estimate, the item generated at it, its message with the drawing or
as text, the reply read and the posterior updated), with the oracle's reply, median and worst over ``--steps``
items; its peer is the item's generation alone (what a fixed set spends per item before the call). Each timed alone
and beside a CPU-bound process, in this process after a warm-up. Prints a table and writes JSON next to it.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

from results_io import publish


def _responses(models: int, items: int, seed: int = 3) -> np.ndarray:
    from mechbench.core.irt import probability

    rng = np.random.default_rng(seed)
    theta = rng.normal(0.0, 1.0, models)
    a, b = rng.lognormal(0.0, 0.3, items), rng.normal(0.0, 1.0, items)
    return (rng.random((models, items)) < probability(theta[:, None], a[None, :], b[None, :])).astype(float)


def _calibration(models: int, items: int) -> list[float]:
    from mechbench.core.irt import fit_2pl

    answers = _responses(models, items)
    fit_2pl(answers[:, :50])
    times = []
    for _ in range(3):
        start = time.perf_counter()
        fit_2pl(answers)
        times.append(time.perf_counter() - start)
    return times


def _adaptive(steps: int, presentation: str) -> tuple[list[float], list[float]]:
    """Seconds per item of the adaptive loop's own work, and of generating the item alone (the peer)."""
    from mechbench.benchmarks.hand_calc.adaptive import item_message, next_level, posterior, record
    from mechbench.benchmarks.hand_calc.answers import judge
    from mechbench.benchmarks.hand_calc.generated_set import make_item
    from mechbench.benchmarks.hand_calc.prompts import target

    def one(running, found, step: int) -> tuple[object, float, float]:
        start = time.perf_counter()
        level = next_level(found.theta)
        item = make_item(11, step, level)
        generated = time.perf_counter()
        item_message(item, presentation)
        verdicts = judge(target(item), item.quantities)
        found = record(running, level, sum(v.correct for v in verdicts) / len(verdicts))
        return found, time.perf_counter() - start, generated - start

    running = posterior()
    one(running, running.summary(), 0)
    running = posterior()
    found = running.summary()
    loop, peer = [], []
    for step in range(steps):
        found, total, generated = one(running, found, step)
        loop.append(total)
        peer.append(generated)
    return loop, peer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=10)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--steps", type=int, default=40)
    args = parser.parse_args()
    rows = []
    for hog in (False, True):
        beside = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if hog else None
        try:
            fits = _calibration(args.models, args.items)
            row = {"hog": hog, "calibration_s": statistics.median(fits), "calibration_worst_s": max(fits)}
            for presentation in ("text", "drawing"):
                loop, peer = _adaptive(args.steps, presentation)
                row[f"{presentation}_loop_ms"] = 1000 * statistics.median(loop)
                row[f"{presentation}_loop_worst_ms"] = 1000 * max(loop)
                row[f"{presentation}_generation_ms"] = 1000 * statistics.median(peer)
            rows.append(row)
        finally:
            if beside:
                beside.kill()
    title = f"IRT: calibrating {args.models} models × {args.items} items; the adaptive loop per item (HandCalc)"
    lines = [title, ""]
    lines += ["| beside a CPU hog | calibration, median (worst) | adaptive loop, text: median (worst) / generation "
              "alone | adaptive loop, drawing: median (worst) / generation alone |", "|---|---|---|---|"]  # fmt: skip
    for r in rows:
        text, drawn = (
            f"{r[f'{p}_loop_ms']:.1f} ms ({r[f'{p}_loop_worst_ms']:.1f}) / {r[f'{p}_generation_ms']:.1f} ms"
            for p in ("text", "drawing")
        )
        fit = f"{r['calibration_s']:.2f} s ({r['calibration_worst_s']:.2f})"
        lines.append(f"| {'yes' if r['hog'] else 'no'} | {fit} | {text} | {drawn} |")
    publish("irt_speed", "\n".join(lines), rows)


if __name__ == "__main__":
    main()
