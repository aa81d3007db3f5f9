"""SPhyR in Inspect: samples from records, the scorer, and its metrics (thin adapters over scoring)."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState

from mechbench.benchmarks.sphyr.dataset import GridRecord
from mechbench.benchmarks.sphyr.feedback import JUDGE_FAILED_KEY, ROUNDS_KEY, round_metric_names, round_values
from mechbench.benchmarks.sphyr.grid import DOWN, pack_grid, sample_grid
from mechbench.benchmarks.sphyr.judge import finding_in_worker, physics_in_worker
from mechbench.benchmarks.sphyr.load_direction import LoadDirection, mean_over_directions
from mechbench.benchmarks.sphyr.parse import Parser
from mechbench.benchmarks.sphyr.physics_scoring import PhysicsScore, Reference, metric_names
from mechbench.benchmarks.sphyr.prompts import MECHBENCH_WORDING, Wording, build_prompt, render_grid
from mechbench.benchmarks.sphyr.replay import PublishedSample
from mechbench.benchmarks.sphyr.rotation import rotate_direction, rotate_grid
from mechbench.benchmarks.sphyr.scoring import HEADLINE_METRICS, METRIC_NAMES, score_grid
from mechbench.harness.reliability import INSTRUMENT_FAILURE, instrument_error
from mechbench.harness.replies import budget_exhausted, budget_note, split_reply
from mechbench.registry import Cluster


@dataclass(frozen=True)
class SampleOptions:
    """How records become prompts: style, wording, few-shot examples, rotation, and where the records came from."""

    style: str = "default"
    wording: Wording = MECHBENCH_WORDING
    few_shot: int = 0
    rotation: int = 0
    seed: int = 0
    corpus: str | None = None
    """The subject file the records were read from (what the retrieval baselines search)."""


CLUSTER = Cluster("layout", "layout (one record, shared by the 16 subjects)")
"""A record's 16 subjects (and its rotations) are masks of one layout: one cluster, its record index."""


def few_shot_examples(
    record: GridRecord, pool: list[GridRecord], k: int, rng: random.Random
) -> list[tuple[list[list[str]], list[list[str]]]]:
    """``k`` solved records of the same subject, never one with the query's own input grid (upstream's rule)."""
    others = [r for r in pool if r.input_grid != record.input_grid]
    return [(r.input_grid, r.ground_truth) for r in rng.sample(others, min(k, len(others)))]


def to_sample(
    record: GridRecord,
    subject: str,
    options: SampleOptions = SampleOptions(),
    pool: list[GridRecord] | None = None,
) -> Sample:
    """One Inspect sample: the prompt, the truth as target, the (rotated) grids and the load direction in metadata.

    Few-shot examples come from ``pool`` (the subject's records), drawn with a generator seeded by the task seed,
    the subject and the record, so a sample's prompt does not depend on which other samples run.
    """
    turns = options.rotation
    examples = []
    if options.few_shot:
        rng = random.Random(f"{options.seed}:{subject}:{record.index}")
        examples = [
            (rotate_grid(i, turns), rotate_grid(t, turns))
            for i, t in few_shot_examples(record, pool or [], options.few_shot, rng)
        ]
    input_grid, truth = rotate_grid(record.input_grid, turns), rotate_grid(record.ground_truth, turns)
    sample_id = f"{subject}-{record.index}" + (f"-r{turns % 4}" if turns % 4 else "")
    prompt = build_prompt(input_grid, subject, options.style, examples, options.wording)
    return _sample(
        sample_id,
        prompt,
        subject,
        input_grid,
        truth,
        rotate_direction(tuple(record.load_direction or DOWN), turns),  # type: ignore[arg-type]
        {
            "index": record.index,
            "rotation": turns % 4,
            "few_shot": len(examples),
            "corpus": options.corpus,
            "load_direction_stored": record.load_direction is not None,
        },
    )


