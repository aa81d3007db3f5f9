"""Usage errors as one line, whichever command the user came through.

Inspect wraps an exception raised while it builds a task or a model in an exception group and prints the
whole traceback (100–270 lines) with the one useful message at the bottom, then exits 1. Under the ``inspect``
and ``mechbench`` commands (never inside a user's own Python program), mechbench's hook prints that message as
``error: …`` on stderr and exits 2, as mechbench's own commands do. ``MECHBENCH_TRACEBACK=1`` shows the
traceback as before. A file-system failure (a full disk, a read-only or misplaced cache or log folder) is one line
too, naming the path, with exit 1.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path
from types import TracebackType

from mechbench.core.errors import MechbenchError

USAGE_EXIT = 2
TRACEBACK_VARIABLE = "MECHBENCH_TRACEBACK"


def find_mechbench_error(error: BaseException | None, depth: int = 0) -> MechbenchError | None:
    """The first mechbench error inside ``error``: itself, an exception group's members, or its causes."""
    if error is None or depth > 20:
        return None
    if isinstance(error, MechbenchError):
        return error
    for inner in getattr(error, "exceptions", ()) or ():
        found = find_mechbench_error(inner, depth + 1)
        if found is not None:
            return found
    return find_mechbench_error(error.__cause__ or error.__context__, depth + 1)


FILE_SYSTEM_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR, errno.EISDIR, errno.EFBIG}
)
"""The file-system failures shown as one line: a full disk or quota, a read-only, forbidden or misplaced path."""


def find_file_system_error(error: BaseException | None, depth: int = 0) -> OSError | None:
    """The first file-system failure (:data:`FILE_SYSTEM_ERRNOS`) that names its file, inside ``error``, its
    groups or its explicit causes (an error handled on the way, its implicit context, is not taken for the cause)."""
    if error is None or depth > 20:
        return None
    if isinstance(error, OSError) and error.errno in FILE_SYSTEM_ERRNOS and error.filename:
        return error
    for inner in getattr(error, "exceptions", ()) or ():
        found = find_file_system_error(inner, depth + 1)
        if found is not None:
            return found
    return find_file_system_error(error.__cause__, depth + 1)


FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def file_system_line(error: OSError) -> str:
    """``error: PATH: No space left on device (…)``, naming where mechbench writes and what to do about it."""
    from mechbench.core.text import clean

    reason = os.strerror(error.errno) if error.errno else one_line(error)
    where = " ".join(clean(str(error.filename)).split())
    if error.errno in FULL:
        hint = "free space there, or point $MECHBENCH_CACHE (the cache) or --log-dir (the logs) elsewhere"
    else:
        hint = "check that the folder is a writable folder, or point $MECHBENCH_CACHE or --log-dir elsewhere"
    return f"error: {where}: {reason} ({hint})"


def one_line(error: BaseException) -> str:
    """The message of ``error`` on one line."""
    return " ".join(str(error).split()) or type(error).__name__


def uncaught_line(error: BaseException) -> tuple[str, int] | None:
    """What a command prints for ``error`` reaching the top, and its exit code: a mechbench error one line with exit 2,
    a file-system failure one line naming the path with exit 1; None for anything else (a traceback's business)."""
    found = find_mechbench_error(error)
    if found is not None:
        return f"error: {one_line(found)}", USAGE_EXIT
    disk = find_file_system_error(error)
    if disk is not None:
        return file_system_line(disk), 1
    return None


def _command_line_program() -> bool:
    program = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    parent = Path(sys.argv[0]).parent.name if sys.argv and sys.argv[0] else ""
    return program in ("inspect", "mechbench") or (program == "__main__.py" and parent in ("inspect_ai", "mechbench"))


def install_usage_hook() -> None:
    """Under the ``inspect`` / ``mechbench`` commands: a mechbench error reaching the top is one line, exit 2."""
    if not _command_line_program() or os.environ.get(TRACEBACK_VARIABLE) or getattr(sys.excepthook, "_mechbench", 0):
        return
    previous = sys.excepthook

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        line = uncaught_line(error)
        if line is not None:
            print(line[0], file=sys.stderr)
            sys.exit(line[1])
        previous(kind, error, trace)

    hook._mechbench = 1  # type: ignore[attr-defined]
    sys.excepthook = hook
