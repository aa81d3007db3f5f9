"""SPhyR's commands: ``mechbench score sphyr``, ``validate sphyr``, ``generate sphyr`` and ``calibrate sphyr``."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated

import typer

from mechbench.benchmarks.sphyr.versions import DEFAULT_VERSION, GRID_SIZES, VERSIONS
from mechbench.core.errors import DataSourceError, MechbenchError, UsageError, reason_of, with_hint
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
)


def register(groups: CommandGroups) -> None:
    """Add SPhyR's commands to the command line."""
    groups.score.command("sphyr")(score_sphyr)
    groups.validate.command("sphyr")(validate_sphyr)
    groups.generate.command("sphyr")(generate_sphyr_command)
    groups.calibrate.command("sphyr")(calibrate_sphyr_command)


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
    output_file(output, "-o")
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
    output_file(output, "-o")
    from mechbench.benchmarks.sphyr import dataset as sphyr_data
    from mechbench.benchmarks.sphyr.prompts import is_hard
    from mechbench.benchmarks.sphyr.validate import VARIANTS, validate

    try:
        (name,) = sphyr_data.parse_subjects(subject)
        path = sphyr_data.subject_file(name, data, version=version)  # type: ignore[arg-type]
        records = sphyr_data.select(sphyr_data.read_records(path), samples)
        sphyr_data.check_size(records, version, str(path), flag="--version ")  # type: ignore[arg-type]
    except MechbenchError as error:  # before ValueError: a usage error (--samples 0) is one, and says what it is
        fail(with_hint(error, "offline, --data bundled validates on mechbench's own set (--data DIR: a local copy)"))
    except ValueError:
        fail("validate takes exactly one subject")
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
    n: Annotated[
        int | None, typer.Option("--n", help="Samples per subject (default 8; 100 with --like, as published).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Random seed (same seed, same bytes; default 1).")] = None,
    size: Annotated[
        str | None, typer.Option(help="Grid size ROWSxCOLS of a v1 set (v2 is 10x10, v2-20 is 20x20).")
    ] = None,
    subjects: Annotated[str, typer.Option(help="Comma list of subjects, or all.")] = "all",
    version: Annotated[
        str | None,
        typer.Option(
            help="v2 (10x10, the default) or v2-20 (20x20), drawn as upstream's v2 with each record's load_direction "
            "(what 'eval sphyr' reads by default); v1 for mechbench's v1-style set (pass -T version=v1 to eval it)."
        ),
    ] = None,
    like: Annotated[
        str | None,
        typer.Option(
            help="v2 or v2-20: a set drawn like the published one, all 16 subjects, written with release.json "
            "(digests) and an hf/ datasets folder; kept away from the published items when they are at hand."
        ),
    ] = None,
    release: Annotated[
        str | None,
        typer.Option(help="A monthly release YYYY-MM: its seed comes from the name (same bytes from the same stack)."),
    ] = None,
    against: Annotated[
        str | None,
        typer.Option(
            help="The published items a --like set must not come near: a folder of <subject>.jsonl files, "
            "'official' (fetched; the default with --like) or 'none'."
        ),
    ] = None,
    optima: Annotated[
        bool,
        typer.Option(
            "--optima",
            help="Also write optima.json: the physics judge's reference optimum of every record (how mechbench's "
            "bundled set spares a first run the optimiser).",
        ),
    ] = False,
    executor: ExecutorOption = "local",
    workers: WorkersOption = None,
    ray_address: RayAddressOption = None,
    overwrite: OverwriteOption = False,
) -> None:
    """SPhyR samples for every subject, drawn as the version 'eval sphyr' reads by default (v2) unless --version;
    with --like / --release, a set drawn like a published one, checked unseen and written as a release."""
    from mechbench.benchmarks.sphyr.dataset import parse_subjects
    from mechbench.benchmarks.sphyr.generated_set import write_optima, write_sphyr
    from mechbench.benchmarks.sphyr.release import LIKE, RELEASE_ITEMS, release_seed

    if version is not None:
        choice("--version", version, VERSIONS)
    if (release is not None or against is not None) and like is None:
        fail("--release and --against need --like v2 or --like v2-20 (they make a set drawn like a published one)")
    if like is not None:
        choice("--like", like, LIKE)
        if subjects != "all" or size is not None:
            fail("--like writes all 16 subjects at the published size: drop --subjects and --size")
        if version is not None and version != like:
            fail(f"--like {like} draws {like} grids: drop --version {version}")
        if release is not None and (seed is not None or n is not None):
            fail("a release is 100 items per subject from the seed its name gives: drop --seed and --n")
    version = like or version or DEFAULT_VERSION
    if size is not None and version != "v1":
        fail(f"--size applies to --version v1 only ({version} grids are {GRID_SIZES[version]}x{GRID_SIZES[version]})")
    try:
        rows, cols = (int(v) for v in (size or "10x10").lower().split("x"))
    except ValueError:
        fail(f"--size must look like 10x10, got {size!r}")
    from mechbench.benchmarks.sphyr.physics_scoring import MAX_JUDGED_SIDE

    if not (4 <= rows <= MAX_JUDGED_SIDE and 4 <= cols <= MAX_JUDGED_SIDE):
        fail(
            f"--size must be between 4x4 and {MAX_JUDGED_SIDE}x{MAX_JUDGED_SIDE} (the largest the physics judge takes)"
        )
    count = n if n is not None else (RELEASE_ITEMS if like else 8)
    settings = executor_args(executor, workers, ray_address)
    generation_target(output, count, overwrite)
    try:
        chosen = parse_subjects(subjects)
        drawn_seed = release_seed(like, release) if like and release else (1 if seed is None else seed)
        unseen, excluded = _published_for(like, against, release) if like else (None, None)
        written = write_sphyr(
            output,
            count,
            drawn_seed,
            rows,
            cols,
            chosen,
            None if version == "v1" else version,
            excluded,
            **settings,
        )
        if like:
            from mechbench.benchmarks.sphyr.release import write_hf_folder, write_manifest

            manifest = write_manifest(output, like, release, drawn_seed, count, unseen)
            write_hf_folder(output, manifest)
        shipped = write_optima(output, written) if optima else None
    except (MechbenchError, RuntimeError) as error:
        fail(str(error))
    typer.echo(f"wrote {len(written)} subjects × {count} samples to {output}")
    if shipped is not None:
        typer.echo(f"{shipped.name}: the reference optima of every record")
    if like:
        typer.echo(f"release.json: seed {drawn_seed}, sha256 {manifest['sha256']}; hf/ holds the datasets folder")


