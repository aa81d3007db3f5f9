"""``mechbench check``: the conformance suite (:mod:`mechbench.conformance`) on registered benchmarks."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mechbench.harness.commands import fail


def register(app: typer.Typer) -> None:
    """Add ``check`` to the command line."""
    app.command("check")(check)


def check(
    names: Annotated[
        list[str] | None, typer.Argument(help="Benchmarks to check (default: every registered one).")
    ] = None,
    limit: Annotated[int, typer.Option(help="Samples per run.")] = 3,
    work: Annotated[
        Path | None, typer.Option(help="Keep the logs and report here (default: a temporary folder).")
    ] = None,
    pin: Annotated[
        bool,
        typer.Option(
            "--pin",
            help="First pin each benchmark's eval.yaml to the last commit of its folder (it must be committed).",
        ),
    ] = False,
) -> None:
    """Run the conformance suite offline: task name, listing, offline set, oracle, built-in models (alone and as one
    panel run), replay by sample id, report, refusals. Exits 1 when a check fails."""
    from mechbench import registry
    from mechbench.conformance import check_benchmark
    from mechbench.core.errors import MechbenchError, UsageError
    from mechbench.registry.listing import pin_listing

    if limit < 1:
        fail("--limit must be at least 1")
    chosen = names or [entry.name for entry in registry.specs()]
    for name in chosen if pin else []:
        entry = registry.spec(name)
        if entry is None or entry.listing is None:
            fail(f"no registered benchmark {name!r} with an eval.yaml to pin")
        try:
            typer.echo(f"pinned {entry.listing} at {pin_listing(entry.listing)}")
        except MechbenchError as error:
            fail(str(error))
    failed = 0
    for name in chosen:
        try:
            results = check_benchmark(name, work / name if work else None, limit=limit)
        except UsageError as error:
            fail(str(error))
        for result in results:
            failed += not result.passed
            mark = "ok  " if result.passed else "FAIL"
            typer.echo(f"{mark} {name:<16} {result.name:<16} {result.detail}")
    if failed:
        typer.echo(f"{failed} checks failed", err=True)
        raise typer.Exit(1)
