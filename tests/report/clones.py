"""Many models' runs made from one real run, for tests of how the report and the plan grow with the number of rows:
one run of a built-in model on the bundled SeeSim text set (46 questions in 12 simulations), cloned as runs of other
models, each right at its own rate (seeded)."""

from __future__ import annotations

import random
from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, write_eval_log

from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import seesim


def base_run(folder: Path) -> EvalLog:
    """One run of mechbench/random on the bundled SeeSim text set, its log in ``folder``."""
    (log,) = inspect_eval(seesim(data="bundled", modality="text"), model="mechbench/random", log_dir=str(folder),
                          **QUIET_EVAL)  # fmt: skip
    return log


def clones(base: EvalLog, count: int, seed: int = 63) -> list[EvalLog]:
    """``count`` runs of as many models (``test/model-0000`` …), model k right at a rate from 0.3 to 0.7."""
    draw = random.Random(seed)
    out = []
    for k in range(count):
        rate = 0.3 + 0.4 * k / max(count - 1, 1)
        samples = [
            sample.model_copy(
                update={
                    "scores": {
                        n: s.model_copy(update={"value": float(draw.random() < rate)})
                        for n, s in (sample.scores or {}).items()
                    },
                    "events": [],
                }
            )
            for sample in base.samples or []
        ]
        model = f"test/model-{k:04d}"
        out.append(base.model_copy(update={"eval": base.eval.model_copy(update={"model": model}), "samples": samples}))
    return out


def write_clones(base: EvalLog, count: int, folder: Path) -> Path:
    """:func:`clones` written as Inspect logs into ``folder`` (named as Inspect names them)."""
    folder.mkdir(parents=True, exist_ok=True)
    for k, log in enumerate(clones(base, count)):
        write_eval_log(log, str(folder / f"2026-01-01T00-00-00-00-00_seesim_model{k:04d}.eval"))
    return folder
