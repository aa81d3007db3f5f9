"""The ``mechbench`` command line.

Usage errors (a missing or unreadable file, an invalid model, an unstable structure) print one line
on stderr and exit with code 2; no command prints a traceback for anything a user can feed it.

Kept as one module (~490 lines): typer's app, each command a thin wrapper over a library function, so the
whole command-line surface (options, help, exit codes) reads in one place.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from mechbench import safejson
from mechbench.arguments import one_of
from mechbench.errors import MechbenchError, UsageError

app = typer.Typer(
    name="mechbench",
    help="Evaluate language models on engineering mechanics, with physics deciding what is right.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

USAGE_ERROR = 2


def _version(value: bool) -> None:
    if value:
        from mechbench import __version__

        typer.echo(f"mechbench {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Evaluate language models on engineering mechanics, with physics deciding what is right."""


ExecutorOption = Annotated[str, typer.Option(help="local (process pool) or ray.")]
WorkersOption = Annotated[int | None, typer.Option(help="Parallel workers (default: all cores).")]
RayAddressOption = Annotated[str | None, typer.Option(help="Join this Ray cluster instead of a local instance.")]


def executor_args(executor: str, workers: int | None, ray_address: str | None) -> dict[str, object]:
    """Validated executor settings for :func:`mechbench.executor.run_batch`."""
    from mechbench.executor import EXECUTORS

    if executor not in EXECUTORS:
        fail(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    if workers is not None and workers < 1:
        fail("--workers must be at least 1")

    def progress(done: int, total: int) -> None:
        typer.echo(f"  {done}/{total} chunks", err=True)

    return {"executor": executor, "workers": workers, "ray_address": ray_address, "progress": progress}


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with the usage-error code."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(USAGE_ERROR)


def choice(flag: str, value: str, allowed: tuple[str, ...]) -> str:
    """``value`` if ``allowed`` holds it (the tasks' own ``Literal`` choices), else one usage-error line."""
    try:
        return one_of(flag, value, allowed)
    except UsageError as error:
        fail(str(error))


def generation_target(output: Path, n: int) -> None:
    """Refuse a count past :data:`mechbench.limits.MAX_GENERATED_ITEMS` or an output that cannot be a folder,
    before any item is generated."""
    from mechbench.limits import MAX_GENERATED_ITEMS

    if not 1 <= n <= MAX_GENERATED_ITEMS:
        fail(f"--n must be between 1 and {MAX_GENERATED_ITEMS}, got {n}")
    blocked = next((p for p in (output, *output.parents) if p.exists() and not p.is_dir()), None)
    if blocked is not None:
        fail(f"-o {output}: {blocked} is a file, not a folder")
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"-o {output}: cannot create the folder: {error.strerror or error}")
    if not os.access(output, os.W_OK | os.X_OK):
        fail(f"-o {output}: the folder is not writable")


