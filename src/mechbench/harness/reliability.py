"""How mechbench keeps long evaluations going when an API misbehaves: bounded retries, bounded time, no lost sample.

Three layers, each bounded:

1. The provider SDK and Inspect retry HTTP failures (429 with ``Retry-After``, 5xx, dropped connections, truncated
   bodies, stalls past ``attempt_timeout``) with exponential back-off. mechbench's tasks set
   ``run_limits.GENERATE_DEFAULTS`` so that no request retries forever (Inspect's own default is unbounded).
2. Replies that arrive with status 200 but cannot be used as a completion — a body that is not JSON, or a
   completion with no choices — are not retried by Inspect (one would fail the sample). mechbench's solvers
   retry those :data:`MALFORMED_RETRIES` times with back-off and record each cause in the sample's transcript.
3. ``mechbench eval`` adds ``run_limits.EVAL_DEFAULTS``: failed samples are re-run, one sample that keeps failing does
   not stop the others (the run is marked failed at its end), each finished sample is written to the log at once
   (so a killed run loses nothing and ``mechbench eval-retry`` asks no finished sample again), and Inspect's retry
   messages, with their causes, go into the log.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
from inspect_ai.log import transcript
from inspect_ai.model import ChatMessage, GenerateConfig, Model, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from mechbench.core.budget import BudgetExceededError
from mechbench.harness.run_limits import GENERATE_DEFAULTS

T = TypeVar("T")

MALFORMED_RETRIES = 3
"""Extra tries after a 200 reply that is not a usable completion (non-JSON body, no choices)."""
MALFORMED_BACKOFF = 2.0
"""Seconds before the first such retry; doubles each time."""

MALFORMED_ERRORS: tuple[type[BaseException], ...] = (json.JSONDecodeError,)
"""Exceptions a provider raises when a 200 reply's body cannot be decoded."""


def generate_config(**overrides: Any) -> GenerateConfig:
    """mechbench's task generation defaults (bounded retries and time) plus task-specific settings."""
    return GenerateConfig(**{**GENERATE_DEFAULTS, **overrides})


def _no_choices(ex: BaseException, output: ModelOutput | None) -> bool:
    return isinstance(ex, IndexError) and output is not None and output.empty


async def _recovering(call: Callable[[bool], Awaitable[ModelOutput]], latest: Callable[[], ModelOutput | None]) -> None:
    """Run ``call`` until it yields a completion with choices; at most :data:`MALFORMED_RETRIES` extra tries.

    ``call(retry)`` must bypass Inspect's response cache when ``retry`` is true: with ``--cache`` on, the broken
    reply was cached on the first try and would be replayed instead of asked again.
    """
    wait = MALFORMED_BACKOFF
    for attempt in range(MALFORMED_RETRIES + 1):
        try:
            output = await call(attempt > 0)
            cause = None if not output.empty else "the API returned a completion with no choices"
        except MALFORMED_ERRORS as ex:
            cause = f"the API's reply could not be decoded ({type(ex).__name__}: {ex})"
        except IndexError as ex:
            if not _no_choices(ex, latest()):
                raise
            cause = "the API returned a completion with no choices"
        if cause is None:
            return
        if attempt == MALFORMED_RETRIES:
            transcript().info({"mechbench_retry": "gave up", "cause": cause, "tries": attempt + 1})
            return
        transcript().info({"mechbench_retry": attempt + 1, "cause": cause, "wait_seconds": wait})
        await anyio.sleep(wait)
        wait *= 2


async def generate_checked(state: TaskState, generate: Generate, **config: Any) -> TaskState:
    """``generate(state, **config)``, retrying replies that are not usable completions (see module docs).

    If every try fails, the state keeps an empty completion, which the benchmark scores as no answer.
    """

    async def call(retry: bool) -> ModelOutput:
        nonlocal state
        state = await (generate(state, cache=False, **config) if retry else generate(state, **config))
        return state.output

    await _recovering(call, lambda: state.output)
    return state


async def model_generate_checked(model: Model, messages: list[ChatMessage], **options: Any) -> ModelOutput:
    """``model.generate(messages, **options)`` (``tools=…``, for example) with the same recovery as
    :func:`generate_checked`."""
    output: ModelOutput | None = None

    async def call(retry: bool) -> ModelOutput:
        nonlocal output
        output = await (
            model.generate(messages, cache=False, **options) if retry else model.generate(messages, **options)
        )
        return output

    await _recovering(call, lambda: output)
    return output if output is not None else ModelOutput()


@solver
def reliable_generate() -> Solver:
    """Inspect's ``generate()`` with mechbench's recovery from malformed replies."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await generate_checked(state, generate)

    return solve


_JUDGE_LIMITER: anyio.CapacityLimiter | None = None


def judge_limiter() -> anyio.CapacityLimiter:
    """The worker-thread limiter for physics judges (one per core: more threads only contend)."""
    global _JUDGE_LIMITER
    if _JUDGE_LIMITER is None:
        _JUDGE_LIMITER = anyio.CapacityLimiter(max(1, os.cpu_count() or 1))
    return _JUDGE_LIMITER


async def in_judge_thread(fn: Callable[[], T], timeout: float) -> T:
    """``fn()`` in a worker thread once a judge slot (one per core) is free, abandoned past ``timeout`` seconds
    counted from then: time spent waiting for a slot behind other samples' judges is never charged to this one."""
    async with judge_limiter():
        with anyio.fail_after(timeout):
            return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True)


INSTRUMENT_FAILURE = "instrument_failure"
"""Score reason of a sample left unscored because mechbench's own judge failed (never the model's failure)."""


def instrument_error(error: BaseException) -> str:
    """One line describing a failure of mechbench's own judge, for a sample's explanation."""
    if isinstance(error, BudgetExceededError):
        return str(error)
    if isinstance(error, TimeoutError):
        return "it did not finish within its time limit"
    first = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {first}" if first else type(error).__name__
