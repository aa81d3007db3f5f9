"""SPhyR records: the 16 subjects, where their files live, and the published sample selection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ValidationError, field_validator

from mechbench import safejson
from mechbench.data import HUB_ENDPOINT, DataSourceError, find_file, read_data_text, resolve_or_official, within
from mechbench.topopt.generate import SUBJECT_KINDS

SUBJECTS: tuple[str, ...] = tuple(f"{kind}_{level}" for kind in SUBJECT_KINDS for level in ("easy", "hard"))
DEFAULT_SOURCE = "philippds/SPhyR"
"""The official dataset on the Hugging Face hub (configs point at ``datasets/<subject>.jsonl``)."""
PAPER_SEED = 42
PAPER_SAMPLES = 100


class GridRecord(BaseModel):
    """One SPhyR record: the masked input and the ground truth, both as grids of string tokens."""

    index: int
    input_grid: list[list[str]]
    ground_truth: list[list[str]]

    @field_validator("input_grid", "ground_truth", mode="before")
    @classmethod
    def _tokens(cls, value: Any) -> Any:
        if isinstance(value, list):
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


def subject_file(subject: str, source: str | Path | None = None, *, endpoint: str = HUB_ENDPOINT) -> Path:
    """Local path of ``<subject>.jsonl`` from a folder, an archive URL or the hub (downloaded once)."""
    root = resolve_or_official(
        source, DEFAULT_SOURCE, "sphyr", hub_paths=[f"datasets/{subject}.jsonl"], endpoint=endpoint
    )
    return within(root, find_file(root, f"{subject}.jsonl"))


def read_records(path: Path) -> list[GridRecord]:
    """Every record of a SPhyR JSONL file; a malformed line is an error naming the line."""
    records = []
    lines = read_data_text(path).splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(GridRecord.model_validate(safejson.loads(line)))
        except (ValueError, ValidationError) as error:  # JSONDecodeError, JSONNestingError, ValidationError
            first = str(error).splitlines()[0]
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