def read_json(path: Path, what: str) -> Any:
    """Read a JSON file or fail with one clear line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"{what} {path} does not exist")
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as error:
        fail(f"cannot read {what} {path}: {error.__class__.__name__}")
    try:
        return safejson.loads(text)
    except json.JSONDecodeError as error:
        fail(f"{what} {path} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}")
    except safejson.JSONNestingError:
        fail(f"{what} {path} nests too deeply to be read")


@app.command()
def solve(
    model: Annotated[Path, typer.Argument(help="FrameCalc model (JSON).")],
    diagrams: Annotated[bool, typer.Option("--diagrams/--no-diagrams", help="Include N/V/M diagrams.")] = True,
    exact_supports: Annotated[
        bool, typer.Option("--exact-supports", help="Exact restraints instead of FrameCalc's 1e12 springs.")
    ] = False,
) -> None:
    """Solve a FrameCalc model: print reactions and N/V/M diagrams as JSON on stdout."""
    from mechbench.frame import solve as solve_model

    data = read_json(model, "model")
    try:
        result = solve_model(data, diagrams=diagrams, exact_supports=exact_supports)
    except MechbenchError as error:
        fail(f"{model}: {error}")
    sys.stdout.write(result_json(result))
    sys.stdout.write("\n")


def result_json(result: dict) -> str:
    """A solve result as JSON; the diagram list FrameCalc repeats under three keys is encoded once.

    ``json.dump`` to a stream runs the pure-Python encoder (minutes for a model at the size limits); one
    ``json.dumps`` call runs the C encoder.
    """
    shared = result.get("moment")
    if shared is None:
        return json.dumps(result)
    rest = {k: v for k, v in result.items() if k not in ("axial", "shear", "moment")}
    samples = json.dumps(shared)
    return json.dumps(rest)[:-1] + f', "axial": {samples}, "shear": {samples}, "moment": {samples}' + "}"


@app.command()
def render(
    model: Annotated[Path, typer.Argument(help="FrameCalc model (JSON).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="PNG file to write.")],
    title: Annotated[str | None, typer.Option(help="Title above the drawing.")] = None,
    dimensions: Annotated[bool, typer.Option("--dimensions/--no-dimensions", help="Dimension chains.")] = True,
) -> None:
    """Draw a FrameCalc model as a textbook-style PNG."""
    from mechbench.frame.render import render as render_model

    data = read_json(model, "model")
    try:
        render_model(data, output, title=title, dimensions=dimensions)
    except MechbenchError as error:
        fail(f"{model}: {error}")
    except OSError as error:
        fail(f"cannot write {output}: {error.strerror or error}")
    typer.echo(f"wrote {output}")


score_app = typer.Typer(help="Score answers produced elsewhere.", no_args_is_help=True)
app.add_typer(score_app, name="score")


@score_app.command("sphyr")
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


@score_app.command("structural")
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


validate_app = typer.Typer(help="Check that a scorer ranks known answers as it must.", no_args_is_help=True)
app.add_typer(validate_app, name="validate")


@validate_app.command("sphyr")
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
    from mechbench.benchmarks.sphyr.versions import VERSIONS

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


generate_app = typer.Typer(help="Generate fresh, contamination-free benchmark tasks.", no_args_is_help=True)
app.add_typer(generate_app, name="generate")


@generate_app.command("structural")
def generate_structural(
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder to write (official layout under data/).")],
    n: Annotated[int, typer.Option("--n", help="Number of tasks.")] = 30,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same bytes).")] = 1,
    difficulty: Annotated[str, typer.Option(help="1-5 or mix.")] = "mix",
    kinds: Annotated[str, typer.Option(help="Comma list of beam, frame, truss.")] = "beam,frame,truss",
    diagrams: Annotated[bool, typer.Option("--diagrams/--no-diagrams", help="Store N/V/M diagrams.")] = True,
    executor: ExecutorOption = "local",
    workers: WorkersOption = None,
    ray_address: RayAddressOption = None,
) -> None:
    """StructuralEval tasks with drawings and solver ground truth."""
    from mechbench.frame.generate import KINDS
    from mechbench.generate import write_structural

    chosen = tuple(k.strip() for k in kinds.split(",") if k.strip())
    if not chosen or any(k not in KINDS for k in chosen):
        fail(f"--kinds must be a comma list of {', '.join(KINDS)}, got {kinds!r}")
    if difficulty != "mix" and difficulty not in {"1", "2", "3", "4", "5"}:
        fail(f"--difficulty must be 1-5 or mix, got {difficulty!r}")
    generation_target(output, n)
    try:
        level = None if difficulty == "mix" else int(difficulty)
        ids = write_structural(
            output, n, seed, level, chosen, diagrams, **executor_args(executor, workers, ray_address)
        )
    except MechbenchError as error:
        fail(str(error))
    typer.echo(f"wrote {len(ids)} tasks to {output / 'data'}")


@generate_app.command("sphyr")
def generate_sphyr_command(
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder for <subject>.jsonl files.")],
    n: Annotated[int, typer.Option("--n", help="Samples per subject.")] = 8,
    seed: Annotated[int, typer.Option(help="Random seed (same seed, same bytes).")] = 1,
    size: Annotated[str, typer.Option(help="Grid size ROWSxCOLS.")] = "10x10",
    subjects: Annotated[str, typer.Option(help="Comma list of subjects, or all.")] = "all",
    version: Annotated[
        str | None,
        typer.Option(help="v2 or v2-20: drawn as upstream's v2 (10x10 / 20x20), with each record's load_direction."),
    ] = None,
    executor: ExecutorOption = "local",
    workers: WorkersOption = None,
    ray_address: RayAddressOption = None,
) -> None:
    """SPhyR samples for every subject (v1-style by mechbench's SIMP, or v2-style with --version)."""
    from mechbench.benchmarks.sphyr.dataset import parse_subjects
    from mechbench.generate import write_sphyr

    try:
        rows, cols = (int(v) for v in size.lower().split("x"))
    except ValueError:
        fail(f"--size must look like 10x10, got {size!r}")
    if not (4 <= rows <= 60 and 4 <= cols <= 60):
        fail("--size must be between 4x4 and 60x60")
    if version not in (None, "v2", "v2-20"):
        fail(f"--version must be v2 or v2-20 (or left out for mechbench's v1-style set), got {version!r}")
    generation_target(output, n)
    try:
        chosen = parse_subjects(subjects)
        written = write_sphyr(
            output, n, seed, rows, cols, chosen, version, **executor_args(executor, workers, ray_address)
        )
    except (MechbenchError, RuntimeError) as error:
        fail(str(error))
    typer.echo(f"wrote {len(written)} subjects × {n} samples to {output}")


@generate_app.command("seesim")
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
    openseesime: Annotated[
        bool, typer.Option(help="Also write the facts as OpenSeeSimE questions in OUTPUT/openseesime.")
    ] = True,
    executor: ExecutorOption = "local",
    workers: WorkersOption = None,
    ray_address: RayAddressOption = None,
) -> None:
    """SeeSim simulations (plane-stress FE and lattice-Boltzmann flow) with image, video and report, answered from
    the physics; the same facts as OpenSeeSimE multiple-choice questions in OUTPUT/openseesime/{structural,fluid}."""
    from mechbench.benchmarks.openseesime.generated_set import write_openseesime
    from mechbench.benchmarks.seesim.generated_set import write_seesim

    generation_target(output, n)
    try:
        table = write_seesim(
            output,
            n,
            seed,
            questions,
            warn=lambda m: typer.echo(f"warning: {m}", err=True),
            **executor_args(executor, workers, ray_address),
        )
        asked = write_openseesime(output, output / "openseesime") if openseesime else None
    except MechbenchError as error:
        fail(str(error))
    typer.echo(f"wrote {n} structural and {n} fluid simulations to {output}")
    if asked is not None:
        typer.echo(
            f"OpenSeeSimE: {asked['structural']} structural and {asked['fluid']} fluid questions "
            f"(-T data={output / 'openseesime'}/structural or .../fluid)"
        )
    typer.echo(
        f"answers: {table['answers']}, always-True {table['always_true']:.1%}, always-False {table['always_false']:.1%}"
    )
    for row in table["questions"].values():
        typer.echo(f"  {row['domain']:<10} {row['true']:>3}/{row['files']:<3} True  {row['question']}")


