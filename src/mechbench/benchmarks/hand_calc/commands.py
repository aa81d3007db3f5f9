"""HandCalc's command: ``mechbench generate hand_calc``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mechbench.harness.commands import (
    CommandGroups,
    OverwriteOption,
    WorkersOption,
    bounded_workers,
    generation_target,
)


def register(groups: CommandGroups) -> None:
    """Add the benchmark's commands to the command line."""
    groups.generate.command("hand_calc")(generate)


def generate(
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder to write items.jsonl and drawings/ into.")],
    n: Annotated[int, typer.Option("--n", help="Number of items.")] = 70,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same items.jsonl on any machine).")] = 1,
    workers: WorkersOption = None,
    overwrite: OverwriteOption = False,
    difficulty: Annotated[
        str, typer.Option(help="mix (the textbook levels 1-5, drawn per item) or a level 1-10 for every item.")
    ] = "mix",
) -> None:
    """Fresh hand-calculation items with truths from mechbench's physics, and their drawings (-T data=OUTPUT)."""
    from mechbench.core.executor import usable_cores
    from mechbench.harness.commands import difficulty_level

    from .generated_set import write_items
    from .protocol import LEVELS

    level = difficulty_level(difficulty, LEVELS)
    processes = bounded_workers(workers) or usable_cores()
    generation_target(output, n, overwrite)
    typer.echo(f"wrote {write_items(output, n, seed, workers=processes, difficulty=level)}")
