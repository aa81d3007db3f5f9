"""SPhyR's commands: ``mechbench score sphyr``, ``mechbench validate sphyr`` and ``mechbench generate sphyr``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from mechbench.benchmarks.sphyr.versions import DEFAULT_VERSION, GRID_SIZES, VERSIONS
from mechbench.core.errors import MechbenchError
from mechbench.harness.commands import (
    CommandGroups,
    ExecutorOption,
    RayAddressOption,
    WorkersOption,
    choice,
    executor_args,
    fail,
    generation_target,
)


def register(groups: CommandGroups) -> None:
    """Add SPhyR's commands to the command line."""
    groups.score.command("sphyr")(score_sphyr)
    groups.validate.command("sphyr")(validate_sphyr)
    groups.generate.command("sphyr")(generate_sphyr_command)


def score_sphyr(
    results: Annotated[Path, typer.Argument(help="Published results JSON array, or JSONL of completions.")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the JSON here, not stdout.")] = None,
    parser: Annotated[str, typer.Option(help="current (last grid block) or legacy (paper-era).")] = "current",
    physics: Annotated[bool, typer.Option("--physics", help="Add the finite-element metrics (re-optimises).")] = False,
    reference: Annotated[
        str, typer.Option(help="published (the paper's reference optimum) or best (mechbench's, fields *_best).")
    ] = "published",
    gravity: Annotated[
        str, typer.Option(help="auto (from a k_rotations folder name, else down), down, up, left or right.")
    ] = "auto",
    load_direction: Annotated[
        str,
        typer.Option(
            help="published (--gravity for every record, as upstream scores) or recovered (each record's truth "
            "re-optimised under each load axis; the one that reproduces it; ~0.2 s per 10x10 truth, once)."
        ),
    ] = "published",
    executor: ExecutorOption = "local",
    workers: WorkersOption = None,
    ray_address: RayAddressOption = None,
) -> None:
    """Rescore SPhyR completions: every record's metrics plus the published totals."""
    from mechbench.benchmarks.sphyr.grid import gravity_vector
    from mechbench.benchmarks.sphyr.load_direction import LOAD_DIRECTIONS
    from mechbench.benchmarks.sphyr.parse import PARSERS
    from mechbench.benchmarks.sphyr.physics_scoring import REFERENCES
    from mechbench.benchmarks.sphyr.rescore import gravity_for_results, read_results_file, rescore

    choice("--parser", parser, PARSERS)
    choice("--reference", reference, REFERENCES)
    choice("--load-direction", load_direction, LOAD_DIRECTIONS)
    try:
        direction = gravity_for_results(results) if gravity == "auto" else gravity_vector(gravity)
    except ValueError as error:
        fail(f"--gravity: {error}")
    try:
        settings = executor_args(executor, workers, ray_address)
        records = read_results_file(results)
        report = rescore(records, parser, physics, direction, reference, load_direction, **settings)  # type: ignore[arg-type]
    except MechbenchError as error:
        fail(str(error))
    text = json.dumps(report, indent=1)
    if output is None:
        typer.echo(text)
        return
    try:
        output.write_text(text)
    except OSError as error:
        fail(f"cannot write {output}: {error.strerror or error}")
    totals = report["totals"]
    typer.echo(
        f"{int(totals['evaluated_samples'])} records: exact match {int(totals['total_exact_match'])}, "
        f"valid grids {int(totals['total_valid_output_grid'])}; wrote {output}"
    )


def validate_sphyr(
    subject: Annotated[str, typer.Option(help="SPhyR subject.")] = "full_easy",
    data: Annotated[str | None, typer.Option(help="Folder, archive URL or hub id (default: official).")] = None,
    samples: Annotated[str, typer.Option(help="all, a number, or paper.")] = "20",
    seed: Annotated[int, typer.Option(help="Seed of the random flips.")] = 0,
    reference: Annotated[str, typer.Option(help="published (the paper's reference optimum) or best.")] = "published",
    version: Annotated[str, typer.Option(help="v1, v2 (10x10) or v2-20 (20x20): the official files' version.")] = "v1",
    load_direction: Annotated[
        str,
        typer.Option(help="published (upstream's convention: down) or recovered (the load each truth was drawn with)."),
    ] = "published",
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the JSON report here.")] = None,
) -> None:
    """The published validation of the physics scoring: answer > 2 flipped > 10 flipped > empty."""
    from mechbench.benchmarks.sphyr.load_direction import LOAD_DIRECTIONS
    from mechbench.benchmarks.sphyr.physics_scoring import REFERENCES

    choice("--reference", reference, REFERENCES)
    choice("--load-direction", load_direction, LOAD_DIRECTIONS)
    choice("--version", version, VERSIONS)
    from mechbench.benchmarks.sphyr import dataset as sphyr_data
    from mechbench.benchmarks.sphyr.prompts import is_hard
    from mechbench.benchmarks.sphyr.validate import VARIANTS, validate

    try:
        (name,) = sphyr_data.parse_subjects(subject)
        path = sphyr_data.subject_file(name, data, version=version)  # type: ignore[arg-type]
        records = sphyr_data.select(sphyr_data.read_records(path), samples)
    except ValueError:
        fail("validate takes exactly one subject")
    except MechbenchError as error:
        fail(str(error))
    if not records:
        fail(f"no samples selected from {subject}")
    report = validate(records, is_hard(name), seed, reference, load_direction)  # type: ignore[arg-type]
    found = ", ".join(f"{count} {status}" for status, count in sorted(report["directions"].items()))
    typer.echo(f"{name}: {report['samples']} samples, load {load_direction} ({found}), mean topology score")
    for variant in VARIANTS:
        typer.echo(f"  {variant:<11} {report['means'][variant]:.3f}")
    typer.echo(f"strictly ordered answer > 2 flipped > 10 flipped > empty: {report['strictly_ordered']}")
    if output is not None:
        output.write_text(json.dumps(report, indent=1))


def generate_sphyr_command(
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder for <subject>.jsonl files.")],
    n: Annotated[int, typer.Option("--n", help="Samples per subject.")] = 8,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same bytes).")] = 1,
    size: Annotated[
        str | None, typer.Option(help="Grid size ROWSxCOLS of a v1 set (v2 is 10x10, v2-20 is 20x20).")
    ] = None,
    subjects: Annotated[str, typer.Option(help="Comma list of subjects, or all.")] = "all",
    version: Annotated[
        str,
        typer.Option(
            help="v2 (10x10) or v2-20 (20x20), drawn as upstream's v2 with each record's load_direction (what "
            "'eval sphyr' reads by default); v1 for mechbench's v1-style set (pass -T version=v1 to eval it)."
        ),
    ] = DEFAULT_VERSION,
    executor: ExecutorOption = "local",
    workers: WorkersOption = None,
    ray_address: RayAddressOption = None,
) -> None:
    """SPhyR samples for every subject, drawn as the version 'eval sphyr' reads by default (v2) unless --version."""
    from mechbench.benchmarks.sphyr.dataset import parse_subjects
    from mechbench.benchmarks.sphyr.generated_set import write_sphyr

    choice("--version", version, VERSIONS)
    if size is not None and version != "v1":
        fail(f"--size applies to --version v1 only ({version} grids are {GRID_SIZES[version]}x{GRID_SIZES[version]})")
    try:
        rows, cols = (int(v) for v in (size or "10x10").lower().split("x"))
    except ValueError:
        fail(f"--size must look like 10x10, got {size!r}")
    if not (4 <= rows <= 60 and 4 <= cols <= 60):
        fail("--size must be between 4x4 and 60x60")
    generation_target(output, n)
    try:
        chosen = parse_subjects(subjects)
        written = write_sphyr(
            output,
            n,
            seed,
            rows,
            cols,
            chosen,
            None if version == "v1" else version,
            **executor_args(executor, workers, ray_address),
        )
    except (MechbenchError, RuntimeError) as error:
        fail(str(error))
    typer.echo(f"wrote {len(written)} subjects × {n} samples to {output}")
