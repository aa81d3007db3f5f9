"""``mechbench list``: the benchmarks this installation registers, their tasks and the built-in models."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add ``list`` to the command line."""
    app.command("list")(list_command)


def list_command() -> None:
    """The registered benchmarks (Inspect task, title, aliases), and the built-in models each can run."""
    from mechbench import registry
    from mechbench.providers.model import REPLAY, TOOL_DEMO

    known = registry.baselines()
    for entry in registry.specs():
        models = sorted(name for name, found in known.items() if any(b.benchmark == entry.name for b in found))
        if entry.tool_script is not None:
            models.append(TOOL_DEMO)
        aliases = f" (also: {', '.join(entry.aliases)})" if entry.aliases else ""
        typer.echo(f"mechbench/{entry.name}{aliases}: {entry.title}")
        typer.echo(f"  built-in models: {', '.join(f'mechbench/{m}' for m in [*models, REPLAY])}")
