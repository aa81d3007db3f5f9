"""SPhyR's physics-based metrics (the published "dynamic evaluation"), over :mod:`mechbench.topopt`.

Loads and supports always come from the ground truth; the answer only supplies densities (L/S solid,
V or unreadable cells empty). The headline ``topology_score`` = structural efficiency (optimal
compliance / compliance, clipped to [0, 1]) × material efficiency (min(1, truth volume / volume)),
and 0 when the answer does not carry the load (compliance infinite or above 1000 × the solid grid's).
"""

from __future__ import annotations

import math

import numpy as np
from pydantic import BaseModel

from mechbench.topopt import Problem, densities, load_case, reference_optimum, solve
from mechbench.topopt.grid import Gravity

LOAD_CARRYING_FACTOR = 1000.0  # compliance above this × the fully solid grid's: the load is not carried
PHYSICS_NAMES = (
    "load_carrying",
    "structural_efficiency",
    "material_efficiency",
    "topology_score",
    "compliance_efficiency_vs_ground_truth",
    "volume_fraction",
    "volume_ratio",
)


class PhysicsScore(BaseModel):
    """Every physics metric of one answer (compliances None when infinite, as the published files store)."""

    load_carrying: bool
    compliance: float | None
    ground_truth_compliance: float | None
    optimal_compliance: float | None
    optimal_origin: str
    structural_efficiency: float
    structural_efficiency_raw: float
    material_efficiency: float
    topology_score: float
    compliance_efficiency_vs_ground_truth: float
    volume_fraction: float
    ground_truth_volume_fraction: float
    volume_ratio: float
    max_displacement: float
    unfilled_cells: int
    unparsable_cells: int

    def metrics(self) -> dict[str, float]:
        """The averaged metrics as floats."""
        return {name: float(getattr(self, name)) for name in PHYSICS_NAMES}


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def physics_score(
    input_grid: list[list[str]], truth: list[list[str]], answer: list[list[str]], gravity: Gravity = "down"
) -> PhysicsScore:
    """Compliance of the answer, of the truth and of the reference optimum, and the derived scores."""
    shape = (len(truth), len(truth[0]))
    case = load_case(truth, gravity)
    rho, unfilled, unparsable = densities(answer, shape)
    rho_truth, _, _ = densities(truth, shape)
    ours = solve(rho, case)
    theirs = solve(rho_truth, case)
    solid = solve(np.ones(shape), case)
    free = np.array([[cell == "V" for cell in row] for row in input_grid], dtype=bool)
    optimum = reference_optimum(Problem(case, free, rho_truth, float(rho_truth.sum())), seeds=[rho_truth])
    # The ground truth is itself a feasible design: the optimum is never worse (up to solver round-off).
    optimal = min(optimum.compliance, theirs.compliance)
    carrying = ours.finite and solid.finite and ours.compliance <= LOAD_CARRYING_FACTOR * solid.compliance
    volume, truth_volume = float(rho.mean()), float(rho_truth.mean())
    raw = optimal / ours.compliance if carrying and math.isfinite(optimal) else 0.0
    structural = min(max(raw, 0.0), 1.0)
    # As in the published files, an answer that does not carry the load scores 0 on every efficiency.
    material = min(1.0, truth_volume / volume) if carrying and volume > 0 else 0.0
    versus_truth = min(max(theirs.compliance / ours.compliance, 0.0), 1.0) if carrying and theirs.finite else 0.0
    return PhysicsScore(
        load_carrying=carrying,
        compliance=_finite(ours.compliance),
        ground_truth_compliance=_finite(theirs.compliance),
        optimal_compliance=_finite(optimal),
        optimal_origin=optimum.origin if optimum.compliance <= theirs.compliance else "ground truth",
        structural_efficiency=structural,
        structural_efficiency_raw=raw,
        material_efficiency=material,
        topology_score=structural * material if carrying else 0.0,
        compliance_efficiency_vs_ground_truth=versus_truth,
        volume_fraction=volume,
        ground_truth_volume_fraction=truth_volume,
        volume_ratio=volume / truth_volume if truth_volume else 0.0,
        max_displacement=ours.max_displacement,
        unfilled_cells=unfilled,
        unparsable_cells=unparsable,
    )
