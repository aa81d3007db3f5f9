"""``mechbench report``: leaderboards and figures from Inspect logs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mechbench.harness.commands import fail, log_folder


def register(app: typer.Typer) -> None:
    """Add ``report`` to the command line."""
    app.command()(report)


def report(
    log_dir: Annotated[Path, typer.Argument(help="Folder of Inspect eval logs.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder for the report.")] = Path("mechbench-report"),
    format: Annotated[str, typer.Option(help="all (md, html, json, png) or json (on stdout).")] = "all",
) -> None:
    """Leaderboards and figures from Inspect logs: report.md, a self-contained report.html, report.json."""
    from mechbench.report import build_report, write_report

    log_folder(log_dir, "mechbench report")
    if format not in ("all", "json"):
        fail(f"--format must be all or json, got {format!r}")
    built = build_report(log_dir)
    if not built.runs:
        why = f" ({len(built.skipped_logs)} left out; the first: {built.skipped_logs[0]})" if built.skipped_logs else ""
        fail(f"no successful Inspect logs under {log_dir}{why}")
    if format == "json":
        typer.echo(built.model_dump_json(indent=1))
        return
    paths = write_report(built, output)
    typer.echo(f"wrote {paths['md']}, {paths['html']}, {paths['json']}")
