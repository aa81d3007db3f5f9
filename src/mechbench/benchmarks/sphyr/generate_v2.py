"""Fresh SPhyR v2 / v2-20 style samples, with the load direction written into every record.

Drawn as upstream's v2 generator draws its samples (its dataset-creation code at the pinned commit), in mechbench's
own random streams: 1–3 contiguous load cells on a random edge, 2–5 contiguous support cells on another edge (with
probability 0.35 a second run of 2–4 on any edge but the load's), a load direction from the eight (row, col) steps;
the ground truth is the published reference optimum at volume fraction 0.3 with every non-L/S cell free (easy: the
30 % most solid cells of the whole grid; hard: densities to one decimal). Samples are kept apart: boundary layouts
differ in at least 6 cells and easy solutions in at least 8. Masks never cover L or S; counts scale with the grid
(cells with area, rows and columns with side).

Upstream's records do not say which direction a sample was drawn with; these do (``load_direction``, an extra
field upstream readers ignore), and mechbench's physics and directional metrics use it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from mechbench.benchmarks.sphyr.grid import load_case
from mechbench.benchmarks.sphyr.versions import GENERATION_VOLUME_FRACTION
from mechbench.topopt.reference import ReferenceProblem, binarise, reference_optimum

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
EDGES = ("top", "bottom", "left", "right")
SECOND_SUPPORT_PROBABILITY = 0.35
LAYOUT_DISTANCE = 6
SOLUTION_DISTANCE = 8
MAX_COMPLIANCE = 1e6
BASE_SIZE = 10
KIND_COUNTS = {"cell": (1, 5, 10), "row": (1, 3), "column": (1, 3)}


def _edge_cells(edge: str, size: int) -> list[tuple[int, int]]:
    line = range(size)
    return {
        "top": [(0, c) for c in line],
        "bottom": [(size - 1, c) for c in line],
        "left": [(r, 0) for r in line],
        "right": [(r, size - 1) for r in line],
    }[edge]


def _run(rng: random.Random, edge: str, size: int, low: int, high: int) -> list[tuple[int, int]]:
    cells = _edge_cells(edge, size)
    length = rng.randint(low, high)
    start = rng.randint(0, size - length)
    return cells[start : start + length]


def v2_solution(
    skeleton: list[list[str]], direction: tuple[float, float]
) -> tuple[list[list[str]], list[list[str]]] | None:
    """The (easy, hard) ground truths of a layout of L/S cells under a load ``direction``, as upstream's v2 generator
    makes them, or None when the optimum does not carry the load.

    The published reference optimiser at volume fraction 0.3, every non-L/S cell free, no seed; easy: the
    round(0.3·N) most solid cells of the whole grid (L/S included in the count, ties solid); hard: densities to one
    decimal. Used to draw new samples and to recover the direction an upstream sample was drawn with.
    """
    size_r, size_c = len(skeleton), len(skeleton[0])
    structural = np.array([[t in ("L", "S") for t in row] for row in skeleton])
    problem = ReferenceProblem(
        load_case(skeleton, direction), ~structural, structural.astype(float), GENERATION_VOLUME_FRACTION
    )
    result = reference_optimum(problem)
    if not np.isfinite(result.compliance) or result.compliance > MAX_COMPLIANCE:
        return None
    solid = binarise(result.design, np.ones_like(structural), round(GENERATION_VOLUME_FRACTION * size_r * size_c))
    rounded = np.round(result.design, 1)
    easy = [[t if t in ("L", "S") else ("1" if solid[r, c] > 0.5 else "0") for c, t in enumerate(row)]
            for r, row in enumerate(skeleton)]  # fmt: skip
    hard = [[t if t in ("L", "S") else f"{rounded[r, c]:.1f}" for c, t in enumerate(row)]
            for r, row in enumerate(skeleton)]  # fmt: skip
    return easy, hard


def v2_candidate(job: tuple[int, int, int]) -> dict | None:
    """Candidate ``k`` of a seed (its own random stream, so any executor gives the same result), or None."""
    seed, k, size = job
    rng = random.Random(f"{seed}:v2:{k}")
    load_edge = rng.choice(EDGES)
    loads = _run(rng, load_edge, size, 1, 3)
    supports = _run(rng, rng.choice([e for e in EDGES if e != load_edge]), size, 2, 5)
    if rng.random() < SECOND_SUPPORT_PROBABILITY:
        supports += _run(rng, rng.choice([e for e in EDGES if e != load_edge]), size, 2, 4)
    supports = sorted(set(supports) - set(loads))
    if len(supports) < 2:
        return None
    direction = rng.choice(DIRECTIONS)
    skeleton = [["0"] * size for _ in range(size)]
    for r, c in loads:
        skeleton[r][c] = "L"
    for r, c in supports:
        skeleton[r][c] = "S"
    solution = v2_solution(skeleton, direction)
    if solution is None:
        return None
    easy, hard = solution
    return {"layout": skeleton, "easy": easy, "hard": hard, "load_direction": list(direction)}


def _distance(a: list[list[str]], b: list[list[str]]) -> int:
    return sum(x != y for ra, rb in zip(a, b, strict=True) for x, y in zip(ra, rb, strict=True))


def v2_mask(truth: list[list[str]], kind: str, rng: random.Random) -> list[list[str]]:
    """The v2 masking rule: only free (non-L/S) cells, counts scaled with the grid, no replacement."""
    size = len(truth)
    scale = size / BASE_SIZE
    grid = [list(row) for row in truth]
    free = [(r, c) for r in range(size) for c in range(size) if truth[r][c] not in ("L", "S")]
    if kind == "full":
        chosen = free
    else:
        count_text, _, what = kind.split("_")
        count = int(count_text)
        if what == "cell":
            chosen = rng.sample(free, min(len(free), round(count * scale * scale)))
        else:
            axis = 0 if what == "row" else 1
            lines = sorted({cell[axis] for cell in free})
            picked = set(rng.sample(lines, min(len(lines), round(count * scale))))
            chosen = [cell for cell in free if cell[axis] in picked]
    for r, c in chosen:
        grid[r][c] = "V"
    return grid


def near(candidate: dict, other: dict) -> bool:
    """Upstream's rejection rule: two samples are too close when their boundary layouts differ in fewer than
    :data:`LAYOUT_DISTANCE` cells or their easy solutions in fewer than :data:`SOLUTION_DISTANCE`."""
    return (
        _distance(candidate["layout"], other["layout"]) < LAYOUT_DISTANCE
        or _distance(candidate["easy"], other["easy"]) < SOLUTION_DISTANCE
    )


def published_item(easy_truth: list[list[str]]) -> dict:
    """A published sample as the rejection rule sees it (its layout and easy solution)."""
    layout = [[t if t in ("L", "S") else "0" for t in row] for row in easy_truth]
    return {"layout": layout, "easy": [list(row) for row in easy_truth]}


def generate_sphyr_v2(
    n: int,
    seed: int,
    size: int = 10,
    subjects: list[str] | None = None,
    run: Callable | None = None,
    excluded: list[dict] | None = None,
) -> dict[str, list[dict]]:
    """``n`` records per subject (all 16 unless ``subjects``) on ``size``×``size`` grids, reproducible from ``seed``.

    ``excluded``: samples (:func:`published_item`) no new one may lie near, by the same rule that keeps the new ones
    apart (a fresh set then holds nothing a published set has, in layout or solution)."""
    excluded = [e for e in excluded or [] if len(e["layout"]) == size]
    from mechbench.benchmarks.sphyr.generate import subject_kinds

    run = run or (lambda fn, jobs: [fn(job) for job in jobs])
    accepted: list[dict] = []
    tried = 0
    while len(accepted) < n:
        if tried > 60 * max(n, 1):
            raise RuntimeError("too many rejected v2 samples; try another seed or size")
        batch = 2 * (n - len(accepted)) + 2
        for candidate in run(v2_candidate, [(seed, tried + k, size) for k in range(batch)]):
            if candidate is None or len(accepted) == n:
                continue
            if not any(near(candidate, other) for other in (*accepted, *excluded)):
                accepted.append(candidate)
        tried += batch
    out: dict[str, list[dict]] = {}
    for subject, kind, level in subject_kinds(subjects):
        rng = random.Random(f"{seed}-{kind}-{level}")
        out[subject] = [
            {
                "index": index,
                "input_grid": v2_mask(sample[level], kind, rng),
                "ground_truth": sample[level],
                "load_direction": sample["load_direction"],
            }
            for index, sample in enumerate(accepted)
        ]
    return out
