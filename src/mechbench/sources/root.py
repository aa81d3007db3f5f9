"""A benchmark's data resolved once, in one place: what a benchmark's reader parses from.

A task's ``data`` argument (nothing for the publisher's data, ``bundled`` for the benchmark's own generated set, a
folder, an archive URL or a Hugging Face dataset id) goes through :func:`open_data` once. It resolves the source
(downloads once into the cache, at the pinned revision), and hands back a :class:`DataRoot` that keeps every file
the reader asks for inside the dataset, resolves Git LFS pointers through the copy's origin, checks media before a
model sees them and hashes what the run read. The reader only parses. Never a silent substitution: when the
publisher's data cannot be had, the error says so and names ``-T data=bundled``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mechbench.core.errors import DataSourceError, OfficialDataUnavailable
from mechbench.core.paths import default_cache
from mechbench.sources.download import unmask_url
from mechbench.sources.files import files_sha256, find_file, read_data_text, within
from mechbench.sources.git_lfs import GitOrigin, github_origin
from mechbench.sources.github import fetch_repository_files, github_archive
from mechbench.sources.hub import fetch_hub_files, hub_endpoint, is_hub_id, list_hub_files
from mechbench.sources.media import MediaKind, usable_media
from mechbench.sources.resolve import bundled, describe_source, is_url, resolve_source

Kind = Literal["bundled", "official", "folder", "archive", "hub"]
BUNDLED = "bundled"
"""The ``data`` value that names a benchmark's own generated set (``-T data=bundled``)."""


@dataclass(frozen=True)
class Official:
    """Where a benchmark's publisher keeps its data.

    ``archive``: a GitHub repository, fetched as one archive (its Git LFS media resolved from the same revision);
    ``hub``: a Hugging Face dataset, files fetched as the reader asks for them; ``files``: single files of a GitHub
    repository, fetched as the reader asks for them.
    """

    kind: Literal["archive", "hub", "files"]
    repository: str
    revision: str | None = None
    """The pinned revision (a commit where one is verified; None: the hub's ``main``)."""
    folder: str = ""
    """Where the data lie inside the repository (for the log's description)."""
    title: str = ""
    """How messages name the data (``SPhyR v2``; default: the benchmark's name)."""

    def describe(self, revision: str | None) -> str:
        """How the log names this source at ``revision``."""
        host = "huggingface.co/datasets" if self.kind == "hub" else "github.com"
        at = f"@{revision}" if revision else ""
        return f"{host}/{self.repository}{at}" + (f" ({self.folder})" if self.folder else "")


@dataclass(frozen=True)
class DataRoot:
    """A benchmark's data, resolved: a local folder, or a remote repository whose files are fetched on demand.

    Readers take files from it (:meth:`file`, :meth:`find`, :meth:`listing`), never paths of their own making, so
    containment, LFS and media checks and the log's provenance are the same for every benchmark.
    """

    benchmark: str
    kind: Kind
    path: Path
    """The local folder (for a remote source, the cache folder its files are fetched into)."""
    description: str
    """How the log names the data (URLs without their secrets)."""
    revision: str | None = None
    origin: GitOrigin | None = None
    """Where a downloaded repository copy came from (its Git LFS objects are fetched from there)."""
    remote: Official | None = None
    """Set when files are fetched on demand (a hub dataset, single repository files)."""
    endpoint: str | None = None
    """The hub endpoint of a remote hub source (a mirror or a test server; None: the hub)."""

    @property
    def is_bundled(self) -> bool:
        """Whether this is the benchmark's own generated set."""
        return self.kind == BUNDLED

    def file(self, relative: str) -> Path:
        """The file at ``relative`` inside the data (fetched first from a remote source), kept inside it."""
        if self.remote is not None:
            self._fetch([relative])
        return within(self.path, self.path / relative)

    def exists(self, relative: str) -> bool:
        """Whether a local source holds ``relative`` (remote sources are asked by :meth:`file`)."""
        try:
            return (self.path / relative).is_file()
        except (OSError, ValueError):  # a name too long for the file system, or with a NUL byte
            return False

    def find(self, name: str) -> Path:
        """The shallowest file called ``name`` in a local source, kept inside it."""
        return within(self.path, find_file(self.path, name))

    def folders(self, name: str) -> list[Path]:
        """Every folder called ``name`` in a local source, shallowest first."""
        found = [p for p in self.path.rglob(name) if p.is_dir()]
        return sorted(found, key=lambda p: (len(p.parts), str(p)))

    def listing(self, prefix: str, suffix: str) -> list[str]:
        """Relative paths of the files under ``prefix`` ending in ``suffix``, in name order (a remote hub source is
        listed through the hub; a pinned commit's listing is kept so a later run works offline)."""
        if self.remote is None:
            base = self.path / prefix
            return sorted(str(p.relative_to(self.path)) for p in base.rglob(f"*{suffix}") if p.is_file())
        if self.remote.kind != "hub":
            raise DataSourceError(f"{self.description}: single repository files cannot be listed")
        revision = self.revision or "main"
        kept = self.path / f"listing-{prefix.strip('/') or 'all'}.json"
        if kept.is_file() and len(revision) == 40:
            listed = json.loads(kept.read_text())
        else:
            with self._offline_hint():
                listed = list_hub_files(self.remote.repository, prefix=prefix, revision=revision, endpoint=self._hub())
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_text(json.dumps(listed))
        return [name for name in listed if name.endswith(suffix)]

    def media(self, path: Path, kind: MediaKind) -> Path:
        """The file to show a model for ``path`` (inside the data): its Git LFS object where it is a pointer,
        checked to decode as ``kind`` within mechbench's media limits."""
        return usable_media(within(self.path, path), kind, self.origin)

    def read_text(self, path: Path, limit: int | None = None) -> str:
        """A data file's text (UTF-8), refused unread past ``limit`` bytes (default: the data-file cap)."""
        return read_data_text(within(self.path, path), limit)

    def sha256(self, paths: list[Path]) -> str:
        """One SHA-256 over the files a run read (names and bytes, in the order given), for the log."""
        return files_sha256(paths)

    def _hub(self) -> str:
        return self.endpoint or hub_endpoint()

    def _fetch(self, paths: list[str]) -> None:
        assert self.remote is not None
        with self._offline_hint():
            if self.remote.kind == "hub":
                fetch_hub_files(self.remote.repository, paths, revision=self.revision or "main", endpoint=self._hub())
            else:
                fetch_repository_files(self.remote.repository, paths, revision=self.revision or "main")

    @contextlib.contextmanager
    def _offline_hint(self) -> Iterator[None]:
        """The publisher's data failing to arrive is said as such, with the offline choice named."""
        try:
            yield
        except DataSourceError as error:
            if self.kind != "official":
                raise
            raise _offline((self.remote.title if self.remote else "") or self.benchmark, error) from None


