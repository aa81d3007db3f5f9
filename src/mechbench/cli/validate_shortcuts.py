"""``mechbench validate <benchmark> --shortcuts``: every benchmark's shortcut panel on a set.

A benchmark that has its own ``validate`` command (SPhyR's validation of the physics scoring) keeps it: the
command gains ``--shortcuts`` and the panel's options; the others get a ``validate <name>`` that runs the panel.
"""

from __future__ import annotations

import inspect
import os
import stat
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from mechbench.harness.commands import fail

ShortcutsOption = Annotated[
    bool, typer.Option("--shortcuts", help="Run the shortcut panel: what models that never use the skill score here.")
]
TaskArgOption = Annotated[
    list[str] | None, typer.Option("-T", "--task-arg", help="A task argument NAME=VALUE (as for mechbench eval).")
]
LogDirOption = Annotated[
    Path | None, typer.Option("--log-dir", help="Where the panel's logs go (default: a new folder).")
]
LimitOption = Annotated[int | None, typer.Option("--limit", help="Samples per shortcut (default: all).")]
PriorOption = Annotated[
    str | None, typer.Option("--prior", help="Learn the priors from this set instead (a questions file or folder).")
]
EXTRA = ("shortcuts", "task_arg", "log_dir", "limit", "prior")


def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def check_prior(name: str, prior: str) -> None:
    """Refuse ``--prior`` where the panel learns none, or where it is not a folder or a regular file (a pipe or a
    device would block the panel or feed it forever): one line each, before any model runs."""
    from mechbench import registry

    spec = registry.spec(name)
    if spec is not None and not spec.shortcut_prior:
        learners = [entry.name for entry in registry.specs() if entry.shortcut_prior]
        fail(f"--prior: {name}'s shortcut models learn no prior (those of {', '.join(learners)} do)")
    try:
        mode = os.stat(prior).st_mode
    except FileNotFoundError:
        fail(f"--prior {prior} does not exist")
    except OSError as error:
        fail(f"--prior {prior}: {error.strerror or error}")
    if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
        fail(f"--prior {prior} is a pipe or device, not a regular file or folder; refused")


def run(name: str, task_arg: list[str] | None, log_dir: Path | None, limit: int | None, prior: str | None) -> None:
    """Run benchmark ``name``'s panel and print it."""
    from mechbench.conformance.shortcuts import panel_lines, run_shortcuts
    from mechbench.core.errors import MechbenchError

    if prior is not None:
        check_prior(name, prior)

    task_args = {}
    for given in task_arg or []:
        if "=" not in given:
            fail(f"-T takes NAME=VALUE, got {given!r}")
        key, value = given.split("=", 1)
        task_args[key] = _value(value)
    if limit is not None and limit < 1:
        fail("--limit must be at least 1")
    folder = log_dir or Path("mechbench-shortcuts") / name
    try:
        rows = run_shortcuts(name, task_args, folder, limit=limit, model_args={"prior": prior} if prior else None)
    except MechbenchError as error:
        fail(str(error))
    typer.echo(f"{name}: the shortcut panel on {task_args or 'the default data'} (logs: {folder})")
    for line in panel_lines(rows):
        typer.echo(line)
    beaten = [row["model"] for row in rows if row.get("beats_chance")]
    if beaten:
        typer.echo(f"warning: {', '.join(beaten)} beat chance by more than 2 standard errors on this set", err=True)


def _generic(name: str) -> Callable[..., None]:
    def validate(
        shortcuts: ShortcutsOption = False,
        task_arg: TaskArgOption = None,
        log_dir: LogDirOption = None,
        limit: LimitOption = None,
        prior: PriorOption = None,
    ) -> None:
        if not shortcuts:
            fail(f"validate {name} runs the shortcut panel: pass --shortcuts")
        run(name, task_arg, log_dir, limit, prior)

    validate.__doc__ = f"The shortcut panel of {name} (--shortcuts): what models that never use the skill score."
    return validate


def _wrapped(name: str, own: Callable[..., Any]) -> Callable[..., Any]:
    """``own`` (a benchmark's validate command) with the panel's options added."""
    hints = typing.get_type_hints(own, include_extras=True)
    extras = typing.get_type_hints(_generic(name), include_extras=True)
    signature = inspect.signature(own)
    added = inspect.signature(_generic(name)).parameters

    def validate(**kwargs: Any) -> Any:
        shortcuts, task_arg, log_dir, limit, prior = (kwargs.pop(key) for key in EXTRA)
        if shortcuts:
            return run(name, task_arg, log_dir, limit, prior)
        panel_only = (("-T", task_arg), ("--log-dir", log_dir), ("--limit", limit), ("--prior", prior))
        given = [flag for flag, value in panel_only if value is not None]
        if given:  # the panel's options, which the benchmark's own validation would silently ignore
            verb = "goes" if len(given) == 1 else "go"
            fail(
                f"{', '.join(given)} {verb} with --shortcuts (the shortcut panel); 'mechbench validate {name} --help' "
                "lists this validation's options"
            )
        return own(**kwargs)

    annotations = {**hints, **{k: v for k, v in extras.items() if k in EXTRA}}
    # Resolved annotations (typer reads the signature as given: strings from ``from __future__ import annotations``
    # would lose the options' names and help).
    parameters = [p.replace(annotation=annotations[p.name]) for p in [*signature.parameters.values(), *added.values()]]
    validate.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    validate.__annotations__ = annotations
    validate.__doc__ = (own.__doc__ or "").rstrip() + " With --shortcuts: the shortcut panel instead."
    return validate


def attach(group: typer.Typer, name: str) -> None:
    """Give benchmark ``name`` a ``validate`` command that runs its shortcut panel (wrapping its own, if any)."""
    for info in group.registered_commands:
        if info.name == name and info.callback is not None:
            info.callback = _wrapped(name, info.callback)
            return
    group.command(name)(_generic(name))
