"""The OpenSeeSimE task (``inspect eval mechbench/openseesime``): data, solver, scorer, provenance."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import task

from mechbench.benchmarks.openseesime.dataset import Domain, Subset, open_openseesime, stream_questions
from mechbench.benchmarks.openseesime.generated_set import WRITER_VERSION, bundled_set
from mechbench.benchmarks.openseesime.inspect_parts import openseesime_scorer
from mechbench.benchmarks.openseesime.inspect_parts import to_dataset as openseesime_dataset
from mechbench.benchmarks.openseesime.protocol import TEMPERATURE as OPENSEESIME_TEMPERATURE
from mechbench.benchmarks.openseesime.protocol import VIDEO_FRAMES as OPENSEESIME_FRAMES
from mechbench.core.errors import UsageError
from mechbench.core.limits import MAX_SAMPLES_PER_RUN
from mechbench.harness.task import TaskParts, benchmark_task
from mechbench.sources.root import BUNDLED, DataRoot

GENERATED_SOURCE = "bundled: mechbench's generated SeeSim simulations as OpenSeeSimE questions"


@task
@benchmark_task("openseesime")
def openseesime(
    domain: Domain = "structural",
    subset: Subset = "mini",
    data: str | None = None,
    revision: str | None = None,
    samples: str = "all",
    max_tokens: int = 8192,
    oracle: bool = False,
) -> TaskParts:
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
    try:
        limit = None if str(samples) == "all" else int(samples)
    except ValueError:
        raise UsageError(f"samples must be 'all' or a number, got {samples!r}") from None
    if limit is not None and not 1 <= limit <= MAX_SAMPLES_PER_RUN:
        raise UsageError(f"samples must be 'all' or a number from 1 to {MAX_SAMPLES_PER_RUN}, got {samples!r}")
    if data == BUNDLED:
        root = DataRoot("openseesime", "bundled", bundled_set(domain), GENERATED_SOURCE)
    else:
        root = open_openseesime(data, domain, subset, revision)
    questions, shards = [], []
    for question, shard in stream_questions(root, MAX_SAMPLES_PER_RUN + 1 if limit is None else limit):
        questions.append(question)
        if shard not in shards:
            shards.append(shard)
    if len(questions) > MAX_SAMPLES_PER_RUN:
        raise UsageError(
            f"{root.description} holds more than {MAX_SAMPLES_PER_RUN} questions, more than one run holds; "
            "pass -T samples=N to run the first N"
        )
    if not questions:
        raise UsageError(f"no OpenSeeSimE questions in {root.description}")
    return TaskParts(
        dataset=openseesime_dataset(questions, domain),
        scorer=openseesime_scorer(),
        data=root,
        files=sorted({Path(q.media) for q in questions}),
        max_tokens=max_tokens,
        temperature=OPENSEESIME_TEMPERATURE,
        settings={
            "domain": domain,
            "subset": subset,
            "generated": f"openseesime writer {WRITER_VERSION}" if root.is_bundled else None,
            "shards": shards,
            "protocol": f"multiple choice, first-line answer, {OPENSEESIME_FRAMES} centred video frames, temperature 0",
        },
    )
