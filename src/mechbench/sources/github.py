"""GitHub repositories: archive URLs and single files at a pinned revision (mirrors and test servers by variable)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from mechbench.core.errors import DataSourceError
from mechbench.core.paths import default_cache
from mechbench.sources.download import download, safe_member
from mechbench.sources.hub import REPOSITORY_ID

GITHUB_ENDPOINT = "https://github.com"
GITHUB_VARIABLE = "MECHBENCH_GITHUB"
"""Environment variable naming another host for repository archives (a mirror, or a local test server)."""


def github_archive(repository: str, revision: str) -> str:
    """The zip archive URL of ``owner/name`` at ``revision`` (``$MECHBENCH_GITHUB`` or GitHub)."""
    base = (os.environ.get(GITHUB_VARIABLE) or GITHUB_ENDPOINT).rstrip("/")
    return f"{base}/{repository}/archive/{revision}.zip"


GITHUB_RAW_ENDPOINT = "https://raw.githubusercontent.com"
GITHUB_RAW_VARIABLE = "MECHBENCH_GITHUB_RAW"
"""Environment variable naming another host for raw repository files (a mirror, or a local test server)."""


def github_raw_endpoint() -> str:
    """Where raw files of GitHub repositories are fetched from (``$MECHBENCH_GITHUB_RAW`` or GitHub's own)."""
    return os.environ.get(GITHUB_RAW_VARIABLE) or GITHUB_RAW_ENDPOINT


def fetch_repository_files(
    repository: str, paths: list[str], *, revision: str, endpoint: str | None = None, cache: Path | None = None
) -> Path:
    """Download files of a GitHub repository at ``revision`` once; returns the local repository folder.

    A pinned commit never changes, so a cached file is reused without asking the network again.
    """
    if not REPOSITORY_ID.match(repository):
        raise DataSourceError(f"{repository!r} is not an owner/name repository")
    if not re.fullmatch(r"[\w.-]{1,100}", revision):
        raise DataSourceError(f"{revision!r} is not a commit, tag or branch name")
    base = (endpoint or github_raw_endpoint()).rstrip("/")
    folder = (cache or default_cache()) / "github" / repository.replace("/", "--") / revision
    for path in paths:
        if not safe_member(path):
            raise DataSourceError(f"unsafe path in repository {repository}: {path!r}")
        target = folder / path
        if not target.exists():
            download(f"{base}/{repository}/{revision}/{path}", target)
    return folder