def _sample(
    sample_id: str,
    prompt: str,
    subject: str,
    input_grid: list[list[str]],
    truth: list[list[str]],
    gravity: tuple[float, float],
    extra: dict,
) -> Sample:
    # The user message carries the sample id (the replay model's key) and what the retrieval baselines need.
    message_meta = {"sphyr_subject": subject, **{f"sphyr_{k}": v for k, v in extra.items()}}
    return Sample(
        id=sample_id,
        input=[ChatMessageUser(content=prompt, metadata=message_meta)],
        target=render_grid(truth),
        metadata={
            "benchmark": "sphyr",
            "subject": subject,
            CLUSTER.key: str(extra["index"]),
            "input_grid": pack_grid(input_grid),
            "ground_truth": pack_grid(truth),
            "gravity": list(gravity),
            **extra,
        },
    )


def published_sample(sample: PublishedSample) -> Sample:
    """A sample of a published results file: its prompt verbatim, its truth, its folder's gravity."""
    return _sample(
        sample.id,
        sample.prompt,
        sample.subject,
        sample.input_grid,
        sample.ground_truth,
        sample.gravity,
        {"index": sample.position, "published_file": sample.source},
    )


def to_dataset(
    records_by_subject: dict[str, list[GridRecord]],
    name: str,
    options: SampleOptions = SampleOptions(),
    pools: dict[str, list[GridRecord]] | None = None,
    corpora: dict[str, str] | None = None,
) -> MemoryDataset:
    """All samples of the given subjects in one dataset (``corpora``: each subject's file, for retrieval)."""
    samples = [
        to_sample(
            r,
            subject,
            dataclasses.replace(options, corpus=(corpora or {}).get(subject, options.corpus)),
            (pools or {}).get(subject, records),
        )
        for subject, records in records_by_subject.items()
        for r in records
    ]
    return MemoryDataset(samples, name=name)


def _metrics(reference: Reference) -> list:
    # ``invalid_output_grid`` is the parse-failure rate, apart from wrong answers; ``budget_exhausted`` the
    # share of replies the output limit cut off before any answer (apart from both).
    names = (*METRIC_NAMES, "invalid_output_grid", "budget_exhausted", *metric_names(reference))
    # The headlines first (Inspect's console shows metrics in this order and cuts the line at its width).
    first = [n for n in HEADLINE_METRICS if n in names]
    # The headlines carry their standard error over layouts (a layout's 16 subjects are correlated).
    return [
        {
            name: [mean(), stderr(cluster=CLUSTER.key)] if name in first else [mean()]
            for name in (*first, *(n for n in names if n not in first))
        }
    ]


