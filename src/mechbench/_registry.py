"""Inspect AI entry point (``[project.entry-points.inspect_ai]``).

Inspect imports this module to find mechbench's tasks (``inspect eval mechbench/<task>``) and its
built-in model provider (``--model mechbench/<name>``).
"""

from mechbench import redaction
from mechbench.providers import mechbench_provider
from mechbench.tasks import seesim, sphyr, structural_eval

# Credentials a request carried are masked out of its response before any provider or log sees it.
redaction.install()

__all__ = ["mechbench_provider", "seesim", "sphyr", "structural_eval"]
