"""The ``mechbench`` command line: one module per command group, and each benchmark's own commands.

Usage errors (a missing or unreadable file, an invalid model, an unstable structure) print one line on stderr and
exit with code 2; no command prints a traceback for anything a user can feed it. ``score``, ``generate`` and
``validate`` hold each benchmark's commands, added from the benchmark's folder (its ``commands.py``, found by
convention; see :mod:`mechbench.harness.commands`), so this package names no benchmark.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys
from typing import Annotated

import typer

from mechbench.cli import (
    calibrate_items,
    check,
    demo,
    eval_command,
    frame,
    listing,
    plan,
    report,
    validate_shortcuts,
    verify,
)
from mechbench.harness.commands import USAGE_ERROR, CommandGroups

BENCHMARKS_PACKAGE = "mechbench.benchmarks"
COMMANDS_MODULE = "commands"
"""The module of a benchmark folder that adds the benchmark's commands (``register(groups)``)."""


def _version(value: bool) -> None:
    if value:
        from mechbench import __version__

        typer.echo(f"mechbench {__version__}")
        raise typer.Exit()


def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Evaluate language models on engineering mechanics, with physics deciding what is right."""


def benchmark_folders() -> list[str]:
    """The benchmark folders' names (found without importing the benchmarks, so the command line starts without
    loading Inspect)."""
    package = importlib.import_module(BENCHMARKS_PACKAGE)
    return sorted(info.name for info in pkgutil.iter_modules(package.__path__) if info.ispkg)


def benchmark_command_modules() -> list[str]:
    """The ``commands`` modules of the benchmark folders that have one."""
    names = (f"{BENCHMARKS_PACKAGE}.{folder}.{COMMANDS_MODULE}" for folder in benchmark_folders())
    return [name for name in names if importlib.util.find_spec(name) is not None]


def build_app() -> typer.Typer:
    """The whole command line: mechbench's own commands and every benchmark folder's."""
    app = typer.Typer(
        name="mechbench",
        help="Evaluate language models on engineering mechanics, with physics deciding what is right.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.callback()(_main)
    for module in (eval_command, plan, listing, check, demo, report, frame, verify):
        module.register(app)
    groups = CommandGroups(
        score=typer.Typer(help="Score answers produced elsewhere.", no_args_is_help=True),
        generate=typer.Typer(help="Generate fresh, contamination-free benchmark tasks.", no_args_is_help=True),
        validate=typer.Typer(
            help="Check that a scorer ranks known answers as it must, and what shortcuts score on a set.",
            no_args_is_help=True,
        ),
        calibrate=typer.Typer(
            help="Show whether a fresh set scores like the published one, or calibrate a set's items on models' runs.",
            no_args_is_help=True,
        ),
    )
    for name in benchmark_command_modules():
        importlib.import_module(name).register(groups)
    calibrate_items.register(groups)
    for folder in benchmark_folders():
        validate_shortcuts.attach(groups.validate, folder)
    app.add_typer(groups.score, name="score")
    app.add_typer(groups.generate, name="generate")
    app.add_typer(groups.validate, name="validate")
    app.add_typer(groups.calibrate, name="calibrate")
    return app


app = build_app()


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``mechbench`` command: usage and file-system failures become one line and exit code 2."""
    from typer.exceptions import TyperException

    from mechbench.core.text import tolerant_streams

    tolerant_streams()
    try:
        code = app(args=argv, standalone_mode=False)
    except TyperException as error:  # click's usage errors, as vendored by typer
        ctx = getattr(error, "ctx", None)
        if type(error).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help())
            sys.exit(0)
        hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
        typer.echo(f"error: {error.format_message()}{hint}", err=True)  # type: ignore[attr-defined]
        sys.exit(USAGE_ERROR)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(1)
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        typer.echo(f"error: {error.strerror or error}{where}", err=True)
        sys.exit(USAGE_ERROR)
    sys.exit(code if isinstance(code, int) else 0)
