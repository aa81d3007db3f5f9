"""The published SPhyR reference optimum, step by step (``reference="published"``).

SPhyR's topology score divides the reference optimum's compliance by the answer's, so a score is only
comparable with the paper's when the reference is computed the paper's way. This module follows the
published recipe exactly — the constants, the order of the candidate designs, the bisection that keeps
its last evaluated point, the binarisation with ties, the first-strictly-lowest selection and the
best-improvement swap polish (the judge section of ``src/mechbench/benchmarks/sphyr/README.md``) — on compiled kernels
(:mod:`mechbench.topopt._kernels`). mechbench's own, stronger optimiser is :mod:`mechbench.topopt.simp`; both
are reached through :func:`mechbench.topopt.optimum`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from mechbench.core.budget import check_budget
from mechbench.core.threads import single_threaded
from mechbench.topopt import _kernels
from mechbench.topopt.fea import LoadCase, element_stiffness
from mechbench.topopt.recipe import CHANGE_TOLERANCE, FILTER_RADIUS, MAX_ITERATIONS, MOVE_LIMIT, SCORING_PENALTY

# The published recipe's own constants (the shared SIMP ones are in mechbench.topopt.recipe).
WARM_START_FLOOR = 1e-3
COLD_PENALTIES = (1.0, 2.0, 3.0)
CONTINUATION = (1.0, 2.0, 3.0)
FEASIBILITY_SLACK = 1e-9
SWAP_PASSES = 3
SWAP_SOURCES = 16
SWAP_TARGETS = 24
SWAP_IMPROVEMENT = 1e-12
# Screened swap values within this relative distance of the best are re-solved exactly (mechbench's choice).
SCREEN_MARGIN = 1e-6


@lru_cache(maxsize=16)
def filter_stencil(rows: int, cols: int, radius: float = FILTER_RADIUS) -> tuple[np.ndarray, ...]:
    """Raw filter weights max(0, r − distance) over the ⌈r⌉ − 1 neighbourhood, as CSR, and their row sums."""
    reach = math.ceil(radius) - 1
    indptr, indices, weights = [0], [], []
    for r in range(rows):
        for c in range(cols):
            for rr in range(max(r - reach, 0), min(r + reach, rows - 1) + 1):
                for cc in range(max(c - reach, 0), min(c + reach, cols - 1) + 1):
                    w = radius - math.hypot(rr - r, cc - c)
                    if w > 0:
                        indices.append(rr * cols + cc)
                        weights.append(w)
            indptr.append(len(indices))
    indptr_a, indices_a = np.array(indptr, dtype=np.int64), np.array(indices, dtype=np.int64)
    weights_a = np.array(weights)
    hs = np.add.reduceat(weights_a, indptr_a[:-1])
    return indptr_a, indices_a, weights_a, hs


@dataclass
class Assembly:
    """Everything the kernels need to solve one load case on one mesh."""

    case: LoadCase
    ke: np.ndarray = field(init=False)
    edofs: np.ndarray = field(init=False)
    emap: np.ndarray = field(init=False)
    free_dofs: np.ndarray = field(init=False)
    kd: int = field(init=False)
    solves: int = 0

    def __post_init__(self) -> None:
        mesh = self.case.mesh
        self.ke = np.ascontiguousarray(element_stiffness())
        self.edofs = np.ascontiguousarray(mesh.edofs)
        self.free_dofs = np.ascontiguousarray(self.case.free, dtype=np.int64)
        position = np.full(mesh.ndof, -1, dtype=np.int64)
        position[self.free_dofs] = np.arange(len(self.free_dofs))
        self.emap = np.ascontiguousarray(position[self.edofs])
        spans = [int(row[row >= 0].max() - row[row >= 0].min()) for row in self.emap if (row >= 0).any()]
        self.kd = max(spans, default=0)
        self.force = np.ascontiguousarray(self.case.force, dtype=float)

    def solve(self, rho: np.ndarray, penalty: float = SCORING_PENALTY) -> tuple[float, np.ndarray]:
        """Compliance (∞ when rejected) and displacements of the cell densities ``rho``."""
        self.solves += 1
        young = _kernels.young_moduli(np.ascontiguousarray(rho, dtype=float).ravel(), penalty)
        return _kernels.solve_cells(young, *self.kernel_args)

    @property
    def kernel_args(self) -> tuple:
        """The load case's arrays in the order every solving kernel takes them."""
        return self.ke, self.emap, self.edofs, self.free_dofs, self.force, self.kd

    def energies(self, u: np.ndarray) -> np.ndarray:
        return _kernels.unit_energies(u, self.ke, self.edofs)


