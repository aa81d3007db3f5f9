"""What ``mechbench eval`` checks before it starts Inspect, so a mistake is one line instead of a traceback:
the task name, each model name and its provider package, ``--limit``, and whether the model's API can be reached.

``inspect eval`` itself is left as it is (its own arguments are Inspect's business); these checks run only in
mechbench's own command.
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import importlib.util
import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from mechbench.core.errors import UsageError


def task_names() -> list[str]:
    """The registered benchmarks' task names (``mechbench/<name>``), in listing order."""
    from mechbench import registry

    return [entry.name for entry in registry.specs()]


def task_aliases() -> dict[str, str]:
    """Other names users reach for, as each benchmark's spec declares them (``structural`` for
    ``structural_eval``, the name its ``score`` and ``generate`` commands use)."""
    from mechbench import registry

    return {alias: entry.name for entry in registry.specs() for alias in entry.aliases}


OFFLINE_MODELS = "mechbench/random (offline, no key)"


def offline_models(task: str | None) -> str:
    """The built-in models that answer ``task`` offline, in a few words (any task: :data:`OFFLINE_MODELS`)."""
    from mechbench import registry

    name = (task or "").removeprefix("mechbench/")
    if registry.spec(name) is None:
        return OFFLINE_MODELS
    serving = sorted(n for n, entries in registry.baselines().items() if any(b.benchmark == name for b in entries))
    chosen = ["random"] if "random" in serving else serving[:2]
    return f"{', '.join(f'mechbench/{n}' for n in chosen) or 'mechbench/replay'} (offline, no key)"


REACH_TIMEOUT = 10.0
"""Seconds to open a connection to a model's API before the run is refused (DNS lookup included)."""


@dataclass(frozen=True)
class Provider:
    """An Inspect provider's Python package, mechbench's extra that installs it, and where its API is."""

    module: str
    package: str
    extra: str | None
    url_variable: str | None
    default_url: str | None


_OPENAI_CLIENT = ("openai", "openai", "openai")
PROVIDERS: dict[str, Provider] = {
    "openai": Provider(*_OPENAI_CLIENT, "OPENAI_BASE_URL", "https://api.openai.com/v1"),
    "openai-api": Provider(*_OPENAI_CLIENT, None, None),  # openai-api/<service>/<model>: <SERVICE>_BASE_URL
    "vllm": Provider(*_OPENAI_CLIENT, "VLLM_BASE_URL", None),  # no URL: Inspect starts a local server
    "sglang": Provider(*_OPENAI_CLIENT, "SGLANG_BASE_URL", None),
    "ollama": Provider(*_OPENAI_CLIENT, "OLLAMA_BASE_URL", "http://localhost:11434/v1"),
    "openrouter": Provider(*_OPENAI_CLIENT, "OPENROUTER_BASE_URL", "https://openrouter.ai/api/v1"),
    "together": Provider(*_OPENAI_CLIENT, "TOGETHER_BASE_URL", "https://api.together.xyz/v1"),
    "anthropic": Provider("anthropic", "anthropic", "anthropic", "ANTHROPIC_BASE_URL", "https://api.anthropic.com"),
    "google": Provider(
        "google.genai", "google-genai", "google", "GOOGLE_BASE_URL", "https://generativelanguage.googleapis.com"
    ),
    "mistral": Provider("mistralai", "mistralai", None, "MISTRAL_BASE_URL", "https://api.mistral.ai"),
    "groq": Provider("groq", "groq", None, "GROQ_BASE_URL", "https://api.groq.com"),
}
"""The providers whose package and endpoint mechbench checks; others are passed to Inspect unchecked."""


def resolve_task(task: str) -> str:
    """``task`` as ``mechbench eval`` runs it: a registered benchmark's task (aliases accepted) or an Inspect task
    spec (a file, ``file@task`` or ``package/task``); a bare name that is none of these is a one-line error."""
    name = task.removeprefix("mechbench/")
    names, aliases = task_names(), task_aliases()
    if name in names:
        return name
    if name in aliases:
        return aliases[name]
    if not task.startswith("mechbench/") and ("/" in task or "." in task or "@" in task or os.path.exists(task)):
        return task
    close = difflib.get_close_matches(name, [*names, *aliases], n=1)
    hint = f" (did you mean {aliases.get(close[0], close[0])}?)" if close else ""
    raise UsageError(f"unknown task {task!r}{hint}; mechbench's tasks: {', '.join(names)} (or an Inspect task file)")


def _builtin_names() -> list[str]:
    from mechbench import registry
    from mechbench.providers.model import REPLAY, TOOL_DEMO

    return sorted([*registry.baselines(), REPLAY, TOOL_DEMO])


