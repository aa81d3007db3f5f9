"""The SIMP constants both of mechbench's optimisers use (the published SPhyR recipe's, simp.py / analysis.py
upstream), in one place."""

from __future__ import annotations

FILTER_RADIUS = 1.2
"""Density filter radius in cells: a cell and its four orthogonal neighbours (weights 1.2 and 0.2)."""
MOVE_LIMIT = 0.2
"""Largest change of a density in one optimality-criteria update."""
MAX_ITERATIONS = 500
CHANGE_TOLERANCE = 1e-3
"""A run stops when the largest density change falls below this."""
SCORING_PENALTY = 3.0
"""The SIMP penalty designs are compared at."""
