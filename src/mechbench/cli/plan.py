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
from mechbench.harness.commands import fail, log_folder

DEFAULT_DETECT = 0.05
"""The target difference ``--dry-run`` prints the samples for (``mechbench plan --detect`` takes another)."""


def design_of(samples: list[Any], key: str | None) -> Design:
    """The cluster sizes of ``samples`` (by sample metadata ``key``; each sample its own cluster without one)."""
    counts = Counter(str((s.metadata or {}).get(key, f"sample {s.id}")) if key else f"sample {s.id}" for s in samples)
    return Design(tuple(counts.values()))


def _differences(a: list[Any], b: list[Any]) -> list[tuple[object, float]]:
    """(cluster, A − B) of the samples two rows share, epochs averaged within each."""
    from mechbench.core.intervals import per_sample

    means_a, _, clusters, _, _ = per_sample(a)
    means_b, _, _, _, _ = per_sample(b)
    return [(clusters[s], means_a[s] - means_b[s]) for s in means_a if s in means_b]


ICC_TAKEN_AS_1 = "; one sample per cluster, so the ICC cannot be measured and is taken as 1"


def _one_per_cluster(values: list[tuple[object, float]]) -> bool:
    return len({cluster for cluster, _ in values}) == len(values)


def spread_from(logs: Path | None, benchmark: str, digest: str | None) -> Spread:
    """The spread of a paired difference on this data, measured on earlier runs in ``logs`` (two or more models:
    their pairs' differences, the median SD and ICC; one model: its own scores, taken twice as if two independent
    models); the worst case when there are none, with the reason when ``logs`` holds runs."""
    if logs is None or not logs.is_dir() or digest is None:
        return WORST_CASE
    from mechbench.report import build_report

    report = build_report(logs)
    rows = [
        r
        for r in report.leaderboard
        if r["benchmark"] == benchmark and not r.get("reference") and r.get("data_sha256") == digest[:12]
    ]
    if not rows:
        return _worst(f"{logs} holds no run of {benchmark} on this data")
    where = f"{len(rows)} earlier run{'s' if len(rows) != 1 else ''} in {logs}"
    found, measured = [], []  # every pair's estimate; the ICCs of pairs with clusters of several samples
    for i, first in enumerate(rows):
        for second in rows[i + 1 :]:
            differences = _differences(report.observations(first), report.observations(second))
            estimate = estimate_spread(differences, where)
            if estimate is not None:
                found.append(estimate)
                if not _one_per_cluster(differences):
                    measured.append(estimate.icc)
    if found:
        sd = statistics.median(s.sd for s in found)
        icc = statistics.median(measured) if measured else WORST_ICC
        pairs = f"{len(found)} pair{'s' if len(found) != 1 else ''}"
        note = "" if measured else ICC_TAKEN_AS_1
        return Spread(sd, icc, f"{where} ({pairs}: the median SD and ICC of their differences{note})")
    if len(rows) > 1:
        return _worst(f"the {len(rows)} runs in {logs} on this data share fewer than two clusters or differ on none")
    from mechbench.core.intervals import per_sample

    means, _, clusters, _, _ = per_sample(report.observations(rows[0]))  # epochs averaged, as in a pair
    scores = [(clusters[s], mean) for s, mean in means.items()]
    single = estimate_spread(scores, where)
    if single is None:
        return _worst(f"the one run in {logs} on this data has fewer than two clusters or the same score on all")
    note = ICC_TAKEN_AS_1 if _one_per_cluster(scores) else ""
    source = f"{where} (one model's scores, two such models independent{note})"
    return Spread(math.sqrt(2) * single.sd, single.icc, source)


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
            f"1 needs {needed:,} {unit}s of these sizes"
        )
    lines = [
        f"  power: {design.samples} samples in {design.clusters} {unit}s ({sizes[0]}–{sizes[-1]} per {unit}, "
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
            lines.append(f"  to find {detect:g}: out of reach with {unit}s of these sizes")
        elif needed <= design.clusters:
            lines.append(f"  to find {detect:g}: these samples suffice (power {_percent(chance)})")
        else:
            per = design.samples / design.clusters
            lines.append(
                f"  to find {detect:g} (power {_percent(chance)} here): {needed:,} {unit}s of these sizes, about "
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