@app.command()
def demo(
    out: Annotated[Path, typer.Option("-o", "--out", help="Folder for results and drawings.")] = Path("mechbench-out"),
) -> None:
    """Run every benchmark offline (no network, no API key) on mechbench's own data; logs and report in OUT."""
    from mechbench.demo import run_demo

    report = run_demo(out, echo=typer.echo)
    typer.echo(f"report: {report}")
    typer.echo(f"logs:   {out / 'logs'} (inspect view --log-dir {out / 'logs'})")


@app.command()
def report(
    log_dir: Annotated[Path, typer.Argument(help="Folder of Inspect eval logs.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Folder for the report.")] = Path("mechbench-report"),
    format: Annotated[str, typer.Option(help="all (md, html, json, png) or json (on stdout).")] = "all",
) -> None:
    """Leaderboards and figures from Inspect logs: report.md, a self-contained report.html, report.json."""
    from mechbench.report import build_report, write_report

    if not log_dir.is_dir():
        fail(f"log folder {log_dir} does not exist")
    if format not in ("all", "json"):
        fail(f"--format must be all or json, got {format!r}")
    built = build_report(log_dir)
    if not built.runs:
        fail(f"no successful Inspect logs under {log_dir}")
    if format == "json":
        typer.echo(built.model_dump_json(indent=1))
        return
    paths = write_report(built, output)
    typer.echo(f"wrote {paths['md']}, {paths['html']}, {paths['json']}")


PASS_THROUGH = {"allow_extra_args": True, "ignore_unknown_options": True}


FORWARDED_SIGNALS = ("SIGTERM", "SIGINT", "SIGHUP")
"""Signals ``mechbench eval`` passes on to its Inspect child, so stopping it never leaves an orphan running."""


