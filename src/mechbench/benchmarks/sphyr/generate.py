"""Fresh SPhyR-style samples: random load and support placements, ground truth by mechbench's SIMP.

Each base problem puts a run of load cells on one edge and a run of support cells on the opposite edge
(gravity pointing from the loads towards the supports, as in SPhyR v1 when the loads are on row 0),
optimises the interior with SIMP at a random volume fraction, and rounds densities to one decimal
(hard); easy = hard with every non-zero cell set to 1. Degenerate cases (no load path, all-empty or
all-solid interiors) are rejected. The published masking rule of each subject is then applied.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import numpy as np

from mechbench.benchmarks.sphyr.grid import load_case
from mechbench.topopt.fea import solve
from mechbench.topopt.simp import Problem, optimise

SUBJECT_KINDS = (
    "1_random_cell",
    "5_random_cell",
    "10_random_cell",
    "1_random_row",
    "3_random_row",
    "1_random_column",
    "3_random_column",
    "full",
)


def subject_kinds(subjects: list[str] | None = None) -> Iterator[tuple[str, str, str]]:
    """(subject, kind, level) of every subject in the published order, or only of ``subjects`` when given."""
    for kind in SUBJECT_KINDS:
        for level in ("easy", "hard"):
            subject = f"{kind}_{level}"
            if not subjects or subject in subjects:
                yield subject, kind, level


def _token(value: float, hard: bool) -> str:
    return f"{value:.1f}" if hard else ("1" if value > 0 else "0")


def base_problem(rng: random.Random, rows: int = 10, cols: int = 10) -> tuple[list[list[str]], list[list[str]]] | None:
    """(hard truth, easy truth) for one random problem, or None when it is degenerate."""
    load_width, support_width = rng.randint(1, cols // 2), rng.randint(2, cols // 2 + 1)
    load_start = rng.randint(0, cols - load_width)
    support_start = rng.randint(0, cols - support_width)
    skeleton = [["0"] * cols for _ in range(rows)]
    for c in range(load_start, load_start + load_width):
        skeleton[0][c] = "L"
    for c in range(support_start, support_start + support_width):
        skeleton[-1][c] = "S"
    case = load_case(skeleton)
    pinned = np.array([[1.0 if t in ("L", "S") else 0.0 for t in row] for row in skeleton])
    free = np.zeros((rows, cols), dtype=bool)
    free[1:-1, :] = True
    volume_fraction = rng.choice([0.15, 0.2, 0.25, 0.3])
    volume = pinned.sum() + volume_fraction * free.sum()
    start = np.where(free, volume_fraction, pinned)
    design = optimise(Problem(case, free, pinned, float(volume)), start, [1.0, 2.0, 3.0])
    rounded = np.round(np.where(free, design, pinned), 1)
    hard = [
        [t if t in ("L", "S") else _token(rounded[r, c], True) for c, t in enumerate(row)]
        for r, row in enumerate(skeleton)
    ]
    easy = [
        [t if t in ("L", "S") else _token(rounded[r, c], False) for c, t in enumerate(row)]
        for r, row in enumerate(skeleton)
    ]
    interior = rounded[1:-1]
    solid = np.array([[1.0 if t in ("L", "S") or t == "1" else 0.0 for t in row] for row in easy])
    if interior.max() == 0 or interior.min() > 0 or not np.isfinite(solve(solid, case).compliance):
        return None
    if solve(solid, case).compliance > 1000 * solve(np.ones((rows, cols)), case).compliance:
        return None  # the easy answer does not carry the load: no load path
    return hard, easy


def mask(truth: list[list[str]], subject_kind: str, rng: random.Random) -> list[list[str]]:
    """The input grid of a subject: the published masking rule applied to ``truth``."""
    rows, cols = len(truth), len(truth[0])
    grid = [list(row) for row in truth]
    if subject_kind.endswith("random_cell"):
        count = int(subject_kind.split("_")[0])
        for _ in range(count):  # with replacement, may cover an L or S cell, as published
            grid[rng.randrange(rows)][rng.randrange(cols)] = "V"
    elif subject_kind.endswith("random_row"):
        for r in rng.sample(range(1, rows - 1), int(subject_kind.split("_")[0])):
            grid[r] = ["V"] * cols
    elif subject_kind.endswith("random_column"):
        for c in rng.sample(range(cols), int(subject_kind.split("_")[0])):
            for r in range(rows):
                grid[r][c] = "V"
    elif subject_kind == "full":
        for r in range(1, rows - 1):
            grid[r] = ["V"] * cols
    else:
        raise ValueError(f"unknown subject kind {subject_kind!r}")
    return grid


def candidate(job: tuple[int, int, int, int]) -> tuple[list[list[str]], list[list[str]]] | None:
    """Base problem number ``k`` of a seed: its own random stream, so any executor gives the same result."""
    seed, k, rows, cols = job
    return base_problem(random.Random(f"{seed}:{k}"), rows, cols)


def generate_sphyr(
    n: int,
    seed: int,
    rows: int = 10,
    cols: int = 10,
    subjects: list[str] | None = None,
    run: Callable[[Callable, list], list] | None = None,
) -> dict[str, list[dict]]:
    """``n`` records per subject (all 16 unless ``subjects``), reproducible from ``seed``.

    ``run(fn, jobs)`` maps the optimisations (default: in this process); see :mod:`mechbench.core.executor`.
    """
    run = run or (lambda fn, jobs: [fn(job) for job in jobs])
    bases: list[tuple[list[list[str]], list[list[str]]]] = []
    tried = 0
    while len(bases) < n:
        if tried > 50 * max(n, 1):
            raise RuntimeError("too many degenerate problems; try another seed or size")
        batch = 2 * (n - len(bases)) + 2
        results = run(candidate, [(seed, tried + k, rows, cols) for k in range(batch)])
        tried += batch
        bases.extend(r for r in results if r is not None)
    bases = bases[:n]
    out: dict[str, list[dict]] = {}
    for subject, kind, level in subject_kinds(subjects):
        subject_rng = random.Random(f"{seed}:{subject}")  # masks independent of which subjects are asked
        records = []
        for index, (hard, easy) in enumerate(bases):
            truth = hard if level == "hard" else easy
            records.append({"index": index, "input_grid": mask(truth, kind, subject_rng), "ground_truth": truth})
        out[subject] = records
    return out
