"""Task and command arguments checked once, from their types: a ``Literal`` annotation is the list of choices.

:func:`validated` wraps a task so that every argument annotated ``Literal[...]`` (or ``Literal[...] | None``) is
checked before the task body runs, with one message shape and one exception (:class:`~mechbench.core.errors.UsageError`,
one line and exit 2 on the command line); :func:`one_of` is the same check for the CLI's options, which share the
tasks' ``Literal`` types. :func:`renamed` keeps an old option name working with a deprecation message.
"""

from __future__ import annotations

import functools
import inspect
import logging
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any, Literal, ParamSpec, TypeVar, get_args, get_origin

from mechbench.core.errors import UsageError

logger = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")


def choices(annotation: Any) -> tuple[Any, ...] | None:
    """The values a ``Literal`` annotation allows (``None`` too for an optional one); None for other types."""
    if get_origin(annotation) is Literal:
        return get_args(annotation)
    if get_origin(annotation) in (typing.Union, types.UnionType):
        inner = [choices(a) for a in get_args(annotation) if a is not type(None)]
        if len(inner) == 1 and inner[0] is not None:
            return (*inner[0], None)
    return None


def one_of(name: str, value: Any, allowed: Iterable[Any]) -> Any:
    """``value`` if it is one of ``allowed``, else a :class:`UsageError` naming ``name`` and the choices."""
    allowed = tuple(allowed)
    if value not in allowed:
        shown = ", ".join(str(a) for a in allowed if a is not None)
        raise UsageError(f"{name} must be one of {shown}, got {value!r}")
    return value


def literal_checks(fn: Callable[..., Any]) -> Callable[..., inspect.BoundArguments]:
    """A checker of ``fn``'s arguments: it binds them (a :class:`UsageError` for an argument ``fn`` does not take)
    and checks every ``Literal``-typed one against its choices."""
    hints = typing.get_type_hints(fn)
    signature = inspect.signature(fn)
    checks = {name: allowed for name, hint in hints.items() if (allowed := choices(hint)) is not None}

    def check(*args: Any, **kwargs: Any) -> inspect.BoundArguments:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            raise UsageError(f"{fn.__name__}: {error}") from None
        for name, allowed in checks.items():
            if name in bound.arguments:
                one_of(name, bound.arguments[name], allowed)
        return bound

    return check


def validated(fn: Callable[P, R]) -> Callable[P, R]:
    """Check every ``Literal``-typed argument of ``fn`` on each call (the signature stays ``fn``'s)."""
    check = literal_checks(fn)

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        check(*args, **kwargs)
        return fn(*args, **kwargs)

    return wrapper


def renamed(old: str, new: str, old_value: Any, new_value: Any, default: Any) -> Any:
    """The value of an option that was renamed: the new name's, or the old name's with a deprecation message."""
    if old_value is None:
        return new_value
    if new_value != default and new_value != old_value:
        raise UsageError(f"{old} is the old name of {new}: give one of them, not both")
    logger.warning("%s is deprecated: use %s (it means the same)", old, new)
    return old_value
