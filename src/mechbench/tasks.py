"""The Inspect tasks mechbench registers (``inspect eval mechbench/<task>``). Thin: data, solver, scorer."""

from __future__ import annotations

import logging
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset

from mechbench.benchmarks.openseesime.dataset import DOMAINS as OPENSEESIME_DOMAINS
from mechbench.benchmarks.openseesime.dataset import SUBSETS as OPENSEESIME_SUBSETS
from mechbench.benchmarks.openseesime.dataset import dataset_id as openseesime_id
from mechbench.benchmarks.openseesime.dataset import default_revision as openseesime_revision
from mechbench.benchmarks.openseesime.dataset import stream_questions
from mechbench.benchmarks.openseesime.inspect_parts import openseesime_scorer
from mechbench.benchmarks.openseesime.inspect_parts import to_dataset as openseesime_dataset
from mechbench.benchmarks.openseesime.protocol import TEMPERATURE as OPENSEESIME_TEMPERATURE
from mechbench.benchmarks.openseesime.protocol import VIDEO_FRAMES as OPENSEESIME_FRAMES
from mechbench.benchmarks.seesim.dataset import DEFAULT_REVISION as SEESIM_DEFAULT_REVISION
from mechbench.benchmarks.seesim.dataset import DEFAULT_SOURCE as SEESIM_DEFAULT_SOURCE
from mechbench.benchmarks.seesim.dataset import (
    VERIFIED_QUESTIONS_SHA256,
    benchmark_root,
    generator_info,
    load_items,
    questions_file,
)
from mechbench.benchmarks.seesim.dataset import official_source as seesim_source
from mechbench.benchmarks.seesim.inspect_parts import seesim_scorer, seesim_solver
from mechbench.benchmarks.seesim.inspect_parts import to_dataset as seesim_dataset
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
from mechbench.benchmarks.sphyr.parse import PARSERS
from mechbench.benchmarks.sphyr.physics_scoring import REFERENCES
from mechbench.benchmarks.sphyr.prompts import MECHBENCH_WORDING, WORDINGS, upstream_wording
from mechbench.benchmarks.sphyr.prompts import PROMPT_STYLES as SPHYR_PROMPT_STYLES
from mechbench.benchmarks.sphyr.replay import REPLAY_PREFIX, published_samples, results_files
from mechbench.benchmarks.sphyr.versions import (
    DEFAULT_VERSION,
    PROMPT_TEMPLATES_PATH,
    check_version,
    official_sphyr_source,
    upstream_file,
)
from mechbench.benchmarks.structural_eval.dataset import (
    DEFAULT_SOURCE,
    data_files,
    load_tasks,
    official_copy,
    official_source,
)
from mechbench.benchmarks.structural_eval.inspect_parts import structural_scorer, structural_solver
from mechbench.benchmarks.structural_eval.inspect_parts import to_dataset as structural_dataset
from mechbench.benchmarks.structural_eval.official_protocol import read_protocol
from mechbench.benchmarks.structural_eval.prompts import PROMPT_STYLES
from mechbench.benchmarks.structural_eval.scoring import DEFAULT_TOLERANCE, SCORINGS
from mechbench.benchmarks.structural_eval.structured import (
    LEADERBOARD_PARTIAL_CREDIT,
    LEADERBOARD_TEMPERATURES,
    PARTIAL_CREDIT,
    PROTOCOLS,
)
from mechbench.data import describe_source, files_sha256, redact_url
from mechbench.errors import UsageError
from mechbench.oracle import oracle_answer
from mechbench.providers.model import check_builtin_model
from mechbench.reliability import generate_config, reliable_generate
from mechbench.run_guard import guard_run

logger = logging.getLogger(__name__)
SEESIM_MAX_TOKENS = 8192
"""SeeSim's output budget: room for a reasoning model's thinking before its one-word answer."""


