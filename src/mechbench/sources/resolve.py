"""Where benchmark data lives: a local folder, an archive URL or a Hugging Face dataset id, resolved to a folder.

The published StructuralEval data is CC BY-NC: mechbench never ships it, it fetches it from its publishers at run
time or reads a local copy the user points to. Never a silent substitution: when the official data cannot be
fetched, the error says so and names ``-T data=bundled``.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from mechbench.core.errors import DataSourceError
from mechbench.core.paths import default_cache
from mechbench.core.text import redact_url
from mechbench.sources.download import fetch_url
from mechbench.sources.hub import HUB_ENDPOINT, fetch_hub_files, hub_snapshot, is_hub_id, list_hub_files

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
"""The benchmark folders: each keeps its own generated offline set in ``<name>/bundled`` (with a ``GENERATED.md``
saying how it was made)."""


def bundled(name: str) -> Path:
    """Folder of the bundled set of benchmark ``name`` (``structural_eval`` or ``sphyr``)."""
    path = BENCHMARKS / name / "bundled"
    if not path.is_dir():
        raise DataSourceError(f"no bundled data for {name}")
    return path


def resolve_or_official(source: str | Path | None, default: str, name: str, **kwargs: object) -> Path:
    """``source`` resolved; ``bundled`` means mechbench's bundled set; with no source, the official ``default``.

    Never a silent substitution: when the official data cannot be fetched, the error says so and names
    ``-T data=bundled`` as the offline choice (a run on other data than the user believes is worse than none).
    """
    if source == "bundled":
        return bundled(name)
    if source is not None:
        return resolve_source(source, **kwargs)  # type: ignore[arg-type]
    try:
        return resolve_source(default, **kwargs)  # type: ignore[arg-type]
    except DataSourceError as error:
        raise DataSourceError(
            f"the official {name} data could not be fetched ({error}); for mechbench's own generated set, "
            "offline, use -T data=bundled"
        ) from None


def is_url(source: str) -> bool:
    """True for http(s) and file URLs."""
    return source.startswith(("http://", "https://", "file://"))


def describe_source(source: str | Path) -> str:
    """How a run names a data source given by the user: URLs without their secrets, a hub-cache snapshot as the
    repository and revision it holds (and where it lies), other paths as given."""
    text = str(source)
    if is_url(text):
        return redact_url(text)
    path = Path(text).expanduser()
    snapshot = hub_snapshot(path) if path.exists() else None
    if snapshot:
        _, repository, revision = snapshot
        return f"{repository}@{revision} (Hugging Face cache snapshot {text})"
    return text


def resolve_source(
    source: str | Path,
    *,
    hub_paths: list[str] | None,
    hub_prefix: str = "",
    endpoint: str = HUB_ENDPOINT,
    cache: Path | None = None,
) -> Path:
    """A local folder for ``source``: the folder itself, a downloaded archive, or hub files.

    ``hub_paths`` names the files to fetch from a hub dataset; ``None`` fetches every file under
    ``hub_prefix`` (listed through the hub's API).
    """
    text = str(source)
    path = Path(text).expanduser()
    if path.is_dir():
        return path
    if path.exists():
        raise DataSourceError(f"{path} is a file; give the folder that holds the benchmark data")
    if is_url(text):
        return fetch_url(text, cache)
    if is_hub_id(text):
        if hub_paths is None:
            # The listing is cached with the files, so a later run works offline.
            listing = (
                (cache or default_cache()) / "hub" / text.replace("/", "--") / f"listing-{hub_prefix.strip('/')}.json"
            )
            if listing.exists():
                hub_paths = json.loads(listing.read_text())
            else:
                hub_paths = list_hub_files(text, prefix=hub_prefix, endpoint=endpoint)
                listing.parent.mkdir(parents=True, exist_ok=True)
                listing.write_text(json.dumps(hub_paths))
            if not hub_paths:
                raise DataSourceError(f"hub dataset {text} has no files under {hub_prefix or '/'}")
        return fetch_hub_files(text, hub_paths, endpoint=endpoint, cache=cache)
    hint = " (did you mean bundled?)" if difflib.get_close_matches(text, ["bundled"], n=1, cutoff=0.7) else ""
    raise DataSourceError(
        f"{text!r} is neither an existing folder, an archive URL, nor a Hugging Face dataset id{hint}"
    )
