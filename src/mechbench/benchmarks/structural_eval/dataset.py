"""StructuralEval tasks from the official layout (``data/raw_models``, ``data/ground_truth_meta``,
``data/images``), wherever it lives: a local folder, an archive URL or the hub.

Where an official image is missing, the drawing is rendered from the raw model with
:func:`mechbench.frame.render.render` (and the task says so); where the ground truth is missing it is
computed with mechbench's solver; where the difficulty is missing it follows :func:`heuristic_difficulty`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from mechbench.benchmarks.structural_eval.scoring import Response, response_of, solve_response
from mechbench.core import safejson
from mechbench.core.errors import DataSourceError, MechbenchError, UsageError
from mechbench.core.paths import default_cache
from mechbench.frame import FrameModel
from mechbench.frame.determinacy import moment_releases
from mechbench.frame.generate_deep import ALL_LEVELS
from mechbench.sources.root import DataRoot, Official, open_data

OFFICIAL_REPOSITORY = "H1W0XXX/structural-eval-benchmark"
"""The maintainers' repository (the same content as the Hugging Face dataset superhatk/structural-eval-benchmark):
data, runner and prompts. CC BY-NC: fetched at run time, never shipped."""
OFFICIAL_REVISION = "5eb1dfcf2f8121f5bedecf85eceaf6de3a30dc5f"
"""The pinned revision: the 25 tasks (truss_006 … truss_010 added), the runner and its prompts."""


OFFICIAL = Official("archive", OFFICIAL_REPOSITORY, OFFICIAL_REVISION)
"""The maintainers' repository as one archive at the pinned revision (its LFS drawings from the same revision)."""
HUB_PREFIX = "data/"
"""A Hugging Face copy given as ``data`` is fetched whole under this folder."""


def open_structural(data: DataRoot | str | Path | None = None, revision: str | None = None) -> DataRoot:
    """The data a task names, resolved once (``None``: the official repository at ``revision`` or the pinned one;
    ``bundled``: mechbench's generated set; a folder, an archive URL or a Hugging Face dataset id)."""
    if isinstance(data, DataRoot):
        return data
    return open_data("structural_eval", data, OFFICIAL, revision=revision, hub_prefix=HUB_PREFIX)


CATEGORIES = ("beam", "frame", "truss")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")


class StructuralTask(BaseModel):
    """One benchmark task with its ground truth, ready to become a sample."""

    id: str
    category: str
    difficulty: int
    difficulty_source: Literal["metadata", "heuristic"]
    image: str
    image_source: Literal["official", "rendered"]
    truth_source: Literal["published", "solver"]
    raw_model: dict[str, Any]
    truth_reactions: dict[str, tuple[float, float, float]]
    """World reactions per support location "x,y" (from the lower-left corner)."""
    truth_values: list[float]
    truth_max_moment: float

    def response(self) -> Response:
        """The ground-truth response in the comparison's terms."""
        at = {tuple(float(v) for v in key.split(",")): value for key, value in self.truth_reactions.items()}
        return Response(at=at, values=self.truth_values, max_moment=self.truth_max_moment)  # type: ignore[arg-type]


def category_of(task_id: str) -> str:
    """beam, frame or truss from the id (``frame_003``); ``other`` when the id does not say."""
    head = task_id.split("_", 1)[0].lower()
    return head if head in CATEGORIES else "other"


LARGE_TRUSS_MEMBERS = (15, 20)
"""A truss with more members than these is level 4, 5 (level 3 below)."""


def heuristic_difficulty(model: FrameModel, category: str) -> int:
    """Difficulty 1–5 when the metadata has none, by the rule that reproduces every published label (13 of 13 at
    the pinned revision): a beam is 1 + its moment releases (hinges); a frame 2, + 1 for each release past the
    first; a truss 3, 4 past 15 members, 5 past 20. Capped at 5."""
    if category == "truss":
        level = 3 + sum(len(model.links) > limit for limit in LARGE_TRUSS_MEMBERS)
    elif category == "beam":
        level = 1 + moment_releases(model)
    else:
        level = 2 + max(0, moment_releases(model) - 1)
    return min(5, level)


def official_copy(root: DataRoot) -> Path:
    """The root of the official copy (the folder holding the maintainers' ``run_eval.py``)."""
    from mechbench.benchmarks.structural_eval.official_protocol import PROMPTS_FILE, RUNNER_FILE

    if root.is_bundled:
        raise DataSourceError(
            "protocol=official reads the maintainers' prompts from the official copy; mechbench's bundled set has "
            "none (leave data unset for the official repository, or point data at a copy of it)"
        )
    if root.remote is not None:  # a hub dataset: the runner and its prompts are two files of it
        root.file(PROMPTS_FILE)
        return root.file(RUNNER_FILE).parent
    return root.find(RUNNER_FILE).parent