@task
def sphyr(
    subject: str = "full_easy",
    data: str | None = None,
    samples: str = "all",
    parser: str = "current",
    physics: bool = True,
    reference: str = "published",
    max_tokens: int = 16000,
    version: str = DEFAULT_VERSION,
    revision: str | None = None,
    prompt_style: str = "default",
    wording: str = "mechbench",
    few_shot: int = 0,
    rotation: int = 0,
    feedback_rounds: int = 0,
    feedback: bool = True,
    seed: int = 0,
    oracle: bool = False,
) -> Task:
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
    """
    guard_run()
    if not oracle:
        check_builtin_model("sphyr")
    if parser not in PARSERS:
        raise UsageError(f"parser must be one of {', '.join(PARSERS)}, got {parser!r}")
    if reference not in REFERENCES:
        raise UsageError(f"reference must be one of {', '.join(REFERENCES)}, got {reference!r}")
    if prompt_style not in SPHYR_PROMPT_STYLES:
        raise UsageError(f"prompt_style must be one of {', '.join(SPHYR_PROMPT_STYLES)}, got {prompt_style!r}")
    if wording not in WORDINGS:
        raise UsageError(f"wording must be one of {', '.join(WORDINGS)}, got {wording!r}")
    if few_shot < 0 or feedback_rounds < 0:
        raise UsageError("few_shot and feedback_rounds must not be negative")
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
        source = samples
        subjects = list(found)
    else:
        paths = {s: sphyr_data.subject_file(s, data, version=version, revision=revision) for s in subjects}
        pools = {s: sphyr_data.read_records(path) for s, path in paths.items()}
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
        source = describe_source(data) if data is not None else official_sphyr_source(version, revision)
    gravity = _gravity_note(dataset, version, replay, data == "bundled")
    scorer_fn = sphyr_scorer if reference == "published" else sphyr_scorer_best
    return Task(
        dataset=dataset,
        solver=(
            oracle_answer()
            if oracle
            else sphyr_rounds(feedback_rounds, feedback, reference, texts)
            if feedback_rounds
            else reliable_generate()
        ),
        scorer=scorer_fn(parser=parser, physics=physics, invalid_physics=replay),  # type: ignore[arg-type]
        metrics=task_metrics(reference, feedback_rounds) if feedback_rounds else None,  # type: ignore[arg-type]
        config=generate_config(max_tokens=max_tokens),
        metadata={
            "benchmark": "sphyr",
            "subjects": subjects,
            "version": version,
            "data_source": source,
            "data_sha256": files_sha256(files),
            "parser": parser,
            "samples": samples,
            "physics": physics,
            "physics_on_invalid_grids": replay,
            "reference": reference,
            "gravity": gravity,
            "prompt_style": prompt_style,
            "wording": texts.name,
            "few_shot": few_shot,
            "rotation": rotation % 4,
            "feedback_rounds": feedback_rounds,
            "feedback": feedback if feedback_rounds else None,
            "oracle": oracle,
        },
    )


def _gravity_note(dataset: MemoryDataset, version: str, replay: bool, bundled: bool) -> str:
    """How the load direction of this run's samples was chosen (said in the log; a console warning for v2)."""
    directions = {tuple(s.metadata["gravity"]) for s in dataset if s.metadata}
    stored = any(s.metadata.get("load_direction_stored") for s in dataset if s.metadata)
    if stored:
        return "per record (load_direction written by mechbench's generator), turned with the rotation"
    if bundled:
        return "down the printed grid (mechbench's bundled set has its loads on the top edge), turned with the rotation"
    if replay:
        return f"from the results folder's name, as the published rescoring reads it: {sorted(directions)}"
    if version != "v1":
        logger.warning(
            "SPhyR %s records do not store the load direction they were generated with; the physics and the "
            "directional graph metrics use upstream's convention (load down the grid, turned with the rotation), so "
            "published %s physics numbers are reproduced, but samples drawn sideways or diagonally are judged under "
            "another load case than the one their truth was optimised for",
            version,
            version,
        )
        return "down the printed grid (upstream's v2 convention: records do not store their generation direction)"
    return "down the printed grid (the published v1 convention), turned with the rotation"


def sphyr_suite(subject: str = "all", **task_args: object) -> list[Task]:
    """One SPhyR task per subject, so results stay apart (``inspect_ai.eval(sphyr_suite(), model=...)``)."""
    return [sphyr(subject=s, **task_args) for s in sphyr_data.parse_subjects(subject)]  # type: ignore[arg-type]


