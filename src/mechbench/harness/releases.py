"""Monthly releases of fresh sets: a release is named by its month, and its seed follows from the benchmark, what the
set is drawn like and the month, so every user who cuts it draws the same items."""

from __future__ import annotations

import hashlib
import re

from mechbench.core.errors import UsageError

RELEASE_NAME = re.compile(r"^(20[2-9]\d)-(0[1-9]|1[0-2])$")
"""A release's name: its month, ``YYYY-MM``."""


def month_seed(benchmark: str, like: str, release: str) -> int:
    """The seed of release ``release`` of ``benchmark``'s sets drawn like ``like``: a hash of the three names."""
    if not RELEASE_NAME.match(release):
        raise UsageError(f"--release must name a month as YYYY-MM (e.g. 2026-12), got {release!r}")
    digest = hashlib.sha256(f"mechbench/{benchmark}/{like}/{release}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def library_stack(*extra: str) -> dict[str, str]:
    """The versions a generated set's floating point depends on (the same stack gives the same bytes), with the
    versions of the ``extra`` packages (matplotlib for drawings)."""
    import importlib
    import platform

    import numba
    import numpy
    import scipy

    stack = {"python": platform.python_version(), "numpy": numpy.__version__, "scipy": scipy.__version__,
             "numba": numba.__version__, "machine": platform.machine()}  # fmt: skip
    for name in extra:
        stack[name] = importlib.import_module(name).__version__
    return stack
