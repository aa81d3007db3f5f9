"""The checks of :func:`check_benchmark`, each a plain function of the benchmark's spec and a work folder."""

from __future__ import annotations

import contextlib
import inspect
import json
import math
import os
import tempfile
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mechbench import registry
from mechbench.core.errors import MechbenchError, UsageError
from mechbench.harness.arguments import choices
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.registry.listing import baseline_problems, listing_problems, pin_problems, read_listing

NOWHERE = "http://127.0.0.1:9"
"""An address where nothing listens: every publisher's host points there while the offline checks run."""
HOST_VARIABLES = ("MECHBENCH_GITHUB", "MECHBENCH_GITHUB_RAW", "MECHBENCH_GITHUB_MEDIA", "HF_ENDPOINT")
ORACLE_MODEL = "mockllm/model"
"""The model named for oracle runs (none is called: the oracle answers the target)."""


@dataclass(frozen=True)
class Check:
    """One check's outcome for one benchmark."""

    benchmark: str
    name: str
    passed: bool
    detail: str


@contextlib.contextmanager
def offline() -> Iterator[None]:
    """Every publisher's host unreachable (the environment variables mechbench's downloads read)."""
    saved = {key: os.environ.get(key) for key in HOST_VARIABLES}
    os.environ.update(dict.fromkeys(HOST_VARIABLES, NOWHERE))
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _eval(task: Any, model: str, logs: Path, limit: int, **model_args: Any) -> Any:
    from inspect_ai import eval as inspect_eval

    (log,) = inspect_eval(task, model=model, model_args=model_args, log_dir=str(logs), limit=limit, **QUIET_EVAL)
    if log.status != "success":
        message = log.error.message if log.error is not None else log.status
        raise AssertionError(f"{model} ended in {log.status}: {message.strip().splitlines()[-1][:300]}")
    return log


def _metric(log: Any, name: str) -> float | None:
    for score in log.results.scores if log.results else []:
        for key, metric in score.metrics.items():
            if name in (key, score.name if key == "mean" else None):
                return float(metric.value)
    return None


def _headlines(spec: registry.BenchmarkSpec, log: Any) -> dict[str, float]:
    out = {}
    for sample in log.samples or []:
        headline = spec.report.headline(sample)
        if headline is not None:
            out[str(sample.id)] = headline[1]
    return out


def sample_prompt(sample: Any) -> str:
    """The text a built-in model reads first in a sample (its last user message)."""
    if isinstance(sample.input, str):
        return sample.input
    users = [m for m in sample.input if getattr(m, "role", "") == "user"]
    return users[-1].text if users else ""


def _one_line(error: BaseException) -> str | None:
    """None when ``error`` is a mechbench error of one line; else what is wrong with it."""
    if not isinstance(error, MechbenchError):
        return f"{type(error).__name__} instead of a mechbench error: {str(error)[:200]}"
    if "\n" in str(error).strip() or not str(error).strip():
        return f"the message is not one line: {str(error)[:200]!r}"
    return None


def check_task_name(spec: registry.BenchmarkSpec, work: Path, limit: int) -> str:
    """The Inspect task is called as the benchmark (``mechbench eval <name>`` and ``inspect eval mechbench/<name>``
    find it by that name)."""
    from inspect_ai._util.registry import registry_info, registry_unqualified_name

    try:
        registry_info(spec.task)
    except ValueError:
        raise AssertionError(
            f"spec.task is not an Inspect task: decorate it with @task and @benchmark_task({spec.name!r})"
        ) from None
    found = registry_unqualified_name(spec.task)
    if found != spec.name:
        raise AssertionError(
            f"the task function is called {found!r}: rename it {spec.name!r} (Inspect names a task after its "
            f"function, so `mechbench eval {spec.name}` finds no task)"
        )
    return f"mechbench/{spec.name}"


def check_listing(spec: registry.BenchmarkSpec, work: Path, limit: int) -> str:
    """``eval.yaml`` is in the register's schema, names the task files and arguments that exist, gives the two
    baselines the register asks for, and pins a commit of this repository that holds the task (or is not pinned
    yet)."""
    if spec.listing is None or not spec.listing.is_file():
        raise AssertionError("no eval.yaml beside the benchmark's spec")
    listing = read_listing(spec.listing)
    served = {n for n, found in registry.baselines().items() if any(b.benchmark == spec.name for b in found)}
    problems = [
        *listing_problems(listing, spec.name, spec.task, dict(spec.exports)),
        *baseline_problems(listing, spec.name, served),
    ]
    pinned = pin_problems(listing, spec.listing)
    if problems or pinned.problem:
        raise AssertionError("; ".join([*problems, *([pinned.problem] if pinned.problem else [])]))
    return f"{len(listing.tasks)} task entries, version {listing.version}; {pinned.note}"


