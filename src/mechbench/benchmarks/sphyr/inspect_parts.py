"""SPhyR in Inspect: samples from records, the scorer, and its metrics (thin adapters over scoring)."""

from __future__ import annotations

import functools

import anyio
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import TaskState

from mechbench.benchmarks.sphyr.dataset import GridRecord
from mechbench.benchmarks.sphyr.parse import Parser
from mechbench.benchmarks.sphyr.physics_scoring import PhysicsScore, Reference, metric_names, physics_score
from mechbench.benchmarks.sphyr.prompts import build_prompt, render_grid
from mechbench.benchmarks.sphyr.scoring import METRIC_NAMES, score_grid
from mechbench.reliability import judge_limiter
from mechbench.topopt.grid import DOWN


def to_sample(record: GridRecord, subject: str) -> Sample:
    """One Inspect sample: the published prompt, the truth as target, the grids in metadata."""
    return Sample(
        id=f"{subject}-{record.index}",
        input=build_prompt(record.input_grid, subject),
        target=render_grid(record.ground_truth),
        metadata={
            "benchmark": "sphyr",
            "subject": subject,
            "index": record.index,
            "input_grid": record.input_grid,
            "ground_truth": record.ground_truth,
        },
    )


def to_dataset(records_by_subject: dict[str, list[GridRecord]], name: str) -> MemoryDataset:
    """All samples of the given subjects in one dataset."""
    samples = [to_sample(r, subject) for subject, records in records_by_subject.items() for r in records]
    return MemoryDataset(samples, name=name)


def _metrics(reference: Reference) -> list:
    # ``invalid_output_grid`` (1 − valid) is the parse-failure rate, reported apart from wrong answers.
    names = (*METRIC_NAMES, "invalid_output_grid", *metric_names(reference))
    return [{name: [mean()] for name in names}]


def _score_fn(parser: Parser, physics: bool, reference: Reference):
    async def score(state: TaskState, target: Target) -> Score:
        metadata = state.metadata
        result = score_grid(metadata["input_grid"], metadata["ground_truth"], state.output.completion, parser)
        extra: dict[str, float] = {}
        physics_details: dict | None = None
        if physics:
            if result.valid_output_grid:
                # In a worker thread (the compiled kernels release the GIL), one per core: a long
                # re-optimisation never stalls the event loop or the other samples' model calls.
                ps = await anyio.to_thread.run_sync(
                    functools.partial(
                        physics_score,
                        metadata["input_grid"],
                        metadata["ground_truth"],
                        result.parsed_grid,
                        tuple(metadata.get("gravity") or DOWN),
                        reference,
                    ),
                    limiter=judge_limiter(),
                )
            else:  # the live environment's rule: an invalid grid earns no physics (every field its default)
                ps = PhysicsScore(reference=reference, default_reason="invalid grid")
            extra, physics_details = ps.metrics(), ps.fields()
        if result.exact_match:
            explanation = "exact match"
        elif result.invalid_reason and parser == "current":
            explanation = f"invalid grid: {result.invalid_reason}"
        else:
            wrong, masked = result.differing_cells, result.masked_cells
            explanation = f"{wrong} cells differ from the ground truth ({masked} were masked)"
        return Score(
            value={**result.metrics(), "invalid_output_grid": float(not result.valid_output_grid), **extra},
            answer=render_grid(result.parsed_grid),
            explanation=explanation,
            metadata={
                "valid_output_grid": result.valid_output_grid,
                "invalid_reason": result.invalid_reason,
                "differing_cells": result.differing_cells,
                "masked_cells": result.masked_cells,
                "parser": parser,
                "subject": metadata["subject"],
                "physics": physics_details,
            },
        )

    return score


@scorer(metrics=_metrics("published"))
def sphyr_scorer(parser: Parser = "current", physics: bool = True):
    """Cell-level and physics SPhyR metrics, physics against the published reference optimum."""
    return _score_fn(parser, physics, "published")


@scorer(metrics=_metrics("best"))
def sphyr_scorer_best(parser: Parser = "current", physics: bool = True):
    """As :func:`sphyr_scorer`, against mechbench's stronger optimiser; those metrics end in ``_best``."""
    return _score_fn(parser, physics, "best")
