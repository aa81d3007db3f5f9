"""The publishers' data, for the tests that reproduce published numbers (marked ``published``).

They get it the way a user does: through mechbench's pinned official sources, into mechbench's cache (the one the
user had before the tests started: ``$MECHBENCH_CACHE`` or ``~/.cache/mechbench``), so online they also exercise
the downloads. ``MECHBENCH_PUBLISHED_DATA=DIR`` points them at a local copy instead, laid out as::

    DIR/structural_eval/{raw_models,ground_truth_meta}/*.json
    DIR/sphyr/<subject>.jsonl, PROMPT.md, recorded_completions/gpt-4.1-2025-04-14/<subject>_results.json
    DIR/sphyr_v2/<subject>.jsonl    DIR/sphyr_v2_20/<subject>.jsonl
    DIR/seesim/{benchmark,data}

Where neither can provide the data, the test is skipped with one line starting ``needs the published data:``; with
``CI=true`` that is a failure instead (CI is as strict as a run with the data).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

PUBLISHED_VARIABLE = "MECHBENCH_PUBLISHED_DATA"
SKIP_PREFIX = "needs the published data:"
RESULTS_MODEL = "gpt-4.1-2025-04-14"
RECORDED_SUBJECTS = ("1_random_cell_easy", "1_random_cell_hard", "full_easy", "full_hard")
"""The published GPT-4.1 results files the tests rescore (a copy may hold more)."""
USER_CACHE = os.environ.get("MECHBENCH_CACHE") or str(Path.home() / ".cache" / "mechbench")
"""The cache the user had before the tests isolated theirs (conftest imports this module first)."""
NAMES = ("structural_eval", "sphyr", "sphyr_v2", "sphyr_v2_20", "seesim")


class Unavailable(Exception):
    """The published data could not be had (no local copy, no network)."""


def _needs(name: str, why: str) -> None:
    reason = (
        f"{SKIP_PREFIX} {name} ({why}); set {PUBLISHED_VARIABLE}=DIR to a local copy (see DEVELOPING.md) or run online"
    )
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


@contextlib.contextmanager
def _user_cache() -> Iterator[None]:
    """Downloads of published data go to the user's mechbench cache, where a user's own runs find them again."""
    old = os.environ.get("MECHBENCH_CACHE")
    os.environ["MECHBENCH_CACHE"] = USER_CACHE
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("MECHBENCH_CACHE", None)
        else:
            os.environ["MECHBENCH_CACHE"] = old


def _link_folder(target: Path, files: dict[str, Path]) -> Path:
    """A folder in the local-copy layout whose files link to where mechbench's downloads put them."""
    for relative, source in files.items():
        link = target / relative
        link.parent.mkdir(parents=True, exist_ok=True)
        if not link.exists():
            link.symlink_to(source.resolve())
    return target


def _fetch(name: str, scratch: Path) -> Path:
    """``name`` fetched through mechbench's official sources, in the local-copy layout."""
    from mechbench.benchmarks.sphyr.dataset import SUBJECTS, subject_file
    from mechbench.benchmarks.sphyr.versions import UPSTREAM_REPOSITORY, UPSTREAM_REVISION
    from mechbench.sources.github import fetch_repository_files
    from mechbench.sources.hub import fetch_hub_files

    with _user_cache():
        if name == "structural_eval":
            from mechbench.benchmarks.structural_eval.dataset import data_root, open_structural

            return data_root(open_structural(None))
        if name == "seesim":
            from mechbench.benchmarks.seesim.dataset import benchmark_root

            return benchmark_root(None)
        if name in ("sphyr_v2", "sphyr_v2_20"):
            version = "v2" if name == "sphyr_v2" else "v2-20"
            files = {f"{s}.jsonl": subject_file(s, None, version=version) for s in SUBJECTS}
            return _link_folder(scratch / name, files)
        files = {f"{s}.jsonl": subject_file(s, None, version="v1") for s in SUBJECTS}
        results = [
            f"results/{RESULTS_MODEL}/{s}{kind}.json"
            for s in RECORDED_SUBJECTS
            for kind in ("_results", "_aggregated_results")
        ]
        upstream = fetch_repository_files(UPSTREAM_REPOSITORY, results, revision=UPSTREAM_REVISION)
        files |= {f"recorded_completions/{p.removeprefix('results/')}": upstream / p for p in results}
        card = fetch_hub_files("philippds/SPhyR", ["README.md"]) / "README.md"
        template = re.search(r"```\n(.*?\{GRID\}.*?)\n```", card.read_text(encoding="utf-8"), re.DOTALL)
        if template is None:
            raise Unavailable("the SPhyR dataset card holds no prompt template block")
        (scratch / name).mkdir(parents=True, exist_ok=True)
        (scratch / name / "PROMPT.md").write_text(f"# from the dataset card\n\n```\n{template.group(1)}\n```\n")
        return _link_folder(scratch / name, files)


@cache
def _published(name: str, scratch: str) -> Path | str:
    """The folder of ``name`` or, when it cannot be had, why (asked once per session)."""
    local = os.environ.get(PUBLISHED_VARIABLE)
    if local:
        path = Path(local).expanduser() / name
        return path if path.is_dir() else f"{PUBLISHED_VARIABLE}={local} has no {name}/ folder"
    from mechbench.core.errors import DataSourceError

    try:
        return _fetch(name, Path(scratch))
    except (DataSourceError, Unavailable) as error:
        text = " ".join(str(error).split())
        failed = re.search(r"download of (\S+) failed: ([^;()]*)", text)
        return f"no local copy, and {failed[1]} failed: {failed[2]}" if failed else f"no local copy, and {text[:160]}"


def published_data(name: str, scratch: Path) -> Path:
    """The publishers' ``name`` data (one of :data:`NAMES`), or a skip (a failure under CI) saying why not."""
    found = _published(name, str(scratch))
    if isinstance(found, str):
        _needs(name, found)
    return found  # type: ignore[return-value]
