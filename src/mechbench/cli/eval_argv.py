"""``mechbench eval`` / ``mechbench eval-retry``: Inspect's commands with mechbench's reliability defaults added.

The defaults (:mod:`mechbench.harness.run_limits`; how they work together: :mod:`mechbench.harness.reliability`) are
added only where the user did not give the option, and the full command is printed before it runs, so every run can be
repeated with plain ``inspect``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from mechbench.cli.eval_checks import task_names
from mechbench.core.errors import UsageError
from mechbench.core.text import redact_url
from mechbench.harness.run_limits import ATTEMPT_TIMEOUT, EVAL_DEFAULTS, MAX_RETRIES

RETRY_POLICY = (
    f"each model call is retried up to {MAX_RETRIES} times with back-off (about 13 minutes in all) and a request "
    f"is abandoned after {ATTEMPT_TIMEOUT} s; a failing sample is run again up to {EVAL_DEFAULTS['retry_on_error']} "
    "times (--retry-on-error), then the others go on"
)
SDK_RETRYING_PROVIDERS = ("openai", "openai-api")
"""Providers built on the OpenAI SDK, whose own silent retries mechbench turns off so that Inspect's retry loop,
which logs every retry with its cause, is the only one."""


def _given(args: list[str], flag: str) -> bool:
    return any(a == flag or a.startswith(flag + "=") for a in args)


def option_values(args: list[str], *flags: str) -> list[str]:
    values = []
    for i, a in enumerate(args):
        for flag in flags:
            if a == flag and i + 1 < len(args):
                values.append(args[i + 1])
            elif a.startswith(flag + "="):
                values.append(a[len(flag) + 1 :])
    return values


def _default_flags(args: list[str]) -> list[str]:
    extra = []
    for name, value in EVAL_DEFAULTS.items():
        flag = "--" + name.replace("_", "-")
        if not _given(args, flag):
            extra += [flag] if value is True else [flag, str(value)]
    return extra


_SECRET_ARG = re.compile(r"(?i)^((?:--?[\w-]+=)?[\w.-]*(?:key|token|secret|password)[\w.-]*=).+")


def shown_command(argv: list[str]) -> str:
    """``argv`` as a shell line to print, with the values of secret-looking ``name=value`` arguments masked."""
    import shlex

    return shlex.join(redact_url(_SECRET_ARG.sub(r"\1***", a)) for a in argv)


def task_spec(task: str) -> str:
    """``sphyr`` -> ``mechbench/sphyr``; anything else (a file, another package's task) is left as it is."""
    return f"mechbench/{task}" if task in task_names() else task


def mask_task_urls(args: list[str]) -> tuple[list[str], dict[str, str]]:
    """``args`` with credentials in ``-T name=URL`` values masked, and the masked → real URL mapping.

    Inspect records task arguments in the log as given; the masked URL goes there, the real one reaches the
    download through the environment during the Inspect run (:data:`mechbench.sources.download.SECRET_URLS_VARIABLE`).
    """
    out, secrets = list(args), {}
    for i, arg in enumerate(out):
        if i and out[i - 1] in ("-T", "--task-arg") and "=" in arg:
            name, value = arg.split("=", 1)
            shown = redact_url(value)
            if shown != value:
                secrets[shown] = value
                out[i] = f"{name}={shown}"
    return out, secrets


def check_task_args(task: str, args: list[str]) -> None:
    """Refuse a ``-T name=value`` that mechbench's ``task`` does not take (Inspect only warns, then runs the
    default, so a misspelt argument would silently measure something else)."""
    import difflib
    import inspect

    if task.removeprefix("mechbench/") not in task_names():
        return
    from mechbench import tasks

    name = task.removeprefix("mechbench/")
    valid = list(inspect.signature(getattr(tasks, name)).parameters)
    for given in option_values(args, "-T", "--task-arg"):
        key = given.split("=", 1)[0]
        if key not in valid:
            close = difflib.get_close_matches(key, valid, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise UsageError(f"{name} has no task argument {key!r}{hint}; its arguments: {', '.join(valid)}")


def model_names(args: list[str]) -> list[str]:
    """The models ``args`` name (``--model a,b``, repeated, or ``$INSPECT_EVAL_MODEL``)."""
    models = option_values(args, "--model") or [os.environ.get("INSPECT_EVAL_MODEL", "")]
    return [m.strip() for value in models for m in value.split(",") if m.strip()]


def eval_argv(task: str, args: list[str]) -> list[str]:
    """Arguments for ``inspect eval`` running ``task`` with ``args`` plus mechbench's defaults."""
    argv = ["eval", task_spec(task), *args, *_default_flags(args)]
    names = model_names(args)
    model_args = option_values(args, "-M", "--model-arg")
    if (
        names
        and all(n.split("/", 1)[0] in SDK_RETRYING_PROVIDERS for n in names)
        and not any(a.split("=", 1)[0] == "max_retries" for a in model_args)
    ):
        argv += ["-M", "max_retries=0"]
    return argv


def eval_retry_argv(logs: list[str], args: list[str]) -> list[str]:
    """Arguments for ``inspect eval-retry`` resuming ``logs`` with mechbench's defaults (model args are in the log)."""
    return ["eval-retry", *logs, *args, *_default_flags(args)]


def log_dir(args: list[str]) -> Path:
    """Where Inspect writes the logs of a run with ``args``."""
    given = option_values(args, "--log-dir")
    return Path(given[-1] if given else os.environ.get("INSPECT_LOG_DIR") or "logs")


LogState = dict[Path, tuple[int, int]]


def log_state(folder: Path) -> LogState:
    """Every log in ``folder`` with its modification time (ns) and size: what :func:`failed_runs` compares with to
    find the logs a run wrote. A clock cannot: a run that starts within a file system's time resolution of the
    previous one's last write (an ``eval-retry`` right after its ``eval``) would take that run's log for its own."""
    state: LogState = {}
    for path in sorted(folder.glob("*.eval")) + sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            stat = path.stat()
        except OSError:
            continue
        state[path] = (stat.st_mtime_ns, stat.st_size)
    return state


def failed_runs(folder: Path, before: LogState) -> list[tuple[Path, str]]:
    """(log, its error in one line) of every log in ``folder`` written since its state was ``before``
    (:func:`log_state`) whose run ended in error: the run's own error, or, when its samples failed, how many did and
    the first cause (status, the provider's message, model and address, what to check)."""
    from inspect_ai.log import read_eval_log

    out = []
    for path, state in log_state(folder).items():
        if before.get(path) == state:
            continue
        try:
            header = read_eval_log(str(path), header_only=True)
        except Exception as error:  # written during this run and unreadable: cut short (a full disk, a lost mount)
            why = " ".join(str(error).split())[:200] or type(error).__name__
            out.append((path, f"the log cannot be read back ({type(error).__name__}: {why}); is the disk full?"))
            continue
        if header.status == "started":  # Inspect has exited: a log still "started" was never finished
            out.append((path, "the run stopped before its log was finished (is the disk full or the folder gone?)"))
            continue
        if header.status != "error":
            continue
        if header.error is not None and header.error.message.strip():
            out.append((path, header.error.message.strip().splitlines()[-1][:300]))
        else:
            out.append((path, _sample_failures(path, header.eval.model)))
    return out


def _sample_failures(path: Path, model: str) -> str:
    from inspect_ai.log import read_eval_log_samples

    from mechbench.cli.provider_errors import error_text, one_line

    failed, total, first = 0, 0, None
    try:
        for sample in read_eval_log_samples(str(path), all_samples_required=False):
            total += 1
            if sample.error is not None:
                failed += 1
                first = first or error_text(sample.error.message, sample.error.traceback)
    except Exception:  # a log cut short: what was read still says why
        pass
    if first is None:
        return "no message"
    return f"{failed} of {total} samples failed; {one_line(model, first)}"