def _score_fn(
    parser: Parser,
    physics: bool,
    reference: Reference,
    invalid_physics: bool = False,
    load_direction: LoadDirection = "published",
):
    def instrument_failed(error: Exception, metadata: dict, answer: str, valid: bool | None) -> Score:
        # mechbench's own judge failed: not the model's failure
        return Score.unscored(
            reason=INSTRUMENT_FAILURE,
            answer=answer,
            explanation=f"mechbench's physics judge failed on this answer: {instrument_error(error)}",
            metadata={"subject": metadata["subject"], "valid_output_grid": valid},
        )

    async def score(state: TaskState, target: Target) -> Score:
        metadata = state.metadata
        if metadata.get(JUDGE_FAILED_KEY):  # the judge already failed between feedback rounds
            return Score.unscored(
                reason=INSTRUMENT_FAILURE,
                answer=state.output.completion,
                explanation=f"mechbench's physics judge failed between rounds: {metadata[JUDGE_FAILED_KEY]}",
                metadata={"subject": metadata["subject"], "valid_output_grid": None},
            )
        try:
            finding = await finding_in_worker(metadata, load_direction)
        except Exception as error:
            return instrument_failed(error, metadata, state.output.completion, None)
        # The live parser reads the answer after any inline reasoning; the paper-era one reads the raw reply.
        reply = split_reply(state.output.completion)
        text = reply.answer if parser == "current" else state.output.completion
        grids = sample_grid(metadata, "input_grid"), sample_grid(metadata, "ground_truth")
        result = mean_over_directions([score_grid(*grids, text, parser, g) for g in finding.directions])
        exhausted = budget_exhausted(state.output, reply) and not result.valid_output_grid
        extra: dict[str, float] = {}
        physics_details: dict | None = None
        if physics:
            if result.valid_output_grid or invalid_physics:
                try:
                    ps = mean_over_directions(
                        [
                            await physics_in_worker(metadata, result.parsed_grid, g, reference)
                            for g in finding.directions
                        ]
                    )
                except Exception as error:
                    return instrument_failed(error, metadata, render_grid(result.parsed_grid), result.valid_output_grid)
            else:  # the live environment's rule: an invalid grid earns no physics (every field its default)
                ps = PhysicsScore(reference=reference, default_reason="invalid grid")
            extra, physics_details = ps.metrics(), ps.fields()
        if exhausted:
            explanation = f"budget exhausted before an answer {budget_note(state.output)}"
        elif result.exact_match:
            explanation = "exact match"
        elif result.invalid_reason and parser == "current":
            explanation = f"invalid grid: {result.invalid_reason}"
        else:
            wrong, masked = result.differing_cells, result.masked_cells
            explanation = f"{wrong} cells differ from the ground truth ({masked} were masked)"
        rounds = metadata.get(ROUNDS_KEY)
        if rounds:
            extra.update(round_values(rounds, int(metadata.get("feedback_rounds", len(rounds) - 1))))
        invalid = float(not result.valid_output_grid and not exhausted)
        return Score(
            value={
                **result.metrics(),
                "invalid_output_grid": invalid,
                "budget_exhausted": float(exhausted),
                **extra,
            },
            answer=render_grid(result.parsed_grid),
            explanation=explanation,
            metadata={
                "valid_output_grid": result.valid_output_grid,
                "invalid_reason": result.invalid_reason,
                "outcome": "budget_exhausted" if exhausted else ("answered" if not invalid else "invalid"),
                "unreadable": bool(invalid),
                "repaired": False,  # the published parsers take a grid as written: nothing is repaired
                "reasoning_removed": reply.had_reasoning,
                "differing_cells": result.differing_cells,
                "masked_cells": result.masked_cells,
                "parser": parser,
                "subject": metadata["subject"],
                "physics": physics_details,
                "load_direction": finding.record(),
            },
        )

    return score


@scorer(metrics=_metrics("published"))
def sphyr_scorer(
    parser: Parser = "current",
    physics: bool = True,
    invalid_physics: bool = False,
    load_direction: LoadDirection = "published",
):
    """Cell-level, graph and physics SPhyR metrics, physics against the published reference optimum.

    ``invalid_physics``: simulate a right-shaped grid even when it is invalid (how the published results files
    were scored); by default an invalid grid gets the physics defaults (the live environment's rule).
    ``load_direction``: the published convention, or each sample's recovered load (:mod:`.load_direction`).
    """
    return _score_fn(parser, physics, "published", invalid_physics, load_direction)


@scorer(metrics=_metrics("best"))
def sphyr_scorer_best(
    parser: Parser = "current",
    physics: bool = True,
    invalid_physics: bool = False,
    load_direction: LoadDirection = "published",
):
    """As :func:`sphyr_scorer`, against mechbench's stronger optimiser; those metrics end in ``_best``."""
    return _score_fn(parser, physics, "best", invalid_physics, load_direction)


def task_metrics(reference: Reference, rounds: int) -> list:
    """The task's metric list: the scorer's, plus the per-round ones of a multi-round run."""
    if not rounds:
        return _metrics(reference)
    names = [*_metrics(reference)[0], *round_metric_names(rounds), "topology_score_best_round"]
    return [{name: [mean()] for name in names}]
