"""The SPhyR physics judge inside Inspect: run off the event loop, bounded in time."""

from __future__ import annotations

import functools
from typing import Any

from mechbench.benchmarks.sphyr import load_direction
from mechbench.benchmarks.sphyr.grid import DOWN, sample_grid
from mechbench.benchmarks.sphyr.load_direction import Finding, LoadDirection
from mechbench.benchmarks.sphyr.physics_scoring import JUDGE_BUDGET_S, PhysicsScore, Reference, physics_score
from mechbench.core.budget import within_budget
from mechbench.harness.reliability import in_judge_thread

JUDGE_TIMEOUT_S = JUDGE_BUDGET_S + 60
"""Longest the scorer waits for the judge, from the moment a judge slot is free, before abandoning its thread: a
backstop behind :data:`JUDGE_BUDGET_S`."""


async def physics_in_worker(
    metadata: dict[str, Any], grid: list[list[str]], gravity: tuple[float, float], reference: Reference
) -> PhysicsScore:
    """:func:`physics_score` of ``grid`` for a sample, in a worker thread, one per core.

    The compiled kernels release the GIL, so a long re-optimisation never stalls the event loop or the other
    samples' model calls. Raises TimeoutError past :data:`JUDGE_TIMEOUT_S`.
    """
    work = functools.partial(
        within_budget,
        JUDGE_BUDGET_S,
        "the physics judge",
        physics_score,
        sample_grid(metadata, "input_grid"),
        sample_grid(metadata, "ground_truth"),
        grid,
        gravity,
        reference,
    )
    return await in_judge_thread(work, JUDGE_TIMEOUT_S)


async def finding_in_worker(metadata: dict[str, Any], convention: LoadDirection) -> Finding:
    """The load direction(s) a sample is judged under (:func:`load_direction.find`; a recovery runs in a worker)."""
    find = functools.partial(
        load_direction.find,
        sample_grid(metadata, "ground_truth"),
        tuple(metadata.get("gravity") or DOWN),
        convention,
        bool(metadata.get("load_direction_stored")),
        int(metadata.get("rotation") or 0),
    )
    if convention == "published":
        return find()
    work = functools.partial(within_budget, JUDGE_BUDGET_S, "the load-direction recovery", find)
    return await in_judge_thread(work, JUDGE_TIMEOUT_S)
