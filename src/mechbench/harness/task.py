"""One helper owns what every benchmark's task does the same way, so a ``task.py`` says only what is its own.

``@benchmark_task("name")`` under Inspect's ``@task``: the task function checks its own arguments and returns
:class:`TaskParts` (its dataset, solver, scorer, data and protocol settings); the helper

- installs the run guard (credential masking, one-line usage errors) before the body runs, checks every
  ``Literal``-typed argument, and refuses a built-in model that cannot answer this benchmark;
- gives ``oracle=true`` (answer every sample with its own target, call no model) and the tool setting
  (``tools=true``, ``tool_budget``: the benchmark's tool solver, the ``tool_use`` scorer) one meaning everywhere;
- passes the dataset through the log guard (lone surrogates) and writes the run's provenance into the task
  metadata under the keys the report and the built-in models read (:data:`PROVENANCE_KEYS`);
- sets mechbench's generation defaults (bounded retries and time).

Samples are found again by Inspect's own sample id (the replay model asks Inspect which sample is running), so a
benchmark sets ``Sample.id`` and nothing else for replay.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec

from inspect_ai import Task
from inspect_ai.dataset import Dataset
from inspect_ai.scorer import Metric, Scorer
from inspect_ai.solver import Solver

from mechbench.core.errors import UsageError
from mechbench.harness.arguments import literal_checks
from mechbench.harness.guard import guard_run
from mechbench.harness.oracle import oracle_answer
from mechbench.harness.reliability import generate_config, reliable_generate
from mechbench.harness.shown import loggable_dataset
from mechbench.harness.tools import DEFAULT_TOOL_BUDGET, MAX_TOOL_BUDGET, tool_turns, tool_use
from mechbench.registry import check_builtin_model
from mechbench.sources.endpoints import endpoints
from mechbench.sources.files import files_sha256
from mechbench.sources.root import DataRoot

P = ParamSpec("P")

PROVENANCE_KEYS = (
    "benchmark",
    "data_source",
    "revision",
    "data_sha256",
    "oracle",
    "setting",
    "tool_budget",
    "max_model_calls",
    "endpoints",
)
"""Task metadata every mechbench task writes (the report and the built-in models read them)."""
SINGLE_ANSWER = "single answer"
TOOLS = "tools"
TOOL_SETTING_PREFIX = "tools (budget"
"""How a tool-setting run's setting begins in the report (:func:`tool_setting_label`)."""


def tool_setting_label(budget: object) -> str:
    """How the report names the tool setting of a run with ``budget`` tool calls."""
    return f"{TOOL_SETTING_PREFIX} {budget})"


@dataclass
class TaskParts:
    """What a benchmark's task function builds: the rest is :func:`benchmark_task`'s."""

    dataset: Dataset
    scorer: Scorer | Sequence[Scorer]
    data: DataRoot | str
    """The resolved data (or, for data that is not a folder, such as replayed results files, how to name it)."""
    files: Sequence[Path] = ()
    """The files the run's truths come from, hashed for the log (``data_sha256``)."""
    settings: Mapping[str, Any] = field(default_factory=dict)
    """The protocol settings that make runs comparable, written into the task metadata as given."""
    solver: Solver | Sequence[Solver] | None = None
    """The solver of the single-answer setting (default: one checked ``generate()``)."""
    tool_solver: Callable[[int], Solver] | None = None
    """The tool setting's solver for a budget (benchmarks with tools)."""
    oracle_solver: Solver | None = None
    """The oracle, where answering the target is not enough (a benchmark whose judge runs in its solver); default:
    :func:`~mechbench.harness.oracle.oracle_answer`."""
    setting: str = SINGLE_ANSWER
    """How the answer is given when it is not the tool setting (``single answer``, ``feedback rounds``)."""
    answer_calls: int = 1
    """The most model calls one sample makes outside the tool setting (one answer plus its feedback rounds)."""
    max_tokens: int = 8192
    temperature: float | None = None
    metrics: list[Metric] | None = None
    revision: str | None = None
    """The data's revision where :attr:`data` does not carry it."""
    oracle: bool | None = None
    """Set by a task that read ``oracle`` under an older argument name (``debug``)."""


