"""StructuralEval's commands: ``mechbench score structural``, ``generate structural`` and ``calibrate structural``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from mechbench.core.errors import MechbenchError, with_hint
from mechbench.harness.commands import (
    CommandGroups,
    ExecutorOption,
    JsonReportOption,
    OverwriteOption,
    RayAddressOption,
    ReportOutputOption,
    WorkersOption,
    choice,
    emit_calibration,
    executor_args,
    fail,
    generation_target,
    output_file,
    read_json,
)


def register(groups: CommandGroups) -> None:
    """Add StructuralEval's commands to the command line."""
    groups.score.command("structural")(score_structural)
    groups.generate.command("structural")(generate_structural)
    groups.calibrate.command("structural")(calibrate_structural)


def score_structural(
    truth: Annotated[Path, typer.Option("--truth", help="The ground-truth FrameCalc model (JSON).")],
    answer: Annotated[Path, typer.Option("--answer", help="The answer: a JSON model or a model's raw reply.")],
    tolerance: Annotated[float, typer.Option(help="Relative tolerance (absolute floor 1e-3).")] = 0.05,
    scoring: Annotated[str, typer.Option(help="strict or legacy.")] = "strict",
) -> None:
    """Score a structural model written elsewhere: ratio, ladder step and explanation as JSON."""
    from mechbench.benchmarks.structural_eval.check import check_reply
    from mechbench.benchmarks.structural_eval.scoring import SCORINGS, solve_response
    from mechbench.frame import FrameModel

    choice("--scoring", scoring, SCORINGS)
    if not 0 < tolerance < 1:
        fail(f"--tolerance must be between 0 and 1, got {tolerance}")
    try:
        truth_model = FrameModel.parse(read_json(truth, "truth model"))
        truth_response = solve_response(truth_model)
    except MechbenchError as error:
        fail(f"truth model {truth}: {error}")
    try:
        # An answer is whatever the model wrote: undecodable bytes are part of it, and score like any junk.
        reply = answer.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        fail(f"answer {answer} does not exist")
    except OSError as error:
        fail(f"cannot read answer {answer}: {error.strerror or error}")
    verdict = check_reply(reply, truth_model, truth_response, tolerance=tolerance, scoring=scoring)  # type: ignore[arg-type]
    typer.echo(json.dumps(verdict.model_dump(exclude={"answer_model"}), indent=1))


def generate_structural(
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder to write (official layout under data/).")],
    n: Annotated[int | None, typer.Option("--n", help="Number of tasks (default 30; 100 for a release).")] = None,
    seed: Annotated[int | None, typer.Option(help="Random seed (default 1; same seed, same bytes).")] = None,
    difficulty: Annotated[
        str, typer.Option(help="mix (levels 1-5 in turn) or a level 1-10 for every task (docs/headroom.md).")
    ] = "mix",
    kinds: Annotated[str, typer.Option(help="Comma list of beam, frame, truss.")] = "beam,frame,truss",
    diagrams: Annotated[bool, typer.Option("--diagrams/--no-diagrams", help="Store N/V/M diagrams.")] = True,
    like: Annotated[
        str | None,
        typer.Option(
            "--like",
            help="official (the pinned published set, fetched) or a folder in its layout: every task drawn to a "
            "published task's composition (kind, level, members, supports, hinges, loads), written with like.json.",
        ),
    ] = None,
    release: Annotated[
        str | None,
        typer.Option(
            "--release",
            help="YYYY-MM: the month's release of --like official (100 tasks, the seed taken from the month, so "
            "every user draws the same bytes).",
        ),
    ] = None,
    executor: ExecutorOption = "local",
    workers: WorkersOption = None,
    ray_address: RayAddressOption = None,
    overwrite: OverwriteOption = False,
) -> None:
    """StructuralEval tasks with drawings and solver ground truth; with --like, composed like the published set."""
    from mechbench.benchmarks.structural_eval.generated_set import write_structural
    from mechbench.benchmarks.structural_eval.like_official import RELEASE_TASKS
    from mechbench.frame.generate import KINDS
    from mechbench.frame.generate_deep import ALL_LEVELS as GENERATED_LEVELS
    from mechbench.harness.commands import difficulty_level
    from mechbench.harness.releases import month_seed

    chosen = tuple(k.strip() for k in kinds.split(",") if k.strip())
    if not chosen or any(k not in KINDS for k in chosen):
        fail(f"--kinds must be a comma list of {', '.join(KINDS)}, got {kinds!r}")
    level = difficulty_level(difficulty, GENERATED_LEVELS)
    if like is not None and (difficulty != "mix" or chosen != KINDS):
        fail("--like takes kinds and levels from the published set: drop --difficulty and --kinds")
    if release is not None:
        if like != "official":
            fail("--release cuts a set drawn like the official set: add --like official")
        if n is not None or seed is not None:
            fail("a release has 100 tasks and takes its seed from the month: drop --n and --seed")
    try:
        seed = month_seed("structural_eval", "official", release) if release else (1 if seed is None else seed)
    except MechbenchError as error:
        fail(str(error))
    n = RELEASE_TASKS if release else (30 if n is None else n)
    settings = executor_args(executor, workers, ray_address)
    generation_target(output, n, overwrite)
    try:
        recipes, source = _recipes(like) if like is not None else (None, "")
        ids = write_structural(output, n, seed, level, chosen, diagrams, like=recipes, **settings)
        if recipes is not None:
            from mechbench.benchmarks.structural_eval.like_official import write_manifest

            write_manifest(output, source, recipes, seed, n, release)
    except MechbenchError as error:
        fail(str(error))
    typer.echo(f"wrote {len(ids)} tasks to {output / 'data'}" + (f", drawn like {source}" if like else ""))


def _recipes(like: str) -> tuple[list, str]:
    """The published tasks' recipes for --like, and a description of the set they came from."""
    from mechbench.benchmarks.structural_eval.dataset import load_tasks, open_structural
    from mechbench.benchmarks.structural_eval.like_official import check_recipes, recipe_of
    from mechbench.core.errors import OfficialDataUnavailable

    try:
        source = open_structural(None if like == "official" else like)
        tasks = load_tasks(source)
        check_recipes(tasks)
        return [recipe_of(task) for task in tasks], source.description
    except OfficialDataUnavailable as error:
        raise MechbenchError(
            f"--like official: {error.reason}; --like DIR takes a local copy of the published set in its layout"
        ) from None
    except MechbenchError as error:
        raise MechbenchError(f"--like {like}: the published set could not be had ({error})") from None


def calibrate_structural(
    fresh: Annotated[Path, typer.Option("--set", help="The fresh set: a folder in the StructuralEval layout.")],
    published: Annotated[
        str | None, typer.Option(help="The published set: a folder in its layout (default: the official one).")
    ] = None,
    output: ReportOutputOption = None,
    json_output: JsonReportOption = None,
) -> None:
    """Feature-by-feature tests and planted-mistake models on a fresh set and the published one. Exits 1 when a
    difference is detected."""
    from mechbench.benchmarks.structural_eval.calibrate import calibrate
    from mechbench.benchmarks.structural_eval.dataset import load_tasks

    output_file(output, "-o")
    output_file(json_output, "--json")
    try:
        fresh_tasks = load_tasks(fresh)
        published_tasks = load_tasks(published)
        name = f"published set {published}" if published else "the official set"
        report = calibrate(fresh_tasks, published_tasks, (f"fresh set {fresh}", name))
    except MechbenchError as error:
        fail(with_hint(error, "--published DIR compares with a local copy of the published set"))
    emit_calibration(report, output, json_output)