@task
def structural_eval(
    data: str | None = None,
    prompt: str = "standard",
    max_retries: int = 2,
    filter: str | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    scoring: str = "strict",
    debug: bool = False,
    max_tokens: int = 8192,
    protocol: str = "mechbench",
    temperature_first: float | None = None,
    temperature_retry: float | None = None,
    partial_credit: str | None = None,
    structured: bool = False,
    revision: str | None = None,
) -> Task:
    """StructuralEval: read a drawing, write the structure as FrameCalc JSON; the solver decides.

    Args:
        data: folder in the official layout (``data/raw_models``, ``data/ground_truth_meta``,
            ``data/images``), an archive URL, ``bundled``, or a Hugging Face dataset id (default: the
            official repository at a pinned revision).
        prompt: ``standard``, ``reasoning`` or ``strict``.
        max_retries: extra attempts after a wrong answer, each with one feedback message.
        filter: keep tasks whose id contains this (e.g. ``beam``).
        tolerance: relative tolerance of the reaction comparison (absolute floor 1e-3).
        scoring: ``strict`` (reactions per support and component, and max |M|) or ``legacy``.
        debug: answer with the ground-truth model, call no model (every task must score 1.0).
        max_tokens: generation limit.
        protocol: ``mechbench`` (mechbench's prompts and feedback) or ``official`` (the maintainers' runner:
            its prompt as the system message, its instruction, feedback and retry wording, read at run time
            from the official copy; temperatures and partial credit of the leaderboard's release).
        temperature_first: temperature of the first attempt (official default 0.1; mechbench: the provider's).
        temperature_retry: temperature of the retries (official default 0.4).
        partial_credit: ``last`` (the leaderboard release: partial credit only from the last attempt) or
            ``best`` (the best attempt; mechbench's default).
        structured: ask for JSON-schema output (providers that support it) with the FrameCalc schema.
        revision: commit, tag or branch of the official repository (default: the pinned one).
    """
    guard_run()
    if not debug:
        check_builtin_model("structural_eval")
    if prompt not in PROMPT_STYLES:
        raise UsageError(f"prompt must be one of {', '.join(PROMPT_STYLES)}, got {prompt!r}")
    if scoring not in SCORINGS:
        raise UsageError(f"scoring must be one of {', '.join(SCORINGS)}, got {scoring!r}")
    if protocol not in PROTOCOLS:
        raise UsageError(f"protocol must be one of {', '.join(PROTOCOLS)}, got {protocol!r}")
    credit = partial_credit or (LEADERBOARD_PARTIAL_CREDIT if protocol == "official" else "best")
    if credit not in PARTIAL_CREDIT:
        raise UsageError(f"partial_credit must be one of {', '.join(PARTIAL_CREDIT)}, got {partial_credit!r}")
    if max_retries < 0 or not 0 < tolerance < 1:
        raise UsageError("max_retries must be >= 0 and tolerance between 0 and 1")
    if data is None and revision is not None:
        data = official_source(revision)
    tasks = load_tasks(data, filter=filter)
    official = read_protocol(official_copy(data)) if protocol == "official" else None
    first, retry = LEADERBOARD_TEMPERATURES if official else (None, None)
    first = temperature_first if temperature_first is not None else first
    retry = temperature_retry if temperature_retry is not None else retry
    temperatures = (first, retry if retry is not None else first) if first is not None else None
    return Task(
        dataset=structural_dataset(tasks, prompt, official),  # type: ignore[arg-type]
        solver=structural_solver(
            max_retries=max_retries,
            tolerance=tolerance,
            scoring=scoring,  # type: ignore[arg-type]
            debug=debug,
            official=official,
            temperatures=temperatures,  # type: ignore[arg-type]
            structured=structured,
        ),
        scorer=structural_scorer(partial_credit=credit),  # type: ignore[arg-type]
        config=generate_config(max_tokens=max_tokens),
        metadata={
            "benchmark": "structural_eval",
            "prompt": prompt,
            "scoring": scoring,
            "tolerance": tolerance,
            "protocol": protocol,
            "partial_credit": credit,
            "temperatures": list(temperatures) if temperatures else None,
            "structured": structured,
            "data_source": describe_source(data) if data is not None else DEFAULT_SOURCE,
            "data_sha256": files_sha256(data_files(data)),
            "official_texts": official.sources if official else None,
            "official_runner_temperatures": list(official.runner_temperatures or ()) if official else None,
        },
    )


