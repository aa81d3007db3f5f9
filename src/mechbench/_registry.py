"""Inspect AI entry point (``[project.entry-points.inspect_ai]``).

Inspect imports this module to find mechbench's tasks (``inspect eval mechbench/<task>``) and its built-in model
provider (``--model mechbench/<name>``). Importing it registers them — every benchmark folder's spec, found by
:func:`mechbench.registry.discover` — and changes nothing else in the process: the credential masking and the
one-line usage errors are installed by a mechbench task or model when it is built (:mod:`mechbench.harness.guard`).
"""

from mechbench import registry
from mechbench.providers import mechbench_provider

registry.discover()

__all__ = ["mechbench_provider"]
