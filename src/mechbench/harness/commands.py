"""What a benchmark's own commands (``mechbench score|generate|validate <benchmark>``) share with mechbench's:
one-line usage errors with exit code 2, checked choices, JSON files read safely, output folders and executor
options checked before any work.

A benchmark adds commands in its folder's ``commands.py`` (:func:`register`, called with :class:`CommandGroups`
when the command line is built); the command line finds that module by convention, so no file outside the folder
names the benchmark.
"""

from __future__ import annotations

import itertools
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from mechbench.core import safejson
from mechbench.core.errors import DataSourceError, UsageError
from mechbench.core.reading import read_capped_text
from mechbench.harness.arguments import one_of

USAGE_ERROR = 2
"""Exit code of a usage error (a wrong option, a missing or unreadable file)."""


@dataclass(frozen=True)
class CommandGroups:
    """The command groups a benchmark's ``commands.register(groups)`` adds its commands to (each command named
    after the benchmark: ``mechbench score sphyr``)."""

    score: typer.Typer
    generate: typer.Typer
    validate: typer.Typer
    calibrate: typer.Typer


ReportOutputOption = Annotated[Path | None, typer.Option("-o", "--output", help="Write the Markdown report here.")]
JsonReportOption = Annotated[Path | None, typer.Option("--json", help="Write the report as JSON here.")]
ExecutorOption = Annotated[str, typer.Option(help="local (process pool) or ray.")]
WorkersOption = Annotated[int | None, typer.Option(help="Parallel workers (default: all cores).")]
RayAddressOption = Annotated[
    str | None, typer.Option(help="With --executor ray: join this Ray cluster (HOST:PORT) instead of a local instance.")
]
OverwriteOption = Annotated[
    bool,
    typer.Option(
        "--overwrite",
        help="Write into an output folder that already holds files (a set there is replaced file by file).",
    ),
]


def bounded_workers(workers: int | None) -> int | None:
    """``--workers`` checked as every command takes it: at least 1, and at most the cores this process may use (more
    would only add processes and memory; said in one line and lowered). None stays None: all cores."""
    from mechbench.core.executor import usable_cores

    if workers is None:
        return None
    if workers < 1:
        fail("--workers must be at least 1")
    cores = usable_cores()
    if workers > cores:
        typer.echo(f"warning: --workers {workers} is more than the {cores} cores here; using {cores}", err=True)
        return cores
    return workers


