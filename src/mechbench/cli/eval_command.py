"""``mechbench eval`` and ``mechbench eval-retry``: Inspect's commands with mechbench's checks and reliability
defaults, run in the same process after the checks (:mod:`mechbench.cli.inspect_run`)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer

from mechbench.core.errors import MechbenchError, UsageError
from mechbench.harness.commands import fail


def register(app: typer.Typer) -> None:
    """Add ``eval`` and ``eval-retry`` to the command line."""
    app.command("eval", context_settings=PASS_THROUGH)(eval_command)
    app.command("eval-retry", context_settings=PASS_THROUGH)(eval_retry_command)


PASS_THROUGH = {"allow_extra_args": True, "ignore_unknown_options": True}


def _run_inspect(argv: list[str]) -> None:
    from inspect_ai._util.dotenv import init_dotenv

    from mechbench.cli.eval_argv import failed_runs, log_dir, log_state, mask_task_urls, shown_command
    from mechbench.cli.inspect_run import run_inspect
    from mechbench.sources.download import SECRET_URLS_VARIABLE

    argv, secret_urls = mask_task_urls(argv)
    if secret_urls:
        os.environ[SECRET_URLS_VARIABLE] = json.dumps(secret_urls)
    typer.echo("+ inspect " + shown_command(argv), err=True)
    # A .env file may name the log folder (Inspect reads it before it runs): read it first, and look at one folder,
    # by its full path, before and after the run.
    init_dotenv()
    folder = log_dir(argv).absolute()
    before = log_state(folder)
    try:
        code = run_inspect(argv)
    finally:
        os.environ.pop(SECRET_URLS_VARIABLE, None)  # the real URLs: for this run's downloads only
    if code == 0:  # Inspect exits 0 when a task ends in error; a run that did not finish must not look finished
        failed = failed_runs(folder, before)
        for path, message in failed:
            typer.echo(
                f"error: the run ended in error: {message} (log: {path}; resume: mechbench eval-retry {path})", err=True
            )
        code = 1 if failed else 0
    raise typer.Exit(code)


def eval_command(
    ctx: typer.Context,
    task: Annotated[str, typer.Argument(help="A mechbench task ('mechbench list') or an Inspect task file.")],
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Print the samples, the most model calls, the media sent and a token estimate; send nothing.",
        ),
    ] = False,
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
    from mechbench.cli.eval_argv import RETRY_POLICY, check_task_args, eval_argv, log_dir, model_names, option_values
    from mechbench.cli.eval_checks import (
        api_url,
        check_limit,
        check_log_dir,
        check_model,
        check_reachable,
        resolve_task,
    )

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
        if dry_run:
            from mechbench.cli.dry_run import estimate

            logs = Path(
                (option_values(args, "--log-dir") or [os.environ.get("INSPECT_LOG_DIR") or str(log_dir(args))])[-1]
            )
            for line in estimate(task, args, names, logs):
                typer.echo(line)
            return
        base_urls = option_values(args, "--model-base-url")
        for name, provider in providers.items():
            found = api_url(name, provider, base_urls[-1] if base_urls else None) if provider else None
            if found is not None:
                check_reachable(name, *found, task=task)
        # Last, as it creates the folder: a run refused for anything else leaves nothing behind.
        folder = (option_values(args, "--log-dir") or [os.environ.get("INSPECT_LOG_DIR") or str(log_dir(args))])[-1]
        if "://" not in folder:  # a remote log folder (s3://) is Inspect's to check
            check_log_dir(Path(folder))
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
    _say_endpoints()
    _run_inspect(eval_argv(task, args))


def _say_endpoints() -> None:
    """One line naming every endpoint a ``.env`` file or the environment sets (Inspect loads ``.env`` itself)."""
    import os
    from pathlib import Path

    from mechbench.sources.endpoints import endpoint_line

    line = endpoint_line(Path.cwd(), os.environ)
    if line:
        typer.echo(line, err=True)


def eval_retry_command(
    ctx: typer.Context,
    log: Annotated[str, typer.Argument(help="Log file of the interrupted or failed run.")],
) -> None:
    """Resume a killed or failed run ('inspect eval-retry' with the same defaults): only unfinished samples run.
    Only runs of mechbench's registered tasks are resumed (a log names the code that runs it)."""
    from mechbench.cli.eval_argv import eval_retry_argv
    from mechbench.cli.eval_checks import check_resumable

    try:
        check_resumable(log)
    except MechbenchError as error:
        fail(str(error))
    _say_endpoints()
    _run_inspect(eval_retry_argv([log], list(ctx.args)))
