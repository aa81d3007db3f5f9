"""2D frame analysis compatible with FrameCalc, the solver behind the StructuralEval benchmark.

Usable on its own (numpy, scipy and pydantic only; matplotlib for :func:`render`)::

    from mechbench.frame import solve
    result = solve(model_dict)          # reactions, N/V/M diagrams, max |M|, displacements
"""

from mechbench.core.errors import ModelFormatError, ModelTooLargeError, UnstableStructureError
from mechbench.frame.analysis import SUPPORT_STIFFNESS, Analysis
from mechbench.frame.model import FrameModel
from mechbench.frame.reactions import world_reactions
from mechbench.frame.solve import analyze_many, diagrams_of, solve, solve_many, to_result

__all__ = [
    "SUPPORT_STIFFNESS",
    "Analysis",
    "FrameModel",
    "ModelFormatError",
    "ModelTooLargeError",
    "UnstableStructureError",
    "analyze_many",
    "diagrams_of",
    "solve",
    "solve_many",
    "to_result",
    "world_reactions",
]
