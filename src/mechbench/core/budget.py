"""Time budgets enforced inside long work: the work checks its own deadline and stops.

A timeout around a worker thread can only abandon it (Python cannot stop a thread), so the drawing or the physics
judge would keep a core busy after its caller gave up, even after the log is complete. Instead, the work runs
inside :func:`time_budget` and calls :func:`check_budget` at each step of its outer loops (a label placed, a SIMP
run, a swap pass); past the deadline it raises :class:`BudgetExceededError` and the thread ends. The steps are
bounded by the size limits, so the work stops within a second or two of its budget.

The deadline is a context variable: each worker thread sets its own, and work run outside any budget never stops.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

from mechbench.core.errors import MechbenchError

P = ParamSpec("P")
R = TypeVar("R")


class BudgetExceededError(MechbenchError, TimeoutError):
    """A unit of mechbench's own work ran past its time budget and stopped (an instrument limit, never the model's
    failure)."""


_deadline: ContextVar[tuple[float, float, str] | None] = ContextVar("mechbench_deadline", default=None)


@contextlib.contextmanager
def time_budget(seconds: float, what: str) -> Iterator[None]:
    """Give the work inside ``seconds`` of wall time; :func:`check_budget` raises past it. A budget inside another
    never extends it: the earlier deadline holds."""
    deadline = time.monotonic() + seconds
    outer = _deadline.get()
    if outer is not None and outer[0] <= deadline:
        yield
        return
    token = _deadline.set((deadline, seconds, what))
    try:
        yield
    finally:
        _deadline.reset(token)


def check_budget() -> None:
    """Raise :class:`BudgetExceededError` when the current work is past its deadline (nothing outside a budget)."""
    current = _deadline.get()
    if current is not None and time.monotonic() > current[0]:
        _, seconds, what = current
        raise BudgetExceededError(f"{what} ran past its {seconds:g} s budget and was stopped")


def within_budget(seconds: float, what: str, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)`` inside :func:`time_budget` (for handing to a worker thread or process)."""
    with time_budget(seconds, what):
        return fn(*args, **kwargs)