def _published_for(like: str, against: str | None, release: str | None) -> tuple[dict | None, list[dict] | None]:
    """(what the set was kept away from, its items) for --against. Without a release, official data that cannot be
    had is one warning line and the set is written unchecked (release.json says so); a release refuses."""
    from mechbench.benchmarks.sphyr.dataset import subject_file
    from mechbench.benchmarks.sphyr.generate import subject_kinds
    from mechbench.benchmarks.sphyr.release import published_items

    if against == "none":
        if release:
            raise UsageError("a release is drawn away from the published items: drop --against none (or use --seed)")
        return None, None
    easy = [subject for subject, _, level in subject_kinds() if level == "easy"]
    if against is None or against == "official":
        try:
            paths = [subject_file(subject, None, version=like) for subject in easy]  # type: ignore[arg-type]
        except MechbenchError as error:
            reason = reason_of(error)  # not the -T data hint
            if against == "official" or release:
                raise DataSourceError(
                    f"a release is drawn away from the official {like} items, which could not be had ({reason}); "
                    "pass --against DIR with a local copy of them, or --seed N for a set that is not a release"
                ) from None
            typer.echo(f"warning: not checked against the published {like} items ({reason})", err=True)
            return None, None
        source = f"the official {like} set"
    else:
        folder = Path(against)
        paths = [folder / f"{subject}.jsonl" for subject in easy if (folder / f"{subject}.jsonl").is_file()]
        if not paths:
            raise DataSourceError(f"--against {folder}: no easy-subject <subject>.jsonl files there")
        source = str(folder)
    items = published_items(paths)
    sizes = {len(item["layout"]) for item in items}
    if sizes != {GRID_SIZES[like]}:  # type: ignore[index]
        raise DataSourceError(
            f"--against {source}: grids of {sorted(sizes)} cells a side, but a {like} set is "
            f"{GRID_SIZES[like]}×{GRID_SIZES[like]}: nothing would be kept away"  # type: ignore[index]
        )
    digest = hashlib.sha256(json.dumps([item["easy"] for item in items]).encode()).hexdigest()
    return {"source": source, "items": len(items), "sha256": digest}, items


