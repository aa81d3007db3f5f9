"""Does a fresh SPhyR set differ from the published one? (``mechbench calibrate sphyr``)

Two kinds of evidence, both computed here from the two sets' files alone:

* **Features**, item by item: the load and support layout, the truths' material and structure, and the subjects'
  mask sizes. Each is compared with a two-sample permutation test (difference of means for numbers, the chi-square
  statistic for categories: exact enough for small, tied samples, where asymptotic tests are far too lenient), its
  effect size (Cliff's delta, Cramér's V), and a Holm-corrected p-value across the features that vary at all
  (a feature constant in both sets, such as a fixed mask count, is shown but cannot differ).
* **A panel of solvers of graded skill**, scored on both sets with the benchmark's own metric (the normalised score,
  its mean over a set): random, all-empty, all-solid, retrieval from a disjoint half of the same set, the truth with
  planted errors at two rates, and the published optimiser stopped after 1, 3 and 10 iterations. Scores are means
  over items (each item's subjects averaged first: one layout's subjects are not independent) with 95 % Welch
  intervals of the difference.

The verdict is what these tests can say: **no difference detected at N items** (no feature differs after
correction and every difference interval holds 0), or which ones differ. It is not a proof of equivalence: the
report gives each solver's interval, the smallest difference N items could have shown.

A set is a folder of ``<subject>.jsonl`` files in the published record format; items are matched across subjects by
position (every subject of a published or generated set masks the same layouts).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mechbench.benchmarks.sphyr.generate import subject_kinds
from mechbench.benchmarks.sphyr.grid import LOAD, MASK, SUPPORT, load_case
from mechbench.benchmarks.sphyr.load_direction import AXES, cached_axes
from mechbench.benchmarks.sphyr.retrieval import retrieve
from mechbench.benchmarks.sphyr.scoring import score_grid
from mechbench.benchmarks.sphyr.versions import GENERATION_VOLUME_FRACTION
from mechbench.core.errors import DataSourceError
from mechbench.core.limits import MAX_RECORDS_PER_FILE, check_count
from mechbench.harness import calibration
from mechbench.harness.calibration import MIN_ITEMS
from mechbench.sources.files import read_data_text
from mechbench.topopt.recipe import SCORING_PENALTY
from mechbench.topopt.reference import Assembly, ReferenceProblem, binarise, simp

Grid = list[list[str]]
PLANTED_RATES = (0.05, 0.2)
OPTIMISER_ITERATIONS = (1, 3, 10)
PANEL = (
    "random",
    "all-empty",
    "all-solid",
    "retrieval (disjoint half)",
    *(f"truth, {rate:.0%} of masked cells wrong" for rate in PLANTED_RATES),
    *(f"optimiser, {k} iteration{'s' if k > 1 else ''}" for k in OPTIMISER_ITERATIONS),
)
EDGES = ("top", "bottom", "left", "right")


@dataclass(frozen=True)
class SphyrSet:
    """One set's records by subject (the same items, in the same order, in every subject)."""

    name: str
    records: dict[str, list[dict[str, Any]]]

    @property
    def items(self) -> int:
        return min(len(r) for r in self.records.values())

    def first(self, count: int) -> SphyrSet:
        """The set's first ``count`` items."""
        return SphyrSet(self.name, {s: rows[:count] for s, rows in self.records.items()})

    def truth(self, level: str, index: int) -> Grid:
        return self.records[f"full_{level}"][index]["ground_truth"]


def subject_paths(folder: Path) -> dict[str, Path]:
    """``<subject>.jsonl`` of every subject in ``folder``."""
    return {subject: folder / f"{subject}.jsonl" for subject, _, _ in subject_kinds()}


def read_set(paths: dict[str, Path], name: str, limit: int | None = None) -> SphyrSet:
    """The records of all 16 subjects (``limit`` items of each at most), from their files."""
    records: dict[str, list[dict[str, Any]]] = {}
    for subject, path in paths.items():
        if not path.is_file():
            raise DataSourceError(f"{path.parent}: no {subject}.jsonl (a set to calibrate has all 16 subjects)")
        lines = [line for line in read_data_text(path).splitlines() if line.strip()]
        check_count(len(lines), MAX_RECORDS_PER_FILE, "records", path.name)
        try:
            rows = [json.loads(line) for line in lines[:limit]]
        except json.JSONDecodeError as error:
            raise DataSourceError(f"{path}: line {error.lineno}: not JSON ({error.msg})") from None
        for number, row in enumerate(rows, 1):
            _check_record(row, subject, f"{path}: record {number}")
        records[subject] = rows
    counts = {len(rows) for rows in records.values()}
    if len(counts) != 1 or not min(counts):
        raise DataSourceError(f"{name}: the subjects hold different numbers of items ({sorted(counts)})")
    return SphyrSet(name, records)