def _offline(title: str, error: DataSourceError) -> DataSourceError:
    reason = f"the official {title} data could not be fetched ({error})"
    return OfficialDataUnavailable(
        f"{reason}; for mechbench's own generated set, offline, use -T data={BUNDLED} (or point -T data= at a local "
        "copy of the publisher's data)",
        reason,
    )


def _remote_folder(kind: str, repository: str, revision: str | None) -> Path:
    area = "hub" if kind == "hub" else "github"
    return default_cache() / area / repository.replace("/", "--") / (revision or "main")


def open_data(
    benchmark: str,
    data: str | Path | None,
    official: Official,
    *,
    revision: str | None = None,
    hub_prefix: str | None = None,
    endpoint: str | None = None,
) -> DataRoot:
    """The data a task named resolved to a :class:`DataRoot`: ``None`` for the publisher's (``official`` at
    ``revision`` or its pinned one), ``bundled`` for the benchmark folder's own generated set, else a folder, an
    archive URL or a Hugging Face dataset id.

    ``hub_prefix``: a hub dataset given as ``data`` is fetched whole under this prefix at once (a reader that walks
    folders); without it, its files are fetched as the reader asks for them.
    """
    if data == BUNDLED:
        return DataRoot(benchmark, "bundled", bundled(benchmark), BUNDLED)
    if data is None:
        return _official(benchmark, official, revision or official.revision, endpoint)
    text = str(data)
    path = Path(text).expanduser()
    if path.is_dir():
        return DataRoot(benchmark, "folder", path, describe_source(text))
    if is_hub_id(text) and hub_prefix is None:
        remote = Official("hub", text, revision)
        folder = _remote_folder("hub", text, revision)
        return DataRoot(benchmark, "hub", folder, describe_source(text), revision, remote=remote, endpoint=endpoint)
    local = resolve_source(text, hub_paths=None, hub_prefix=hub_prefix or "", endpoint=endpoint or hub_endpoint())
    origin = github_origin(unmask_url(text), local) if is_url(text) else None
    kind: Kind = "archive" if is_url(text) else "hub"
    return DataRoot(benchmark, kind, local, describe_source(text), revision, origin)


def _official(benchmark: str, official: Official, revision: str | None, endpoint: str | None) -> DataRoot:
    description = official.describe(revision)
    if official.kind == "archive":
        url = github_archive(official.repository, revision or "main")
        try:
            local = resolve_source(url, hub_paths=None)
        except DataSourceError as error:
            raise _offline(official.title or benchmark, error) from None
        return DataRoot(benchmark, "official", local, description, revision, github_origin(url, local))
    folder = _remote_folder(official.kind, official.repository, revision)
    return DataRoot(benchmark, "official", folder, description, revision, remote=official, endpoint=endpoint)