def calibrate_sphyr_command(
    fresh: Annotated[Path, typer.Option("--set", help="The fresh set: a folder of <subject>.jsonl files.")],
    like: Annotated[str, typer.Option(help="v2 or v2-20: the published set to compare with.")] = "v2",
    published: Annotated[
        str | None,
        typer.Option(help="The published set: a folder of its <subject>.jsonl files (default: the official one)."),
    ] = None,
    items: Annotated[
        int | None,
        typer.Option(
            help="Compare the first N items of each set (default: as many as the smaller set holds; positions "
            "matter, as both generators keep samples apart with a rule that binds harder as a set fills)."
        ),
    ] = None,
    replies: Annotated[
        list[Path] | None,
        typer.Option(
            "--replies",
            help="A results file of published replies (repeatable; the published JSON arrays, e.g. GPT-4.1's): what "
            "they say about item difficulty by feature, and the score they predict on each set.",
        ),
    ] = None,
    output: ReportOutputOption = None,
    json_output: JsonReportOption = None,
    update_card: Annotated[
        bool,
        typer.Option(
            "--update-card",
            help="Write the report into the release's dataset card (hf/README.md), after checking every file "
            "against release.json.",
        ),
    ] = False,
) -> None:
    """Feature-by-feature tests and a panel of solvers of graded skill on a fresh set and the published one.
    Exits 1 when a difference is detected."""
    from mechbench.benchmarks.sphyr.calibrate import calibrate, check_sizes, read_replies, read_set, subject_paths
    from mechbench.benchmarks.sphyr.dataset import subject_file
    from mechbench.benchmarks.sphyr.generate import subject_kinds
    from mechbench.benchmarks.sphyr.release import LIKE
    from mechbench.harness.calibration import MIN_ITEMS, markdown

    choice("--like", like, LIKE)
    output_file(output, "-o")
    output_file(json_output, "--json")
    if items is not None and items < MIN_ITEMS:
        fail(f"--items must be at least {MIN_ITEMS} (two halves for retrieval, and an interval)")
    try:
        fresh_set = read_set(subject_paths(fresh), f"fresh set {fresh}", items)
        if published is None:
            paths = {s: subject_file(s, None, version=like) for s, _, _ in subject_kinds()}  # type: ignore[arg-type]
            name = f"the official {like} set"
        else:
            paths, name = subject_paths(Path(published)), f"published {like} set {published}"
        published_set = read_set(paths, name, items)
        for one in (fresh_set, published_set):
            check_sizes(one, GRID_SIZES[like])  # type: ignore[index]
        recorded = read_replies(replies, GRID_SIZES[like]) if replies else None  # type: ignore[index]
        report = calibrate(fresh_set, published_set, replies=recorded)
        if update_card:
            from mechbench.benchmarks.sphyr.release import update_card as write_card

            write_card(fresh, markdown(report))
    except MechbenchError as error:
        fail(with_hint(error, "--published DIR compares with a local copy of the published set"))
    emit_calibration(report, output, json_output)
