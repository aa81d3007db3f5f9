"""Fresh StructuralEval tasks written in the official layout (``mechbench generate structural``).

The physics work (solving, drawing) runs through :func:`mechbench.core.executor.run_batch`, so it can use a local
process pool or a Ray cluster; every task has its own random stream derived from the seed, so the bytes written do
not depend on the executor.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from mechbench.benchmarks.structural_eval.like_official import recipe_order, structure_like
from mechbench.core.executor import run_batch
from mechbench.core.precision import ROUND_OFF, rounded
from mechbench.frame.generate import KINDS, generate_structure
from mechbench.frame.render import render
from mechbench.frame.solve import solve
from mechbench.frame.varied import Composition


def structural_task(job: tuple[int, int, int | None, tuple[str, ...], bool]) -> dict[str, Any]:
    """Task number ``i`` of a seed: category, raw model, drawing (PNG bytes) and ground-truth solution."""
    seed, i, difficulty, kinds, diagrams = job
    level = difficulty if difficulty is not None else i % 5 + 1
    kind, model = generate_structure(random.Random(f"{seed}:{i}"), level, kinds)
    return _task(kind, level, model, diagrams)


def like_task(job: tuple[int, int, tuple[Composition, int], bool]) -> dict[str, Any]:
    """Task number ``i`` of a seed drawn to a published task's recipe (``--like``)."""
    seed, i, recipe, diagrams = job
    model = structure_like(recipe, random.Random(f"{seed}:like:{i}"))
    return _task(recipe[0].kind, recipe[1], model, diagrams)


def _task(kind: str, level: int, model: dict[str, Any], diagrams: bool) -> dict[str, Any]:
    result = solve(model, diagrams=True)
    keys = ("reactions", "axial", "shear", "moment", "maxMoment") if diagrams else ("reactions", "maxMoment")
    return {
        "kind": kind,
        "level": level,
        "model": model,
        "png": render(model),
        "solution": _printed({k: result[k] for k in keys}),
    }


TRUTH_DIGITS = 9
"""Significant digits of a stored truth: far below the 5 % tolerance, far above the last bits that differ between
machines (BLAS kernels), so the same seed writes the same bytes anywhere."""


def _printed(solution: dict[str, Any]) -> dict[str, Any]:
    """A solution's figures at :data:`TRUTH_DIGITS`; a reaction that cancels to round-off of the largest is 0."""
    largest = max((abs(r["value"]) for r in solution.get("reactions", [])), default=0.0)
    for reaction in solution.get("reactions", []):
        if abs(reaction["value"]) < ROUND_OFF * largest:
            reaction["value"] = 0.0
    return rounded(solution, TRUTH_DIGITS)  # type: ignore[return-value]


def write_structural(
    out: Path,
    n: int,
    seed: int,
    difficulty: int | None = None,
    kinds: tuple[str, ...] = KINDS,
    diagrams: bool = True,
    like: list[tuple[Composition, int]] | None = None,
    **executor: Any,
) -> list[str]:
    """``n`` tasks in the StructuralEval layout under ``out/data``; returns their ids. Same seed, same bytes.
    With ``like`` (published recipes), the tasks follow the recipes instead of ``difficulty`` and ``kinds``."""
    data = out / "data"
    for folder in ("images", "raw_models", "ground_truth_meta"):
        (data / folder).mkdir(parents=True, exist_ok=True)
    if like is not None:
        jobs = [(seed, i, recipe, diagrams) for i, recipe in enumerate(recipe_order(like, n, seed))]
        tasks = run_batch(like_task, jobs, **executor)
    else:
        tasks = run_batch(structural_task, [(seed, i, difficulty, kinds, diagrams) for i in range(n)], **executor)
    counters: dict[str, int] = {}
    ids = []
    for task in tasks:
        counters[task["kind"]] = counters.get(task["kind"], 0) + 1
        task_id = f"{task['kind']}_{counters[task['kind']]:03d}"
        (data / "raw_models" / f"{task_id}.json").write_text(json.dumps(task["model"], indent=1, sort_keys=True))
        (data / "images" / f"{task_id}.png").write_bytes(task["png"])
        meta = {
            "id": task_id,
            "difficulty": task["level"],
            "image_filename": f"{task_id}.png",
            "solution": task["solution"],
        }
        (data / "ground_truth_meta" / f"{task_id}.json").write_text(json.dumps(meta, sort_keys=True))
        ids.append(task_id)
    return ids