def check_model(name: str) -> Provider | None:
    """Refuse a model name without a provider, an unknown built-in model, or a provider whose package is missing;
    returns the provider mechbench knows for it (None for the others)."""
    if "/" not in name:
        if name in _builtin_names():
            raise UsageError(f"model {name!r} names no provider: mechbench's built-in one is mechbench/{name}")
        raise UsageError(
            f"model {name!r} names no provider: write provider/model, e.g. openai/{name}, anthropic/{name} or "
            f"vllm/{name}, or {OFFLINE_MODELS}"
        )
    provider = name.split("/", 1)[0]
    if provider == "mechbench":
        known = _builtin_names()
        if name.split("/", 1)[1] not in known:
            raise UsageError(
                f"unknown mechbench model {name!r}; built-in models: mechbench/{', mechbench/'.join(known)}"
            )
        return None
    entry = PROVIDERS.get(provider)
    if entry is not None and importlib.util.find_spec(entry.module.split(".")[0]) is None:
        install = f"pip install {entry.package}" + (
            f' (in a clone of mechbench: pip install -e ".[{entry.extra}]")' if entry.extra else ""
        )
        raise UsageError(f"{name} needs the {entry.package} package, which is not installed: {install}")
    return entry


LIMIT = re.compile(r"(\d+)(?:-(\d+))?")


def check_limit(value: str) -> int | None:
    """``--limit``'s value checked (``N`` samples or an ``A-B`` range from 1); the sample count when it is ``N``."""
    match = LIMIT.fullmatch(value.strip())
    if match is None or (match.group(2) is not None and not 1 <= int(match.group(1)) <= int(match.group(2))):
        raise UsageError(f"--limit takes a number of samples (--limit 10) or a range (--limit 11-20), got {value!r}")
    return int(match.group(1)) if match.group(2) is None else None


def url_variable(name: str, entry: Provider) -> str | None:
    """The variable that sets the API address of model ``name`` (``openai-api/<service>/…``: ``<SERVICE>_BASE_URL``)."""
    if name.startswith("openai-api/"):
        service = name.split("/")[1] if name.count("/") >= 2 else ""
        return f"{service.upper().replace('-', '_')}_BASE_URL"
    return entry.url_variable


def api_url(
    name: str, entry: Provider, base_url: str | None, environ: Mapping[str, str] | None = None
) -> tuple[str, str] | None:
    """(URL, where it came from) of the API ``name`` will call, or None when it cannot be known beforehand; the
    variables are read from ``environ`` (the process's environment when None)."""
    environ = os.environ if environ is None else environ
    if base_url:
        return base_url, "--model-base-url"
    variable = url_variable(name, entry)
    if variable and environ.get(variable):
        return environ[variable], variable
    return (entry.default_url, f"the provider's default, {variable} being unset") if entry.default_url else None


def check_reachable(name: str, url: str, origin: str, timeout: float = REACH_TIMEOUT, task: str | None = None) -> None:
    """Refuse the run when no connection to ``url``'s host can be opened within ``timeout`` seconds."""
    parts = urlsplit(url)
    host = parts.hostname
    if not host:
        raise UsageError(f"{name}: the API address {url!r} (from {origin}) has no host")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as error:
        why = error.strerror or type(error).__name__ or str(error)
        raise UsageError(
            f"{name}: cannot reach {host}:{port} ({why}; address from {origin}); an API model needs the network "
            f"or a local server — check the address, or run {offline_models(task)}"
        ) from None


LOG_WRITE_CHECK_BYTES = 64 * 1024
"""Bytes written (and removed) to prove the log folder takes a log before the run: about one sample's log."""


def check_log_dir(folder: Path) -> None:
    """Refuse, before the run, a log folder that is a file, lies under a file, or cannot be created or written
    (Inspect would fail with a traceback once the first sample is done, or keep no log)."""
    blocked = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
    if blocked is not None:
        raise UsageError(f"--log-dir {folder}: {blocked} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"--log-dir {folder}: cannot create the folder ({error.strerror or error})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"--log-dir {folder}: the folder is not writable")
    import tempfile

    probe = None
    try:  # a read-only file system or a full disk only shows when something is written (root passes os.access)
        descriptor, probe = tempfile.mkstemp(dir=folder, prefix=".mechbench-write-check-")
        try:
            data = memoryview(bytes(LOG_WRITE_CHECK_BYTES))
            while data:  # a nearly full disk writes short before it refuses
                written = os.write(descriptor, data)
                if written <= 0:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                data = data[written:]
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
    except OSError as error:
        raise UsageError(f"--log-dir {folder}: cannot write there ({error.strerror or error})") from None
    finally:
        if probe is not None:
            with contextlib.suppress(OSError):
                os.unlink(probe)