def check_offline_set(spec: registry.BenchmarkSpec, work: Path, limit: int) -> str:
    """The bundled set builds a task with the publishers' hosts unreachable, under the benchmark's own name."""
    with offline():
        task = spec.task(data="bundled")
    if len(task.dataset) == 0:
        raise AssertionError("the bundled set has no samples")
    named = (task.metadata or {}).get("benchmark")
    if named != spec.name:
        raise AssertionError(
            f"the task says it is {named!r}: write @benchmark_task({spec.name!r}) (the report files its runs by that "
            "name)"
        )
    if spec.cluster is None:
        raise AssertionError(
            "no cluster declared: give the spec cluster=Cluster(key, unit), the sample metadata key naming the unit "
            "its samples are correlated in (a simulation, a layout; the sample itself when each stands alone), and "
            "write that key into every sample's metadata (docs/statistics.md)"
        )
    missing = [str(s.id) for s in task.dataset if (s.metadata or {}).get(spec.cluster.key) is None]
    if missing:
        raise AssertionError(
            f"{len(missing)} samples have no {spec.cluster.key!r} in their metadata (first: {missing[0]}): every "
            f"sample names its {spec.cluster.unit}"
        )
    found = len({str(s.metadata[spec.cluster.key]) for s in task.dataset})
    return f"{len(task.dataset)} samples in {found} {spec.cluster.unit.split(' (')[0]}s offline"


def check_oracle(spec: registry.BenchmarkSpec, work: Path, limit: int) -> str:
    """The oracle (each sample answered with its own target, no model called) reaches the top of the scale."""
    with offline():
        log = _eval(spec.task(data="bundled", oracle=True), ORACLE_MODEL, work / "logs", limit)
    value = _metric(log, spec.oracle_metric)
    if value is None or not math.isclose(value, 1.0, abs_tol=1e-9):
        raise AssertionError(f"the oracle's {spec.oracle_metric} is {value}, not 1")
    if log.stats.model_usage:
        raise AssertionError("the oracle called a model")
    return f"{spec.oracle_metric} 1.0 on {len(log.samples or [])} samples"


def check_builtin_models(spec: registry.BenchmarkSpec, work: Path, limit: int) -> str:
    """The benchmark declares a shortcut panel of its own built-in models, and every built-in model that serves it
    (``random``, the panel) runs and is scored."""
    names = sorted(n for n, found in registry.baselines().items() if any(b.benchmark == spec.name for b in found))
    if not names:
        raise AssertionError("no built-in model serves it (a benchmark offers at least mechbench/random)")
    if not spec.shortcuts or not set(spec.shortcuts) <= set(names):
        raise AssertionError(f"its shortcut panel {list(spec.shortcuts)} must be built-in models it serves ({names})")
    with offline():
        prompts = [sample_prompt(sample) for sample in list(spec.task(data="bundled").dataset)[:limit]]
    for baseline in (b for found in registry.baselines().values() for b in found if b.benchmark == spec.name):
        missed = [prompt for prompt in prompts if not baseline.accepts(prompt)]
        if missed:
            raise AssertionError(
                f"mechbench/{baseline.name}'s accepts() does not recognise {spec.title}'s own prompt "
                f"({missed[0][:60]!r}…): make it true for every prompt the task writes"
            )
    alone: dict[str, dict[str, float]] = {}
    for name in names:
        with offline():
            log = _eval(spec.task(data="bundled"), f"mechbench/{name}", work / "logs", limit)
        alone[name] = values = _headlines(spec, log)
        if len(values) != len(log.samples or []) or not all(math.isfinite(v) for v in values.values()):
            raise AssertionError(f"mechbench/{name}: {len(values)} of {len(log.samples or [])} samples scored")
    # The shortcut panel as one run (how the demo and `validate --shortcuts` run it) scores what each model does alone.
    from mechbench.harness.panel import member_views, panel_task

    panel = [f"mechbench/{name}" for name in spec.shortcuts]
    with offline():
        log = _eval(panel_task(spec.task(data="bundled"), panel), panel[0], work / "panel", limit)
    for view in member_views(log):
        name = view.eval.model.removeprefix("mechbench/")
        together = _headlines(spec, view)
        if together != alone[name]:
            raise AssertionError(f"mechbench/{name} in a panel run scores {together}, alone {alone[name]}")
    return ", ".join(f"mechbench/{n}" for n in names) + "; the panel in one run agrees"


