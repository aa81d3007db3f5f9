"""mechbench's Inspect tasks, found through the benchmark registry (:mod:`mechbench.registry`).

``from mechbench.tasks import sphyr`` gives the task of the benchmark called ``sphyr``, and the names a benchmark
exports beside it (``sphyr_suite``); each task lives in its own benchmark's ``task.py``. This module names no
benchmark: a new one appears here when its folder registers its spec.
"""

from __future__ import annotations

from typing import Any

from mechbench import registry


def _exports() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for entry in registry.specs():
        out[entry.name] = entry.task
        out.update(entry.exports)
    return out


def __getattr__(name: str) -> Any:
    exports = _exports()
    if name in exports:
        return exports[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_exports()])
