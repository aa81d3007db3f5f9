"""HandCalc's command: ``mechbench generate hand_calc``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mechbench.harness.commands import CommandGroups, generation_target


def register(groups: CommandGroups) -> None:
    """Add the benchmark's commands to the command line."""
    groups.generate.command("hand_calc")(generate)


def generate(
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder to write items.jsonl and drawings/ into.")],
    n: Annotated[int, typer.Option("--n", help="Number of items.")] = 70,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same items.jsonl on any machine).")] = 1,
    workers: Annotated[int, typer.Option(help="Processes drawing the items.")] = 2,
    difficulty: Annotated[
        str, typer.Option(help="mix (the textbook levels 1-5, drawn per item) or a level 1-10 for every item.")
    ] = "mix",
) -> None:
    """Fresh hand-calculation items with truths from mechbench's physics, and their drawings (-T data=OUTPUT)."""
    from mechbench.harness.commands import difficulty_level

    from .generated_set import write_items
    from .protocol import LEVELS

    level = difficulty_level(difficulty, LEVELS)
    generation_target(output, n)
    typer.echo(f"wrote {write_items(output, n, seed, workers=max(1, workers), difficulty=level)}")