def check_replay_by_id(spec: registry.BenchmarkSpec, work: Path, limit: int) -> str:
    """Replies recorded by Inspect's sample id replay through ``mechbench/replay`` and score as the oracle's."""
    with offline():
        oracle = _eval(spec.task(data="bundled", oracle=True), ORACLE_MODEL, work / "logs", limit)
    replies = work / f"{spec.name}-replies.jsonl"
    replies.write_text("".join(json.dumps({"id": s.id, "reply": s.target}) + "\n" for s in oracle.samples or []))
    with offline():
        replayed = _eval(spec.task(data="bundled"), "mechbench/replay", work / "logs", limit, file=str(replies))
    expected, found = _headlines(spec, oracle), _headlines(spec, replayed)
    if not expected or found != expected:
        raise AssertionError(f"replayed headlines {found} differ from the oracle's {expected}")
    return f"{len(found)} samples replayed by id"


def check_report(spec: registry.BenchmarkSpec, work: Path, limit: int) -> str:
    """The report reads the runs above: a leaderboard row per model and the benchmark's own section."""
    from mechbench.report import build_report, write_report

    report = build_report(work / "logs")
    rows = [r for r in report.leaderboard if r["benchmark"] == spec.name and not r.get("reference")]
    models = {run.model for run in report.runs if run.benchmark == spec.name}
    if not rows or {r["model"] for r in rows} != models:
        raise AssertionError(f"leaderboard rows for {sorted({r['model'] for r in rows})}, runs of {sorted(models)}")
    paths = write_report(report, work / "report")
    if spec.title not in paths["md"].read_text(encoding="utf-8"):
        raise AssertionError(f"report.md has no {spec.title} section")
    return f"{len(rows)} leaderboard rows"


def check_refusals(spec: registry.BenchmarkSpec, work: Path, limit: int) -> str:
    """Bad input is refused before any sample runs, each with one line: an empty folder, a file given as the
    data, an argument the task does not take, a value outside an argument's choices."""
    empty = work / "empty"
    empty.mkdir(exist_ok=True)
    afile = work / "not-a-folder.txt"
    afile.write_text("not a data set\n")
    hints = typing.get_type_hints(inspect.unwrap(spec.task))
    literal = next(((n, c) for n, h in hints.items() if (c := choices(h)) is not None), None)
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("an empty folder", lambda: spec.task(data=str(empty))),
        ("a file as the data", lambda: spec.task(data=str(afile))),
        ("an unknown argument", lambda: spec.task(no_such_argument=1)),
    ]
    if literal is not None:
        cases.append((f"{literal[0]} outside its choices", lambda: spec.task(**{literal[0]: "no-such-choice"})))
    for what, build in cases:
        try:
            with offline():
                build()
        except BaseException as error:
            problem = _one_line(error)
            if problem is not None:
                raise AssertionError(f"{what}: {problem}") from None
            if what.startswith("an unknown") and not isinstance(error, UsageError):
                raise AssertionError(f"{what}: {type(error).__name__}, not a usage error") from None
        else:
            raise AssertionError(f"{what} was accepted")
    return f"{len(cases)} refusals, one line each"


CHECKS: tuple[Callable[[registry.BenchmarkSpec, Path, int], str], ...] = (
    check_task_name,
    check_listing,
    check_offline_set,
    check_oracle,
    check_builtin_models,
    check_replay_by_id,
    check_report,
    check_refusals,
)


def check_benchmark(name: str, work: Path | None = None, *, limit: int = 3) -> list[Check]:
    """Run every conformance check on the registered benchmark ``name`` (``limit`` samples per run); a check that
    raises fails with its one-line reason, and the others still run."""
    spec = registry.spec(name)
    if spec is None:
        known = ", ".join(s.name for s in registry.specs())
        raise UsageError(f"no registered benchmark {name!r}; registered: {known}")
    with contextlib.ExitStack() as stack:
        if work is None:
            work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"mechbench-check-{name}-")))
        work.mkdir(parents=True, exist_ok=True)
        results = []
        for check in CHECKS:
            label = check.__name__.removeprefix("check_").replace("_", " ")
            try:
                results.append(Check(name, label, True, check(spec, work, limit)))
            except Exception as error:
                reason = " ".join(str(error).split())[:400] or type(error).__name__
                results.append(Check(name, label, False, reason))
        return results
