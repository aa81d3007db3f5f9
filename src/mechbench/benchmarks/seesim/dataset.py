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
from mechbench.sources.download import unmask_url
from mechbench.sources.files import read_data_text, within
from mechbench.sources.git_lfs import GitOrigin, github_origin
from mechbench.sources.github import github_archive
from mechbench.sources.media import usable_media
from mechbench.sources.resolve import bundled, is_url, resolve_source

OFFICIAL_REPOSITORY = "cmudrc/OpenSeeSimE"
"""The publisher's repository that holds the SeeSim set (README, ``benchmark/qa-benchmark-with-qids.json``,
``data/{structural,fluid}/{images,videos,text}``), MIT."""
DEFAULT_REVISION = "2e80269aa2d0b2683ac0fc77551c1bfd77b73244"
"""The pinned commit of :data:`OFFICIAL_REPOSITORY`; its questions file is also checked by content
(:data:`VERIFIED_QUESTIONS_SHA256`)."""
VERIFIED_QUESTIONS_SHA256 = "ab88e2a58671bd4cdc9beb4591a591573c7ae7825b61998fc37dbda7cf3ce9da"
"""Content hash (:func:`mechbench.sources.files_sha256`) of the published ``qa-benchmark-with-qids.json`` that
mechbench is verified against (240 answers, 127 True). A fetched copy that differs is used, but the log and the
console say so."""


def official_source(revision: str = DEFAULT_REVISION) -> str:
    """The archive URL of the publisher's repository at ``revision`` (a branch, tag or commit)."""
    return github_archive(OFFICIAL_REPOSITORY, revision)


DEFAULT_SOURCE = f"github.com/{OFFICIAL_REPOSITORY}@{DEFAULT_REVISION}"
"""How the log names the default source (the archive is fetched from :func:`official_source`)."""
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


def _copy(source: str | Path | None) -> tuple[Path, GitOrigin | None]:
    """The local folder of ``source`` and, for a repository archive, where it came from (for Git LFS media)."""
    if source == "bundled":
        return bundled("seesim"), None
    url = official_source() if source is None else unmask_url(str(source)) if is_url(str(source)) else None
    try:
        root = resolve_source(source or official_source(), hub_paths=None)
    except DataSourceError as error:
        if source is not None:
            raise
        raise DataSourceError(
            f"the official SeeSim data could not be fetched ({error}); for mechbench's own generated set, offline, "
            "use -T data=bundled (or point -T data= at a local copy of the publisher's repository)"
        ) from None
    return root, github_origin(url, root) if url else None


def _benchmark_folder(root: Path) -> Path:
    matches = sorted(root.rglob(BENCHMARK_FILE), key=lambda p: len(p.parts))
    if not matches:
        raise DataSourceError(f"no {BENCHMARK_FILE} under {root}: not the SeeSim layout")
    return matches[0].parent.parent


def benchmark_root(source: str | Path | None) -> Path:
    """The folder holding ``benchmark/qa-benchmark-with-qids.json`` and ``data/`` (``bundled``: mechbench's
    generated offline set)."""
    return _benchmark_folder(_copy(source)[0])


def _media(root: Path, domain: str, data_file: str, modality: str, origin: GitOrigin | None) -> Path | None:
    """The media file of one simulation in ``modality``, checked (Git LFS pointers resolved, images and videos
    decoded); None when the copy has none."""
    folder, suffixes = MEDIA[modality]
    base = root / "data" / domain / folder
    for suffix in suffixes:
        candidate = base / f"{data_file}{suffix}"
        if candidate.is_file():
            found = within(root, candidate)
            return found if modality == "text" else usable_media(found, modality, origin)  # type: ignore[arg-type]
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
    source: str | Path | None, modality: str, domain: str = "all", files: list[str] | None = None
) -> tuple[list[Item], list[str]]:
    """Every (file, question) item of the selection, and the files skipped for missing media."""
    if modality not in MODALITIES:
        raise DataSourceError(f"modality must be one of {', '.join(MODALITIES)}, got {modality!r}")
    domains = list(DOMAINS) if domain == "all" else [domain]
    if any(d not in DOMAINS for d in domains):
        raise DataSourceError(f"domain must be one of {', '.join(DOMAINS)} or all, got {domain!r}")
    copy, origin = _copy(source)
    root = _benchmark_folder(copy)
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
            media = _media(root, d, data_file_name(d, file), modality, origin)
            if media is None:
                skipped.append(f"{d}/{file}")
                continue
            for qid, answer in entry.answers.items():
                if qid not in text:
                    raise DataSourceError(f"{d}/{file}: answer for unknown question {qid}")
                items.append(Item(domain=d, file=file, qid=qid, question=text[qid], answer=answer, media=str(media)))
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
