"""``mechbench plan TASK``: what difference between two models a run can show, before it is paid for.

The task is built offline (as ``--dry-run`` builds it), its samples' clusters counted (the unit the benchmark
declares), and the power of a paired comparison of two models on them computed (:mod:`mechbench.core.power`). The
spread of a paired difference is taken from earlier runs on the same data where a log folder holds some (``--from``,
or the run's log folder), otherwise from the worst case; the lines say which.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from mechbench.core.power import (
    WORST_CASE,
    WORST_ICC,
    Design,
    Spread,
    clusters_needed,
    detectable,
    estimate_spread,
    power,
)
from mechbench.core.text import plural
from mechbench.harness.commands import fail, log_folder

DEFAULT_DETECT = 0.05
"""The target difference ``--dry-run`` prints the samples for (``mechbench plan --detect`` takes another)."""


def design_of(samples: list[Any], key: str | None) -> Design:
    """The cluster sizes of ``samples`` (by sample metadata ``key``; each sample its own cluster without one)."""
    counts = Counter(str((s.metadata or {}).get(key, f"sample {s.id}")) if key else f"sample {s.id}" for s in samples)
    return Design(tuple(counts.values()))


def _differences(a: Any, b: Any) -> list[tuple[object, float]]:
    """(cluster, A − B) of the samples two rows share, epochs averaged within each (each row given as its
    :class:`~mechbench.core.intervals.Samples`, or as its observations)."""
    from mechbench.core.intervals import samples_of

    first, second = samples_of(a), samples_of(b)
    return [(first.clusters[s], mean - second.means[s]) for s, mean in first.means.items() if s in second.means]


ICC_TAKEN_AS_1 = "; one sample per cluster, so the ICC cannot be measured and is taken as 1"


def _one_per_cluster(values: list[tuple[object, float]]) -> bool:
    return len({cluster for cluster, _ in values}) == len(values)


MAX_PLAN_LOGS = 50
"""Logs of the task on the same data a plan measures its spread on, the newest first: the median over their pairs
needs no more, and reading every log of a folder of thousands would take minutes."""
MAX_SPREAD_PAIRS = 300
"""Pairs of rows whose differences a plan measures; past it, this many drawn at random (seeded), not all of them."""


def _same_data(header: Any, benchmark: str, digest: str) -> bool:
    """A finished run of ``benchmark`` on the data hashed ``digest``, as a log's header says."""
    meta = header.eval.metadata or {}
    task = str(header.eval.task).rsplit("/", 1)[-1]
    return (
        header.status == "success"
        and benchmark in (meta.get("benchmark"), task)
        and str(meta.get("data_sha256") or "")[:12] == digest[:12]
    )