def data_root(root: DataRoot) -> Path:
    """The folder holding ``raw_models`` (the official ``data/`` folder or one like it)."""
    candidates = root.folders("raw_models")
    if not candidates:
        raise DataSourceError(f"no raw_models folder under {root.path}: not the StructuralEval layout")
    return candidates[0].parent


def data_files(root: DataRoot) -> list[Path]:
    """The files a run's ground truth comes from (raw models and metadata), in a stable order, for the log's hash."""
    folder = data_root(root)
    return sorted(
        (p for sub in ("raw_models", "ground_truth_meta") for p in (folder / sub).glob("*.json") if p.is_file()),
        key=lambda p: (p.parent.name, p.name),
    )


def _rendered_image(model: dict[str, Any], task_id: str) -> Path:
    digest = hashlib.sha256(json.dumps(model, sort_keys=True).encode()).hexdigest()[:16]
    path = default_cache() / "rendered" / f"{task_id}-{digest}.png"
    if not path.exists():
        from mechbench.frame.render import render  # matplotlib only when a drawing is actually missing

        path.parent.mkdir(parents=True, exist_ok=True)
        render(model, path)
    return path


def _read_json(root: DataRoot, path: Path) -> Any:
    try:
        return safejson.loads(root.read_text(path))
    except ValueError as error:
        raise DataSourceError(f"cannot read {path.name}: {error}") from None


def load_tasks(data: DataRoot | str | Path | None = None, *, filter: str | None = None) -> list[StructuralTask]:
    """Every task of the data set (ids containing ``filter`` only, when given), sorted by id."""
    source = open_structural(data)
    root = data_root(source)
    tasks = []
    for path in sorted((root / "raw_models").glob("*.json")):
        task_id = path.stem
        if filter and filter not in task_id:
            continue
        raw = _read_json(source, path)
        try:
            model = FrameModel.parse(raw)
        except MechbenchError as error:
            raise DataSourceError(f"raw model {path.name} is not a valid FrameCalc model: {error}") from None
        meta_path = root / "ground_truth_meta" / f"{task_id}.json"
        meta = _read_json(source, meta_path) if meta_path.exists() else {}
        category = category_of(task_id)
        solution = meta.get("solution") if isinstance(meta, dict) else None
        complete = isinstance(solution, dict) and "reactions" in solution
        if complete and "maxMoment" not in solution and not solution.get("moment"):
            complete = False  # no moment information: the largest moment must come from the solver
        if complete:
            response, truth_source = response_of(model, solution), "published"
            # Published solutions sample the moment diagram; the compared largest moment is the true peak,
            # computed for the truth exactly as for an answer (the solver reproduces the samples to ~1e-11).
            try:
                response = dataclasses.replace(response, max_moment=solve_response(model).max_moment)
            except MechbenchError as error:
                raise DataSourceError(f"raw model {path.name} cannot be solved: {error}") from None
        else:
            try:
                response, truth_source = solve_response(model), "solver"
            except MechbenchError as error:
                raise DataSourceError(f"raw model {path.name} cannot be solved: {error}") from None
        difficulty = meta.get("difficulty") if isinstance(meta, dict) else None
        image_name = meta.get("image_filename") if isinstance(meta, dict) else None
        image = _official_image(source, root, task_id, image_name)
        known = isinstance(difficulty, int | float) and min(ALL_LEVELS) <= difficulty <= max(ALL_LEVELS)
        tasks.append(
            StructuralTask(
                id=task_id,
                category=category,
                difficulty=int(difficulty) if known else heuristic_difficulty(model, category),
                difficulty_source="metadata" if known else "heuristic",
                image=str(image or _rendered_image(raw, task_id)),
                image_source="official" if image else "rendered",
                truth_source=truth_source,
                raw_model=raw,
                truth_reactions={f"{x!r},{y!r}": v for (x, y), v in response.at.items()},
                truth_values=response.values,
                truth_max_moment=response.max_moment,
            )
        )
    if not tasks and filter:  # the argument's mistake, not the data's: named with the ids it could have matched
        ids = sorted(path.stem for path in (root / "raw_models").glob("*.json"))
        if ids:
            shown = ", ".join(ids[:12]) + (f", … ({len(ids)} in all)" if len(ids) > 12 else "")
            raise UsageError(f"filter {filter!r} matches no task id; the ids under {root}: {shown}")
    if not tasks:
        raise DataSourceError(f"no tasks under {root}" + (f" matching {filter!r}" if filter else ""))
    return tasks


def _official_image(source: DataRoot, root: Path, task_id: str, image_name: Any) -> Path | None:
    """The task's published drawing, checked (a Git LFS pointer resolved, the image decoded); None if absent."""
    folder = root / "images"
    names = [image_name] if isinstance(image_name, str) else []
    names += [task_id + suffix for suffix in IMAGE_SUFFIXES]
    for name in names:
        candidate = folder / name
        try:
            if not candidate.is_file():
                continue
        except (OSError, ValueError):  # a name too long for the file system, or with a NUL byte
            continue
        return source.media(candidate, "image")
    return None
