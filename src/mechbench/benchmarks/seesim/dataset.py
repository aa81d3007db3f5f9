"""SeeSim questions and media in the published layout (``benchmark/``, ``data/{domain}/{images,videos,text}``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError, field_validator

from mechbench.benchmarks.seesim.protocol import DOMAINS, MODALITIES, data_file_name
from mechbench.core import safejson
from mechbench.core.errors import DataSourceError
from mechbench.core.limits import MAX_QUESTIONS_FILE_BYTES, MAX_QUESTIONS_PER_FILE, check_count
from mechbench.core.text import clean
from mechbench.sources.files import read_data_text, within
from mechbench.sources.root import DataRoot, Official, open_data

OFFICIAL_REPOSITORY = "cmudrc/OpenSeeSimE"
"""The publisher's repository that holds the SeeSim set (README, ``benchmark/qa-benchmark-with-qids.json``,
``data/{structural,fluid}/{images,videos,text}``), MIT."""
DEFAULT_REVISION = "2e80269aa2d0b2683ac0fc77551c1bfd77b73244"
"""The pinned commit of :data:`OFFICIAL_REPOSITORY`; its questions file is also checked by content
(:data:`VERIFIED_QUESTIONS_SHA256`)."""
VERIFIED_QUESTIONS_SHA256 = "ab88e2a58671bd4cdc9beb4591a591573c7ae7825b61998fc37dbda7cf3ce9da"
"""Content hash (:func:`mechbench.sources.files.files_sha256`) of the published ``qa-benchmark-with-qids.json`` that
mechbench is verified against (240 answers, 127 True). A fetched copy that differs is used, but the log and the
console say so."""


OFFICIAL = Official("archive", OFFICIAL_REPOSITORY, DEFAULT_REVISION, title="SeeSim")
"""The publisher's repository as one archive at the pinned commit (its LFS media from the same commit)."""


def open_seesim(data: DataRoot | str | Path | None = None, revision: str | None = None) -> DataRoot:
    """The data a task names, resolved once (``None``: the publisher's repository at ``revision`` or the pinned
    commit; ``bundled``: mechbench's generated set; a folder or an archive URL)."""
    return data if isinstance(data, DataRoot) else open_data("seesim", data, OFFICIAL, revision=revision)


BENCHMARK_FILE = "qa-benchmark-with-qids.json"
MEDIA = {
    "image": ("images", (".png", ".jpg", ".jpeg")),
    "video": ("videos", (".gif", ".mp4", ".webm", ".mov")),
    "text": ("text", (".txt",)),
}


class Question(BaseModel):
    qid: str
    question: str

    @field_validator("question")
    @classmethod
    def _printable(cls, value: str) -> str:
        return clean(value)  # a lone surrogate or an escape sequence never reaches a log or a terminal


class FileAnswers(BaseModel):
    answers: dict[str, bool]


class DomainBlock(BaseModel):
    questions: list[Question]
    files: dict[str, FileAnswers]


class Item(BaseModel):
    """One (file, question) pair with its answer and its media file."""

    domain: str
    file: str
    qid: str
    question: str
    answer: bool
    media: str
    report: str | None = None
    """The simulation's text report (what its details box prints), where the copy has one."""


def benchmark_root(data: DataRoot | str | Path | None) -> Path:
    """The folder holding ``benchmark/qa-benchmark-with-qids.json`` and ``data/`` (``bundled``: mechbench's
    generated offline set)."""
    root = open_seesim(data)
    try:
        return root.find(BENCHMARK_FILE).parent.parent
    except DataSourceError:
        raise DataSourceError(f"no {BENCHMARK_FILE} under {root.path}: not the SeeSim layout") from None


