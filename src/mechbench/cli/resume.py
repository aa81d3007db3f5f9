"""What ``mechbench eval-retry`` checks in a log before it resumes it: a log someone sends is code and addresses.

Inspect resumes a run from what its log says: the task (and the file it came from), the solver, model roles, the
approval and review policies, sentinels, the sandbox, the notification and ACP settings, the model's base URL and
its arguments. Each of these can name code that would be imported, a process or server that would be started, or an
address that would receive the user's API key. So a log is resumed only when:

- its task is one of mechbench's registered tasks, from no file, and its solver (if any) a registered mechbench one;
- it sets none of the settings mechbench's tasks never use (roles, approval, review, sentinel, sandbox,
  notification, ACP server);
- its model talks to the address the user's own environment names for it (the variables, a ``.env`` beside them,
  or the provider's default); another address in the log, in its base URL or its model arguments, is refused unless
  ``--trust-log-endpoint`` says so, and named either way.
"""

from __future__ import annotations

import stat
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mechbench.cli.eval_checks import PROVIDERS, api_url, task_names, url_variable
from mechbench.core.errors import DataSourceError, UsageError
from mechbench.sources.endpoints import without_credentials

MAX_LOG_HEADER_BYTES = 64 * 1024**2
"""Bytes of a log's header mechbench reads to check what it would resume (a real header takes a few hundred KB)."""
TRUST_FLAG = "--trust-log-endpoint"
"""The option that lets a resumed run talk to the address its log names rather than the environment's."""
UNUSED_SETTINGS = {
    "model_roles": "model roles",
    "sandbox": "a sandbox",
    "approval": "an approval policy",
    "review": "a review policy",
    "sentinel": "sentinels",
    "notification": "notifications",
    "acp_server": "an ACP server",
}
"""Settings a log may carry that mechbench's tasks never use, and that name code, processes or addresses."""
_ADDRESS_WORDS = ("url", "endpoint", "host", "base", "proxy", "server", "address")


def _header(log: str) -> Any:
    """The log's header, read within :data:`MAX_LOG_HEADER_BYTES` (inflated as a stream with a hard cap)."""
    from inspect_ai.log import read_eval_log

    from mechbench.core.log_archive import inflation_problem

    path = Path(log)
    try:
        mode = path.stat().st_mode
    except OSError as error:
        raise UsageError(f"log {log}: {error.strerror or error}") from None
    if not stat.S_ISREG(mode):
        raise UsageError(f"log {log} is not a regular file")
    if zipfile.is_zipfile(path):
        problem = inflation_problem(path, MAX_LOG_HEADER_BYTES, members=["header.json"])
        if problem is not None:
            raise DataSourceError(f"log {log}: {problem}; refused")
    elif path.stat().st_size > MAX_LOG_HEADER_BYTES:
        raise DataSourceError(f"log {log} is {path.stat().st_size} bytes, more than a resumable JSON log; refused")
    try:
        return read_eval_log(str(path), header_only=True)
    except Exception as error:  # not a log: one line, never a traceback
        raise UsageError(f"log {log} cannot be read as an Inspect log ({type(error).__name__})") from None


def _check_code(log: str, spec: Any) -> None:
    """Refuse a log whose task, task file, solver or other settings name code mechbench did not register."""
    task, file = str(spec.task), spec.task_file
    registered = [f"mechbench/{name}" for name in task_names()]
    if file or task not in registered:
        named = f"task {task!r}" + (f" from file {file!r}" if file else "")
        raise UsageError(
            f"log {log} names {named}; mechbench eval-retry resumes only mechbench's registered tasks "
            f"({', '.join(registered)}): resuming runs the code a log names"
        )
    if spec.solver and not _registered_solver(str(spec.solver)):
        raise UsageError(
            f"log {log} names the solver {spec.solver!r}, which is not one of mechbench's registered solvers: "
            "resuming would import the code it names"
        )
    config = spec.config
    for field, what in UNUSED_SETTINGS.items():
        value = getattr(spec, field, None) if field in ("model_roles", "sandbox") else getattr(config, field, None)
        if value:
            raise UsageError(
                f"log {log} sets {what} ({field}), which mechbench's tasks never use: resuming would start what it "
                "names; not resumed"
            )


def _registered_solver(name: str) -> bool:
    from inspect_ai._util.registry import registry_lookup

    if not name.startswith("mechbench/") or "@" in name or name.endswith(".py"):
        return False
    try:
        return registry_lookup("solver", name) is not None
    except Exception:  # an unknown name: not registered
        return False


def _addresses(arguments: Mapping[str, Any], where: str = "") -> list[str]:
    """Model arguments (at any depth) that look like an address: a ``://`` value or an address-like key."""
    found = []
    for key, value in arguments.items():
        name = f"{where}{key}"
        if isinstance(value, Mapping):
            found += _addresses(value, f"{name}.")
        elif any(word in str(key).lower() for word in _ADDRESS_WORDS) or "://" in str(value):
            shown = without_credentials(str(value)) if "://" in str(value) else repr(value)
            found.append(f"{name}={shown}")
    return found


def _same(first: str, second: str) -> bool:
    return first.rstrip("/") == second.rstrip("/")


def check_endpoint(log: str, spec: Any, environ: Mapping[str, str], trust: bool) -> str | None:
    """Refuse a log whose model would talk to an address the environment does not name (unless ``trust``); return
    the line naming where the resumed run's requests (and key) go, or None for mechbench's built-in models."""
    model = str(spec.model)
    provider = PROVIDERS.get(model.split("/", 1)[0])
    known = api_url(model, provider, None, environ) if provider else None
    addresses = _addresses(spec.model_args or {}) if not model.startswith("mechbench/") else []
    if addresses and not trust:
        raise UsageError(
            f"log {log} gives {model} the address {', '.join(addresses)} in its model arguments: resuming would "
            f"send your key there; resume with {TRUST_FLAG} if you ran it so"
        )
    base = spec.model_base_url
    if base:
        shown = without_credentials(str(base))
        if known is not None and _same(str(base), known[0]):
            return f"endpoint: {shown} (from the log and {known[1]})"
        if not trust:
            mine = f"{without_credentials(known[0])} (from {known[1]})" if known else "no address"
            variable = (provider and url_variable(model, provider)) or "the provider's *_BASE_URL"
            raise UsageError(
                f"log {log} sends {model}'s requests to {shown}; your environment names {mine}: resuming would send "
                f"your key to the address the log chose. Set {variable}={shown} if it is yours, or resume with "
                f"{TRUST_FLAG}"
            )
        return f"endpoint: {shown} (from the log, {TRUST_FLAG})"
    return f"endpoint: {without_credentials(known[0])} (from {known[1]})" if known else None


def check_resumable(log: str, environ: Mapping[str, str], trust_endpoint: bool = False) -> str | None:
    """Refuse to resume a log unless it is a regular log file of one of mechbench's registered tasks, naming no
    other code and talking to the address ``environ`` names for its model (see the module docs); return the line
    naming that address."""
    spec = _header(log).eval
    _check_code(log, spec)
    return check_endpoint(log, spec, environ, trust_endpoint)
