"""What item response theory costs (issue 65: calibrating 10 models × 2,000 items under 10 s; the adaptive loop under
50 ms per item beyond the model's call).

    python benchmarks/irt_speed.py [--models 10] [--items 2000] [--steps 40]

Calibration: ``mechbench.core.irt.fit_2pl`` on simulated 2PL answers of ``--models`` responders to ``--items`` items
(each asked of every responder), median of three fits. The adaptive loop: what HandCalc's adaptive solver does
around one model call (the next level from the estimate, the item generated at it, its message with the drawing or
as text, the reply read and the posterior updated), with the oracle's reply, median and worst over ``--steps``
items; its peer is the item's generation alone (what a fixed set spends per item before the call). And what the
adaptive solver itself adds to a session's time per item beyond the model's call: the solver run over ``--steps``
items with a stand-in model that takes ``--call`` seconds and answers right (it prepares the next items while the
model answers). Each timed alone and beside a CPU-bound process, in this process after a warm-up. Prints a table and
writes JSON next to it.
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


def _solver_latency(steps: int, presentation: str, call: float) -> list[float]:
    """Seconds the adaptive solver adds per item beyond a model call of ``call`` seconds (HandCalc's items)."""
    import dataclasses

    import anyio
    from inspect_ai.model import ModelName, ModelOutput
    from inspect_ai.solver import TaskState

    from mechbench.benchmarks.hand_calc.adaptive import adaptive_items
    from mechbench.benchmarks.hand_calc.prompts import target
    from mechbench.harness.adaptive import adaptive_solver

    items = adaptive_items(presentation)
    shown: dict[int, object] = {}

    def message(item: object) -> object:
        made = items.message(item)
        shown[id(made)] = item
        return made

    solve = adaptive_solver(dataclasses.replace(items, message=message), budget=steps, target_se=1e-6)
    ends: list[float] = []

    async def generate(state: TaskState, **_: object) -> TaskState:
        ends.append(time.perf_counter())  # the call starts: the solver's work since the last call ended is done
        await anyio.sleep(call)
        state.output = ModelOutput.from_content("stand-in", target(shown[id(state.messages[0])]))
        ends.append(time.perf_counter())
        return state

    async def session() -> None:
        state = TaskState(ModelName("mockllm/model"), "s", 1, "", [], metadata={"seed": 11, "session": 0})
        await solve(state, generate)  # type: ignore[arg-type]

    anyio.run(session)
    # between one call's end and the next call's start: what the solver adds per item beyond the call
    return [start - end for end, start in zip(ends[1::2], ends[2::2], strict=False)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=10)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--call", type=float, default=2.0, help="seconds the stand-in model takes per answer")
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
                added = _solver_latency(min(args.steps, 20), presentation, args.call)
                row[f"{presentation}_added_ms"] = 1000 * statistics.median(added)
                row[f"{presentation}_added_worst_ms"] = 1000 * max(added)
            rows.append(row)
        finally:
            if beside:
                beside.kill()
    title = f"IRT: calibrating {args.models} models × {args.items} items; the adaptive loop per item (HandCalc)"
    lines = [title, ""]
    lines += ["| beside a CPU hog | calibration, median (worst) | adaptive loop, text: median (worst) / generation "
              "alone | adaptive loop, drawing: median (worst) / generation alone | the solver's time between "
              f"calls of {args.call:g} s, text / drawing: median (worst) |", "|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        text, drawn = (
            f"{r[f'{p}_loop_ms']:.1f} ms ({r[f'{p}_loop_worst_ms']:.1f}) / {r[f'{p}_generation_ms']:.1f} ms"
            for p in ("text", "drawing")
        )
        fit = f"{r['calibration_s']:.2f} s ({r['calibration_worst_s']:.2f})"
        added = " / ".join(f"{r[f'{p}_added_ms']:.1f} ms ({r[f'{p}_added_worst_ms']:.1f})" for p in ("text", "drawing"))
        lines.append(f"| {'yes' if r['hog'] else 'no'} | {fit} | {text} | {drawn} | {added} |")
    publish("irt_speed", "\n".join(lines), rows)


if __name__ == "__main__":
    main()