def runs_on_data(logs: Path, benchmark: str, digest: str) -> tuple[list[tuple[str, Any]], bool]:
    """The newest :data:`MAX_PLAN_LOGS` logs in ``logs`` of ``benchmark`` on the data hashed ``digest``, read (or why
    one could not be), and whether the folder holds more. Headers are read first, newest first, and a log only when
    its header matches; each is checked as the report checks it (``oversized_log``) before anything is read."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    from mechbench.report.build import oversized_log

    infos = sorted(list_eval_logs(str(logs)), key=lambda info: (getattr(info, "mtime", 0) or 0, info.name))
    chosen: list[str] = []
    for info in reversed(infos):
        if oversized_log(info.name) is not None:
            continue
        try:
            header = read_eval_log(info.name, header_only=True)
        except Exception:  # a broken log is no run to measure on
            continue
        if not _same_data(header, benchmark, digest):
            continue
        if len(chosen) == MAX_PLAN_LOGS:
            return _read(chosen), True
        chosen.append(info.name)
    return _read(chosen), False


def _read(names: list[str]) -> list[tuple[str, Any]]:
    """The logs ``names``, oldest first (as the report pools them: a sample scored again keeps its latest score)."""
    from inspect_ai.log import read_eval_log

    out: list[tuple[str, Any]] = []
    for name in reversed(names):
        try:
            out.append((name, read_eval_log(name)))
        except Exception as error:  # left out, as the report leaves it out
            out.append((name, type(error).__name__))
    return out


def spread_pairs(count: int, limit: int | None = None, seed: int = 0) -> list[tuple[int, int]]:
    """Pairs of ``count`` rows (indexes, first < second) whose differences a plan measures: all of them up to
    ``limit`` (:data:`MAX_SPREAD_PAIRS`), else ``limit`` drawn at random with ``seed`` (the median of their spreads
    stands for all)."""
    limit = MAX_SPREAD_PAIRS if limit is None else limit
    total = count * (count - 1) // 2
    if total <= limit:
        return [(i, j) for i in range(count) for j in range(i + 1, count)]
    import random

    draw = random.Random(seed)
    chosen: set[tuple[int, int]] = set()
    while len(chosen) < limit:
        i, j = sorted(draw.sample(range(count), 2))
        chosen.add((i, j))
    return sorted(chosen)


def spread_from(logs: Path | None, benchmark: str, digest: str | None) -> Spread:
    """The spread of a paired difference on this data, measured on earlier runs in ``logs`` (two or more models:
    their pairs' differences, the median SD and ICC; one model: its own scores, taken twice as if two independent
    models); the worst case when there are none, with the reason when ``logs`` holds runs. At most the newest
    :data:`MAX_PLAN_LOGS` logs on this data are read and :data:`MAX_SPREAD_PAIRS` pairs measured, so a folder of
    thousands of runs plans in seconds; the lines say so."""
    if logs is None or not logs.is_dir() or digest is None:
        return WORST_CASE
    from mechbench.core.intervals import samples_of
    from mechbench.report.build import leaderboard_of
    from mechbench.report.compare import row_key

    given, more = runs_on_data(logs, benchmark, digest)
    board, observations = leaderboard_of(given)
    rows = [
        r for r in board if r["benchmark"] == benchmark and r.get("samples") and r.get("data_sha256") == digest[:12]
    ]
    if not rows:
        return _worst(f"{logs} holds no run of {benchmark} on this data")
    where = f"{len(rows)} earlier run{'s' if len(rows) != 1 else ''} in {logs}"
    if more:
        where += f" (from its newest {MAX_PLAN_LOGS} logs on this data: a plan reads no more)"
    samples = [samples_of(observations[row_key(r)]) for r in rows]  # each row's epoch means, computed once
    found, measured = [], []  # every pair's estimate; the ICCs of pairs with clusters of several samples
    chosen = spread_pairs(len(rows))
    for i, j in chosen:
        differences = _differences(samples[i], samples[j])
        estimate = estimate_spread(differences, where)
        if estimate is not None:
            found.append(estimate)
            if not _one_per_cluster(differences):
                measured.append(estimate.icc)
    if found:
        sd = statistics.median(s.sd for s in found)
        icc = statistics.median(measured) if measured else WORST_ICC
        pairs = f"{len(found)} pair{'s' if len(found) != 1 else ''}"
        total = len(rows) * (len(rows) - 1) // 2
        if len(chosen) < total:
            pairs += f" of {len(chosen)} drawn at random from the {total:,} there are"
        note = "" if measured else ICC_TAKEN_AS_1
        return Spread(sd, icc, f"{where} ({pairs}: the median SD and ICC of their differences{note})")
    if len(rows) > 1:
        return _worst(f"the {len(rows)} runs in {logs} on this data share fewer than two clusters or differ on none")
    single = samples[0]  # epochs averaged, as in a pair
    scores = [(single.clusters[s], mean) for s, mean in single.means.items()]
    estimate = estimate_spread(scores, where)
    if estimate is None:
        return _worst(f"the one run in {logs} on this data has fewer than two clusters or the same score on all")
    note = ICC_TAKEN_AS_1 if _one_per_cluster(scores) else ""
    source = f"{where} (one model's scores, two such models independent{note})"
    return Spread(math.sqrt(2) * estimate.sd, estimate.icc, source)


def _worst(reason: str) -> Spread:
    """The worst case, saying why no run could be used."""
    return replace(WORST_CASE, source=f"{WORST_CASE.source} ({reason})")


def plan_lines(
    task_name: str,
    samples: list[Any],
    key: str | None,
    unit: str,
    spread: Spread,
    detect: float | None,
    target: float = 0.8,
) -> list[str]:
    """What a run of ``samples`` can show, in lines."""
    design = design_of(samples, key)
    if design.clusters < 2:
        return [f"  power: {design.samples} samples in {design.clusters} {unit}: no interval over clusters"]
    sizes = sorted(design.sizes)
    smallest = detectable(design, spread, target)
    if smallest <= 1:
        found = f"a difference of {smallest:.2g} or more is found {_percent(target)} of the time"
    else:  # scores lie in [0, 1]: under this spread no difference reaches the power asked for
        needed = clusters_needed(design, spread, 1.0, target)
        found = (
            f"under this spread no difference up to 1 (the largest there is) is found {_percent(target)} of the time; "
            f"1 needs {needed:,} {plural(unit)} of these sizes"
        )
    lines = [
        f"  power: {design.samples} samples in {design.clusters} {plural(unit)} ({sizes[0]}–{sizes[-1]} per {unit}, "
        f"effective size {design.effective_size:.3g})",
        f"  assumed spread of a paired difference: SD {spread.sd:.2g}, ICC {spread.icc:.2g} — {spread.source}",
        f"  two models on these samples: {found} (paired test, two-sided at 5 %)",
    ]
    if spread.assumed and design.effective_size > 1:  # the other end: answers about one cluster as unrelated as any
        best = detectable(design, replace(spread, icc=0.0), target)
        hint = "; runs on this data in a log folder (--from) measure where between the two it is"
        lines.append(
            f"  (if the answers within {'an' if unit[:1] in 'aeiou' else 'a'} {unit} were no more alike than any two: "
            f"{f'{best:.2g}' if best <= 1 else 'more than 1'}{hint if spread is WORST_CASE else ''})"
        )
    if detect is not None:
        chance = power(design, spread, detect)
        needed = clusters_needed(design, spread, detect, target)
        if needed is None:
            lines.append(f"  to find {detect:g}: out of reach with {plural(unit)} of these sizes")
        elif needed <= design.clusters:
            lines.append(f"  to find {detect:g}: these samples suffice (power {_percent(chance)})")
        else:
            per = design.samples / design.clusters
            lines.append(
                f"  to find {detect:g} (power {_percent(chance)} here): {needed:,} {plural(unit)} of these sizes, "
                f"about "
                f"{round(needed * per):,} samples"
                + (
                    f"; more samples per {unit} cannot do it alone (ICC {spread.icc:.2g})"
                    if spread.icc >= 0.1 and design.effective_size > 1
                    else ""
                )
            )
    return lines


def _percent(share: float) -> str:
    return f"{100 * share:.0f} %"


def register(app: typer.Typer) -> None:
    """Add ``plan`` to the command line."""
    app.command("plan", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(plan)


def plan(
    ctx: typer.Context,
    task: Annotated[str, typer.Argument(help="A mechbench task ('mechbench list').")],
    detect: Annotated[
        float | None, typer.Option("--detect", help="A difference to find: the samples it needs.")
    ] = DEFAULT_DETECT,
    logs: Annotated[
        Path | None,
        typer.Option("--from", help="Earlier runs on the same data to take the spread from (default: the worst case)."),
    ] = None,
    target_power: Annotated[float, typer.Option("--power", help="The power asked for.")] = 0.8,
) -> None:
    """The smallest difference between two models a run of TASK can show, and the samples a --detect difference
    needs. Takes the task's -T arguments and --limit as 'mechbench eval' does; builds the task offline."""
    from mechbench import registry
    from mechbench.cli.eval_checks import resolve_task
    from mechbench.cli.offline_task import offline_samples
    from mechbench.core.errors import MechbenchError

    if detect is not None and not 0 < detect <= 1:
        fail(f"--detect takes a difference between 0 and 1, got {detect}")
    if not 0 < target_power < 1:
        fail(f"--power takes a probability between 0 and 1, got {target_power}")
    if logs is not None:
        log_folder(logs, "--from")
    try:
        name = resolve_task(task)
        spec = registry.spec(name)
        if spec is None:
            raise MechbenchError(f"mechbench plan plans mechbench's own tasks; {task!r} is not one")
        built, samples = offline_samples(spec, list(ctx.args))
    except MechbenchError as error:
        fail(str(error))
    digest = (built.metadata or {}).get("data_sha256")
    spread = spread_from(logs, name, digest)
    typer.echo(f"plan for {name}: data {(built.metadata or {}).get('data_source')} (sha256 {str(digest)[:12]})")
    key, unit = (spec.cluster.key, spec.cluster.unit.split(" (")[0]) if spec.cluster else (None, "sample")
    for line in plan_lines(name, samples, key, unit, spread, detect, target_power):
        typer.echo(line)
