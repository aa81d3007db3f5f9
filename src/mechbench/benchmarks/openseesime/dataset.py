"""OpenSeeSimE records, streamed from the publisher's parquet shards (the full sets are ~175 GB).

The Hugging Face datasets ``cmudrc/OpenSeeSimE-Structural`` and ``-Fluid`` (MIT) hold multiple-choice questions
on parametric simulations, one row per question with the result as an image or a video; ``-Mini`` (and
``-Small``) are the publisher's stratified subsets. Shards are fetched one at a time, in name order, and read
row group by row group, so asking for N questions downloads only the shards those N come from. Media bytes
are written once into the cache, named by their content hash.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from mechbench.core.errors import DataSourceError
from mechbench.core.paths import default_cache
from mechbench.core.text import clean
from mechbench.sources.hub import hub_endpoint, is_hub_id
from mechbench.sources.media import check_media
from mechbench.sources.root import DataRoot, Official, open_data

Domain = Literal["structural", "fluid"]
Subset = Literal["mini", "small", "full"]
DOMAINS: tuple[Domain, ...] = ("structural", "fluid")
SUBSETS: tuple[Subset, ...] = ("mini", "small", "full")
PUBLISHER = "cmudrc"
SUFFIX = {"mini": "-Mini", "small": "-Small", "full": ""}
PINNED_REVISIONS: dict[str, str] = {
    "cmudrc/OpenSeeSimE-Structural-Mini": "fcdd86fda65a0e3d35494544e3a5c189f70027c2",
}
"""Commits verified from here; the other datasets follow ``main`` (the log records the shards and their hash)."""
COLUMNS = (
    "file_name",
    "source_file",
    "question",
    "question_type",
    "question_id",
    "answer",
    "answer_choices",
    "correct_choice_idx",
    "image",
    "video",
    "media_type",
)


def parquet_schema() -> Any:
    """The publisher's parquet schema of one OpenSeeSimE row (the columns of :data:`COLUMNS`)."""
    import pyarrow as pa  # imported here: Inspect loads mechbench's tasks at every start-up

    media = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    text = ("file_name", "source_file", "question", "question_type")
    return pa.schema(
        [
            *[(name, pa.string()) for name in text],
            ("question_id", pa.int32()),
            ("answer", pa.string()),
            ("answer_choices", pa.list_(pa.string())),
            ("correct_choice_idx", pa.int32()),
            ("image", media),
            ("video", media),
            ("media_type", pa.string()),
        ]
    )


MAX_CHOICES = 26
BATCH_ROWS = 64
MAX_QUESTION_CHARS = 20_000
"""Characters of a question or an answer choice (the published ones take a few hundred)."""
MAX_TEXT_COLUMN_BYTES = 64 * 1024**2
"""Decoded bytes of one text column of one row group (a published row group's text takes a few MB)."""
MAX_MEDIA_COLUMN_BYTES = 1024**3
"""Decoded bytes of one media column of one row group (a published row group's media take tens of MB)."""


class Question(BaseModel):
    """One multiple-choice question and the path of its media in the cache."""

    file_name: str
    source_file: str
    question: str
    question_type: str
    question_id: int
    answer: str
    answer_choices: list[str]
    correct_choice_idx: int
    media_type: str
    media: str


def dataset_id(domain: Domain, subset: Subset) -> str:
    """The publisher's dataset for ``domain`` and ``subset``."""
    return f"{PUBLISHER}/OpenSeeSimE-{domain.capitalize()}{SUFFIX[subset]}"


def default_revision(dataset: str) -> str:
    """The pinned commit of ``dataset`` where one is known, else ``main``."""
    return PINNED_REVISIONS.get(dataset, "main")


def open_openseesime(
    data: str | None, domain: Domain, subset: Subset, revision: str | None = None, endpoint: str | None = None
) -> DataRoot:
    """The data a task names, resolved once: with no ``data``, the publisher's dataset for ``domain`` and ``subset``
    (at the pinned commit where one is known, else ``main``), its shards fetched as they are read; a folder of
    parquet shards, or a Hugging Face dataset id. (``bundled`` is the task's: the set written from SeeSim's.)"""
    official = Official("hub", dataset_id(domain, subset), title=f"OpenSeeSimE {domain} ({subset})")
    if data is not None and not Path(data).expanduser().is_dir() and not is_hub_id(data):
        raise DataSourceError(f"{data!r} is neither a folder of parquet shards nor a Hugging Face dataset id")
    chosen = revision or default_revision(data or official.repository)
    return open_data("openseesime", data, official, revision=chosen, endpoint=endpoint or hub_endpoint())


def shards(root: DataRoot) -> list[str]:
    """The parquet shards of the data, in name order (a hub dataset's under ``data/``)."""
    names = root.listing("data/" if root.remote is not None else "", ".parquet")
    if not names:
        where = f"hub dataset {root.description} under data/ at {root.revision}" if root.remote else str(root.path)
        raise DataSourceError(f"no parquet shards in {where}")
    return names


