"""The OpenSeeSimE task (``inspect eval mechbench/openseesime``): data, solver, scorer, provenance."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import Task, task

from mechbench.benchmarks.openseesime.dataset import Domain, Subset, stream_questions
from mechbench.benchmarks.openseesime.dataset import dataset_id as openseesime_id
from mechbench.benchmarks.openseesime.dataset import default_revision as openseesime_revision
from mechbench.benchmarks.openseesime.generated_set import WRITER_VERSION, bundled_set
from mechbench.benchmarks.openseesime.inspect_parts import openseesime_scorer
from mechbench.benchmarks.openseesime.inspect_parts import to_dataset as openseesime_dataset
from mechbench.benchmarks.openseesime.protocol import TEMPERATURE as OPENSEESIME_TEMPERATURE
from mechbench.benchmarks.openseesime.protocol import VIDEO_FRAMES as OPENSEESIME_FRAMES
from mechbench.core.errors import DataSourceError, UsageError
from mechbench.core.limits import MAX_SAMPLES_PER_RUN
from mechbench.core.text import redact_url
from mechbench.harness.arguments import validated
from mechbench.harness.guard import guard_run
from mechbench.harness.oracle import oracle_answer
from mechbench.harness.reliability import generate_config, reliable_generate
from mechbench.harness.shown import loggable_dataset
from mechbench.registry import check_builtin_model
from mechbench.sources.files import files_sha256
from mechbench.sources.resolve import describe_source

BUNDLED_NAME = "bundled"
GENERATED_SOURCE = "bundled: mechbench's generated SeeSim simulations as OpenSeeSimE questions"


@task
@validated
def openseesime(
    domain: Domain = "structural",
    subset: Subset = "mini",
    data: str | None = None,
    revision: str | None = None,
    samples: str = "all",
    max_tokens: int = 8192,
    oracle: bool = False,
) -> Task:
    """OpenSeeSimE: multiple-choice questions on parametric simulations (SeeSim's successor).

    Args:
        domain: ``structural`` or ``fluid``.
        subset: ``mini`` and ``small`` (the publisher's stratified subsets) or ``full`` (~175 GB, streamed).
        data: a folder of parquet shards, a Hugging Face dataset id (default: the publisher's for the domain and
            subset), or ``bundled``: mechbench's bundled SeeSim simulations asked as OpenSeeSimE questions, offline.
        revision: dataset revision (default: the pinned commit where one is known, else main).
        samples: ``all`` or the first N questions (only the shards they come from are downloaded).
        max_tokens: generation limit, reasoning included.
        oracle: answer every question with its correct letter, call no model (the top of the scale).
    """
    guard_run()
    if not oracle:
        check_builtin_model("openseesime")
    try:
        limit = None if str(samples) == "all" else int(samples)
    except ValueError:
        raise UsageError(f"samples must be 'all' or a number, got {samples!r}") from None
    if limit is not None and not 1 <= limit <= MAX_SAMPLES_PER_RUN:
        raise UsageError(f"samples must be 'all' or a number from 1 to {MAX_SAMPLES_PER_RUN}, got {samples!r}")
    generated = data == BUNDLED_NAME
    source = str(bundled_set(domain)) if generated else data or openseesime_id(domain, subset)
    rev = revision or openseesime_revision(source)
    questions, shards = [], []
    try:
        for question, shard in stream_questions(source, rev, MAX_SAMPLES_PER_RUN + 1 if limit is None else limit):
            questions.append(question)
            if shard not in shards:
                shards.append(shard)
    except DataSourceError as error:
        if generated or Path(source).expanduser().is_dir():
            raise
        raise DataSourceError(
            f"{error}; for mechbench's own generated set, offline, use -T data=bundled "
            "(or point -T data= at a local folder of the publisher's parquet shards)"
        ) from None
    if len(questions) > MAX_SAMPLES_PER_RUN:
        raise UsageError(
            f"{redact_url(source)} holds more than {MAX_SAMPLES_PER_RUN} questions, more than one run holds; "
            "pass -T samples=N to run the first N"
        )
    if not questions:
        raise UsageError(f"no OpenSeeSimE questions in {redact_url(source)}")
    media = sorted({Path(q.media) for q in questions})
    return Task(
        dataset=loggable_dataset(openseesime_dataset(questions, domain)),
        solver=oracle_answer() if oracle else reliable_generate(),
        scorer=openseesime_scorer(),
        config=generate_config(max_tokens=max_tokens, temperature=OPENSEESIME_TEMPERATURE),
        metadata={
            "benchmark": "openseesime",
            "domain": domain,
            "subset": subset,
            "data_source": GENERATED_SOURCE if generated else describe_source(source),
            "revision": rev if not generated and (data is None or not Path(str(data)).is_dir()) else None,
            "generated": f"openseesime writer {WRITER_VERSION}" if generated else None,
            "shards": shards,
            "data_sha256": files_sha256(media),
            "oracle": oracle,
            "protocol": f"multiple choice, first-line answer, {OPENSEESIME_FRAMES} centred video frames, temperature 0",
        },
    )
