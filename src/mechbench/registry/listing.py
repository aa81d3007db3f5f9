"""A benchmark's ``eval.yaml``: its entry in Inspect's community register, read and checked against the code.

The register (Inspect Evals, since May 2026) lists evaluations that live in their authors' repositories by a pointer
to a pinned commit: ``source.repository_url`` and the 40-character ``source.repository_commit``, ``maintainers``,
and per task its Inspect name and ``task_path`` (the file that defines it); ``version`` follows the register's
``N-X`` scheme (N: results comparability, X: the task interface). mechbench adds what a user of a benchmark needs
beside it: the external assets and where they are pinned, the baselines, the sample ids and the publishers'
citation. Generated sets need no paper.
"""

from __future__ import annotations

import inspect
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from mechbench.core.errors import DataSourceError

VERSION = re.compile(r"^[1-9]\d*-[A-Z]+$")
COMMIT = re.compile(r"^[0-9a-f]{40}$")
PACKAGE_ROOT = "src/"
"""Where the package lies in the repository (``task_path`` starts there)."""


class ListedSource(BaseModel):
    """Where the evaluation's code is: the repository and the pinned commit the register points at."""

    model_config = ConfigDict(extra="forbid")
    repository_url: str = Field(pattern=r"^https://")
    repository_commit: str

    @field_validator("repository_commit")
    @classmethod
    def _commit(cls, value: str) -> str:
        if not COMMIT.match(value):
            raise ValueError("must be a full 40-character commit hash")
        return value


class ListedTask(BaseModel):
    """One task of the entry: its Inspect name, the file that defines it, its arguments and sample count."""

    model_config = ConfigDict(extra="forbid")
    name: str
    task_path: str
    args: dict[str, Any] = {}
    dataset_samples: int = Field(gt=0)


class ExternalAsset(BaseModel):
    """Data the task fetches at run time, and how it is pinned."""

    model_config = ConfigDict(extra="forbid")
    name: str
    source: str
    fetched: str
    pinned: str


class Listing(BaseModel):
    """An ``eval.yaml`` entry."""

    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1)
    description: str = Field(min_length=1)
    arxiv: str | None = None
    paper: str | None = None
    """The publishers' paper or dataset card (absent for a benchmark of generated sets)."""
    group: str
    version: str
    maintainers: list[str] = Field(min_length=1)
    source: ListedSource
    tasks: list[ListedTask] = Field(min_length=1)
    evaluation_report: str | None = None
    citation: str | None = None
    """The publishers' citation (BibTeX)."""
    sample_ids: str
    external_assets: list[ExternalAsset] = []
    baselines: dict[str, str]

    @field_validator("version")
    @classmethod
    def _version(cls, value: str) -> str:
        if not VERSION.match(value):
            raise ValueError("must follow the register's N-X scheme, such as 1-A")
        return value


def read_listing(path: Path) -> Listing:
    """The ``eval.yaml`` at ``path``, validated (one line naming the first problem otherwise)."""
    import yaml

    try:
        return Listing.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (OSError, yaml.YAMLError) as error:
        raise DataSourceError(f"{path}: cannot be read ({error})") from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DataSourceError(f"{path}: {where}: {first['msg']}") from None


def listing_problems(listing: Listing, name: str, task: Any, exports: dict[str, Any]) -> list[str]:
    """What in ``listing`` disagrees with benchmark ``name``'s code: task names, task files, arguments."""
    problems = []
    if listing.paper and not (listing.citation or "").strip().startswith("@"):
        problems.append("a published benchmark (paper) needs the publishers' BibTeX citation")
    known = {name: task, **exports}
    for entry in listing.tasks:
        short = entry.name.removeprefix("mechbench/")
        fn = known.get(short)
        if fn is None or not entry.name.startswith("mechbench/"):
            problems.append(f"task {entry.name!r} is not one of mechbench/{', mechbench/'.join(known)}")
            continue
        source = Path(inspect.getsourcefile(inspect.unwrap(fn)) or "").as_posix()
        if not entry.task_path.startswith(PACKAGE_ROOT) or not source.endswith(entry.task_path[len(PACKAGE_ROOT) :]):
            problems.append(f"task {entry.name}: task_path {entry.task_path} is not the file that defines it")
        unknown = sorted(set(entry.args) - set(inspect.signature(fn).parameters))
        if unknown:
            problems.append(f"task {entry.name}: unknown arguments {', '.join(unknown)}")
    return problems


