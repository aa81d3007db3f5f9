"""Plane-stress finite elements and SIMP topology optimisation on cell grids (numpy/scipy/numba only).

Two optimisers behind one interface, :func:`optimum`: the published SPhyR recipe (``recipe="published"``,
:mod:`mechbench.topopt.reference`), which SPhyR's topology scores are defined against, and mechbench's stronger one
(``recipe="best"``, :mod:`mechbench.topopt.simp`). Their shared constants are in :mod:`mechbench.topopt.recipe`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from mechbench.topopt.fea import LoadCase, Mesh, Solution, element_stiffness, solve, stiffness
from mechbench.topopt.simp import Design, Problem, best_optimum, optimise

Recipe = Literal["published", "best"]
RECIPES: tuple[Recipe, ...] = ("published", "best")


@dataclass(frozen=True)
class Optimum:
    """An optimiser's answer: the compliance (∞ if nothing feasible was found), the design and how it was found."""

    compliance: float
    design: np.ndarray
    origin: str


def optimum(
    case: LoadCase,
    free: np.ndarray,
    pinned: np.ndarray,
    volume_fraction: float,
    recipe: Recipe = "published",
    seeds: list[np.ndarray] | None = None,
) -> Optimum:
    """The least compliant design of ``case`` with ``free`` cells, the others at ``pinned`` densities, using at most
    ``volume_fraction`` of all cells, by ``recipe``."""
    if recipe == "published":
        from mechbench.topopt.reference import ReferenceProblem, reference_optimum

        found = reference_optimum(ReferenceProblem(case, free, pinned, volume_fraction), seeds=seeds)
        return Optimum(found.compliance, found.design, found.origin)
    if recipe == "best":
        best = best_optimum(Problem(case, free, pinned, volume_fraction * free.size), seeds=seeds)
        return Optimum(best.compliance, best.densities, best.origin)
    raise ValueError(f"recipe must be one of {', '.join(RECIPES)}, got {recipe!r}")


def __getattr__(name: str) -> object:
    # The published recipe compiles numba kernels: loaded when first used, not when the package is imported
    # (Inspect imports mechbench's entry point for every run).
    if name in ("ReferenceProblem", "reference_optimum"):
        from mechbench.topopt import reference

        return getattr(reference, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "RECIPES",
    "Design",
    "LoadCase",
    "Mesh",
    "Optimum",
    "Problem",
    "Recipe",
    "ReferenceProblem",
    "Solution",
    "best_optimum",
    "element_stiffness",
    "optimise",
    "optimum",
    "reference_optimum",
    "solve",
    "stiffness",
]
