"""The SPhyR task (``inspect eval mechbench/sphyr``): data, solver, scorer and the run's provenance."""

from __future__ import annotations

import logging
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset

from mechbench.benchmarks.sphyr import dataset as sphyr_data
from mechbench.benchmarks.sphyr.feedback import sphyr_rounds
from mechbench.benchmarks.sphyr.inspect_parts import (
    SampleOptions,
    published_sample,
    sphyr_scorer,
    sphyr_scorer_best,
    task_metrics,
)
from mechbench.benchmarks.sphyr.inspect_parts import to_dataset as sphyr_dataset
from mechbench.benchmarks.sphyr.load_direction import LoadDirection
from mechbench.benchmarks.sphyr.parse import Parser
from mechbench.benchmarks.sphyr.physics_scoring import Reference
from mechbench.benchmarks.sphyr.prompts import MECHBENCH_WORDING, PromptStyle, WordingName, upstream_wording
from mechbench.benchmarks.sphyr.release import data_label, drawn_like
from mechbench.benchmarks.sphyr.replay import REPLAY_PREFIX, published_samples, results_files
from mechbench.benchmarks.sphyr.tools import sphyr_tool_solver
from mechbench.benchmarks.sphyr.versions import DEFAULT_VERSION, PROMPT_TEMPLATES_PATH, check_version, upstream_file
from mechbench.core.errors import UsageError
from mechbench.harness.reliability import reliable_generate
from mechbench.harness.task import TaskParts, benchmark_task
from mechbench.harness.tools import DEFAULT_TOOL_BUDGET
from mechbench.sources.root import DataRoot

logger = logging.getLogger(__name__)


@task
@benchmark_task("sphyr")
def sphyr(
    subject: str = "full_easy",
    data: str | None = None,
    samples: str = "all",
    parser: Parser = "current",
    physics: bool = True,
    reference: Reference = "published",
    load_direction: LoadDirection = "published",
    max_tokens: int = 16000,
    version: str = DEFAULT_VERSION,
    revision: str | None = None,
    prompt_style: PromptStyle = "default",
    wording: WordingName = "mechbench",
    few_shot: int = 0,
    rotation: int = 0,
    feedback_rounds: int = 0,
    feedback: bool = True,
    seed: int = 0,
    oracle: bool = False,
    tools: bool = False,
    tool_budget: int = DEFAULT_TOOL_BUDGET,
) -> TaskParts:
    """SPhyR: complete masked topology-optimisation grids.

    Args:
        subject: one of the 16 subjects, a comma list, or ``all`` (samples of every subject in one task;
            use :func:`sphyr_suite` for one task per subject).
        data: folder with ``<subject>.jsonl``, an archive URL, a Hugging Face dataset id, or ``bundled``
            (default: the official files of ``version``, downloaded once into the cache).
        samples: ``all``, a number, ``paper`` (seed-42 shuffle, first 100 per subject), or ``replay:PATH``
            (the exact samples of a published results file or folder of them, prompts verbatim).
        parser: ``current`` (last grid block, strict validity) or ``legacy`` (paper-era line split).
        physics: add the finite-element metrics (compliance, topology score, …); each sample then runs a
            reference re-optimisation (cached per problem, in memory and on disk).
        reference: ``published`` (the paper's reference optimum, so topology scores compare with published
            ones) or ``best`` (mechbench's stronger optimiser; its metrics end in ``_best``).
        load_direction: the load each sample is judged under: ``published`` (upstream's convention, down the
            printed grid, turned with the rotation; published numbers reproduce) or ``recovered`` (the direction the
            sample's truth was optimised for, found by re-running the published optimiser under each axis; samples
            it cannot tell are flagged in the log). Both apply to the physics and the directional graph metrics.
        max_tokens: generation limit (the newer published runs used 16000).
        version: ``v1`` (the paper's), ``v2`` (10×10, what upstream recommends for new work) or ``v2-20`` (20×20).
        revision: upstream commit of the v2 / v2-20 files and texts (default: the pinned one).
        prompt_style: ``default`` (the published prompt), ``physics_enhanced`` or ``physics_neutral``.
        wording: ``mechbench`` (mechbench's own wording of the variants) or ``upstream`` (upstream's texts,
            read at run time from the upstream repository).
        few_shot: solved examples of the same subject shown before the question (never the sample itself).
        rotation: quarter turns clockwise applied to every grid; the load direction turns with them.
        feedback_rounds: extra attempts after the first, each scored.
        feedback: tell the model what the simulation found between attempts (``false``: fresh redraws of the
            same prompt, the control).
        seed: seed of the few-shot draws.
        oracle: answer every sample with its ground truth, call no model (the top of the scale).
        tools: the tool setting: the model may call ``analyse_grid`` on its own candidate grids before it submits
            one (no feedback rounds).
        tool_budget: tool calls per sample in the tool setting.
    """
    if few_shot < 0 or feedback_rounds < 0:
        raise UsageError("few_shot and feedback_rounds must not be negative")
    if tools and feedback_rounds:
        raise UsageError("tools=true and feedback_rounds are two settings: choose one")
    version = check_version(version)
    texts = (
        upstream_wording(upstream_file(PROMPT_TEMPLATES_PATH, revision)) if wording == "upstream" else MECHBENCH_WORDING
    )
    subjects = sphyr_data.parse_subjects(subject)
    replay = isinstance(samples, str) and samples.startswith(REPLAY_PREFIX)
    if replay:
        if few_shot or rotation or prompt_style != "default":
            raise UsageError("replayed samples keep their published prompts: no few_shot, rotation or prompt_style")
        found = results_files(Path(samples[len(REPLAY_PREFIX) :]).expanduser(), subjects if subject != "all" else None)
        published = [p for s, file in found.items() for p in published_samples(file, s)]
        dataset = MemoryDataset([published_sample(p) for p in published], name="sphyr-replay:" + ",".join(found))
        files = list(found.values())
        source: str | DataRoot = samples
        subjects = list(found)
        data_set = "published samples replayed"
    else:
        source = sphyr_data.open_sphyr(data, version, revision)
        paths = {s: sphyr_data.subject_file(s, source, version=version) for s in subjects}
        like = drawn_like(paths) if data not in (None, "bundled") else None
        if like is not None and like != version:
            raise UsageError(f"-T data={data} is a set drawn like {like}: pass -T version={like}")
        pools = {s: sphyr_data.read_records(path) for s, path in paths.items()}
        if data == "bundled" and physics and reference == "published":
            from mechbench.benchmarks.sphyr.optimum_cache import load_shipped

            # mechbench's own set carries its judge's optima (never taken from other data: a set's author could
            # make any answer look optimal).
            for folder in {path.parent for path in paths.values()}:
                load_shipped(folder)
        if data is None:
            for s, pool in pools.items():
                sphyr_data.check_size(pool, version, f"official {version} {s}")
        records = {s: sphyr_data.select(pool, samples) for s, pool in pools.items()}
        options = SampleOptions(style=prompt_style, wording=texts, few_shot=few_shot, rotation=rotation, seed=seed)
        dataset = sphyr_dataset(
            records,
            name="sphyr:" + ",".join(subjects),
            options=options,
            pools=pools,
            corpora={s: str(p) for s, p in paths.items()},
        )
        files = list(paths.values())
        data_set = data_label(data, paths)
    gravity = _gravity_note(dataset, version, replay, data == "bundled", load_direction)
    scorer_fn = sphyr_scorer if reference == "published" else sphyr_scorer_best
    return TaskParts(
        dataset=dataset,
        solver=(
            sphyr_rounds(feedback_rounds, feedback, reference, texts, load_direction)
            if feedback_rounds
            else reliable_generate()
        ),
        tool_solver=sphyr_tool_solver,
        scorer=scorer_fn(parser=parser, physics=physics, invalid_physics=replay, load_direction=load_direction),  # type: ignore[arg-type]
        metrics=task_metrics(reference, feedback_rounds) if feedback_rounds else None,  # type: ignore[arg-type]
        data=source,
        files=files,
        setting="feedback rounds" if feedback_rounds else "single answer",
        answer_calls=1 + feedback_rounds,
        max_tokens=max_tokens,
        settings={
            "subjects": subjects,
            "version": version,
            "data_set": data_set,
            "parser": parser,
            "samples": samples,
            "physics": physics,
            "physics_on_invalid_grids": replay,
            "reference": reference,
            "gravity": gravity,
            "load_direction": load_direction,
            "prompt_style": prompt_style,
            "wording": texts.name,
            "few_shot": few_shot,
            "rotation": rotation % 4,
            "feedback_rounds": feedback_rounds,
            "feedback": feedback if feedback_rounds else None,
        },
    )