def _run_inspect(argv: list[str]) -> None:
    import os
    import signal
    import subprocess
    import time

    from mechbench.data import SECRET_URLS_VARIABLE
    from mechbench.eval_command import failed_runs, log_dir, mask_task_urls, shown_command

    argv, secret_urls = mask_task_urls(argv)
    env = {**os.environ, SECRET_URLS_VARIABLE: json.dumps(secret_urls)} if secret_urls else None
    # -P: the current folder is not put on the child's sys.path, so a module lying there (a dataset copy run
    # with -T data=.) is never imported in place of one Inspect needs.
    command = [sys.executable, "-P", "-m", "inspect_ai", *argv]
    typer.echo("+ inspect " + shown_command(argv), err=True)
    started = time.time() - 1  # file times are coarse on some file systems
    child = subprocess.Popen(command, env=env)

    def forward(signum: int, frame: object) -> None:
        if child.poll() is None:
            child.send_signal(signum)

    handled = [getattr(signal, name) for name in FORWARDED_SIGNALS if hasattr(signal, name)]
    previous = {signum: signal.signal(signum, forward) for signum in handled}
    try:
        code = child.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if code == 0:  # Inspect exits 0 when a task ends in error; a run that did not finish must not look finished
        failed = failed_runs(log_dir(argv), started)
        for path, message in failed:
            typer.echo(
                f"error: the run ended in error: {message} (log: {path}; resume: mechbench eval-retry {path})", err=True
            )
        code = 1 if failed else 0
    raise typer.Exit(code if code >= 0 else 128 - code)


@app.command("eval", context_settings=PASS_THROUGH)
def eval_command(
    ctx: typer.Context,
    task: Annotated[str, typer.Argument(help="sphyr, structural_eval, seesim, openseesime (or an Inspect task file).")],
) -> None:
    """'inspect eval' with mechbench's checks and reliability defaults; other options go to Inspect ('inspect eval
    --help').

    Checked first, each a one-line error: the task (structural is taken for structural_eval), every model
    name (provider/model) and its provider package, --limit, the task arguments, and that each API model's
    address answers within 10 s. Adds, unless given: --continue-on-fail, --retry-on-error 3, --log-buffer 1 (each
    finished sample is in the log at once, so a killed run loses none), --log-level-transcript http (retries and
    their causes in the log) and, for OpenAI-SDK providers, -M max_retries=0 (Inspect's logged retry loop
    replaces the SDK's silent one). Exits 1 when a task ends in error.
    """
    from mechbench.eval_checks import api_url, check_limit, check_model, check_reachable, resolve_task
    from mechbench.eval_command import RETRY_POLICY, check_task_args, eval_argv, model_names, option_values

    args = list(ctx.args)
    try:
        task = resolve_task(task)
        check_task_args(task, args)
        names = model_names(args)
        if not names:
            raise UsageError(
                "no model: pass --model provider/model (e.g. --model openai/gpt-4o), or --model mechbench/random "
                "offline"
            )
        providers = {name: check_model(name) for name in names}
        counts = [check_limit(value) for value in option_values(args, "--limit")]
        base_urls = option_values(args, "--model-base-url")
        for name, provider in providers.items():
            found = api_url(name, provider, base_urls[-1] if base_urls else None) if provider else None
            if found is not None:
                check_reachable(name, *found)
    except MechbenchError as error:
        fail(str(error))
    if counts and counts[-1] == 0:
        typer.echo("warning: --limit 0 runs no samples", err=True)
    if (
        task == "openseesime"
        and counts
        and counts[-1]
        and not any(v.startswith("samples=") for v in option_values(args, "-T", "--task-arg"))
    ):
        args += ["-T", f"samples={counts[-1]}"]  # a streamed source then reads only the shards those samples are in
    if any(providers.values()):
        typer.echo(f"retries: {RETRY_POLICY}", err=True)
    _run_inspect(eval_argv(task, args))


@app.command("eval-retry", context_settings=PASS_THROUGH)
def eval_retry_command(
    ctx: typer.Context,
    log: Annotated[str, typer.Argument(help="Log file of the interrupted or failed run.")],
) -> None:
    """Resume a killed or failed run ('inspect eval-retry' with the same defaults): only unfinished samples run."""
    from mechbench.eval_command import eval_retry_argv

    _run_inspect(eval_retry_argv([log], list(ctx.args)))


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``mechbench`` command: usage and file-system failures become one line and exit code 2."""
    from typer.exceptions import TyperException

    try:
        code = app(args=argv, standalone_mode=False)
    except TyperException as error:  # click's usage errors, as vendored by typer
        ctx = getattr(error, "ctx", None)
        if type(error).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help())
            sys.exit(0)
        hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
        typer.echo(f"error: {error.format_message()}{hint}", err=True)  # type: ignore[attr-defined]
        sys.exit(USAGE_ERROR)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(1)
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        typer.echo(f"error: {error.strerror or error}{where}", err=True)
        sys.exit(USAGE_ERROR)
    sys.exit(code if isinstance(code, int) else 0)
