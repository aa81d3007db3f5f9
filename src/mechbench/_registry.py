"""Inspect AI entry point (``[project.entry-points.inspect_ai]``).

Inspect imports this module to find mechbench's tasks (``inspect eval mechbench/<task>``) and its built-in model
provider (``--model mechbench/<name>``). Importing it registers them — every benchmark folder's spec, found by
:func:`mechbench.plugins.discover` — and changes nothing else in the process: the credential masking and the
one-line usage errors are installed by a mechbench task or model when it is built (:mod:`mechbench.run_guard`).
"""

from mechbench import plugins
from mechbench.providers import mechbench_provider

plugins.discover()

__all__ = ["mechbench_provider"]
