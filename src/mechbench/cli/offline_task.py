"""A task built offline, as ``mechbench eval … --dry-run`` and ``mechbench plan`` build it: every outgoing connection
refused, the ``-T`` arguments read as Inspect reads them, the first ``--limit`` samples taken. Both commands use it;
it sits in a module of its own so that neither imports the other.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mechbench.core.errors import DataSourceError, UsageError


class NoNetworkError(ConnectionRefusedError):
    """A connection attempted during a dry run."""


@contextmanager
def no_network() -> Iterator[None]:
    """Refuse every outgoing connection and name lookup inside the block (a dry run sends nothing)."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise NoNetworkError("a dry run makes no network connection")

    saved = socket.socket.connect, socket.socket.connect_ex, socket.create_connection, socket.getaddrinfo
    socket.socket.connect = refuse  # type: ignore[method-assign]
    socket.socket.connect_ex = refuse  # type: ignore[method-assign]
    socket.create_connection = refuse  # type: ignore[assignment]
    socket.getaddrinfo = refuse  # type: ignore[assignment]
    try:
        yield
    finally:
        socket.socket.connect, socket.socket.connect_ex, socket.create_connection, socket.getaddrinfo = saved  # type: ignore[method-assign]


def count_option(args: list[str], flag: str, default: int | None) -> int | None:
    """The last whole-number value of ``flag`` in ``args`` (``default`` when it is not given)."""
    from mechbench.cli.eval_argv import option_values

    given = option_values(args, flag)
    if not given:
        return default
    try:
        return int(given[-1])
    except ValueError:
        raise UsageError(f"{flag} takes a whole number, got {given[-1]!r}") from None


def task_arguments(args: list[str]) -> dict[str, Any]:
    """The ``-T name=value`` arguments, their values read as Inspect reads them (YAML)."""
    import yaml

    from mechbench.cli.eval_argv import option_values

    out: dict[str, Any] = {}
    for given in option_values(args, "-T", "--task-arg"):
        key, _, value = given.partition("=")
        try:
            out[key] = yaml.safe_load(value)
        except yaml.YAMLError:
            out[key] = value
    return out


def offline_samples(spec: Any, args: list[str]) -> tuple[Any, list[Any]]:
    """The task ``spec`` builds from the ``-T`` arguments in ``args``, with every connection refused, and its samples
    (the first ``--limit`` of them)."""
    with no_network():
        try:
            task = spec.task(**task_arguments(args))
        except (DataSourceError, OSError) as error:
            raise DataSourceError(
                f"dry run (no network): {error}. A dry run reads bundled, local or cached data only: run once to "
                "fetch the publisher's data, or pass -T data=bundled"
            ) from None
    samples = list(task.dataset)
    limit = count_option(args, "--limit", None)
    return task, samples[:limit] if limit is not None else samples