def _gravity_note(
    dataset: MemoryDataset, version: str, replay: bool, bundled: bool, convention: LoadDirection = "published"
) -> str:
    """How the load direction of this run's samples was chosen (said in the log; a console warning for v2)."""
    directions = {tuple(s.metadata["gravity"]) for s in dataset if s.metadata}
    stored = any(s.metadata.get("load_direction_stored") for s in dataset if s.metadata)
    if stored:
        return "per record (load_direction written by mechbench's generator), turned with the rotation"
    if convention == "recovered":
        return (
            "recovered per sample: the axis under which the published optimiser reproduces the truth (each sample's "
            "score metadata says recovered, ambiguous or not recovered; not recovered falls back to the published "
            "convention)"
        )
    if bundled:
        return "down the printed grid (mechbench's bundled set has its loads on the top edge), turned with the rotation"
    if replay:
        return f"from the results folder's name, as the published rescoring reads it: {sorted(directions)}"
    if version != "v1":
        logger.warning(
            "SPhyR %s records without a stored load_direction are judged with the load down the printed grid "
            "(upstream's convention, which reproduces published numbers); for a v1-style set pass -T version=v1, "
            "to judge each sample under the axis its truth was optimised for pass -T load_direction=recovered",
            version,
        )
        return "down the printed grid (upstream's v2 convention: records do not store their generation direction)"
    return "down the printed grid (the published v1 convention), turned with the rotation"


def sphyr_suite(subject: str = "all", **task_args: object) -> list[Task]:
    """One SPhyR task per subject, so results stay apart (``inspect_ai.eval(sphyr_suite(), model=...)``)."""
    return [sphyr(subject=s, **task_args) for s in sphyr_data.parse_subjects(subject)]  # type: ignore[arg-type]
