"""Does a StructuralEval set differ from the published one? (``mechbench calibrate structural``)

The published set is small (20 drawings at the pinned commit), so this is a coarse instrument: it shows where a
generated set's composition departs from the published one, not that two sets are interchangeable.

* **Features**, task by task: the kind (beam, frame, truss), the difficulty level, the size (points, members,
  supports), the idealisation (fixed supports, moment releases), the loads (point, distributed, moments), the
  extent, and the degree of static indeterminacy. Compared by :mod:`mechbench.harness.calibration`.
* **A panel of planted-mistake models**, one per component the diagnostic ladder checks (geometry, supports,
  hinges, loads) at two rates: each task's truth, with probability ``rate`` given one mistake of that component,
  scored by the benchmark's strict judge (ladder credit). A set where such mistakes are often invisible to the
  physics (a hinge where the moment is zero anyway) scores them higher: the panel measures how much a set can see.
"""

from __future__ import annotations

import json
import random
from typing import Any

from mechbench.benchmarks.structural_eval.check import check_reply
from mechbench.benchmarks.structural_eval.dataset import StructuralTask
from mechbench.benchmarks.structural_eval.demo import first_mistake
from mechbench.benchmarks.structural_eval.scoring import DEFAULT_TOLERANCE
from mechbench.core.errors import DataSourceError
from mechbench.frame import FrameModel
from mechbench.frame.determinacy import moment_releases, static_indeterminacy
from mechbench.harness import calibration

COMPONENTS = ("geometry", "supports", "hinges", "loads")
RATES = (0.5, 1.0)
PANEL = tuple(f"{component} mistakes, rate {rate:g}" for component in COMPONENTS for rate in RATES)


def task_features(task: StructuralTask) -> dict[str, float | str]:
    """What one task's structure looks like: the features the sets are compared on. A truss is counted as the
    truss it is (pin-jointed, no moment releases), however its joints are drawn: the published trusses are drawn
    with rigid joints, which is an idealisation of the drawing, not composition."""
    model = FrameModel.parse(task.raw_model)
    truss = task.category == "truss"
    xs, ys = [p.x for p in model.points], [p.y for p in model.points]
    kinds = [load.kind for load in model.loads]
    return {
        "kind": task.category,
        "difficulty": str(task.difficulty),
        "points": float(len(model.points)),
        "members": float(len(model.links)),
        "supports": float(len(model.supports)),
        "fixed supports": float(sum(s.kind == "fixed" for s in model.supports)),
        "moment releases": 0.0 if truss else float(moment_releases(model)),
        "point loads": float(kinds.count("pointLoad")),
        "distributed loads": float(kinds.count("distributedLoad")),
        "moments": float(kinds.count("bendingMoment")),
        "width (m)": max(xs) - min(xs) if xs else 0.0,
        "height (m)": max(ys) - min(ys) if ys else 0.0,
        "degree of static indeterminacy": float(static_indeterminacy(model, pin_jointed=truss)),
    }


def feature_table(tasks: list[StructuralTask]) -> calibration.Table:
    """Every feature's values over the tasks."""
    table: calibration.Table = {}
    for task in tasks:
        for name, value in task_features(task).items():
            table.setdefault(name, []).append(value)
    return table


def planted_score(task: StructuralTask, component: str, rate: float, rng: random.Random) -> float:
    """Ladder credit of the truth given, with probability ``rate``, one mistake of ``component``."""
    if rng.random() >= rate:
        return 1.0
    answer = first_mistake(task.raw_model, component)
    if answer is None:
        return 1.0
    verdict = check_reply(
        f"<json>{json.dumps(answer)}</json>",
        FrameModel.parse(task.raw_model),
        task.response(),
        tolerance=DEFAULT_TOLERANCE,
        scoring="strict",
    )
    return verdict.ratio


def panel_scores(tasks: list[StructuralTask], seed: int = 0) -> dict[str, list[float]]:
    """Each planted-mistake model's ladder credit per task."""
    out: dict[str, list[float]] = {}
    for component in COMPONENTS:
        for rate in RATES:
            name = f"{component} mistakes, rate {rate:g}"
            out[name] = [
                planted_score(task, component, rate, random.Random(f"{seed}:{name}:{task.id}")) for task in tasks
            ]
    return out


def calibrate(fresh: list[StructuralTask], published: list[StructuralTask], names: tuple[str, str]) -> dict[str, Any]:
    """The whole report of ``fresh`` against ``published``, every task of each (tasks are not drawn in a sequence
    that binds as it goes, so no position matching)."""
    if min(len(fresh), len(published)) < calibration.MIN_ITEMS:
        raise DataSourceError(f"calibration needs at least {calibration.MIN_ITEMS} tasks in each set")
    features = calibration.feature_rows(feature_table(fresh), feature_table(published))
    panel = calibration.panel_rows(panel_scores(fresh), panel_scores(published))
    counts = (len(fresh), len(published))
    return {**calibration.report(names, counts, features, panel), "score": "mean ladder credit"}
