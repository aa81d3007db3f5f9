"""Plane-stress finite elements and SIMP topology optimisation on cell grids (numpy/scipy only)."""

from mechbench.topopt.fea import LoadCase, Mesh, Solution, element_stiffness, solve, stiffness
from mechbench.topopt.grid import densities, load_case
from mechbench.topopt.simp import Design, Problem, optimise, reference_optimum

__all__ = [
    "Design",
    "LoadCase",
    "Mesh",
    "Problem",
    "Solution",
    "densities",
    "element_stiffness",
    "load_case",
    "optimise",
    "reference_optimum",
    "solve",
    "stiffness",
]
