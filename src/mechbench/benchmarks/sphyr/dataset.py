"""SPhyR records: the 16 subjects, where their files live, and the published sample selection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ValidationError, field_validator

from mechbench.benchmarks.sphyr.generate import SUBJECT_KINDS
from mechbench.benchmarks.sphyr.versions import (
    DATA_FOLDERS,
    DATA_ROOT,
    GRID_SIZES,
    UPSTREAM_REPOSITORY,
    UPSTREAM_REVISION,
    Version,
    upstream_path,
)
from mechbench.core import safejson
from mechbench.core.errors import DataSourceError, UsageError
from mechbench.core.limits import MAX_RECORDS_PER_FILE, check_count, check_grid
from mechbench.sources.files import read_data_text, within
from mechbench.sources.root import DataRoot, Official, open_data

SUBJECTS: tuple[str, ...] = tuple(f"{kind}_{level}" for kind in SUBJECT_KINDS for level in ("easy", "hard"))
V1_DATASET = "philippds/SPhyR"
"""The official v1 dataset on the Hugging Face hub (configs point at ``datasets/<subject>.jsonl``)."""


def official(version: Version) -> Official:
    """Where the publisher keeps ``version``: v1 on the hub, v2 and v2-20 in the upstream repository."""
    if version == "v1":
        return Official("hub", V1_DATASET, None, folder="datasets/<subject>.jsonl", title="SPhyR v1")
    folder = f"{DATA_ROOT}/{DATA_FOLDERS[version]}"
    return Official("files", UPSTREAM_REPOSITORY, UPSTREAM_REVISION, folder=folder, title=f"SPhyR {version}")


PAPER_SEED = 42
PAPER_SAMPLES = 100


class GridRecord(BaseModel):
    """One SPhyR record: the masked input and the ground truth, both as grids of string tokens."""

    index: int
    input_grid: list[list[str]]
    ground_truth: list[list[str]]
    load_direction: tuple[float, float] | None = None
    """(row, col) direction of the load, written by mechbench's v2 generator (upstream records have none)."""

    @field_validator("input_grid", "ground_truth", mode="before")
    @classmethod
    def _tokens(cls, value: Any) -> Any:
        if isinstance(value, list):
            try:
                check_grid(value, "the grid", "record")
            except DataSourceError as error:
                raise ValueError(str(error)) from None
            return [[str(cell) for cell in row] if isinstance(row, list) else row for row in value]
        return value

    @field_validator("ground_truth")
    @classmethod
    def _rectangular(cls, value: list[list[str]]) -> list[list[str]]:
        if not value or any(len(row) != len(value[0]) for row in value) or not value[0]:
            raise ValueError("ground_truth must be a non-empty rectangular grid")
        return value


def parse_subjects(subject: str | list[str]) -> list[str]:
    """``all``, one subject, or a comma list (or list) of subjects, validated."""
    names = subject if isinstance(subject, list) else [s.strip() for s in str(subject).split(",") if s.strip()]
    if names == ["all"]:
        return list(SUBJECTS)
    unknown = [n for n in names if n not in SUBJECTS]
    if unknown or not names:
        raise DataSourceError(
            f"unknown SPhyR subject {', '.join(unknown) or '(none)'}; one of: all, {', '.join(SUBJECTS)}"
        )
    return names


def open_sphyr(
    data: DataRoot | str | Path | None = None,
    version: Version = "v1",
    revision: str | None = None,
    endpoint: str | None = None,
) -> DataRoot:
    """The data a task names, resolved once: with no ``data``, v1 from the hub and v2 / v2-20 from the upstream
    repository at ``revision`` (default: the pinned commit), each subject file fetched when it is read;
    ``bundled``: mechbench's generated set; a folder, an archive URL or a Hugging Face dataset id."""
    if isinstance(data, DataRoot):
        return data
    return open_data("sphyr", data, official(version), revision=revision, endpoint=endpoint)


def subject_file(subject: str, data: DataRoot | str | Path | None = None, *, version: Version = "v1") -> Path:
    """Local path of ``<subject>.jsonl`` of ``version`` in the data (fetched first from a remote source).

    In a folder holding several versions (a clone of the upstream repository), the version's own folder wins over
    the shallowest file of that name.
    """
    root = open_sphyr(data, version)
    if root.remote is not None:
        kind = root.remote.kind
        return root.file(upstream_path(version, subject) if kind == "files" else f"datasets/{subject}.jsonl")
    own = [p / f"{subject}.jsonl" for p in root.folders(DATA_FOLDERS[version])]
    own = [p for p in own if p.is_file()]
    return within(root.path, own[0]) if own else root.find(f"{subject}.jsonl")


def check_size(records: list[GridRecord], version: Version, where: str, flag: str = "-T version=") -> None:
    """Refuse records whose grids are not the version's size (v2-20 asked, 10×10 given, or the reverse); the hint
    names the version as the command takes it (``flag``)."""
    size = GRID_SIZES[version]
    for record in records:
        rows, cols = len(record.ground_truth), len(record.ground_truth[0])
        if rows != size or cols != size:
            others = [v for v, s in GRID_SIZES.items() if s == rows == cols]
            hint = f"; for {rows}×{cols} grids use {flag}{others[0]}" if others else ""
            raise DataSourceError(
                f"{where}: record {record.index} is {rows}×{cols}, but SPhyR {version} has {size}×{size} grids{hint}"
            )


def read_records(path: Path) -> list[GridRecord]:
    """Every record of a SPhyR JSONL file; a malformed line is an error naming the line."""
    records = []
    lines = read_data_text(path).splitlines()
    check_count(sum(1 for line in lines if line.strip()), MAX_RECORDS_PER_FILE, "records", path.name)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(GridRecord.model_validate(safejson.loads(line)))
        except (ValueError, ValidationError) as error:  # JSONDecodeError, JSONNestingError, ValidationError
            first = str(error).splitlines()[0]
            if isinstance(error, ValidationError) and error.errors():
                detail = error.errors()[0]
                first = f"{'.'.join(str(p) for p in detail['loc'][:1])}: {detail['msg']}"
            raise DataSourceError(f"{path.name} line {number}: not a SPhyR record ({first})") from None
    return records


def select(records: list[GridRecord], samples: str | int) -> list[GridRecord]:
    """``all``, the first N, or ``paper``: shuffled with seed 42, first 100.

    ``paper`` uses the permutation ``numpy.random.default_rng(42).permutation(n)``, which is what the
    published evaluation's ``datasets.Dataset.shuffle(seed=42)`` draws.
    """
    if samples == "all":
        return list(records)
    if samples == "paper":
        order = np.random.default_rng(PAPER_SEED).permutation(len(records))
        return [records[i] for i in order[:PAPER_SAMPLES]]
    try:
        count = int(samples)
    except (TypeError, ValueError):
        raise UsageError(f"samples must be 'all', 'paper' or a number, got {samples!r}") from None
    if count < 1:  # no samples is no run: a one-line refusal here, not Inspect's traceback about an empty dataset
        raise UsageError(f"samples must be 'all', 'paper' or a number of at least 1, got {count}")
    return list(records[:count])
