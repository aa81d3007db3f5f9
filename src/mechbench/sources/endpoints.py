"""The addresses a run sends requests (and credentials) to, when the environment or a ``.env`` file changes them.

Inspect reads ``.env`` from the folder a run starts in (and its parents), so a file planted there can point
``HF_ENDPOINT`` or a provider's ``*_BASE_URL`` elsewhere, and the token that belongs to the real host goes with it.
mechbench names every such setting before a run starts and records them in the log, and ``mechbench eval`` refuses
an address a ``.env`` sets when the key that would go there comes from elsewhere (:func:`dotenv_redirects`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from mechbench.sources.git_lfs import GITHUB_MEDIA_VARIABLE
from mechbench.sources.github import GITHUB_RAW_VARIABLE, GITHUB_VARIABLE
from mechbench.sources.hub import HUB_TOKEN_VARIABLES

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

    found = dotenv_file(start)
    if found is None:
        return None, {}
    return found, endpoints({k: v for k, v in dotenv_values(found).items() if v is not None})


def credentials_for(name: str) -> tuple[str, ...]:
    """The variables holding the key or token that requests to endpoint variable ``name`` carry (``X_BASE_URL``:
    ``X_API_KEY``, Inspect's convention; ``HF_ENDPOINT``: the hub tokens; mechbench sends GitHub no token)."""
    if name == "HF_ENDPOINT":
        return HUB_TOKEN_VARIABLES
    if _MODEL_ENDPOINT.match(name):
        return (name.removesuffix("_BASE_URL") + "_API_KEY",)
    return ()


def dotenv_file(start: Path) -> Path | None:
    """The ``.env`` file Inspect would load for a run started in ``start`` (the nearest, looking up)."""
    return next((f / ".env" for f in (start, *start.parents) if (f / ".env").is_file()), None)


def dotenv_redirects(start: Path, environ: Mapping[str, str]) -> list[str]:
    """Every address the ``.env`` of a run started in ``start`` would set (the environment does not, and Inspect's
    loading never overrides it) while the key that goes there comes from ``environ`` and not from that file: a file
    planted in a folder would send the user's own key where it chose."""
    from dotenv import dotenv_values

    found = dotenv_file(start)
    if found is None:
        return []
    values = {k: v for k, v in dotenv_values(found).items() if v}
    out = []
    for name, value in sorted(values.items()):
        if not is_endpoint(name) or environ.get(name):
            continue
        borrowed = [key for key in credentials_for(name) if environ.get(key) and key not in values]
        if borrowed:
            out.append(f"{name}={without_credentials(value)} with {', '.join(borrowed)} from your environment")
    return out


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
