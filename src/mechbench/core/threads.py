"""One BLAS thread wherever the physics runs, whatever the user's environment says.

The finite-element systems here have at most a few thousand DOFs: multi-threaded BLAS on them is pure
overhead and collapses when anything else runs on the machine (measured: one ``mechbench demo`` took
19 minutes on a busy 2-core machine with default threading, 53 s with one thread). Parallelism comes from
running samples side by side (processes, or threads over the GIL-free kernels), never from BLAS.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, ParamSpec, TypeVar

from threadpoolctl import ThreadpoolController

P = ParamSpec("P")
R = TypeVar("R")
_controller: ThreadpoolController | None = None
_modules_seen = 0
"""How many modules were imported when :data:`_controller` looked for thread pools: an import since may have loaded
another BLAS (scipy ships its own OpenBLAS beside numpy's), which a controller built before it would not limit."""
_lock = threading.Lock()
_active = 0
_saved: Any = None


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS limited to one thread while any caller, in any thread, is inside; restored when the last one leaves.

    Counted, not nested per thread: with plain nested limits, a judge finishing in one thread would restore the
    user's thread count while another thread's judge is still running.
    """
    global _controller, _modules_seen, _active, _saved
    with _lock:
        if _active == 0:
            # Built again only after an import (a fresh controller costs ~0.4 ms): one built before scipy loaded
            # its own OpenBLAS left that one at full width, and its threads spun on a busy machine (the SPhyR judge
            # took 6x the CPU time beside two CPU-bound processes).
            if _controller is None or len(sys.modules) != _modules_seen:
                _controller, _modules_seen = ThreadpoolController(), len(sys.modules)
            _saved = _controller.limit(limits=1)
        _active += 1
    try:
        yield
    finally:
        with _lock:
            _active -= 1
            if _active == 0 and _saved is not None:
                _saved.restore_original_limits()
                _saved = None


def single_threaded(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` with every BLAS/OpenMP pool limited to one thread (restored afterwards)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with one_blas_thread():
            return fn(*args, **kwargs)

    return wrapper
