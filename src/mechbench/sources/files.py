"""Files of a data copy: read within a size cap, kept inside their dataset, found by name, hashed for the log."""

from __future__ import annotations

import hashlib
from pathlib import Path

from mechbench.core.errors import DataSourceError
from mechbench.core.reading import read_capped_text
from mechbench.sources.download import safe_member
from mechbench.sources.hub import hub_snapshot

# The largest published data file (SPhyR v2-20, one subject) is under 2 MB; JSON and text files beyond this
# are refused instead of being read whole into memory.
MAX_DATA_FILE_BYTES = 256 * 1024**2


def within(root: Path, path: Path) -> Path:
    """``path`` resolved; a :class:`DataSourceError` if a symbolic link takes it outside the dataset.

    The dataset is ``root``, or, for a snapshot in a Hugging Face cache, the cache's repository folder: its
    snapshot files are links into the same repository's ``blobs/``, which is where the data really is.
    """
    snapshot = hub_snapshot(root)
    boundary = snapshot[0] if snapshot else root
    resolved, base = path.resolve(), boundary.resolve()
    if not resolved.is_relative_to(base):
        try:
            shown = path.relative_to(root)
        except ValueError:
            shown = path
        place = "the hub cache's repository folder" if snapshot else "the dataset folder"
        raise DataSourceError(f"{shown} in {root} is a link leading outside {place}; refused")
    return resolved


def read_data_text(path: Path, limit: int | None = None) -> str:
    """A data file's text (UTF-8): a regular file only, refused unread past ``limit`` bytes (default the data-file
    cap) — a pipe or a device that reports size 0 is refused, not read forever."""
    limit = MAX_DATA_FILE_BYTES if limit is None else limit
    return read_capped_text(path, limit, "data file")


def files_sha256(paths: list[Path]) -> str:
    """One SHA-256 over the given files (names and bytes, in the order given): what a run actually read."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0")
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def find_file(root: Path, name: str) -> Path:
    """The file called ``name`` under ``root`` (at any depth, shallowest first)."""
    if not safe_member(name):
        raise DataSourceError(f"unsafe file name {name!r}")
    matches = sorted(root.rglob(name), key=lambda p: (len(p.parts), str(p)))
    matches = [m for m in matches if m.is_file()]
    if not matches:
        raise DataSourceError(f"no {name} under {root}")
    return matches[0]