def _check_record(row: Any, subject: str, where: str) -> None:
    """A record the calibration can read: square grids of one size, tokens of the subject's kind."""
    if not isinstance(row, dict) or "input_grid" not in row or "ground_truth" not in row:
        raise DataSourceError(f"{where}: every record needs input_grid and ground_truth")
    hard = subject.endswith("_hard")
    for field in ("input_grid", "ground_truth"):
        grid = row[field]
        if not isinstance(grid, list) or not grid or any(not isinstance(r, list) or len(r) != len(grid) for r in grid):
            raise DataSourceError(f"{where}: {field} is not a square grid")
        for r in grid:
            for token in r:
                if not isinstance(token, str) or not _readable(token, hard, field == "input_grid"):
                    raise DataSourceError(f"{where}: {field} holds {str(token)[:20]!r}, not a {subject} cell")


def _readable(token: str, hard: bool, masked: bool) -> bool:
    if token in (LOAD, SUPPORT) or (masked and token == MASK):
        return True
    if not hard:
        return token in ("0", "1")
    try:
        return 0.0 <= float(token) <= 1.0
    except ValueError:
        return False


def check_sizes(sphyr: SphyrSet, size: int) -> None:
    """Refuse a set whose grids are not ``size`` × ``size`` (a v2-20 set compared with v2, say)."""
    found = {len(rows[0]["ground_truth"]) for rows in sphyr.records.values() if rows}
    if found != {size}:
        raise DataSourceError(f"{sphyr.name}: grids of {sorted(found)} cells a side, where {size} were expected")


# --- features ----------------------------------------------------------------------------------------------------


def _cells(grid: Grid, token: str) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(grid) for c, t in enumerate(row) if t == token]


def _edges(cells: list[tuple[int, int]], size: int) -> set[str]:
    found = set()
    for r, c in cells:
        found |= {e for e, hit in zip(EDGES, (r == 0, r == size - 1, c == 0, c == size - 1), strict=True) if hit}
    return found


def _components(solid: np.ndarray) -> int:
    from scipy.ndimage import label

    return int(label(solid)[1])


def item_features(easy: Grid, hard: Grid) -> dict[str, float | str]:
    """What one item's layout and truths look like: the features the sets are compared on."""
    size = len(easy)
    loads, supports = _cells(easy, LOAD), _cells(easy, SUPPORT)
    load_edges, support_edges = _edges(loads, size), _edges(supports, size)
    free = np.array([[t not in (LOAD, SUPPORT) for t in row] for row in easy])
    solid = np.array([[t in ("1", LOAD, SUPPORT) for t in row] for row in easy])
    density = np.array([[float(t) if t not in (LOAD, SUPPORT) else 1.0 for t in row] for row in hard])
    if load_edges & support_edges:
        relation = "same edge"
    elif any({a, b} in ({"top", "bottom"}, {"left", "right"}) for a in load_edges for b in support_edges):
        relation = "opposite"
    else:
        relation = "adjacent"
    return {
        "load cells": float(len(loads)),
        "support cells": float(len(supports)),
        "support edges": str(len(support_edges)),
        "load edge to support edge": relation,
        "solid share of free cells (easy truth)": float(solid[free].mean()),
        "intermediate-density share (hard truth)": float(((density > 0) & (density < 1))[free].mean()),
        "hard truth has intermediate densities": "yes" if ((density > 0) & (density < 1))[free].any() else "no",
        "solid regions (easy truth)": float(_components(solid)),
    }


def feature_table(sphyr: SphyrSet) -> dict[str, list[float | str]]:
    """Every feature's values over the set's items, and each subject's masked-cell counts."""
    table: dict[str, list[float | str]] = {}
    for i in range(sphyr.items):
        for name, value in item_features(sphyr.truth("easy", i), sphyr.truth("hard", i)).items():
            table.setdefault(name, []).append(value)
    for subject, rows in sphyr.records.items():
        if subject.startswith("full_"):  # every free cell: 100 minus the load and support cells, compared above
            continue
        table[f"masked cells ({subject})"] = [float(sum(t == MASK for rw in r["input_grid"] for t in rw)) for r in rows]
    return table


def feature_rows(fresh: SphyrSet, published: SphyrSet) -> list[dict[str, Any]]:
    """Every feature compared between the sets (:func:`mechbench.harness.calibration.feature_rows`)."""
    return calibration.feature_rows(feature_table(fresh), feature_table(published))


# --- the panel ---------------------------------------------------------------------------------------------------


def _token(value: float, hard: bool) -> str:
    return f"{min(max(value, 0.0), 1.0):.1f}" if hard else ("1" if value >= 0.5 else "0")


def _filled(input_grid: Grid, choose: Callable[[int, int], str]) -> Grid:
    return [[choose(r, c) if t == MASK else t for c, t in enumerate(row)] for r, row in enumerate(input_grid)]


def _planted(record: dict[str, Any], hard: bool, rate: float, rng: random.Random) -> Grid:
    truth = record["ground_truth"]

    def choose(r: int, c: int) -> str:
        if rng.random() >= rate:
            return truth[r][c]
        if not hard:
            return "0" if truth[r][c] == "1" else "1"
        return rng.choice([f"{v / 10:.1f}" for v in range(11) if f"{v / 10:.1f}" != truth[r][c]])

    return _filled(record["input_grid"], choose)


def _direction(easy_truth: Grid) -> tuple[float, float]:
    """The load direction a solver assumes, found the same way on both sets: the axis the truth was optimised for
    (recovered by re-running the generator; the sign does not change a compliance optimum), else down. A record's
    stored ``load_direction`` is not used: published records have none, and a recovery error must weigh on both."""
    axes = cached_axes(easy_truth)
    return AXES[axes[0]] if axes else (1.0, 0.0)


def _optimised(record: dict[str, Any], hard: bool, iterations: int, direction: tuple[float, float]) -> Grid:
    """The published optimiser on the masked cells (the visible ones pinned, the generator's volume fraction),
    stopped after ``iterations``; rounded as the subject writes cells."""
    grid = record["input_grid"]
    free = np.array([[t == MASK for t in row] for row in grid])
    pinned = np.array(
        [[1.0 if t in (LOAD, SUPPORT) else (0.0 if t == MASK else float(t)) for t in row] for row in grid]
    )
    skeleton = [[t if t in (LOAD, SUPPORT) else "0" for t in row] for row in grid]
    problem = ReferenceProblem(load_case(skeleton, direction), free, pinned, GENERATION_VOLUME_FRACTION)
    design = simp(problem, SCORING_PENALTY, None, Assembly(problem.case), iterations=iterations)
    if not hard:
        design = binarise(design, free, problem.free_budget)
    return _filled(grid, lambda r, c: _token(float(design[r, c]), hard))


def panel_answer(
    solver: str, record: dict[str, Any], hard: bool, rng: random.Random, library: list[Grid], direction: Any
) -> Grid:
    """Solver ``solver``'s answer to one record."""
    grid = record["input_grid"]
    if solver == "random":
        return _filled(grid, lambda r, c: f"{rng.randint(0, 10) / 10:.1f}" if hard else str(rng.randint(0, 1)))
    if solver == "all-empty":
        return _filled(grid, lambda r, c: "0.0" if hard else "0")
    if solver == "all-solid":
        return _filled(grid, lambda r, c: "1.0" if hard else "1")
    if solver.startswith("retrieval"):
        return retrieve(grid, library, skip_perfect=False)
    if solver.startswith("truth, "):
        return _planted(record, hard, float(solver.split(", ")[1].split("%")[0]) / 100, rng)
    if solver.startswith("optimiser, "):
        return _optimised(record, hard, int(solver.split(", ")[1].split()[0]), direction())
    raise ValueError(f"unknown panel solver {solver!r}; the panel: {', '.join(PANEL)}")


def panel_scores(
    sphyr: SphyrSet, solvers: tuple[str, ...] = PANEL, seed: int = 0, library_size: int | None = None
) -> dict[str, list[float]]:
    """Each solver's score per item: the normalised score averaged over the item's 16 subjects. Retrieval searches
    the other half of the set, ``library_size`` items of it at most (the same count on both sets: more to search
    finds closer answers). The load axis is recovered once per truth (:func:`cached_axes` keeps it)."""
    half = sphyr.items // 2
    size = library_size or sphyr.items
    out: dict[str, list[float]] = {}
    for solver in solvers:
        per_item = np.zeros(sphyr.items)
        for subject, _, level in subject_kinds():
            rows = sphyr.records[subject]
            truths = [r["ground_truth"] for r in rows]
            for i, record in enumerate(rows[: sphyr.items]):
                rng = random.Random(f"{seed}:{solver}:{subject}:{i}")
                other = truths[half : sphyr.items] if i < half else truths[:half]  # disjoint by construction
                library = other[:size]
                direction = functools.partial(_direction, sphyr.truth("easy", i))
                answer = panel_answer(solver, record, level == "hard", rng, library, direction)
                per_item[i] += score_grid(record["input_grid"], record["ground_truth"], answer).normalized_score
        out[solver] = (per_item / len(sphyr.records)).tolist()
    return out


def panel_rows(fresh: SphyrSet, published: SphyrSet, solvers: tuple[str, ...] = PANEL) -> list[dict[str, Any]]:
    """Each solver on both sets (:func:`mechbench.harness.calibration.panel_rows`), retrieval searching the same
    number of items on both."""
    library = min(fresh.items, published.items) // 2
    a = panel_scores(fresh, solvers, library_size=library)
    b = panel_scores(published, solvers, library_size=library)
    return calibration.panel_rows(a, b)


def calibrate(
    fresh: SphyrSet, published: SphyrSet, solvers: tuple[str, ...] = PANEL, replies: Replies | None = None
) -> dict[str, Any]:
    """The whole report of ``fresh`` against ``published`` (their first N items each, N the smaller count), with
    what recorded ``replies`` say when given."""
    count = min(fresh.items, published.items)
    if count < MIN_ITEMS:
        raise DataSourceError(f"{count} items to compare; calibration needs at least {MIN_ITEMS} in each set")
    fresh, published = fresh.first(count), published.first(count)
    features = feature_rows(fresh, published)
    panel = panel_rows(fresh, published, solvers)
    report = calibration.report((fresh.name, published.name), (count, count), features, panel)
    if replies is not None:
        report["replies"] = replies_report(replies, fresh, published)
    return {**report, "score": "mean normalised score"}


# --- recorded replies --------------------------------------------------------------------------------------------


def record_features(input_grid: Grid, truth: Grid) -> dict[str, float]:
    """What a recorded reply's item looks like, from its own record (any subject, easy or hard): the layout, the
    masked cells and the solid share of the truth's free cells (mean density for a hard truth)."""
    size = len(truth)
    loads, supports = _cells(truth, LOAD), _cells(truth, SUPPORT)
    free = [float(t) for row in truth for t in row if t not in (LOAD, SUPPORT)]
    return {
        "load cells": float(len(loads)),
        "support cells": float(len(supports)),
        "support edges": float(len(_edges(supports, size))),
        "masked cells": float(sum(t == MASK for row in input_grid for t in row)),
        "solid share of free cells": float(np.mean(free)) if free else 0.0,
    }


@dataclass(frozen=True)
class Replies:
    """Recorded replies, rescored: per subject, each record's features and normalised score."""

    source: str
    features: dict[str, list[dict[str, float]]]
    scores: dict[str, list[float]]


def read_replies(paths: list[Path], size: int) -> Replies:
    """Results files of published replies (the published JSON arrays, or JSONL with ``subject``), each record
    rescored with the benchmark's metric; refused when their grids are not ``size`` cells a side."""
    from mechbench.benchmarks.sphyr.rescore import read_results_file, record_grids

    known = {subject for subject, _, _ in subject_kinds()}
    features: dict[str, list[dict[str, float]]] = {}
    scores: dict[str, list[float]] = {}
    for path in paths:
        for position, record in enumerate(read_results_file(path), 1):
            where = f"{path}: record {position}"
            input_grid, truth = record_grids(record, position, str(path))
            subject = record.get("subject")
            if not isinstance(subject, str) or subject not in known:  # the published full_* files say "input_grid"
                subject = path.name.removesuffix("_results.json").removesuffix(".jsonl")
            if subject not in known:
                raise DataSourceError(f"{where}: names no SPhyR subject, nor does its file name")
            for field, grid in (("input_grid", input_grid), ("ground_truth", truth)):
                if len(grid) != size or any(len(row) != size for row in grid):
                    raise DataSourceError(
                        f"{where}: {field} is not {size}×{size}; replies on other grids cannot speak for "
                        f"{size}×{size} items"
                    )
            _check_record({"input_grid": input_grid, "ground_truth": truth}, subject, where)
            completion = record.get("completion")
            score = score_grid(input_grid, truth, completion if isinstance(completion, str) else "").normalized_score
            features.setdefault(subject, []).append(record_features(input_grid, truth))
            scores.setdefault(subject, []).append(score)
    source = ", ".join(sorted({p.parent.name or str(p) for p in paths}))
    return Replies(source, features, scores)


def replies_report(replies: Replies, fresh: SphyrSet, published: SphyrSet) -> dict[str, Any]:
    """Difficulty by feature over every recorded reply, and the score the replies predict on each set: per item,
    the mean over the recorded subjects of its nearest recorded items' scores."""
    absent = sorted(s for s in replies.scores if s not in fresh.records or s not in published.records)
    if absent:
        raise DataSourceError(f"replies on subjects the sets do not hold: {', '.join(absent)}")

    def table(rows: list[dict[str, float]]) -> dict[str, list[float]]:
        return {name: [row[name] for row in rows] for name in rows[0]}

    def items(sphyr: SphyrSet) -> dict[str, dict[str, list[float]]]:
        return {s: table([record_features(r["input_grid"], r["ground_truth"]) for r in sphyr.records[s]])
                for s in replies.scores}  # fmt: skip

    recorded = {s: (table(replies.features[s]), replies.scores[s]) for s in replies.scores}
    return calibration.replies_section(replies.source, recorded, items(fresh), items(published))