@dataclass(frozen=True)
class ReferenceProblem:
    """The design space of §6: free cells, the pinned field and the budget."""

    case: LoadCase
    free: np.ndarray
    """Boolean mask (rows × cols) of the cells the optimiser may change."""
    pinned: np.ndarray
    """π: the truth densities clipped to [0, 1], L/S cells 1."""
    volume_fraction: float
    """The budget as a fraction of all cells (the truth's volume fraction)."""

    @property
    def total(self) -> float:
        return self.volume_fraction * self.free.size

    @property
    def pinned_volume(self) -> float:
        return float(self.pinned[~self.free].sum())

    @property
    def free_budget(self) -> float:
        return min(max(self.total - self.pinned_volume, 0.0), float(self.free.sum()))

    def feasible(self, design: np.ndarray) -> bool:
        return float(design.sum()) <= self.total + FEASIBILITY_SLACK


@dataclass(frozen=True)
class ReferenceResult:
    """The reference optimum: its compliance (∞ if none found), design and where it came from."""

    compliance: float
    design: np.ndarray
    origin: str
    solves: int


def simp(
    problem: ReferenceProblem,
    penalty: float,
    start: np.ndarray | None,
    assembly: Assembly,
    iterations: int = MAX_ITERATIONS,
) -> np.ndarray:
    """One published SIMP run (§8): cold from the uniform budget, or warm from ``start``; the filtered field.
    ``iterations`` below the recipe's stops the run early (the graded solvers of ``mechbench calibrate``)."""
    free = problem.free.ravel()
    pinned = problem.pinned.ravel()
    if not free.any():
        return problem.pinned.copy()
    if start is None:
        x = np.where(free, problem.free_budget / free.sum(), pinned)
    else:
        x = np.where(free, np.clip(start.ravel(), WARM_START_FLOOR, 1.0), pinned)
    check_budget()
    indptr, indices, weights, hs = filter_stencil(*problem.free.shape)
    rho, solves = _kernels.simp_run(
        np.ascontiguousarray(x, dtype=float),
        np.ascontiguousarray(free),
        np.ascontiguousarray(pinned, dtype=float),
        problem.pinned_volume + problem.free_budget,
        penalty,
        indptr,
        indices,
        weights,
        hs,
        MOVE_LIMIT,
        iterations,
        CHANGE_TOLERANCE,
        *assembly.kernel_args,
    )
    assembly.solves += solves
    return rho.reshape(problem.free.shape)


def binarise(design: np.ndarray, free: np.ndarray, budget: float) -> np.ndarray:
    """§9.2: free cells solid at ≥ 0.5, then redone by budget (k = ⌊B + 1e-9⌋ largest, ties solid)."""
    out = design.copy()
    out[free] = np.where(design[free] >= 0.5, 1.0, 0.0)
    if free.any():
        values = design[free]
        k = math.floor(budget + 1e-9)
        if k <= 0:
            threshold = math.inf
        elif k >= values.size:
            threshold = -math.inf
        else:
            threshold = np.sort(values)[::-1][k - 1]
        out[free] = np.where(values >= threshold, 1.0, 0.0)
    return out


def _designs(problem: ReferenceProblem, seeds: list[np.ndarray], assembly: Assembly) -> list[tuple[str, np.ndarray]]:
    designs = [(f"cold p={p:g}", simp(problem, p, None, assembly)) for p in COLD_PENALTIES]
    cold = dict(zip(COLD_PENALTIES, (d for _, d in designs), strict=True))
    chained: np.ndarray | None = None
    for p in CONTINUATION:
        # The chain's first link is a cold run: deterministic, so the cold run's result is reused.
        chained = cold[p] if chained is None and p in cold else simp(problem, p, chained, assembly)
        designs.append((f"continuation p={p:g}", chained))
    for i, seed in enumerate(seeds):
        seed_design = np.where(problem.free, np.clip(seed, 0.0, 1.0), problem.pinned)
        designs.append((f"seed {i}", seed_design))
        designs.append((f"seed {i} warm p=3", simp(problem, SCORING_PENALTY, seed_design, assembly)))
    return designs


