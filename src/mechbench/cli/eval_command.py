"""``mechbench eval`` and ``mechbench eval-retry``: Inspect's commands with mechbench's checks and reliability
defaults, run in the same process after the checks (:mod:`mechbench.cli.inspect_run`)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
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
    trust_dotenv: Annotated[bool, TRUST_DOTENV] = False,
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
        if not dry_run:
            check_dotenv(trust_dotenv)
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


TRUST_DOTENV = typer.Option(
    "--trust-dotenv",
    help="Use an API address a .env file sets even though its key comes from your environment, not that file.",
)


def check_dotenv(trust: bool) -> None:
    """Refuse an address a ``.env`` file sets for a key that comes from elsewhere, unless ``trust``."""
    from mechbench.sources.endpoints import dotenv_file, dotenv_redirects

    redirects = dotenv_redirects(Path.cwd(), os.environ)
    if redirects and not trust:
        raise UsageError(
            f"{dotenv_file(Path.cwd())} sets {'; '.join(redirects)}: your key would go to an address that file "
            "chose. Set the address in your environment or put the key beside it in that file, or pass "
            "--trust-dotenv"
        )


def _say_endpoints() -> None:
    """One line naming every endpoint a ``.env`` file or the environment sets (Inspect loads ``.env`` itself)."""
    from mechbench.sources.endpoints import endpoint_line

    line = endpoint_line(Path.cwd(), os.environ)
    if line:
        typer.echo(line, err=True)


def _with_dotenv(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` with what the ``.env`` Inspect will load adds (it never overrides a variable already set)."""
    from dotenv import dotenv_values

    from mechbench.sources.endpoints import dotenv_file

    found = dotenv_file(Path.cwd())
    added = {k: v for k, v in dotenv_values(found).items() if v is not None} if found else {}
    return {**added, **environ}


def eval_retry_command(
    ctx: typer.Context,
    log: Annotated[str, typer.Argument(help="Log file of the interrupted or failed run.")],
    trust_log_endpoint: Annotated[
        bool,
        typer.Option(
            "--trust-log-endpoint",
            help="Send requests (and your key) to the API address the log names even where your environment names "
            "another.",
        ),
    ] = False,
    trust_dotenv: Annotated[bool, TRUST_DOTENV] = False,
) -> None:
    """Resume a killed or failed run ('inspect eval-retry' with the same defaults): only unfinished samples run.
    A log names code and addresses, so only runs of mechbench's registered tasks that name no other code are
    resumed, and only against the API address your environment names for the model (or --trust-log-endpoint)."""
    from mechbench.cli.eval_argv import eval_retry_argv
    from mechbench.cli.resume import check_resumable

    try:
        check_dotenv(trust_dotenv)
        endpoint = check_resumable(log, _with_dotenv(os.environ), trust_log_endpoint)
    except MechbenchError as error:
        fail(str(error))
    _say_endpoints()
    if endpoint:
        typer.echo(endpoint, err=True)
    _run_inspect(eval_retry_argv([log], list(ctx.args)))
