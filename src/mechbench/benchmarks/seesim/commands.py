"""SeeSim's command: ``mechbench generate seesim`` (and the sets other benchmarks derive from it)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mechbench.core.errors import MechbenchError
from mechbench.harness.commands import (
    CommandGroups,
    ExecutorOption,
    OverwriteOption,
    RayAddressOption,
    WorkersOption,
    executor_args,
    fail,
    generation_target,
)

MIN_SIMULATIONS = 2
"""The fewest simulations per domain a set can ask anything with: a question is asked only as often True as False."""
BALANCED = "a question is kept only where the set answers it True as often as False"


def register(groups: CommandGroups) -> None:
    """Add SeeSim's command to the command line."""
    groups.generate.command("seesim")(generate_seesim_command)


def generate_seesim_command(
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder to write (SeeSim layout).")],
    n: Annotated[int, typer.Option("--n", help="Simulations per domain (structural and fluid).")] = 20,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same bytes).")] = 1,
    questions: Annotated[
        str | None,
        typer.Option(
            help="Question wording: a SeeSim copy (folder or archive URL), 'mechbench' for mechbench's own wording; "
            "default: the publisher's copy, or mechbench's wording (said on the console) when it cannot be read."
        ),
    ] = None,
    derived: Annotated[
        bool,
        typer.Option(
            help="Also write the sets other benchmarks derive from these simulations (OpenSeeSimE's multiple-choice "
            "questions), each in OUTPUT/<benchmark>."
        ),
    ] = True,
    difficulty: Annotated[
        str,
        typer.Option(
            help="Level 1 (the details box states every figure the answers are decided on), 2 (the inputs and the "
            "raw results: the derived figures are the model's to form), 3 (the set-up and the fields with their "
            "colour bars), or mix (the levels in turn); docs/headroom.md."
        ),
    ] = "1",
    executor: ExecutorOption = "local",
    workers: WorkersOption = None,
    ray_address: RayAddressOption = None,
    overwrite: OverwriteOption = False,
) -> None:
    """SeeSim simulations (plane-stress FE and lattice-Boltzmann flow) with image, video and report, answered from
    the physics; with --derived, the sets other benchmarks write from them (OpenSeeSimE's questions in
    OUTPUT/openseesime/{structural,fluid})."""
    from mechbench import registry
    from mechbench.benchmarks.seesim.generated_set import write_seesim
    from mechbench.benchmarks.seesim.levels import NUMBERS
    from mechbench.benchmarks.seesim.protocol import DOMAINS
    from mechbench.harness.commands import difficulty_level

    level = difficulty_level(difficulty, NUMBERS)
    settings = executor_args(executor, workers, ray_address)
    generation_target(output, n, overwrite, least=MIN_SIMULATIONS, why=BALANCED)
    try:
        table = write_seesim(
            output,
            n,
            seed,
            questions,
            warn=lambda m: typer.echo(f"warning: {m}", err=True),
            difficulty=level,
            **settings,
        )
        unasked = [domain for domain in DOMAINS if not any(r["domain"] == domain for r in table["questions"].values())]
        if len(unasked) == len(DOMAINS):  # never a set that asks nothing, nor a share of no answers printed
            fail(
                f"the set asks no question: {BALANCED}, and none has both answers among these {n} simulations per "
                "domain; draw more with --n"
            )
        for domain in unasked:
            typer.echo(f"warning: the set asks no {domain} question ({BALANCED}); more --n asks some", err=True)
        derivers = [e for e in registry.specs() if derived and e.derives_from == "seesim" and e.derive is not None]
        lines = [f"{e.title}: {e.derive(output, output / e.name)}" for e in derivers]  # type: ignore[misc]
    except MechbenchError as error:
        fail(str(error))
    at = "levels 1-3 in turn" if level is None else f"level {level}"
    typer.echo(f"wrote {n} structural and {n} fluid simulations ({at}) to {output}")
    for line in lines:
        typer.echo(line)
    typer.echo(
        f"answers: {table['answers']}, always-True {table['always_true']:.1%}, always-False {table['always_false']:.1%}"
    )
    for row in table["questions"].values():
        typer.echo(f"  {row['domain']:<10} {row['true']:>3}/{row['files']:<3} True  {row['question']}")