def _swap_lists(design: np.ndarray, free: np.ndarray, energy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = design.shape
    solid = design > 0.5
    flat_free = free.ravel()
    sources = np.flatnonzero(flat_free & solid.ravel())
    sources = sources[np.argsort(energy[sources], kind="stable")][:SWAP_SOURCES]
    padded = np.pad(np.where(solid, energy.reshape(rows, cols), -np.inf), 1, constant_values=-np.inf)
    neighbour = np.full((rows, cols), -np.inf)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                neighbour = np.maximum(neighbour, padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols])
    score = np.where(np.isfinite(neighbour), neighbour, 0.0).ravel()
    targets = np.flatnonzero(flat_free & ~solid.ravel())
    targets = targets[np.argsort(-score[targets], kind="stable")][:SWAP_TARGETS]
    return sources, targets


def _scan(values: np.ndarray, best_c: float) -> tuple[int, float]:
    """§9.5.6: best improvement against a running best, ties keeping the earliest; (index or −1, best)."""
    chosen = -1
    for index, c in enumerate(values):
        if c < best_c - SWAP_IMPROVEMENT:
            best_c, chosen = float(c), index
    return chosen, best_c


def _swap_values(
    design: np.ndarray, sources: np.ndarray, targets: np.ndarray, pairs: np.ndarray, assembly: Assembly
) -> np.ndarray:
    """Compliance of every swap, source-major: screened by a low-rank update, contenders solved exactly.

    Only swaps within a relative 1e-6 of the best screened value can decide the running-best scan (every
    other one is beaten by more than the 1e-12 improvement step); those are re-solved with the published
    solve, so the scan sees exact values wherever it matters. If the screen fails or disagrees with the
    exact values, every swap is solved exactly.
    """
    args = assembly.kernel_args
    ok, screened = _kernels.swap_screen(design, sources, targets, *args)
    screened = screened.ravel()
    assembly.solves += 1
    if ok and np.isfinite(screened).any():
        best = float(screened.min())
        margin = SCREEN_MARGIN * abs(best)
        contenders = np.flatnonzero(screened <= best + margin)
        exact = _kernels.swap_exact(design, np.ascontiguousarray(pairs[contenders]), *args)
        assembly.solves += len(contenders)
        if np.isfinite(exact).all() and np.all(np.abs(exact - screened[contenders]) <= margin / 4):
            values = screened.copy()
            values[contenders] = exact
            return values
    assembly.solves += len(pairs)
    return _kernels.swap_exact(design, np.ascontiguousarray(pairs), *args)


def polish(problem: ReferenceProblem, start: np.ndarray, assembly: Assembly) -> tuple[np.ndarray, float]:
    """§9.5: best-improvement single-cell swaps, up to three passes; the design and its compliance."""
    design = start.ravel().copy()
    best_c, _ = assembly.solve(design)
    for _ in range(SWAP_PASSES):
        check_budget()
        _, u = assembly.solve(design)
        sources, targets = _swap_lists(design.reshape(start.shape), problem.free, assembly.energies(u))
        if not len(sources) or not len(targets):
            break
        pairs = np.stack(np.meshgrid(sources, targets, indexing="ij"), axis=-1).reshape(-1, 2)
        if math.isfinite(best_c):
            values = _swap_values(design, sources, targets, pairs, assembly)
        else:  # any finite swap improves an infinite start: no screening shortcut applies
            values = _kernels.swap_exact(design, np.ascontiguousarray(pairs), *assembly.kernel_args)
            assembly.solves += len(pairs)
        chosen, best_c = _scan(values, best_c)
        if chosen < 0:
            break
        s, t = pairs[chosen]
        design[s], design[t] = 0.0, 1.0
    return design.reshape(start.shape), best_c


@single_threaded
def reference_optimum(problem: ReferenceProblem, seeds: list[np.ndarray] | None = None) -> ReferenceResult:
    """The published reference optimum of ``problem`` (§9), with the truth densities as the one seed."""
    assembly = Assembly(problem.case)
    seeds = seeds or []
    candidates: list[tuple[str, np.ndarray]] = []
    for label, design in _designs(problem, seeds, assembly):
        candidates.append((label, design))
        candidates.append((f"{label}, binarised", binarise(design, problem.free, problem.free_budget)))
    selected: tuple[str, np.ndarray, float] | None = None
    for label, design in candidates:
        if not problem.feasible(design):
            continue
        c, _ = assembly.solve(design)
        if math.isfinite(c) and (selected is None or c < selected[2]):
            selected = (label, design, c)
    if selected is None:
        label, design = candidates[-1]
        c, _ = assembly.solve(design)
        selected = (label, design, c)
    label, design, c = selected
    if problem.free.any():
        polished, polished_c = polish(problem, binarise(design, problem.free, problem.free_budget), assembly)
        if polished_c < c and problem.feasible(polished):
            label, design, c = f"{label}, polished", polished, polished_c
    return ReferenceResult(c, design, label, assembly.solves)
