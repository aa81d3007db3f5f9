"""Inspect AI entry point (``[project.entry-points.inspect_ai]``).

Inspect imports this module to find mechbench's tasks (``inspect eval mechbench/<task>``) and its
built-in model provider (``--model mechbench/<name>``).
"""

from mechbench.providers import mechbench_provider
from mechbench.tasks import seesim, sphyr, structural_eval

__all__ = ["mechbench_provider", "seesim", "sphyr", "structural_eval"]
