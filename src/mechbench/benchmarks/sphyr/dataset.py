"""SPhyR records: the 16 subjects, where their files live, and the published sample selection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ValidationError, field_validator

from mechbench.benchmarks.sphyr.generate import SUBJECT_KINDS
from mechbench.benchmarks.sphyr.versions import (
    DATA_FOLDERS,
    GRID_SIZES,
    UPSTREAM_REPOSITORY,
    UPSTREAM_REVISION,
    Version,
    upstream_path,
)
from mechbench.core import safejson
from mechbench.core.errors import DataSourceError
from mechbench.core.limits import MAX_RECORDS_PER_FILE, check_count, check_grid
from mechbench.sources.files import find_file, read_data_text, within
from mechbench.sources.github import fetch_repository_files
from mechbench.sources.hub import HUB_ENDPOINT
from mechbench.sources.resolve import resolve_or_official

SUBJECTS: tuple[str, ...] = tuple(f"{kind}_{level}" for kind in SUBJECT_KINDS for level in ("easy", "hard"))
DEFAULT_SOURCE = "philippds/SPhyR"
"""The official v1 dataset on the Hugging Face hub (configs point at ``datasets/<subject>.jsonl``)."""
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


def subject_file(
    subject: str,
    source: str | Path | None = None,
    *,
    version: Version = "v1",
    revision: str | None = None,
    endpoint: str = HUB_ENDPOINT,
) -> Path:
    """Local path of ``<subject>.jsonl`` of ``version`` from a folder, an archive URL, the hub or upstream.

    With no ``source``: v1 from the hub (downloaded once), v2 / v2-20 from the upstream repository at
    ``revision`` (default: the pinned commit). In a folder holding several versions (a clone of the upstream
    repository), the version's own folder wins over the shallowest file of that name.
    """
    if source is None and version != "v1":
        try:
            root = fetch_repository_files(
                UPSTREAM_REPOSITORY, [upstream_path(version, subject)], revision=revision or UPSTREAM_REVISION
            )
        except DataSourceError as error:
            raise DataSourceError(
                f"the official SPhyR {version} data could not be fetched ({error}); for mechbench's own generated "
                "set, offline, use -T data=bundled"
            ) from None
        return within(root, root / upstream_path(version, subject))
    root = resolve_or_official(
        source, DEFAULT_SOURCE, "sphyr", hub_paths=[f"datasets/{subject}.jsonl"], endpoint=endpoint
    )
    own = sorted(root.rglob(f"{DATA_FOLDERS[version]}/{subject}.jsonl"), key=lambda p: len(p.parts))
    return within(root, own[0] if own and own[0].is_file() else find_file(root, f"{subject}.jsonl"))


def check_size(records: list[GridRecord], version: Version, where: str) -> None:
    """Refuse records whose grids are not the version's size (v2-20 asked, 10×10 given, or the reverse)."""
    size = GRID_SIZES[version]
    for record in records:
        rows, cols = len(record.ground_truth), len(record.ground_truth[0])
        if rows != size or cols != size:
            others = [v for v, s in GRID_SIZES.items() if s == rows == cols]
            hint = f"; for {rows}×{cols} grids use -T version={others[0]}" if others else ""
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
        raise DataSourceError(f"samples must be 'all', 'paper' or a number, got {samples!r}") from None
    if count < 0:
        raise DataSourceError(f"samples must not be negative, got {count}")
    return list(records[:count])
