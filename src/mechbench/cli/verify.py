"""``mechbench verify simulation``: the simulation physics against published reference solutions, as a table."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from mechbench.harness.commands import fail, output_file


def register(app: typer.Typer) -> None:
    """Add the ``verify`` group to the command line."""
    group = typer.Typer(help="Check mechbench's physics against published reference solutions.", no_args_is_help=True)
    group.command("simulation")(simulation)
    app.add_typer(group, name="verify")


def simulation(
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="Markdown file to write (default: print the table).")
    ] = None,
    fast: Annotated[bool, typer.Option("--fast", help="Only the cases that run in seconds.")] = False,
) -> None:
    """Solve the classic reference problems at the generator's resolution and compare (exit code 1 if a row is
    outside its tolerance)."""
    from mechbench.simulation.verification import CASES, markdown

    output_file(out, "-o")  # before the minutes of physics: a pipe or device would block or swallow the table
    started = time.perf_counter()
    rows = [row for case in CASES if case.fast or not fast for row in case.run()]
    text = markdown(rows, fast)
    if out is None:
        sys.stdout.write(text)
    else:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as error:
            fail(f"cannot write {out}: {error.strerror or error}")
        failed = sum(not row.passed for row in rows)
        typer.echo(f"{out}: {len(rows)} rows, {failed} outside tolerance ({time.perf_counter() - started:.0f} s)")
    if any(not row.passed for row in rows):
        raise typer.Exit(1)
