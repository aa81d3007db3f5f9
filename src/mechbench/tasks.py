"""The Inspect tasks mechbench registers (``inspect eval mechbench/<task>``). Thin: data, solver, scorer."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

from mechbench.benchmarks.sphyr import dataset as sphyr_data
from mechbench.benchmarks.sphyr.inspect_parts import sphyr_scorer, to_dataset
from mechbench.benchmarks.sphyr.parse import PARSERS


@task
def sphyr(
    subject: str = "full_easy",
    data: str | None = None,
    samples: str = "all",
    parser: str = "current",
    max_tokens: int = 16000,
) -> Task:
    """SPhyR: complete masked topology-optimisation grids.

    Args:
        subject: one of the 16 subjects, a comma list, or ``all`` (samples of every subject in one task;
            use :func:`sphyr_suite` for one task per subject).
        data: folder with ``<subject>.jsonl``, an archive URL, or a Hugging Face dataset id
            (default: the official dataset, downloaded once into the cache).
        samples: ``all``, a number, or ``paper`` (seed-42 shuffle, first 100 per subject).
        parser: ``current`` (last grid block, strict validity) or ``legacy`` (paper-era line split).
        max_tokens: generation limit (the newer published runs used 16000).
    """
    if parser not in PARSERS:
        raise ValueError(f"parser must be one of {', '.join(PARSERS)}, got {parser!r}")
    subjects = sphyr_data.parse_subjects(subject)
    records = {
        s: sphyr_data.select(sphyr_data.read_records(sphyr_data.subject_file(s, data)), samples)
        for s in subjects
    }
    return Task(
        dataset=to_dataset(records, name="sphyr:" + ",".join(subjects)),
        solver=generate(),
        scorer=sphyr_scorer(parser=parser),  # type: ignore[arg-type]
        config=GenerateConfig(max_tokens=max_tokens),
        metadata={"benchmark": "sphyr", "subjects": subjects, "parser": parser, "samples": samples},
    )


def sphyr_suite(subject: str = "all", **task_args: object) -> list[Task]:
    """One SPhyR task per subject, so results stay apart (``inspect_ai.eval(sphyr_suite(), model=...)``)."""
    return [sphyr(subject=s, **task_args) for s in sphyr_data.parse_subjects(subject)]  # type: ignore[arg-type]