def benchmark_task(name: str) -> Callable[[Callable[P, TaskParts]], Callable[P, Task]]:
    """Decorate a benchmark's task function (under Inspect's ``@task``): see the module's description."""

    def decorate(fn: Callable[P, TaskParts]) -> Callable[P, Task]:
        check = literal_checks(fn)
        defaults = {key: parameter.default for key, parameter in inspect.signature(fn).parameters.items()}

        @functools.wraps(fn)
        def build(*args: P.args, **kwargs: P.kwargs) -> Task:
            guard_run()
            bound = check(*args, **kwargs)  # arguments first: a mistake is named before anything else is checked
            bound.apply_defaults()
            given = bound.arguments
            # ``debug``: the old name of ``oracle`` some tasks still read
            oracle = bool(given.get("oracle", False) or given.get("debug"))
            tools = bool(given.get("tools", False))
            budget = int(given.get("tool_budget", DEFAULT_TOOL_BUDGET))
            if not oracle:
                check_builtin_model(name)
            if tools and oracle:
                raise UsageError("oracle=true answers without a model: it has no tool setting")
            if not 0 <= budget <= MAX_TOOL_BUDGET:
                raise UsageError(f"tool_budget must be between 0 and {MAX_TOOL_BUDGET}, got {budget}")
            parts = fn(*args, **kwargs)
            if not _has_samples(parts.dataset):  # one line naming the arguments, never Inspect's traceback
                chosen = ", ".join(
                    f"{key}={value!r}"
                    for key, value in given.items()
                    if value != defaults.get(key, inspect.Parameter.empty)
                )
                raise UsageError(
                    f"{name}: no samples with {chosen}" if chosen else f"{name}: the data holds no samples"
                )
            oracle = oracle if parts.oracle is None else parts.oracle
            if tools and oracle:
                raise UsageError("oracle=true answers without a model: it has no tool setting")
            return assemble(name, parts, oracle=oracle, tools=tools, budget=budget)

        return build

    return decorate


def _has_samples(dataset: Dataset) -> bool:
    """Whether ``dataset`` holds a sample (a dataset that cannot say is taken to)."""
    try:
        return len(dataset) > 0
    except TypeError:
        return True


def assemble(name: str, parts: TaskParts, *, oracle: bool = False, tools: bool = False, budget: int = 0) -> Task:
    """The Inspect task of benchmark ``name`` from its parts, in one of the three ways of answering."""
    if tools and parts.tool_solver is None:
        raise UsageError(f"{name} has no tool setting")
    if oracle:
        solver: Solver | Sequence[Solver] = parts.oracle_solver or oracle_answer()
    elif tools:
        assert parts.tool_solver is not None
        solver = parts.tool_solver(budget)
    else:
        solver = parts.solver if parts.solver is not None else reliable_generate()
    scorers = list(parts.scorer) if isinstance(parts.scorer, Sequence) else [parts.scorer]
    if tools:
        scorers.append(tool_use())
    root = parts.data if isinstance(parts.data, DataRoot) else None
    config = {"max_tokens": parts.max_tokens}
    if parts.temperature is not None:
        config["temperature"] = parts.temperature
    metadata = {
        "benchmark": name,
        **parts.settings,
        "data_source": root.description if root is not None else str(parts.data),
        "revision": root.revision if root is not None and parts.revision is None else parts.revision,
        "data_sha256": files_sha256(list(parts.files)),
        "oracle": oracle,
        "setting": TOOLS if tools else parts.setting,
        "tool_budget": budget if tools else None,
        "max_model_calls": 0 if oracle else tool_turns(budget) if tools else parts.answer_calls,
        "endpoints": endpoints(os.environ),
    }
    return Task(
        dataset=loggable_dataset(parts.dataset),
        solver=solver,  # type: ignore[arg-type]
        scorer=scorers,
        metrics=parts.metrics,
        config=generate_config(**config),
        metadata=metadata,
    )
