"""SPhyR's tool (``-T tools=true``): the finite-element analysis of the model's own candidate grid.

``analyse_grid`` solves the candidate under the sample's load direction (the published convention's), with the
load and support cells the input shows (a load or support hidden under a masked cell is unknown to it, as to the
model, so its verdict can differ from the judge's there), and returns its compliance, whether it carries the
load, its volume fraction and the cells with the highest strain energy. It reads the candidate and the sample's
input grid only: never the ground truth, the reference optimum or the score.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import Tool, ToolError, tool

from mechbench.benchmarks.sphyr.baselines import sphyr_empty, sphyr_solid
from mechbench.benchmarks.sphyr.grid import LOAD, SUPPORT, Gravity, densities, load_case, sample_grid
from mechbench.benchmarks.sphyr.parse import parse_reply
from mechbench.benchmarks.sphyr.physics_scoring import LOAD_CARRYING_FACTOR
from mechbench.core.threads import single_threaded
from mechbench.harness.tools import in_worker, spend, tool_loop

TOP_CELLS = 5
"""Cells with the highest strain energy the analysis names."""


@single_threaded
def analysis(candidate_text: str, input_grid: list[list[str]], gravity: Gravity) -> dict[str, Any]:
    """The analysis ``analyse_grid`` returns (a ToolError for a grid that cannot be analysed)."""
    from mechbench.fem.q4 import element_dofs, element_stiffness
    from mechbench.topopt.fea import E0, E_MIN, PENALTY, solve

    grid = parse_reply(candidate_text).grid
    rows, cols = len(input_grid), len(input_grid[0]) if input_grid else 0
    if len(grid) != rows or any(len(row) != cols for row in grid):
        found = f"{len(grid)}×{len(grid[0]) if grid else 0}"
        raise ToolError(f"the grid must have the task's {rows}×{cols} cells, one row per line; read {found}")
    # Loads and supports are where the input shows them: those cells stay L and S whatever the candidate writes,
    # and an L or S the candidate writes elsewhere is material (solid), not a new load or support.
    merged = [
        [
            given if given in (LOAD, SUPPORT) else ("1" if token in (LOAD, SUPPORT) else token)
            for given, token in zip(given_row, row, strict=True)
        ]
        for given_row, row in zip(input_grid, grid, strict=True)
    ]
    tokens = {t for row in merged for t in row}
    if LOAD not in tokens or SUPPORT not in tokens:
        raise ToolError("the grid has no load (L) or no support (S) cell: nothing to analyse")
    case = load_case(merged, gravity)
    rho, unfilled, unreadable = densities(merged, merged)
    ours, solid = solve(rho, case), solve(np.ones(rho.shape), case)
    carries = ours.finite and solid.finite and ours.compliance <= LOAD_CARRYING_FACTOR * solid.compliance
    ue = ours.displacement[element_dofs(rows, cols)]
    young = E_MIN + np.clip(rho.ravel(), 0, 1) ** PENALTY * (E0 - E_MIN)
    energy = young * np.einsum("ij,jk,ik->i", ue, element_stiffness(), ue)
    top = np.argsort(-energy, kind="stable")[:TOP_CELLS] if ours.finite else []
    return {
        "compliance": float(f"{ours.compliance:.4g}") if math.isfinite(ours.compliance) else None,
        "carries_load": bool(carries),
        "volume_fraction": round(float(rho.mean()), 4),
        "unfilled_or_unreadable_cells": unfilled + unreadable,
        "highest_strain_energy_cells": [[int(i) // cols, int(i) % cols] for i in top],
        "note": "compliance: lower is stiffer (unit load); cells as [row, column] from the top left, from 0",
    }


@tool
def analyse_grid(input_grid: list[list[str]], gravity: Gravity, budget: int) -> Tool:
    async def execute(grid: str) -> str:
        """Finite-element analysis of a completed grid under the task's load and supports: its compliance (lower is
        stiffer), whether it carries the load, its volume fraction, and the cells with the highest strain energy.

        Args:
            grid: the completed grid, one row per line, cells separated by spaces (as in the task).
        """
        spend("analyse_grid", budget, grid)
        found = await in_worker("analyse_grid", analysis, grid, input_grid, gravity)
        return json.dumps(found)

    return execute


def tools(metadata: Mapping[str, Any], budget: int) -> list[Tool]:
    """The SPhyR tool for one sample (its input grid and load direction; never its truth)."""
    gravity = tuple(metadata.get("gravity") or (1.0, 0.0))
    return [analyse_grid(sample_grid(metadata, "input_grid"), gravity, budget)]  # type: ignore[arg-type]


@solver
def sphyr_tool_solver(budget: int) -> Solver:
    """The tool setting: the model may call ``analyse_grid`` (at most ``budget`` calls), then submits its grid,
    which the usual scorer reads as the completion."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await tool_loop(state, tools(state.metadata, budget), budget)

    return solve


def tool_script(prompt: str, done: Sequence[str], context: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """``mechbench/tool-demo`` on SPhyR: analyse the input with every masked cell empty, then solid, and submit
    the one the analysis finds stiffer among those that carry the load (solid when neither does).
    ``context['results']`` holds the tool results so far."""
    fills = {"0": sphyr_empty(prompt), "1": sphyr_solid(prompt)}
    if len(done) < 2:
        return "analyse_grid", {"grid": fills["0" if not done else "1"]}
    results = [json.loads(r) if r.startswith("{") else {} for r in context.get("results", [])]
    carrying = [
        (r.get("compliance") or math.inf, v) for r, v in zip(results, ("0", "1"), strict=False) if r.get("carries_load")
    ]
    return "submit", {"answer": fills[min(carrying)[1] if carrying else "1"]}
