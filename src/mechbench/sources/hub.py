"""Hugging Face dataset repositories: ids, file listings, downloads, and snapshots of the hub's own cache."""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from pathlib import Path

from mechbench.core.errors import DataSourceError
from mechbench.core.paths import default_cache
from mechbench.sources.download import DOWNLOAD_TIMEOUT_S, MAX_LISTING_BYTES, OPENER, download, safe_member

HUB_ENDPOINT = "https://huggingface.co"
REPOSITORY_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def hub_endpoint() -> str:
    """The hub to read from: ``$HF_ENDPOINT`` (the Hugging Face convention, for mirrors and tests) or the hub."""
    return os.environ.get("HF_ENDPOINT") or HUB_ENDPOINT


HUB_TOKEN_VARIABLES = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")
"""Environment variables whose token is sent (as a bearer header, never in a URL) to the hub for gated datasets."""


def hub_headers() -> dict[str, str]:
    token = next((os.environ[v] for v in HUB_TOKEN_VARIABLES if os.environ.get(v)), None)
    return {"User-Agent": "mechbench", **({"Authorization": f"Bearer {token}"} if token else {})}


def is_hub_id(source: str) -> bool:
    """True for an ``owner/name`` Hugging Face dataset id that is not also an existing local path."""
    return bool(REPOSITORY_ID.match(source)) and not Path(source).exists()


_HUB_CACHE_REPOSITORY = re.compile(r"^(datasets|models|spaces)--(.+)$")


def hub_snapshot(path: Path) -> tuple[Path, str, str] | None:
    """(the hub cache's repository folder, repository id, revision) when ``path`` lies in a snapshot of a Hugging
    Face cache (``…/datasets--owner--name/snapshots/<revision>/…``, as ``huggingface-cli download`` leaves it)."""
    parts = path.absolute().parts
    for i in range(len(parts) - 2, 0, -1):
        match = _HUB_CACHE_REPOSITORY.match(parts[i - 1])
        if parts[i] == "snapshots" and match:
            return Path(*parts[:i]), match.group(2).replace("--", "/"), parts[i + 1]
    return None


def list_hub_files(
    dataset_id: str, *, prefix: str = "", revision: str = "main", endpoint: str = HUB_ENDPOINT
) -> list[str]:
    """Paths of the files in a hub dataset repository (the hub's tree API), optionally under ``prefix``."""
    url = f"{endpoint.rstrip('/')}/api/datasets/{dataset_id}/tree/{revision}?recursive=1"
    try:
        with OPENER.open(urllib.request.Request(url, headers=hub_headers()), timeout=DOWNLOAD_TIMEOUT_S) as response:
            entries = json.loads(response.read(MAX_LISTING_BYTES))
    except urllib.error.HTTPError as error:
        raise DataSourceError(f"listing of {dataset_id} failed: HTTP {error.code} {error.reason}") from None
    except (urllib.error.URLError, TimeoutError, OSError, ValueError) as error:
        raise DataSourceError(f"listing of {dataset_id} failed: {getattr(error, 'reason', error)}") from None
    if not isinstance(entries, list):
        raise DataSourceError(f"listing of {dataset_id}: unexpected answer from the hub")
    return sorted(
        e["path"]
        for e in entries
        if isinstance(e, dict) and e.get("type") == "file" and str(e.get("path", "")).startswith(prefix)
    )


def fetch_hub_files(
    dataset_id: str,
    paths: list[str],
    *,
    revision: str = "main",
    endpoint: str = HUB_ENDPOINT,
    cache: Path | None = None,
) -> Path:
    """Download files of a Hugging Face dataset repository once; returns the local repository folder."""
    cache = cache or default_cache()
    folder = cache / "hub" / dataset_id.replace("/", "--") / revision
    for path in paths:
        if not safe_member(path):
            raise DataSourceError(f"unsafe path in dataset {dataset_id}: {path!r}")
        target = folder / path
        if not target.exists():
            download(f"{endpoint.rstrip('/')}/datasets/{dataset_id}/resolve/{revision}/{path}", target, hub_headers())
    return folder
