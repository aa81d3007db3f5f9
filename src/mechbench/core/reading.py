"""Reading a file someone handed mechbench: only a regular file, never more than a byte cap.

A size check that trusts ``stat`` is not enough: a FIFO or a device (``/dev/zero``) reports size 0, then blocks or
never ends, and a file can grow between the check and the read. So the file is opened without blocking, checked
as a regular file on the open descriptor, and read to one byte past the cap at most.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from mechbench.core.errors import DataSourceError

CHUNK = 1 << 20


def read_capped(path: Path, limit: int, what: str = "file") -> bytes:
    """The bytes of ``path``, refused in one line if it is not a regular file or holds more than ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise DataSourceError(f"cannot read {what} {path}: {error.strerror or error}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(mode) else "a pipe or device"
        raise DataSourceError(f"{what} {path} is {kind}, not a regular file; refused")
    with os.fdopen(fd, "rb") as handle:
        parts, size = [], 0
        while size <= limit:
            try:
                block = handle.read(min(CHUNK, limit + 1 - size))
            except OSError as error:
                raise DataSourceError(f"cannot read {what} {path}: {error.strerror or error}") from None
            if not block:
                break
            parts.append(block)
            size += len(block)
    if size > limit:
        raise DataSourceError(f"{what} {path} holds more than the {limit} bytes mechbench reads from it; refused")
    return b"".join(parts)


def read_capped_text(path: Path, limit: int, what: str = "file") -> str:
    """The UTF-8 text of ``path`` under the same rules as :func:`read_capped`."""
    try:
        return read_capped(path, limit, what).decode("utf-8")
    except UnicodeDecodeError as error:
        raise DataSourceError(f"{what} {path} is not UTF-8 text (byte {error.start}); refused") from None