BASELINE_KINDS = ("trivial", "oracle")
"""The baselines an entry gives, and nothing else: a built-in model that needs no skill, and the ground truth."""


def baseline_problems(listing: Listing, name: str, served: set[str]) -> list[str]:
    """What is wrong with the entry's baselines: exactly ``trivial`` (a command running one of the built-in models
    in ``served`` or ``mechbench/replay``) and ``oracle`` (``-T oracle=true``)."""
    given = set(listing.baselines)
    if given != set(BASELINE_KINDS):
        return [
            f"baselines must be exactly {' and '.join(BASELINE_KINDS)} (got {', '.join(sorted(given)) or 'none'}): "
            f'trivial: "inspect eval mechbench/{name} --model mechbench/<a built-in model>", '
            f'oracle: "inspect eval mechbench/{name} -T oracle=true --model mockllm/model"'
        ]
    problems = []
    trivial = listing.baselines["trivial"]
    model = trivial.split("--model mechbench/", 1)[1].split()[0] if "--model mechbench/" in trivial else None
    if model not in {*served, "replay"}:
        problems.append(
            f"the trivial baseline must run one of {name}'s built-in models (--model mechbench/<one of "
            f"{', '.join(sorted(served)) or 'none'}>), got {trivial!r}"
        )
    if "-T oracle=true" not in listing.baselines["oracle"]:
        problems.append(f"the oracle baseline must run -T oracle=true, got {listing.baselines['oracle']!r}")
    return problems


UNPINNED = "0" * 40
"""``repository_commit`` of an entry not pinned yet (a benchmark's first commit cannot name itself)."""


@dataclass(frozen=True)
class Pinning:
    """What the entry's pinned commit says: a problem (None when it is fine) and a note for the check's line."""

    problem: str | None
    note: str


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=30)


def pin_problems(listing: Listing, path: Path) -> Pinning:
    """Whether the entry at ``path`` pins a commit of this repository that holds each task file. Not pinned yet
    (:data:`UNPINNED`) is fine: ``mechbench check NAME --pin`` pins the last commit of the task files' folder once it is
    committed. Outside a git checkout (an installed package) the commit cannot be looked up, and is not."""
    commit = listing.source.repository_commit
    if commit == UNPINNED:
        return Pinning(None, "not pinned yet (mechbench check NAME --pin, once the task is committed)")
    try:
        inside = _git(path.parent, "rev-parse", "--show-toplevel")
    except (OSError, subprocess.SubprocessError):
        return Pinning(None, f"pinned at {commit[:12]} (no git here to look it up)")
    if inside.returncode != 0:
        return Pinning(None, f"pinned at {commit[:12]} (not a git checkout: not looked up)")
    top = Path(inside.stdout.strip())
    for task in listing.tasks:
        if _git(top, "cat-file", "-e", f"{commit}:{task.task_path}").returncode != 0:
            return Pinning(
                f"repository_commit {commit[:12]} does not hold {task.task_path}: run `mechbench check NAME --pin` "
                f"(or set it to {UNPINNED[:8]}… until the task is committed)",
                "",
            )
    return Pinning(None, f"pinned at {commit[:12]}")


def pin_listing(path: Path) -> str:
    """Pin the entry at ``path`` to the last commit that changed the folders of its task files (the benchmark's code
    and data, which must be committed as they are now); returns the commit. Only the ``repository_commit`` line
    changes."""
    listing = read_listing(path)
    top = Path(_git(path.parent, "rev-parse", "--show-toplevel").stdout.strip() or ".")
    files = sorted({Path(task.task_path).parent.as_posix() for task in listing.tasks})
    listing_path = path.resolve().relative_to(top.resolve()).as_posix()
    changed = _git(top, "status", "--porcelain", "--", *files).stdout.splitlines()
    dirty = [line for line in changed if line[3:].strip() != listing_path]  # the pin itself may be what changed
    commit = _git(top, "log", "-1", "--format=%H", "--", *files).stdout.strip()
    if dirty or not COMMIT.match(commit):
        raise DataSourceError(f"{path}: commit {', '.join(files)} first, then pin")
    text = path.read_text(encoding="utf-8")
    pinned, count = re.subn(r'(repository_commit:\s*["\']?)[0-9a-f]{40}(["\']?)', rf"\g<1>{commit}\g<2>", text)
    if count != 1:
        raise DataSourceError(f"{path}: no single repository_commit line to pin")
    path.write_text(pinned, encoding="utf-8")
    return commit