def _media(source: DataRoot, root: Path, domain: str, data_file: str, modality: str) -> Path | None:
    """The media file of one simulation in ``modality``, checked (Git LFS pointers resolved, images and videos
    decoded); None when the copy has none."""
    folder, suffixes = MEDIA[modality]
    base = root / "data" / domain / folder
    for suffix in suffixes:
        candidate = base / f"{data_file}{suffix}"
        if candidate.is_file():
            return within(source.path, candidate) if modality == "text" else source.media(candidate, modality)  # type: ignore[arg-type]
    return None


def _raw(root: Path) -> dict[str, Any]:
    raw = safejson.loads(read_data_text(questions_file(root), limit=MAX_QUESTIONS_FILE_BYTES))
    if not isinstance(raw, dict):
        raise TypeError("the file does not hold a JSON object")
    for domain, block in raw.items():
        for part in ("questions", "files"):
            entries = block.get(part) if isinstance(block, dict) else None
            if isinstance(entries, list | dict):
                check_count(len(entries), MAX_QUESTIONS_PER_FILE, f"{domain} {part}", BENCHMARK_FILE)
    return raw


def read_blocks(root: Path, domains: list[str] | tuple[str, ...] = DOMAINS) -> dict[str, DomainBlock]:
    """The questions and answers of ``domains`` from the benchmark file under ``root``, validated."""
    try:
        raw = _raw(root)
        return {d: DomainBlock.model_validate(raw[d]) for d in domains}
    except (
        OSError,
        ValueError,  # undecodable text, malformed JSON, nesting past the parser's limit, a failed validation
        RecursionError,
        MemoryError,
        KeyError,
        TypeError,
        ValidationError,
    ) as error:
        raise DataSourceError(f"{BENCHMARK_FILE} is not the SeeSim benchmark: {str(error).splitlines()[0]}") from None


def load_items(
    data: DataRoot | str | Path | None, modality: str, domain: str = "all", files: list[str] | None = None
) -> tuple[list[Item], list[str]]:
    """Every (file, question) item of the selection, and the files skipped for missing media."""
    if modality not in MODALITIES:
        raise DataSourceError(f"modality must be one of {', '.join(MODALITIES)}, got {modality!r}")
    domains = list(DOMAINS) if domain == "all" else [domain]
    if any(d not in DOMAINS for d in domains):
        raise DataSourceError(f"domain must be one of {', '.join(DOMAINS)} or all, got {domain!r}")
    source = open_seesim(data)
    root = benchmark_root(source)
    blocks = read_blocks(root, domains)
    known = {f for block in blocks.values() for f in block.files}
    unknown = sorted(set(files or []) - known)
    if unknown:
        raise DataSourceError(f"unknown SeeSim files {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    items, skipped = [], []
    for d, block in blocks.items():
        text = {q.qid: q.question for q in block.questions}
        for file, entry in block.files.items():
            if files and file not in files:
                continue
            media = _media(source, root, d, data_file_name(d, file), modality)
            report = media if modality == "text" else _media(source, root, d, data_file_name(d, file), "text")
            if media is None:
                skipped.append(f"{d}/{file}")
                continue
            for qid, answer in entry.answers.items():
                if qid not in text:
                    raise DataSourceError(f"{d}/{file}: answer for unknown question {qid}")
                items.append(
                    Item(
                        domain=d,
                        file=file,
                        qid=qid,
                        question=text[qid],
                        answer=answer,
                        media=str(media),
                        report=str(report) if report is not None else None,
                    )
                )
    if not items:
        raise DataSourceError(f"no SeeSim items for modality {modality}, domain {domain}, files {files or 'all'}")
    return items, skipped


def questions_file(root: Path) -> Path:
    """The benchmark's questions and answers file under ``root``."""
    return within(root, root / "benchmark" / BENCHMARK_FILE)


def generator_info(root: Path) -> dict[str, Any] | None:
    """The ``generator`` block of a set written by ``mechbench generate seesim`` (None for the published set)."""
    try:
        info = _raw(root).get("generator")
    except (OSError, ValueError, RecursionError, MemoryError, TypeError, DataSourceError):
        return None
    return info if isinstance(info, dict) else None
