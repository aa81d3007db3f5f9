"""Git LFS pointers in data copies: recognised, and resolved through the repository's LFS storage.

A repository that routes media through Git LFS stores, in git, a small text file in place of each media file
(``version https://git-lfs.github.com/spec/v1`` / ``oid sha256:…`` / ``size …``). Repository archives and clones
made without git-lfs hold those pointers, not the media. mechbench never hands a pointer to a model: where the
copy's origin (repository and revision) is known, the object is fetched from the host's LFS media endpoint and
checked against the pointer's size and SHA-256 before it is used; otherwise the error says what to do.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from mechbench.core.errors import DataSourceError
from mechbench.core.paths import default_cache
from mechbench.sources.download import download

POINTER_HEADER = b"version https://git-lfs.github.com/spec/v1"
MAX_POINTER_BYTES = 1024
"""The Git LFS specification keeps pointer files under 1024 bytes."""
GITHUB_MEDIA_ENDPOINT = "https://media.githubusercontent.com/media"
GITHUB_MEDIA_VARIABLE = "MECHBENCH_GITHUB_MEDIA"
"""Environment variable naming another host for GitHub's LFS media (a mirror, or a local test server)."""
_OID = re.compile(r"^oid sha256:([0-9a-f]{64})$")
_SIZE = re.compile(r"^size (\d{1,15})$")
_GITHUB_ARCHIVE = re.compile(
    r"/(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+)/archive/(?:refs/(?:heads|tags)/)?(?P<rev>[\w.-]+?)\.(?:zip|tar\.gz)$"
)


class GitLfsPointerError(DataSourceError):
    """A media file is a Git LFS pointer that could not be resolved to the object it stands for."""


@dataclass(frozen=True)
class LfsPointer:
    """What a pointer file names: the object's SHA-256 and size in bytes."""

    oid: str
    size: int


@dataclass(frozen=True)
class GitOrigin:
    """Where a local copy came from: a GitHub repository at a revision, whose files lie under ``root``."""

    repository: str
    revision: str
    root: Path

    def path_in_repository(self, path: Path) -> str:
        """The repository path of a file of the copy."""
        return path.relative_to(self.root).as_posix()


def read_pointer(path: Path) -> LfsPointer | None:
    """The pointer ``path`` holds, or None when it is an ordinary file."""
    try:
        if path.stat().st_size >= MAX_POINTER_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(POINTER_HEADER):
        return None
    fields: dict[str, str] = {}
    for line in data.decode("utf-8", errors="replace").splitlines():
        if (match := _OID.match(line.strip())) is not None:
            fields["oid"] = match.group(1)
        elif (match := _SIZE.match(line.strip())) is not None:
            fields["size"] = match.group(1)
    if "oid" not in fields or "size" not in fields:
        raise GitLfsPointerError(f"{path.name} is a malformed Git LFS pointer (no sha256 oid or size)")
    return LfsPointer(oid=fields["oid"], size=int(fields["size"]))


def github_origin(url: str, extracted: Path) -> GitOrigin | None:
    """The origin of a GitHub repository archive URL (``…/owner/name/archive/<revision>.zip``) extracted into
    ``extracted`` (whose one top folder, ``<name>-<revision>/``, holds the repository); None for any other URL."""
    match = _GITHUB_ARCHIVE.search(urllib.parse.urlsplit(url).path)
    if match is None:
        return None
    entries = list(extracted.iterdir()) if extracted.is_dir() else []
    root = entries[0] if len(entries) == 1 and entries[0].is_dir() else extracted
    return GitOrigin(f"{match['owner']}/{match['repo']}", match["rev"], root)


def media_endpoint() -> str:
    """Where GitHub's LFS objects are fetched from (``$MECHBENCH_GITHUB_MEDIA`` or GitHub's media host)."""
    return (os.environ.get(GITHUB_MEDIA_VARIABLE) or GITHUB_MEDIA_ENDPOINT).rstrip("/")


def resolve(path: Path, pointer: LfsPointer, origin: GitOrigin | None) -> Path:
    """The object ``pointer`` stands for, fetched once into the cache and checked against its size and SHA-256.

    Without an origin (a local clone made without git-lfs) or when the object cannot be fetched, a
    :class:`GitLfsPointerError` says so and what to do.
    """
    suffix = path.suffix.lower()
    cached = default_cache() / "lfs" / pointer.oid[:2] / f"{pointer.oid}{suffix}"
    if cached.is_file() and cached.stat().st_size == pointer.size:
        return cached  # only verified objects ever enter the cache
    if origin is None:
        raise GitLfsPointerError(
            f"{path.name} is a Git LFS pointer, not the media file ({pointer.size} bytes never downloaded): run "
            "`git lfs pull` in that copy (with git-lfs installed), or leave -T data unset for the official source, "
            "whose LFS objects mechbench fetches"
        )
    where = PurePosixPath(origin.path_in_repository(path))
    url = f"{media_endpoint()}/{origin.repository}/{origin.revision}/{urllib.parse.quote(str(where))}"
    try:
        download(url, cached, size=pointer.size, sha256=pointer.oid)
    except DataSourceError as error:
        raise GitLfsPointerError(
            f"{path.name} is a Git LFS pointer and its object could not be fetched from {origin.repository}'s Git "
            f"LFS storage ({error}); mechbench needs the network once for it, or a copy holding the media "
            "(`git lfs pull` in a clone)"
        ) from None
    return cached
