"""HandCalc's tool (``-T tools=true``): mechbench's frame solver on a FrameCalc model the model writes of the problem
(support reactions, member end forces, largest moments, joint displacements). It reads only the model's argument:
never the item, its truth or the score. Answers still have to be given by hand, in the answer format."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import Tool, ToolError, tool

from mechbench.core.errors import MechbenchError
from mechbench.core.safejson import loads
from mechbench.harness.tools import in_worker, spend, tool_loop

SIGNIFICANT = 5
"""Significant digits returned (the judge's tolerance is 1 %)."""


def _rounded(value: float) -> float:
    return float(f"{value:.{SIGNIFICANT}g}")


def solution(model_text: str) -> str:
    """Reactions, each member's axial force at its ends (tension positive), the largest |M| per member and the joint
    displacements (mm, degrees) of a FrameCalc model given as JSON text; a ToolError when it cannot be solved."""
    from mechbench.frame import FrameModel, solve

    try:
        model = FrameModel.parse(loads(model_text))
        result = solve(model, diagrams=True)
    except (MechbenchError, ValueError) as error:
        raise ToolError(f"the solver refuses this model: {str(error).splitlines()[0]}") from None
    largest = max((abs(r["value"]) for r in result["reactions"]), default=0.0)
    floor = 1e-9 * largest  # round-off is not data
    return json.dumps(
        {
            "reactions": [
                {**r, "value": _rounded(r["value"]) if abs(r["value"]) > floor else 0.0} for r in result["reactions"]
            ],
            "axial_tension": {
                d["linkId"]: [_rounded(-d["samples"][0]["n"]), _rounded(-d["samples"][-1]["n"])]
                for d in result["axial"]
            },
            "max_abs_moment": {k: _rounded(v) for k, v in result["maxMoment"]["links"].items()},
            "displacements_mm_deg": {
                d["pointId"]: [_rounded(d["ux"] * 1e3), _rounded(d["uy"] * 1e3), _rounded(d["rz"] * 57.29577951308232)]
                for d in result["displacements"]
            },
            "units": "kN, kN·m, mm, degrees; members take E, A, Iz from the model (kN/m², m², m⁴)",
        }
    )


@tool
def solve_frame(budget: int) -> Tool:
    async def execute(model: str) -> str:
        """Solve a 2D frame, beam or truss written as FrameCalc JSON: support reactions, member axial forces
        (tension positive), the largest bending moment of each member and the joint displacements.

        Args:
            model: the structure as FrameCalc JSON (points, links with E, A, Iz, supports, loads).
        """
        spend("solve_frame", budget, model)
        return await in_worker("solve_frame", solution, model)

    return execute


def tools(budget: int) -> list[Tool]:
    """HandCalc's tools, counted against one budget."""
    return [solve_frame(budget)]


@solver
def tool_solver(budget: int) -> Solver:
    """The tool setting: ``solve_frame`` at most ``budget`` times, then one submitted answer, scored as usual."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await tool_loop(state, tools(budget), budget)

    return solve


PLAIN_BEAM = json.dumps(
    {
        "points": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 4, "y": 0}],
        "links": [{"id": "L1", "a": "A", "b": "B"}],
        "supports": [
            {"id": "S1", "at": {"type": "point", "id": "A"}, "kind": "pin"},
            {"id": "S2", "at": {"type": "point", "id": "B"}, "kind": "roller"},
        ],
        "loads": [{"id": "F1", "kind": "pointLoad", "at": {"type": "link", "id": "L1"}, "value": 10,
                   "angleDeg": 270, "offset": 2, "offsetMode": "m"}],
    }
)  # fmt: skip


def tool_script(prompt: str, done: Sequence[str], context: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """``mechbench/tool-demo`` on HandCalc: solves a plain beam once, then submits its recorded answer (``-M file=``)
    or the beam's reaction in the answer format of the first quantity asked."""
    if not done:
        return "solve_frame", {"model": PLAIN_BEAM}
    answers = list(context.get("answers") or [])
    asked = context.get("asked") or [["R", "kN", "force"]]
    return "submit", {"answer": answers[-1] if answers else f"{asked[0][0]} = 5 {asked[0][1]}"}