@task
def seesim(
    modality: str = "image",
    domain: str = "all",
    files: str | list[str] | None = None,
    data: str | None = None,
    video_mode: str = "frames",
    fps: float = 1.0,
    max_frames: int | None = None,
    max_tokens: int = SEESIM_MAX_TOKENS,
    revision: str | None = None,
    oracle: bool = False,
) -> Task:
    """SeeSim: true/false questions about structural and fluid simulations.

    Args:
        modality: ``image``, ``video`` or ``text`` (the simulation report).
        domain: ``structural``, ``fluid`` or ``all``.
        files: question-file keys to keep (``File_1``..``File_12``; fluid is File_7..File_12), comma list or list.
        data: folder in the published layout (the published set or one from ``mechbench generate seesim``), an
            archive URL, or ``bundled`` (mechbench's generated offline set); default: the published repository's
            archive.
        video_mode: ``frames`` (one question per sampled frame, majority vote) or ``native`` (the video itself).
        fps: frames per second sampled in ``frames`` mode.
        max_frames: at most this many frames per video, spread evenly.
        max_tokens: generation limit, reasoning included (the published runs used 512, which a reasoning model
            spends before it answers; ``-T max_tokens=512`` reproduces them).
        revision: branch, tag or commit of the publisher's repository (default: the pinned commit; the questions
            file is also checked against the verified copy's content hash).
        oracle: answer every question with its ground truth, call no model (the top of the scale).
    """
    guard_run()
    if not oracle:
        check_builtin_model("seesim")
    if video_mode not in ("frames", "native"):
        raise UsageError(f"video_mode must be frames or native, got {video_mode!r}")
    if fps <= 0 or (max_frames is not None and max_frames < 1):
        raise UsageError("fps must be positive and max_frames at least 1")
    selected = [f.strip() for f in files.split(",")] if isinstance(files, str) else files
    if data is None and revision is not None:
        data = seesim_source(revision)
    items, skipped = load_items(data, modality, domain, selected)
    root = benchmark_root(data)
    digest = files_sha256([questions_file(root)])
    verified = digest == VERIFIED_QUESTIONS_SHA256
    generated = generator_info(root)
    if generated:
        logger.warning(
            f"SeeSim: simulations generated by mechbench (seed {generated.get('seed')}, generator "
            f"v{generated.get('version')}, question wording: {generated.get('question_wording')}), not the published "
            "set; published numbers do not apply"
        )
    elif not verified:
        logger.warning(
            "SeeSim: the questions file differs from the published copy mechbench is verified against "
            f"(SHA-256 {digest[:12]}…, expected {VERIFIED_QUESTIONS_SHA256[:12]}…); published numbers may not apply"
        )
    if skipped:  # said on the console too, not only in the log: the run asks fewer questions than published
        logger.warning(
            f"SeeSim {modality}: {len(skipped)} file(s) have no {modality} media and are left out "
            f"({', '.join(skipped)}); their questions are not asked"
        )
    return Task(
        dataset=seesim_dataset(items, modality, video_mode, fps, max_frames),
        solver=oracle_answer() if oracle else seesim_solver(),
        scorer=seesim_scorer(),
        config=generate_config(max_tokens=max_tokens),
        metadata={
            "benchmark": "seesim",
            "modality": modality,
            "domain": domain,
            "video_mode": video_mode,
            "fps": fps,
            "skipped_for_missing_media": skipped,
            "data_source": describe_source(data) if data is not None else SEESIM_DEFAULT_SOURCE,
            "revision": revision or (SEESIM_DEFAULT_REVISION if data is None else None),
            "data_sha256": digest,
            "verified_copy": verified,
            "generated": generated,
            "oracle": oracle,
        },
    )


@task
def openseesime(
    domain: str = "structural",
    subset: str = "mini",
    data: str | None = None,
    revision: str | None = None,
    samples: str = "all",
    max_tokens: int = 8192,
) -> Task:
    """OpenSeeSimE: multiple-choice questions on parametric simulations (SeeSim's successor).

    Args:
        domain: ``structural`` or ``fluid``.
        subset: ``mini`` and ``small`` (the publisher's stratified subsets) or ``full`` (~175 GB, streamed).
        data: a folder of parquet shards or a Hugging Face dataset id (default: the publisher's for the domain
            and subset).
        revision: dataset revision (default: the pinned commit where one is known, else main).
        samples: ``all`` or the first N questions (only the shards they come from are downloaded).
        max_tokens: generation limit, reasoning included.
    """
    guard_run()
    if domain not in OPENSEESIME_DOMAINS:
        raise UsageError(f"domain must be one of {', '.join(OPENSEESIME_DOMAINS)}, got {domain!r}")
    if subset not in OPENSEESIME_SUBSETS:
        raise UsageError(f"subset must be one of {', '.join(OPENSEESIME_SUBSETS)}, got {subset!r}")
    try:
        limit = None if str(samples) == "all" else int(samples)
    except ValueError:
        raise UsageError(f"samples must be 'all' or a number, got {samples!r}") from None
    source = data or openseesime_id(domain, subset)  # type: ignore[arg-type]
    rev = revision or openseesime_revision(source)
    questions, shards = [], []
    for question, shard in stream_questions(source, rev, limit):
        questions.append(question)
        if shard not in shards:
            shards.append(shard)
    if not questions:
        raise UsageError(f"no OpenSeeSimE questions in {redact_url(source)}")
    media = sorted({Path(q.media) for q in questions})
    return Task(
        dataset=openseesime_dataset(questions, domain),
        solver=reliable_generate(),
        scorer=openseesime_scorer(),
        config=generate_config(max_tokens=max_tokens, temperature=OPENSEESIME_TEMPERATURE),
        metadata={
            "benchmark": "openseesime",
            "domain": domain,
            "subset": subset,
            "data_source": describe_source(source),
            "revision": rev if data is None or not Path(str(data)).is_dir() else None,
            "shards": shards,
            "data_sha256": files_sha256(media),
            "protocol": f"multiple choice, first-line answer, {OPENSEESIME_FRAMES} centred video frames, temperature 0",
        },
    )
