"""2D frame analysis compatible with FrameCalc, the solver behind the StructuralEval benchmark.

Usable on its own (numpy, scipy and pydantic only; matplotlib for :func:`render`)::

    from mechbench.frame import solve
    result = solve(model_dict)          # reactions, N/V/M diagrams, max |M|, displacements
"""

from mechbench.errors import ModelFormatError, ModelTooLargeError, UnstableStructureError
from mechbench.frame.model import FrameModel
from mechbench.frame.solve import SUPPORT_STIFFNESS, solve, solve_many

__all__ = [
    "SUPPORT_STIFFNESS",
    "FrameModel",
    "ModelFormatError",
    "ModelTooLargeError",
    "UnstableStructureError",
    "solve",
    "solve_many",
]