def _media_file(value: Any, kind: str) -> Path | None:
    """The cached file of an image or video cell ({"bytes", "path"}), named by its content."""
    if not isinstance(value, dict) or not isinstance(value.get("bytes"), bytes) or not value["bytes"]:
        return None
    data: bytes = value["bytes"]
    suffix = Path(str(value.get("path") or "")).suffix.lower()
    if not suffix:
        suffix = ".gif" if data[:6] in (b"GIF87a", b"GIF89a") else ".png" if data[:4] == b"\x89PNG" else ".mp4"
    path = default_cache() / "openseesime" / kind / f"{hashlib.sha256(data).hexdigest()[:24]}{suffix}"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".part")
        tmp.write_bytes(data)
        tmp.replace(path)
    return path


def _checked_row(row: dict[str, Any], where: str) -> None:
    """The schema check at the door: each field the task reads has the published type (one line naming the field)."""

    def wrong(field: str, expected: str) -> DataSourceError:
        return DataSourceError(f"{where}: field {field!r} must be {expected}, got {type(row.get(field)).__name__}")

    if not isinstance(row.get("question"), str) or not row["question"].strip():
        raise wrong("question", "text")
    for field in ("file_name", "source_file", "question_type", "answer", "media_type"):
        if row.get(field) is not None and not isinstance(row[field], str):
            raise wrong(field, "text")
    for field in ("question_id", "correct_choice_idx"):
        if row.get(field) is not None and (not isinstance(row[field], int) or isinstance(row[field], bool)):
            raise wrong(field, "an integer")
    choices = row.get("answer_choices")
    if not isinstance(choices, list) or not all(isinstance(c, str | int | float) for c in choices):
        raise wrong("answer_choices", "a list of texts")
    for field in ("image", "video"):
        value = row.get(field)
        if value is not None and not (isinstance(value, dict) and isinstance(value.get("bytes"), bytes | None)):
            raise wrong(field, "an image/video cell ({bytes, path})")
    texts = [row["question"], *(c for c in choices if isinstance(c, str))]
    if any(len(t) > MAX_QUESTION_CHARS for t in texts):
        raise DataSourceError(f"{where}: a question or answer choice is longer than {MAX_QUESTION_CHARS} characters")


def _question(row: dict[str, Any], where: str) -> Question:
    _checked_row(row, where)
    kind = str(row.get("media_type") or ("video" if row.get("video") else "image"))
    media = _media_file(row.get(kind), kind) or _media_file(row.get("image"), "image")
    choices = [str(c) for c in (row.get("answer_choices") or [])]
    index = row.get("correct_choice_idx")
    if media is None:
        raise DataSourceError(f"{where}: no image or video bytes")
    try:
        check_media(media, "video" if kind == "video" else "image")
    except DataSourceError as error:
        raise DataSourceError(f"{where}: {error}") from None
    if not 2 <= len(choices) <= MAX_CHOICES or not isinstance(index, int) or not 0 <= index < len(choices):
        raise DataSourceError(f"{where}: answer choices or the correct index are not usable")
    return Question(
        file_name=str(row.get("file_name") or ""),
        source_file=str(row.get("source_file") or ""),
        question=clean(row["question"]),
        question_type=str(row.get("question_type") or "unknown"),
        question_id=int(row.get("question_id") or 0),
        answer=str(row.get("answer") or choices[index]),
        answer_choices=choices,
        correct_choice_idx=index,
        media_type=kind,
        media=str(media),
    )


def _check_row_group(metadata: Any, group: int, columns: list[str], name: str) -> None:
    """Refuse a row group whose columns would decode past the limits, from the shard's footer, before reading it."""
    rows = metadata.row_group(group)
    for index in range(rows.num_columns):
        column = rows.column(index)
        field = column.path_in_schema.split(".")[0]
        if field not in columns:
            continue
        limit = MAX_MEDIA_COLUMN_BYTES if field in ("image", "video") else MAX_TEXT_COLUMN_BYTES
        if column.total_uncompressed_size > limit:
            raise DataSourceError(
                f"{name} row group {group}: column {field!r} decodes to {column.total_uncompressed_size} bytes, "
                f"more than mechbench reads ({limit}); refused"
            )


def stream_questions(root: DataRoot, limit: int | None = None) -> Iterator[tuple[Question, str]]:
    """(question, shard name) in shard order; fetches a shard only when the questions before it ran out."""
    import pyarrow.parquet as pq  # imported here: Inspect loads mechbench's tasks at every start-up

    count = 0
    for name in shards(root):
        path = root.file(name)
        try:
            shard = pq.ParquetFile(path)
            present = [c for c in COLUMNS if c in shard.schema_arrow.names]
            for group in range(shard.metadata.num_row_groups):
                _check_row_group(shard.metadata, group, present, name)
            offset = 0
            for batch in shard.iter_batches(batch_size=BATCH_ROWS, columns=present):
                for row in batch.to_pylist():
                    if limit is not None and count >= limit:
                        return
                    yield _question(row, f"{name} row {offset}"), name
                    count += 1
                    offset += 1
        except (OSError, ValueError) as error:  # pyarrow's ArrowInvalid is a ValueError
            raise DataSourceError(f"{name} is not a readable parquet shard: {error}") from None
