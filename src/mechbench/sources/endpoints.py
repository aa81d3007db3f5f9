"""The addresses a run sends requests (and credentials) to, when the environment or a ``.env`` file changes them.

Inspect reads ``.env`` from the folder a run starts in (and its parents), so a file planted there can point
``HF_ENDPOINT`` or a provider's ``*_BASE_URL`` elsewhere, and the token that belongs to the real host goes with it.
mechbench names every such setting before a run starts and records them in the log.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from mechbench.sources.git_lfs import GITHUB_MEDIA_VARIABLE
from mechbench.sources.github import GITHUB_RAW_VARIABLE, GITHUB_VARIABLE

DATA_ENDPOINTS = ("HF_ENDPOINT", GITHUB_VARIABLE, GITHUB_RAW_VARIABLE, GITHUB_MEDIA_VARIABLE)
"""The variables that move where mechbench fetches the publishers' data from."""
_MODEL_ENDPOINT = re.compile(r"^[A-Z0-9_]+_BASE_URL$")


def is_endpoint(name: str) -> bool:
    """``name`` is a variable that sets where requests go (a data source or a model API's base URL)."""
    return name in DATA_ENDPOINTS or bool(_MODEL_ENDPOINT.match(name))


def without_credentials(url: str) -> str:
    """``url`` with any ``user:password@`` and query string removed (what may be printed and logged)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<not a URL>"
    host = parts.hostname or ""
    netloc = host + (f":{parts.port}" if parts.port else "") if "@" in parts.netloc else parts.netloc
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def endpoints(environ: Mapping[str, str]) -> dict[str, str]:
    """Every endpoint variable set in ``environ``, credentials removed, sorted by name."""
    return {name: without_credentials(value) for name, value in sorted(environ.items()) if is_endpoint(name) and value}


def dotenv_endpoints(start: Path) -> tuple[Path | None, dict[str, str]]:
    """The ``.env`` file Inspect would load for a run started in ``start`` and the endpoints it sets."""
    from dotenv import dotenv_values

    for folder in (start, *start.parents):
        candidate = folder / ".env"
        if candidate.is_file():
            values = {k: v for k, v in dotenv_values(candidate).items() if v is not None}
            return candidate, endpoints(values)
    return None, {}


def endpoint_line(start: Path, environ: Mapping[str, str]) -> str | None:
    """One line naming every endpoint a ``.env`` file or the environment sets for a run started in ``start``."""
    dotenv, planted = dotenv_endpoints(start)
    given = {k: v for k, v in endpoints(environ).items() if k not in planted}
    parts = []
    if planted:
        parts.append(f"from {dotenv}: " + ", ".join(f"{k}={v}" for k, v in planted.items()))
    if given:
        parts.append("from the environment: " + ", ".join(f"{k}={v}" for k, v in given.items()))
    if not parts:
        return None
    return "endpoints: " + "; ".join(parts) + " (requests and their keys or tokens go there)"
