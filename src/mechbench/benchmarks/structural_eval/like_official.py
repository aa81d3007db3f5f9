"""StructuralEval sets drawn like the published one (``mechbench generate structural --like official``).

Each published task gives a *recipe*: its kind, its difficulty level, its number of members, its support kinds, its
moment releases and its loads by kind. A fresh task takes a recipe (the recipes in an order shuffled by the seed,
then again, so a set of any size keeps the published proportions) and draws new geometry and values for it
(:mod:`mechbench.frame.varied`); it is kept only when it is stable and the level rule
(:func:`~mechbench.benchmarks.structural_eval.dataset.heuristic_difficulty`) gives it the recipe's level.

The composition is matched, not the published set's quirks: its trusses are drawn with rigid joints, a fresh
truss is pin-jointed and loaded at its joints (its recipe counts no releases).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

from mechbench.benchmarks.structural_eval.dataset import StructuralTask, heuristic_difficulty
from mechbench.core.errors import MechbenchError
from mechbench.frame import FrameModel
from mechbench.frame.determinacy import moment_releases
from mechbench.frame.solve import solve
from mechbench.frame.varied import BUILDERS, Composition
from mechbench.harness.releases import library_stack
from mechbench.sources.files import files_sha256

RELEASE_TASKS = 100
"""Tasks in a monthly release (four rounds of the official set's 25 recipes)."""
DRAWS = 2000
"""Draws per task before the recipe is given up as one the builders cannot meet."""


def recipe_of(task: StructuralTask) -> tuple[Composition, int]:
    """A published task's composition and its level by the rule (which reproduces every published label)."""
    model = FrameModel.parse(task.raw_model)
    kinds = [load.kind for load in model.loads]
    truss = task.category == "truss"
    composition = Composition(
        kind=task.category if task.category in BUILDERS else "frame",
        members=len(model.links),
        supports=tuple(sorted(support.kind for support in model.supports)),
        releases=0 if truss else moment_releases(model),
        point_loads=kinds.count("pointLoad"),
        distributed_loads=0 if truss else kinds.count("distributedLoad"),
        moments=0 if truss else kinds.count("bendingMoment"),
    )
    return composition, heuristic_difficulty(model, composition.kind)


def recipes_digest(recipes: list[tuple[Composition, int]]) -> str:
    """SHA-256 of the recipes: what a set drawn like them was drawn from."""
    text = json.dumps([[asdict(c), level] for c, level in recipes], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def recipe_order(recipes: list[tuple[Composition, int]], n: int, seed: int) -> list[tuple[Composition, int]]:
    """``n`` recipes: whole rounds of every recipe, each round in an order shuffled by the seed."""
    order: list[tuple[Composition, int]] = []
    rng = random.Random(f"{seed}:order")
    while len(order) < n:
        round_ = list(recipes)
        rng.shuffle(round_)
        order += round_
    return order[:n]


def structure_like(recipe: tuple[Composition, int], rng: random.Random) -> dict[str, Any]:
    """A stable structure of the recipe's composition at its level."""
    composition, level = recipe
    builder = BUILDERS[composition.kind]
    for _ in range(DRAWS):
        try:
            raw = builder(rng, composition)
            if raw is None:
                continue
            model = FrameModel.parse(raw)
            if heuristic_difficulty(model, composition.kind) != level:
                continue
            solve(raw, diagrams=False)
        except MechbenchError:
            continue
        return raw
    raise MechbenchError(f"no stable {composition.kind} of level {level} like {composition} in {DRAWS} draws")


def check_recipes(tasks: list[StructuralTask]) -> None:
    """Refuse, before any drawing, a published set with a task whose recipe the builders cannot meet (one draw of
    each distinct recipe; the error names the task)."""
    tried: set[tuple[Composition, int]] = set()
    for task in tasks:
        recipe = recipe_of(task)
        if recipe in tried:
            continue
        tried.add(recipe)
        try:
            structure_like(recipe, random.Random(f"probe:{task.id}"))
        except MechbenchError:
            raise MechbenchError(
                f"{task.id}: no fresh {recipe[0].kind} of its composition could be drawn ({recipe[0]}, level "
                f"{recipe[1]}); a set like this one cannot be generated"
            ) from None


def set_digest(data: Path) -> str:
    """SHA-256 over a written set's files, in the order of their paths under ``data``."""
    return files_sha256(sorted((p for p in data.rglob("*") if p.is_file()), key=lambda p: p.relative_to(data)))


def write_manifest(
    out: Path, source: str, recipes: list[tuple[Composition, int]], seed: int, n: int, release: str | None = None
) -> dict:
    """``like.json`` beside ``data/``: which published set the recipes came from (and their digest), the release,
    the seed and the composition drawn, with the digest of the files written and the library stack (the truths
    and whether a draw is kept come from floating point, the drawings from matplotlib)."""
    drawn = Counter(f"{c.kind} level {level}" for c, level in recipe_order(recipes, n, seed))
    manifest = {
        "like": source,
        "release": release,
        "recipes": len(recipes),
        "recipes_sha256": recipes_digest(recipes),
        "seed": seed,
        "n": n,
        "composition": dict(sorted(drawn.items())),
        "files_sha256": set_digest(out / "data"),
        "stack": library_stack("matplotlib"),
    }
    (out / "like.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest
