"""The published reference optimum, cached in memory and on disk per problem.

The optimum depends only on the problem (ground truth, mask, gravity), never on the answer, so a re-run, a
second model on the same samples or a second process pays nothing. The key is the problem (forces and
clamped DOFs, so gravity is in it), the free mask, the pinned field and the volume fraction rounded to
6 decimals, the seed, and :data:`RECIPE`, which changes whenever the recipe's code does. Short notes derived
from the same recipe (a truth's recovered load axes) are kept beside the optima. The disk cache is
a SQLite file (safe for concurrent worker processes) under ``$MECHBENCH_CACHE/sphyr-optimum``. A generated set may
ship the optima its judge asks for (``optima.json``, :func:`ship`): read into memory when the set is opened, they
spare a first run the optimiser's compilation (about 11 s) and its work.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import sqlite3
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from mechbench.core.paths import default_cache
from mechbench.topopt.fea import LoadCase
from mechbench.topopt.recipe import FILTER_RADIUS, SCORING_PENALTY
from mechbench.topopt.reference import ReferenceProblem, reference_optimum

RECIPE = "sphyr-published-1"
MEMORY_SIZE = 8192
_memory: OrderedDict[str, tuple[float, str]] = OrderedDict()
_notes: dict[str, str] = {}
_recording: list[dict[str, tuple[float, str]]] = []


def problem_key(case: LoadCase, free: np.ndarray, pinned: np.ndarray, volume_fraction: float, seed: np.ndarray) -> str:
    """A stable hash of everything the published optimum depends on."""
    digest = hashlib.sha256(f"{RECIPE}|{free.shape}|{SCORING_PENALTY}|{FILTER_RADIUS}".encode())
    for array in (case.force, case.fixed, free.astype(np.uint8), np.round(pinned, 6), np.round(seed, 6)):
        digest.update(np.ascontiguousarray(array).tobytes())
    digest.update(f"|{round(volume_fraction, 6):.6f}".encode())
    return digest.hexdigest()


def _database() -> Path | None:
    return default_cache() / "sphyr-optimum" / "optimum.sqlite"


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, timeout=30)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE IF NOT EXISTS optimum (key TEXT PRIMARY KEY, compliance REAL, origin TEXT)")
    connection.execute("CREATE TABLE IF NOT EXISTS note (key TEXT PRIMARY KEY, value TEXT)")
    return connection


def _read(key: str) -> tuple[float, str] | None:
    path = _database()
    if path is None or not path.exists():
        return None
    try:
        with _connect(path) as connection:
            row = connection.execute("SELECT compliance, origin FROM optimum WHERE key = ?", (key,)).fetchone()
    except sqlite3.Error:
        return None  # an unreadable cache only costs the recomputation
    if row is None:
        return None
    return (math.inf if row[0] is None else float(row[0])), str(row[1])


def _write(key: str, value: tuple[float, str]) -> None:
    path = _database()
    if path is None:
        return
    compliance = value[0] if math.isfinite(value[0]) else None
    try:
        with _connect(path) as connection:
            connection.execute("INSERT OR REPLACE INTO optimum VALUES (?, ?, ?)", (key, compliance, value[1]))
    except (sqlite3.Error, OSError):
        pass  # a read-only or full disk only costs the recomputation next time


def cached_reference(
    case: LoadCase, free: np.ndarray, pinned: np.ndarray, volume_fraction: float, seed: np.ndarray
) -> tuple[float, str]:
    """(optimal compliance, origin) of the published reference optimum, computed once per problem."""
    key = problem_key(case, free, pinned, volume_fraction, seed)
    hit = _memory.get(key) or _read(key)
    if hit is None:
        result = reference_optimum(ReferenceProblem(case, free, pinned, volume_fraction), seeds=[seed])
        hit = (result.compliance, result.origin)
        _write(key, hit)
    for found in _recording:
        found[key] = hit
    _memory[key] = hit
    _memory.move_to_end(key)
    if len(_memory) > MEMORY_SIZE:
        _memory.popitem(last=False)
    return hit


@contextlib.contextmanager
def recording() -> Iterator[dict[str, tuple[float, str]]]:
    """Collect every optimum asked for inside the block, by key (what a generated set ships, :func:`ship`)."""
    found: dict[str, tuple[float, str]] = {}
    _recording.append(found)
    try:
        yield found
    finally:
        _recording.remove(found)


SHIPPED_FILE = "optima.json"
"""The reference optima a generated set carries beside its records (``mechbench generate sphyr --optima``)."""
SHIPPED_DIGITS = 12
"""Significant digits of a shipped optimum: the optimiser's last digits may differ between CPUs and BLAS builds; the
topology scores it feeds are printed to three."""


def ship(found: dict[str, tuple[float, str]], folder: Path) -> Path:
    """Write ``found`` (from :func:`recording`) as ``folder/optima.json``: the optima this set's judge asks for, so a
    first run need not compile and run the optimiser. Same keys, same bytes."""
    lines = [
        f"{json.dumps(key)}: {json.dumps([None if not math.isfinite(c) else float(f'{c:.{SHIPPED_DIGITS}g}'), origin])}"
        for key, (c, origin) in sorted(found.items())
    ]
    path = folder / SHIPPED_FILE
    path.write_text(f'{{"recipe": {json.dumps(RECIPE)}, "optima": {{\n' + ",\n".join(lines) + "\n}}\n")
    return path


def load_shipped(folder: Path) -> int:
    """Take the optima shipped in ``folder`` (if any) into memory; returns how many. Each is keyed by the problem and
    :data:`RECIPE`, so an optimum shipped by another recipe is never used (it is simply computed again)."""
    path = folder / SHIPPED_FILE
    if not path.is_file():
        return 0
    try:
        shipped = json.loads(path.read_text(encoding="utf-8"))
        entries = shipped["optima"] if shipped.get("recipe") == RECIPE else {}
        taken = {str(k): (math.inf if v[0] is None else float(v[0]), str(v[1])) for k, v in entries.items()}
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return 0  # an unreadable file only costs the computation, like an unreadable cache
    for key, value in list(taken.items())[:MEMORY_SIZE]:
        _memory.setdefault(key, value)
    return len(taken)


def text_key(kind: str, text: str) -> str:
    """The cache key of a note of ``kind`` about ``text`` (tied to :data:`RECIPE`, like the optima)."""
    return hashlib.sha256(f"{RECIPE}|{kind}|{text}".encode()).hexdigest()


def _remember(key: str, value: str) -> None:
    _notes[key] = value
    if len(_notes) > MEMORY_SIZE:
        del _notes[next(iter(_notes))]


def read_note(key: str) -> str | None:
    """A note stored under ``key`` (in memory, else on disk), or None."""
    if key in _notes:
        return _notes[key]
    path = _database()
    if path is None or not path.exists():
        return None
    try:
        with _connect(path) as connection:
            row = connection.execute("SELECT value FROM note WHERE key = ?", (key,)).fetchone()
    except sqlite3.Error:
        return None
    if row is None:
        return None
    _remember(key, str(row[0]))
    return str(row[0])


def write_note(key: str, value: str) -> None:
    """Store a note that only a change of :data:`RECIPE` makes stale (e.g. a truth's recovered load axes)."""
    _remember(key, value)
    path = _database()
    if path is None:
        return
    try:
        with _connect(path) as connection:
            connection.execute("INSERT OR REPLACE INTO note VALUES (?, ?)", (key, value))
    except (sqlite3.Error, OSError):
        pass


def clear_memory() -> None:
    """Forget the in-memory entries (the disk cache stays)."""
    _memory.clear()
    _notes.clear()
