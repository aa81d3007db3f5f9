"""One BLAS thread wherever the physics runs, whatever the user's environment says.

The finite-element systems here have at most a few thousand DOFs: multi-threaded BLAS on them is pure
overhead and collapses when anything else runs on the machine (measured: one ``mechbench demo`` took
19 minutes on a busy 2-core machine with default threading, 53 s with one thread). Parallelism comes from
running samples side by side (processes, or threads over the GIL-free kernels), never from BLAS.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from threadpoolctl import ThreadpoolController

P = ParamSpec("P")
R = TypeVar("R")
_controller: ThreadpoolController | None = None


def _limit():
    global _controller
    if _controller is None:  # created once: a fresh threadpool_limits() costs ~0.4 ms per call
        _controller = ThreadpoolController()
    return _controller.limit(limits=1)


def single_threaded(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` with every BLAS/OpenMP pool limited to one thread (restored afterwards)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with _limit():
            return fn(*args, **kwargs)

    return wrapper
