"""The oracle: a solver that answers every sample with its own target and calls no model.

Every benchmark needs one next to its trivial baselines: it shows the top of the scale the scorer can reach
(1.0 on cell metrics; on SPhyR's physics, the ground truth's own topology score, which the reference optimum
may beat) and catches a scorer that cannot recognise a right answer.
"""

from __future__ import annotations

from inspect_ai.model import ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

ORACLE_MODEL = "oracle"


@solver
def oracle_answer() -> Solver:
    """Answer with the sample's target (no model is called)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput.from_content(model=ORACLE_MODEL, content=state.target.text)
        state.messages.append(state.output.message)
        return state

    return solve
