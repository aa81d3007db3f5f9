"""Folders a whole test session builds once, however many xdist workers ask for them.

``pytest -n 3`` runs three worker processes, each with its own session fixtures: a costly fixture (the demo, a
generated set) would be built once per worker. :func:`built_once` builds it once under a file lock in the folder the
workers share and lets the others read it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

BUILT = ".built"


def shared_root(factory: pytest.TempPathFactory) -> Path:
    """The session's temporary folder that every xdist worker of it sees (the session's own without xdist)."""
    root = factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


def built_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """``build(folder)`` run once per session for ``name``; every later call returns the same folder. A build that
    failed (or a worker that died half-way) leaves no marker, so the next caller builds it again from empty."""
    folder = shared_root(factory) / f"shared-{name}"
    with FileLock(str(folder) + ".lock"):
        if not (folder / BUILT).exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            build(folder)
            (folder / BUILT).touch()
    return folder
