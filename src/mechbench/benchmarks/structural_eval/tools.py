"""StructuralEval's tools (``-T tools=true``): mechbench's solver and drawing on the model's own FrameCalc JSON.

``solve_frame`` returns what FrameCalc returns an engineer: the reactions and the largest moments, or the
solver's own error (an unstable structure, a bad reference). ``render_frame`` returns mechbench's drawing of the
model's JSON as an image, to compare with the drawing it was given. Both read only the model's argument: neither
can see the sample's truth, its drawing's source or the score.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.model import ContentImage
from inspect_ai.tool import Tool, ToolError, tool

from mechbench.benchmarks.structural_eval.extract import ReplyFormatError, extract_model_json
from mechbench.core.errors import MechbenchError
from mechbench.harness.tools import in_worker, spend

SIGNIFICANT = 4
"""Significant digits of the values a tool returns (the judge's tolerance is 5 %)."""


def _model(text: str) -> Any:
    from mechbench.frame import FrameModel

    try:
        data, _ = extract_model_json(text)
        return FrameModel.parse(data)
    except (ReplyFormatError, MechbenchError) as error:
        raise ToolError(f"the model cannot be read: {error}") from None


def _rounded(value: float) -> float:
    return float(f"{value:.{SIGNIFICANT}g}")


def solution_summary(model_text: str) -> str:
    """The reactions and the largest moments of a FrameCalc model given as JSON text (a ToolError otherwise)."""
    from mechbench.frame import solve

    model = _model(model_text)
    try:
        result = solve(model, diagrams=True, records=False)
    except MechbenchError as error:
        raise ToolError(f"the solver refuses this structure: {error}") from None
    largest = result["maxMoment"]
    # Round-off is not data: values below a billionth of the largest reaction are zero.
    floor = 1e-9 * max((abs(r["value"]) for r in result["reactions"]), default=0.0)
    return json.dumps(
        {
            "reactions": [
                {**r, "value": _rounded(r["value"]) if abs(r["value"]) > floor else 0.0} for r in result["reactions"]
            ],
            "max_abs_moment": _rounded(largest["overall"]),
            "max_abs_moment_per_link": {k: _rounded(v) for k, v in largest["links"].items()},
            "units": "kN, kN·m",
        }
    )


def drawing(model_text: str) -> bytes:
    """mechbench's drawing of a FrameCalc model given as JSON text, as PNG bytes."""
    from mechbench.frame.render import render

    return render(_model(model_text), dpi=80)


@tool
def solve_frame(budget: int) -> Tool:
    async def execute(model: str) -> str:
        """Solve a 2D frame written as FrameCalc JSON: the support reactions and the largest bending moments,
        or the solver's error (for example an unstable structure or a point that does not exist).

        Args:
            model: the structure as FrameCalc JSON (points, links, supports, loads).
        """
        spend("solve_frame", budget, model)
        return await in_worker("solve_frame", solution_summary, model)

    return execute


@tool
def render_frame(budget: int) -> Tool:
    async def execute(model: str) -> ContentImage:
        """Draw a 2D frame written as FrameCalc JSON the way the task's drawings are drawn, to compare with the
        drawing you were given.

        Args:
            model: the structure as FrameCalc JSON (points, links, supports, loads).
        """
        spend("render_frame", budget, model)
        png = await in_worker("render_frame", drawing, model)
        return ContentImage(image="data:image/png;base64," + base64.b64encode(png).decode())

    return execute


def tools(budget: int) -> list[Tool]:
    """The StructuralEval tools, counted against one budget."""
    return [solve_frame(budget), render_frame(budget)]


def tool_script(prompt: str, done: Sequence[str], context: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """``mechbench/tool-demo`` on StructuralEval: its first recorded answer (a planted mistake) is solved and
    drawn, then its last (the correction) solved and submitted. ``done`` names the tools called so far;
    ``context['answers']`` holds the recorded answers (``-M file=``), else a plain beam is used."""
    answers = list(context.get("answers") or [PLAIN_BEAM])
    first, last = answers[0], answers[-1]
    plan = [("solve_frame", first), ("render_frame", first), ("solve_frame", last), ("submit", last)]
    name, text = plan[min(len(done), len(plan) - 1)]
    return name, {"answer" if name == "submit" else "model": text}


PLAIN_BEAM = json.dumps(
    {
        "points": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 4, "y": 0}],
        "links": [{"id": "L1", "a": "A", "b": "B"}],
        "supports": [
            {"id": "S1", "at": {"type": "point", "id": "A"}, "kind": "pin"},
            {"id": "S2", "at": {"type": "point", "id": "B"}, "kind": "roller"},
        ],
        "loads": [{"id": "F1", "kind": "pointLoad", "at": {"type": "point", "id": "B"}, "value": 10, "angleDeg": -90}],
    }
)
"""The tool demo's answer when no recorded answers are given."""
