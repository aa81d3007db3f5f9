"""BeamDeflection's command: ``mechbench generate beam_deflection``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mechbench.harness.commands import CommandGroups, OverwriteOption, generation_target

from .items import BENCHMARK


def register(groups: CommandGroups) -> None:
    """Add the benchmark's commands to the command line."""
    groups.generate.command(BENCHMARK)(generate)


def generate(
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder to write items.jsonl into.")],
    n: Annotated[int, typer.Option("--n", help="Number of beams.")] = 20,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same bytes).")] = 1,
    overwrite: OverwriteOption = False,
) -> None:
    """Fresh beams with their truth from mechbench's frame solver (-T data=OUTPUT)."""
    from .items import write_items

    generation_target(output, n, overwrite)
    typer.echo(f"wrote {write_items(output, n, seed)}")
