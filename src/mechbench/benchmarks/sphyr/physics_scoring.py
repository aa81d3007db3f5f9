"""SPhyR's physics-based metrics (the published "dynamic evaluation"), over :mod:`mechbench.topopt`.

Loads, supports and the L/S cells always come from the ground truth; the answer only supplies densities
(V or unreadable cells empty). The headline ``topology_score`` = structural efficiency (reference optimum
compliance / compliance, clipped to [0, 1]) × material efficiency (min(1, truth volume / volume)), 0 when
the answer does not carry the load (compliance infinite or above 1000 × the solid grid's). An answer whose
shape differs from the truth's gets the published defaults.

``reference="published"`` (default) computes the reference optimum exactly as the published scorer does
(:mod:`mechbench.topopt.reference`), so every field reproduces the published files. ``reference="best"``
uses mechbench's stronger optimiser (:mod:`mechbench.topopt.simp`) and reports the fields that depend on
it under names ending in ``_best``, so the two are never mixed.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel

from mechbench.benchmarks.sphyr.grid import DOWN, LOAD, MASK, SUPPORT, Gravity, densities, gravity_vector, load_case
from mechbench.core.budget import check_budget
from mechbench.core.errors import DataSourceError, MechbenchError
from mechbench.core.threads import single_threaded
from mechbench.topopt import Problem, best_optimum
from mechbench.topopt.fea import Solution, solve

Reference = Literal["published", "best"]
REFERENCES: tuple[Reference, ...] = ("published", "best")
LOAD_CARRYING_FACTOR = 1000.0  # compliance above this × the fully solid grid's: the load is not carried
# Fields that depend on the reference optimum: renamed with "_best" under reference="best".
REFERENCE_FIELDS = ("optimal_compliance", "structural_efficiency", "structural_efficiency_raw", "topology_score")
# The averaged physics metrics (Inspect metrics and the published ``total_*`` sums).
PHYSICS_NAMES = (
    "load_carrying",
    "structural_efficiency",
    "material_efficiency",
    "topology_score",
    "compliance_efficiency_vs_ground_truth",
    "volume_fraction",
    "volume_ratio",
)


def metric_names(reference: Reference = "published") -> tuple[str, ...]:
    """The averaged physics metric names under ``reference``."""
    suffix = "_best" if reference == "best" else ""
    return tuple(f"{n}{suffix}" if n in REFERENCE_FIELDS else n for n in PHYSICS_NAMES)


class PhysicsScore(BaseModel):
    """Every physics field of one answer, as the published results files store them (∞ as None)."""

    reference: Reference = "published"
    physically_valid: bool = False
    load_carrying: bool | float = False
    """A mean over two load axes where the truth cannot tell them apart (``load_direction="recovered"``)."""
    compliance: float | None = None
    ground_truth_compliance: float | None = None
    optimal_compliance: float | None = None
    own_budget_optimal_compliance: float | None = None
    optimal_origin: str | None = None
    topology_score: float = 0.0
    structural_efficiency: float = 0.0
    structural_efficiency_raw: float = 0.0
    design_efficiency: float | None = None
    material_efficiency: float = 0.0
    compliance_efficiency_vs_ground_truth: float = 0.0
    volume_fraction: float = 0.0
    ground_truth_volume_fraction: float = 0.0
    volume_ratio: float = 0.0
    max_displacement: float = 0.0
    unfilled_cells: int = 0
    unparsable_cells: int = 0
    default_reason: str | None = None
    """Why the published defaults apply (the answer's shape, or a truth without loads or supports)."""

    def fields(self) -> dict[str, Any]:
        """The record fields, reference-dependent ones renamed under ``reference="best"``."""
        out = self.model_dump()
        if self.reference == "best":
            for name in REFERENCE_FIELDS:
                out[f"{name}_best"] = out.pop(name)
        return out

    def metrics(self) -> dict[str, float]:
        """The averaged metrics as floats."""
        fields = self.fields()
        return {name: float(fields[name] or 0.0) for name in metric_names(self.reference)}


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _ratio(a: float, b: float) -> float:
    if not math.isfinite(b) or b <= 0 or not math.isfinite(a):
        return 0.0
    return min(max(a / b, 0.0), 1.0)


def default_reason(truth: list[list[str]], answer: list[list[str]]) -> str | None:
    """Why the published defaults apply to this (truth, answer), or None when the physics runs."""
    if not truth or not truth[0] or any(len(row) != len(truth[0]) for row in truth):
        return "the ground truth is empty or ragged"
    tokens = {t.strip() for row in truth for t in row}
    if LOAD not in tokens or SUPPORT not in tokens:
        return "the ground truth has no load or no support cell"
    if len(answer) != len(truth) or any(len(a) != len(t) for a, t in zip(answer, truth, strict=True)):
        return f"the answer's shape differs from the ground truth's {len(truth)}×{len(truth[0])}"
    return None


def design_space(
    input_grid: list[list[str]], truth: list[list[str]], truth_rho: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """§6: free cells (masked in the input, not L/S in the truth) and the pinned field π."""
    shape = truth_rho.shape
    structural = np.array([[t.strip() in (LOAD, SUPPORT) for t in row] for row in truth], dtype=bool)
    if len(input_grid) == shape[0] and all(len(row) == shape[1] for row in input_grid):
        masked = np.array([[t == MASK for t in row] for row in input_grid], dtype=bool)
    else:
        masked = np.ones(shape, dtype=bool)
    return masked & ~structural, np.where(structural, 1.0, np.clip(truth_rho, 0.0, 1.0))


@functools.lru_cache(maxsize=4096)
def _fixed_solves(truth: tuple[tuple[str, ...], ...], gravity: Gravity) -> tuple[Solution, Solution]:
    """The truth's and the solid grid's solves: the same for every answer to a problem (a training loop or a
    multi-round run asks them again and again)."""
    grid = [list(row) for row in truth]
    case = load_case(grid, gravity)
    truth_rho, _, _ = densities(grid, grid)
    return solve(truth_rho, case), solve(np.ones(truth_rho.shape), case)


MAX_JUDGED_SIDE = 40
"""The largest grid side the physics judge takes. Its cost grows steeply with the side; measured on a 2-core machine
for a grid of thin diagonal members (published reference / ``reference="best"``): 20×20 0.7 / 0.9 s, 30×30 0.8 /
2.4 s, 40×40 3.6 / 18 s, 60×60 28 / 246 s. The published grids are 10×10 and 20×20. A larger grid is an instrument
limit (left unscored with the reason), never the model's failure; :data:`JUDGE_BUDGET_S` bounds the time as well."""


JUDGE_BUDGET_S = 120.0
"""Seconds the physics judge may work on one answer: it checks the budget at each optimiser step and stops past it
(an instrument limit, the sample left unscored with the reason). A 40×40 grid, the largest judged, takes 4–18 s."""
MAX_JUDGED_CELLS_PER_FILE = 200_000
"""Grid cells one results file may ask the physics judge for (``mechbench score sphyr --physics``). With the published
reference the worst case, 125 grids of 40×40, is ~8 minutes on one core; ``reference=best`` and ambiguous load axes
(up to two directions each) multiply it, each judgement still stopping at :data:`JUDGE_BUDGET_S`. The largest
published file, a v1 subject, has 1,296 records of 10×10 (129,600 cells)."""


class JudgeLimitError(MechbenchError, RuntimeError):
    """A grid beyond what the physics judge takes in seconds."""


def check_judged_cells(truths: list[list[list[str]]], where: str) -> None:
    """Refuse, before any work, a file whose grids add up to more than :data:`MAX_JUDGED_CELLS_PER_FILE`."""
    cells = sum(len(t) * max((len(row) for row in t), default=0) for t in truths)
    if cells > MAX_JUDGED_CELLS_PER_FILE:
        raise DataSourceError(
            f"{where}: {len(truths)} grids of {cells} cells in all, more than the {MAX_JUDGED_CELLS_PER_FILE} the "
            "physics judge takes from one file; split it or score it without --physics"
        )


@single_threaded
def physics_score(
    input_grid: list[list[str]],
    truth: list[list[str]],
    answer: list[list[str]],
    gravity: Gravity | str = DOWN,
    reference: Reference = "published",
) -> PhysicsScore:
    """Compliance of the answer, of the truth and of the reference optimum, and the derived scores."""
    if reference not in REFERENCES:
        raise ValueError(f"reference must be one of {', '.join(REFERENCES)}, got {reference!r}")
    reason = default_reason(truth, answer)
    if reason is not None:
        return PhysicsScore(reference=reference, default_reason=reason)
    side = max(len(truth), max((len(row) for row in truth), default=0))
    if side > MAX_JUDGED_SIDE:
        raise JudgeLimitError(f"a {side}-cell grid side is past the {MAX_JUDGED_SIDE} the physics judge takes")
    check_budget()  # a judge started past its budget (queued behind others) stops before any solve
    case = load_case(truth, gravity)
    rho, unfilled, unparsable = densities(answer, truth)
    truth_rho, _, _ = densities(truth, truth)
    theirs, solid = _fixed_solves(tuple(map(tuple, truth)), tuple(gravity_vector(gravity)))
    ours = solve(rho, case)
    free, pinned = design_space(input_grid, truth, truth_rho)
    volume, truth_volume = float(rho.mean()), float(truth_rho.mean())
    if reference == "published":
        # Imported here: it loads numba, which Inspect would otherwise pay at every start-up.
        from mechbench.benchmarks.sphyr.optimum_cache import cached_reference

        optimal, origin = cached_reference(case, free, pinned, truth_volume, truth_rho)
    else:
        best = best_optimum(Problem(case, free, pinned, float(truth_rho.sum())), seeds=[truth_rho])
        optimal, origin = min(best.compliance, theirs.compliance), best.origin
    carrying = ours.finite and solid.finite and ours.compliance <= LOAD_CARRYING_FACTOR * solid.compliance
    score = PhysicsScore(
        reference=reference,
        physically_valid=True,
        load_carrying=carrying,
        compliance=_finite(ours.compliance),
        ground_truth_compliance=_finite(theirs.compliance),
        optimal_compliance=_finite(optimal),
        optimal_origin=origin,
        volume_fraction=volume,
        ground_truth_volume_fraction=truth_volume,
        volume_ratio=volume / truth_volume if truth_volume > 0 else 0.0,
        max_displacement=ours.max_displacement,
        unfilled_cells=unfilled,
        unparsable_cells=unparsable,
    )
    if not carrying:
        return score  # the efficiencies and the topology score stay 0 (a finite compliance is still written)
    structural = _ratio(optimal, ours.compliance)
    material = min(1.0, truth_volume / volume) if volume > 0 else 0.0
    return score.model_copy(
        update={
            "structural_efficiency": structural,
            "compliance_efficiency_vs_ground_truth": _ratio(theirs.compliance, ours.compliance),
            "structural_efficiency_raw": (
                optimal / ours.compliance if math.isfinite(optimal) and ours.compliance > 0 else 0.0
            ),
            "material_efficiency": material,
            "topology_score": structural * material,
        }
    )