def executor_args(executor: str, workers: int | None, ray_address: str | None) -> dict[str, object]:
    """Validated executor settings for :func:`mechbench.core.executor.run_batch`: a Ray address only with
    ``--executor ray``, and one where something answers (checked in seconds, before any work)."""
    from mechbench.core.executor import EXECUTORS, ExecutorError, check_ray_address

    if executor not in EXECUTORS:
        fail(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    if ray_address is not None and executor != "ray":
        fail("--ray-address joins a Ray cluster: add --executor ray (the local executor runs a process pool here)")
    if ray_address is not None:
        try:
            check_ray_address(ray_address)
        except ExecutorError as error:
            fail(str(error))
    else:  # a cluster's workers are its own; a local pool or Ray instance gets at most this machine's cores
        workers = bounded_workers(workers)
    if workers is not None and workers < 1:
        fail("--workers must be at least 1")

    def progress(done: int, total: int) -> None:
        typer.echo(f"  {done}/{total} chunks", err=True)

    return {"executor": executor, "workers": workers, "ray_address": ray_address, "progress": progress}


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with the usage-error code."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(USAGE_ERROR)


def difficulty_level(value: str, levels: tuple[int, ...]) -> int | None:
    """``--difficulty``'s value as every generator reads it: ``mix`` (None) or one of ``levels``; anything else is
    the usage error that names them."""
    if value == "mix":
        return None
    if value.isdigit() and int(value) in levels:
        return int(value)
    fail(f"--difficulty must be mix or a level {min(levels)}-{max(levels)}, got {value!r}")


def log_folder(path: Path, what: str) -> Path:
    """``path`` when it is a folder, else the usage error ``what`` (the command or option) should say: a log file
    is named with its folder."""
    if path.is_file():
        fail(f"{what} takes a log folder; {path} is a file (its folder: {path.parent})")
    if not path.is_dir():
        fail(f"{what} takes a log folder; {path} does not exist")
    return path


def choice(flag: str, value: str, allowed: tuple[str, ...]) -> str:
    """``value`` if ``allowed`` holds it (the tasks' own ``Literal`` choices), else one usage-error line."""
    try:
        return one_of(flag, value, allowed)
    except UsageError as error:
        fail(str(error))


def generation_target(output: Path, n: int, overwrite: bool = False, *, least: int = 1, why: str = "") -> None:
    """Before any item is generated, refuse: a count below ``least`` (``why`` says why, when it is not 1) or past
    :data:`mechbench.core.limits.MAX_GENERATED_ITEMS` (more than one ``eval`` reads), an output that cannot be a
    folder, and, unless ``overwrite``, a folder that already holds files (a set there would be replaced silently)."""
    from mechbench.core.limits import MAX_GENERATED_ITEMS

    if not least <= n <= MAX_GENERATED_ITEMS:
        reason = f" ({why})" if why and n < least else " (the most one eval reads)" if n > MAX_GENERATED_ITEMS else ""
        fail(f"--n must be between {least} and {MAX_GENERATED_ITEMS}, got {n}{reason}")
    blocked = next((p for p in (output, *output.parents) if p.exists() and not p.is_dir()), None)
    if blocked is not None:
        fail(f"-o {output}: {blocked} is a file, not a folder")
    if output.is_dir() and not overwrite:
        try:
            held = sorted(entry.name for entry in itertools.islice(output.iterdir(), 4))
        except OSError as error:
            fail(f"-o {output}: cannot read the folder: {error.strerror or error}")
        if held:
            shown = ", ".join(held[:3]) + (", …" if len(held) > 3 else "")
            fail(
                f"-o {output} already holds files ({shown}): choose an empty or new folder, or pass --overwrite to "
                "write the set over them"
            )
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"-o {output}: cannot create the folder: {error.strerror or error}")
    if not os.access(output, os.W_OK | os.X_OK):
        fail(f"-o {output}: the folder is not writable")


def output_file(path: Path | None, flag: str) -> Path | None:
    """``path`` when a command may write its output there: a new file or a regular file (a pipe or device would block
    or swallow it, a folder cannot take it), in a folder that exists; else one usage-error line. None stays None."""
    if path is None:
        return None
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if not path.parent.is_dir():
            fail(f"{flag} {path}: the folder {path.parent} does not exist")
        return path
    except OSError as error:
        fail(f"{flag} {path}: {error.strerror or error}")
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a pipe or device"
        fail(f"{flag} {path} is {kind}, not a regular file; refused")
    return path


MAX_JSON_FILE_BYTES = 64 * 1024**2
"""Bytes of a JSON file a command reads (a FrameCalc model or a grid file takes a few KB)."""


def read_json(path: Path, what: str) -> Any:
    """Read a JSON file or fail with one clear line."""
    if not path.exists() and not path.is_symlink():
        fail(f"{what} {path} does not exist")
    try:
        text = read_capped_text(path, MAX_JSON_FILE_BYTES, what)
    except DataSourceError as error:
        fail(str(error))
    try:
        return safejson.loads(text)
    except json.JSONDecodeError as error:
        fail(f"{what} {path} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}")
    except safejson.JSONNestingError:
        fail(f"{what} {path} nests too deeply to be read")


def emit_calibration(report: dict[str, Any], output: Path | None, json_output: Path | None) -> None:
    """Print or write a ``calibrate`` report (Markdown, and JSON on request), then its verdict in one line on
    stderr; exit 1 when a difference was detected."""
    import json

    from mechbench.harness.calibration import markdown, verdict

    text = markdown(report)
    for path, content in ((output, text), (json_output, json.dumps(report, indent=1))):
        if path is not None:
            try:
                path.write_text(content)
            except OSError as error:
                fail(f"cannot write {path}: {error.strerror or error}")
    if output is None:
        typer.echo(text)
    typer.echo(f"{report['fresh']['name']} against {report['published']['name']}: {verdict(report)}", err=True)
    if not report["no_difference_detected"]:
        raise typer.Exit(1)
