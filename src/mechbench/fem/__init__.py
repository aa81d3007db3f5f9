"""The finite-element core: the Q4 plane-stress element on cell grids and compiled banded solves.

The physics at the bottom of mechbench: :mod:`mechbench.topopt` (topology optimisation) and
:mod:`mechbench.simulation` (the generated structural simulations) build on it; it imports nothing from mechbench.
"""

from mechbench.fem.q4 import Mesh, element_dofs, element_stiffness

__all__ = ["Mesh", "element_dofs", "element_stiffness"]
