"""The numerical core: element matrices, assembly, factorisation and recovery, vectorised over a batch.

Every model of a batch is flattened (:mod:`mechbench.frame.compile`), all links of all models go
through the element stages together, and the systems are solved as one padded stack of dense
matrices. Per-model Python work is thereby limited to flattening and formatting, which is what
makes many small structures cheap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from mechbench.core.errors import UnstableStructureError
from mechbench.frame.compile import Compiled
from mechbench.frame.elements import condense_releases, local_stiffness, rotation
from mechbench.frame.loads import SpanLoads, fixed_end_vector

# FrameCalc imposes every restraint with a linear spring of exactly this stiffness (kN/m, kN·m/rad):
# the published ground truth is reproduced to 1e-13 with it, and only to ~1e-7 with exact restraints.
SUPPORT_STIFFNESS = 1e12
# A restraint spring is at least this many times stiffer than the stiffest member stiffness entry, so that
# the stability verdict and the solution do not depend on the model's units: with E = A = Iz = 1e15 a fixed
# 1e12 spring is soft next to the members and every supported structure looks free. Realistic models (member
# entries ≤ ~1e8) keep exactly FrameCalc's 1e12.
SPRING_RATIO = 1e6

# Stability test on the Jacobi-scaled stiffness S (unit diagonal): solving S x = r for a fixed
# pseudo-random r, |x|/|r| is a lower bound of 1/λ_min(S). Mechanisms give ~1e15 and more; the most
# flexible realistic frames stay below ~1e7 (a 40-member cantilever 20 m long: 5e6).
MAX_INVERSE_GROWTH = 1e11


@dataclass
class Analysis:
    """The solution of one model: displacements, reactions and link end forces."""

    compiled: Compiled
    displacements: np.ndarray
    """(nodes, 3): ux, uy, rz per node (rz is meaningless for ``compiled.free_rotation`` nodes)."""
    reactions: np.ndarray
    """One value per ``compiled.reaction_labels`` entry (FrameCalc's types and signs)."""
    end_forces: np.ndarray
    """(links, 6): forces the joints apply to each link, local axes (N, V, M at A, then at B)."""
    span: SpanLoads
    """Span loads of this model in local axes, link index in column 0."""


@dataclass
class _Stack:
    """Concatenated element data of a batch."""

    model: np.ndarray
    k: np.ndarray
    f: np.ndarray
    T: np.ndarray
    dofs: np.ndarray
    span: SpanLoads
    first_link: np.ndarray


def _elements(batch: list[Compiled]) -> _Stack:
    counts = [len(c.link_ids) for c in batch]
    first = np.concatenate([[0], np.cumsum(counts)])
    model = np.repeat(np.arange(len(batch)), counts)

    def cat(name: str) -> np.ndarray:
        return np.fromiter((x for c in batch for x in getattr(c, name)), dtype=float, count=int(first[-1]))

    E, A, I, L, cos, sin = (cat(n) for n in ("E", "A", "I", "length", "cos", "sin"))  # noqa: E741
    ia = np.array([x for c in batch for x in c.ia], dtype=np.int64)
    ib = np.array([x for c in batch for x in c.ib], dtype=np.int64)
    release_a = np.array([x for c in batch for x in c.release_a], dtype=bool)
    release_b = np.array([x for c in batch for x in c.release_b], dtype=bool)
    span = _span_loads(batch, first, cos, sin)
    k = local_stiffness(E, A, I, L)
    f = fixed_end_vector(span, L)
    if release_a.any() or release_b.any():
        k, f = condense_releases(k, f, release_a, release_b)
    a3, b3 = 3 * ia, 3 * ib
    dofs = np.stack([a3, a3 + 1, a3 + 2, b3, b3 + 1, b3 + 2], axis=1)
    return _Stack(model=model, k=k, f=f, T=rotation(cos, sin), dofs=dofs, span=span, first_link=first)


def _span_loads(batch: list[Compiled], first: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> SpanLoads:
    """Span loads of the whole batch in local axes, with batch-wide link indices."""
    forces = [(first[b] + k, a, fx, fy) for b, c in enumerate(batch) for k, a, fx, fy in c.forces]
    moments = [(first[b] + k, a, m) for b, c in enumerate(batch) for k, a, m in c.moments]
    lines = [(first[b] + row[0], *row[1:]) for b, c in enumerate(batch) for row in c.lines]
    span = SpanLoads()
    if forces:
        rows = np.array(forces, dtype=float)
        link = rows[:, 0].astype(np.int64)
        c, s = cos[link], sin[link]
        span.forces = np.column_stack(
            [rows[:, 0], rows[:, 1], rows[:, 2] * c + rows[:, 3] * s, -rows[:, 2] * s + rows[:, 3] * c]
        )
    if moments:
        span.moments = np.array(moments, dtype=float)
    if lines:
        rows = np.array(lines, dtype=float)
        link = rows[:, 0].astype(np.int64)
        c, s = cos[link], sin[link]
        ux, uy = rows[:, 5] * c + rows[:, 6] * s, -rows[:, 5] * s + rows[:, 6] * c
        span.lines = np.column_stack(
            [
                rows[:, 0],
                rows[:, 1],
                rows[:, 2],
                rows[:, 3] * ux,
                rows[:, 3] * uy,
                rows[:, 4] * ux,
                rows[:, 4] * uy,
            ]
        )
    return span


@lru_cache(maxsize=64)
def _probe(size: int) -> np.ndarray:
    # Fixed pseudo-random vector: the same batch always gives the same verdict.
    return np.random.default_rng(20240601).standard_normal(size)


@dataclass
class _Supports:
    """Springs, decoupled rotations and nodal loads of a whole batch, as flat arrays."""

    model: np.ndarray
    node: np.ndarray
    direction: np.ndarray
    first: np.ndarray
    unit_diagonal: np.ndarray
    nodal: np.ndarray


def _supports(batch: list[Compiled], size: int) -> _Supports:
    counts = [len(c.spring_node) for c in batch]
    nodal = np.zeros((len(batch), size))
    for b, c in enumerate(batch):
        nodal[b, : c.ndof] = c.nodal
    # Decoupled joint rotations and padding get a unit diagonal: they carry nothing.
    unit = [
        b * size * size + i * (size + 1)
        for b, c in enumerate(batch)
        for i in (*[3 * n + 2 for n in c.free_rotation], *range(c.ndof, size))
    ]
    return _Supports(
        model=np.repeat(np.arange(len(batch)), counts),
        node=np.fromiter((n for c in batch for n in c.spring_node), dtype=np.int64, count=sum(counts)),
        direction=np.array([d for c in batch for d in c.spring_dir], dtype=float).reshape(-1, 3),
        first=np.concatenate([[0], np.cumsum(counts)]),
        unit_diagonal=np.asarray(unit, dtype=np.int64),
        nodal=nodal,
    )


def _assemble(stack: _Stack, supports: _Supports, count: int, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Padded stiffness stack (B, size, size), springs included, load stack (B, size), spring stiffness (B,)."""
    Tt = stack.T.transpose(0, 2, 1)
    kg = np.matmul(np.matmul(Tt, stack.k), stack.T)
    fg = np.matmul(Tt, stack.f[:, :, None])[:, :, 0]
    stiffest = np.zeros(count)
    np.maximum.at(stiffest, stack.model, np.abs(np.einsum("eii->ei", kg)).max(axis=1, initial=0.0))
    spring = np.maximum(SUPPORT_STIFFNESS, SPRING_RATIO * stiffest)
    rows = stack.model[:, None] * size + stack.dofs
    block = 3 * supports.node[:, None] + np.arange(3)
    spring_rows = supports.model[:, None] * size + block
    d = supports.direction
    index = np.concatenate(
        [
            (rows[:, :, None] * size + stack.dofs[:, None, :]).ravel(),
            (spring_rows[:, :, None] * size + block[:, None, :]).ravel(),
            supports.unit_diagonal,
        ]
    )
    values = np.concatenate(
        [
            kg.ravel(),
            (spring[supports.model][:, None, None] * d[:, :, None] * d[:, None, :]).ravel(),
            np.ones(len(supports.unit_diagonal)),
        ]
    )
    K = np.bincount(index, values, minlength=count * size * size).reshape(count, size, size)
    F = np.bincount(rows.ravel(), fg.ravel(), minlength=count * size).reshape(count, size) + supports.nodal
    return K, F, spring


def _solve_stack(K: np.ndarray, F: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Displacements and a stability flag per system of the stack."""
    size = K.shape[1]
    with np.errstate(invalid="ignore", divide="ignore"):  # a degenerate member: NaN here, flagged unstable below
        scale = 1.0 / np.sqrt(np.einsum("bii->bi", K))
    S = K * scale[:, :, None] * scale[:, None, :]
    probe = _probe(size)
    rhs = np.stack([F * scale, np.broadcast_to(probe, F.shape)], axis=2)
    try:
        x = np.linalg.solve(S, rhs)
    except np.linalg.LinAlgError:
        x = np.full_like(rhs, np.nan)
        for b in range(len(S)):
            try:
                x[b] = np.linalg.solve(S[b], rhs[b])
            except np.linalg.LinAlgError:
                continue  # exactly singular: stays NaN, reported as unstable
    growth = np.linalg.norm(x[:, :, 1], axis=1) / np.linalg.norm(probe)
    stable = np.isfinite(growth) & (growth < MAX_INVERSE_GROWTH) & np.isfinite(x[:, :, 0]).all(axis=1)
    return x[:, :, 0] * scale, stable


def analyze_batch(batch: list[Compiled]) -> list[Analysis | UnstableStructureError]:
    """Solve every compiled model; a mechanism gives an :class:`UnstableStructureError` in its place."""
    out: list[Analysis | UnstableStructureError] = []
    for group in _size_groups(batch):
        out_group = _analyze_group([batch[i] for i in group])
        out.extend(zip(group, out_group, strict=True))  # type: ignore[arg-type]
    out.sort(key=lambda pair: pair[0])  # type: ignore[union-attr, index]
    return [item for _, item in out]  # type: ignore[misc]


def _size_groups(batch: list[Compiled]) -> list[list[int]]:
    """Indices grouped by power-of-two system size, so that padding stays below half a system."""
    groups: dict[int, list[int]] = {}
    for i, c in enumerate(batch):
        groups.setdefault(1 << max(3, math.ceil(math.log2(max(c.ndof, 1)))), []).append(i)
    return list(groups.values())


def _analyze_group(batch: list[Compiled]) -> list[Analysis | UnstableStructureError]:
    size = max(c.ndof for c in batch)
    stack = _elements(batch)
    supports = _supports(batch, size)
    K, F, spring = _assemble(stack, supports, len(batch), size)
    u, stable = _solve_stack(K, F)
    local = np.matmul(stack.T, u[stack.model[:, None], stack.dofs][:, :, None])[:, :, 0]
    end_forces = np.matmul(stack.k, local[:, :, None])[:, :, 0] - stack.f
    block = 3 * supports.node[:, None] + np.arange(3)
    reactions = -spring[supports.model] * np.einsum("ij,ij->i", supports.direction, u[supports.model[:, None], block])
    spans = _split_span(stack.span, stack.first_link)
    results: list[Analysis | UnstableStructureError] = []
    for b, c in enumerate(batch):
        if not stable[b]:
            results.append(describe_mechanism(c, K[b, : c.ndof, : c.ndof]))
            continue
        lo, hi = stack.first_link[b], stack.first_link[b + 1]
        results.append(
            Analysis(
                compiled=c,
                displacements=u[b, : c.ndof].reshape(-1, 3),
                reactions=reactions[supports.first[b] : supports.first[b + 1]],
                end_forces=end_forces[lo:hi],
                span=spans[b],
            )
        )
    return results


def _split_span(span: SpanLoads, first_link: np.ndarray) -> list[SpanLoads]:
    """Per-model span loads with model-local link indices.

    Rows come model by model, so "link index < boundary" is monotone along each table and a binary
    search finds each model's rows even though links within a model are not sorted.
    """
    parts = []
    for rows in (span.forces, span.moments, span.lines):
        bounds = np.searchsorted(rows[:, 0], first_link - 0.5)
        pieces = []
        for b in range(len(first_link) - 1):
            piece = rows[bounds[b] : bounds[b + 1]]
            if len(piece):
                piece = piece.copy()
                piece[:, 0] -= first_link[b]
            pieces.append(piece)
        parts.append(pieces)
    return [SpanLoads(forces=f, moments=m, lines=li) for f, m, li in zip(*parts, strict=True)]


def exact_restraints(analysis: Analysis) -> Analysis:
    """Re-solve with restraints imposed exactly (Lagrange multipliers) instead of the 1e12 springs."""
    c = analysis.compiled
    stack = _elements([c])
    K, F, spring = _assemble(stack, _supports([c], c.ndof), 1, c.ndof)
    K, F = K[0], F[0]
    node = np.asarray(c.spring_node, dtype=np.int64)
    d = np.asarray(c.spring_dir)
    block = 3 * node[:, None] + np.arange(3)
    np.add.at(K, (block[:, :, None], block[:, None, :]), -spring[0] * d[:, :, None] * d[:, None, :])
    m = len(node)
    C = np.zeros((m, c.ndof))
    np.put_along_axis(C, block, d, axis=1)
    kkt = np.block([[K, C.T], [C, np.zeros((m, m))]])
    solution = np.linalg.solve(kkt, np.concatenate([F, np.zeros(m)]))
    u = solution[: c.ndof]
    local = np.matmul(stack.T, u[stack.dofs][:, :, None])[:, :, 0]
    end_forces = np.matmul(stack.k, local[:, :, None])[:, :, 0] - stack.f
    return Analysis(
        compiled=c,
        displacements=u.reshape(-1, 3),
        reactions=-solution[c.ndof :],
        end_forces=end_forces,
        span=stack.span,
    )


# -- mechanism diagnosis (slow path, only for unstable models) ----------------------------------------------
def _rigid_motion(
    c: Compiled, coords: np.ndarray, tx: float, ty: float, omega: float, centre: np.ndarray
) -> np.ndarray:
    motion = np.zeros((len(coords), 3))
    motion[:, 0] = tx - omega * (coords[:, 1] - centre[1])
    motion[:, 1] = ty + omega * (coords[:, 0] - centre[0])
    motion[:, 2] = omega
    motion[c.free_rotation, 2] = 0.0  # decoupled joint rotations need not follow
    return motion.reshape(-1)


def _free_rigid_motions(c: Compiled, K: np.ndarray, coords: np.ndarray) -> list[str]:
    """Rigid-body motions the supports do not resist, in words ("slide along x", "rotate about P1")."""
    diagonal = np.diag(K)

    def free(vector: np.ndarray) -> bool:
        return float(vector @ K @ vector) <= 1e-10 * float(vector @ (diagonal * vector))

    found = []
    for name, (tx, ty) in (("slide along x", (1.0, 0.0)), ("slide along y", (0.0, 1.0))):
        if free(_rigid_motion(c, coords, tx, ty, 0.0, coords[0])):
            found.append(name)
    size = max(float(np.ptp(coords, axis=0).max()), 1.0)
    for i, pid in enumerate(c.node_ids):
        if free(_rigid_motion(c, coords, 0.0, 0.0, 1.0 / size, coords[i])):
            found.append(f"rotate about {pid}")
            break
    return found


def describe_mechanism(c: Compiled, K: np.ndarray) -> UnstableStructureError:
    """Find the motion that costs no energy and say, in words, which part moves."""
    coords = np.asarray(c.coords, dtype=float)
    rigid = _free_rigid_motions(c, K, coords)
    if rigid:
        return UnstableStructureError(
            f"the supports do not hold the structure: it can {' and '.join(rigid)} as a rigid body without resistance",
            moving=list(c.node_ids),
        )
    scale = 1.0 / np.sqrt(np.maximum(np.diag(K), 1e-300))
    values, vectors = np.linalg.eigh(K * scale[:, None] * scale[None, :])
    motion = (vectors[:, 0] * scale).reshape(-1, 3)
    size = max(float(np.ptp(coords, axis=0).max()), 1.0)
    turning = np.ones(len(coords))
    turning[c.free_rotation] = 0.0
    magnitude = np.hypot(motion[:, 0], motion[:, 1]) + size * np.abs(motion[:, 2]) * turning
    order = np.argsort(-magnitude)
    moving = [c.node_ids[i] for i in order if magnitude[i] > 1e-3 * magnitude.max()]
    # Every point moving as one rigid body (u = a − ω·y, v = b + ω·x) about a point that is not a node.
    rows = np.zeros((2 * len(coords), 3))
    rows[0::2, 0], rows[1::2, 1] = 1.0, 1.0
    rows[0::2, 2], rows[1::2, 2] = -coords[:, 1], coords[:, 0]
    translations = motion[:, :2].reshape(-1)
    fit, *_ = np.linalg.lstsq(rows, translations, rcond=None)
    is_rigid = np.linalg.norm(rows @ fit - translations) <= 1e-6 * max(np.linalg.norm(translations), 1e-300)
    if is_rigid and len(moving) == len(c.node_ids) and abs(fit[2]) > 0:
        x0, y0 = round(-fit[1] / fit[2], 3) + 0.0, round(fit[0] / fit[2], 3) + 0.0  # + 0.0 drops -0.0
        return UnstableStructureError(
            f"the supports do not hold the structure: it can rotate about ({x0:g}, {y0:g}) as a rigid body "
            "without resistance",
            moving=moving,
        )
    listed = ", ".join(moving[:8]) + (f" and {len(moving) - 8} more" if len(moving) > 8 else "")
    return UnstableStructureError(
        f"the structure is a mechanism: points {listed} can move without deforming any member "
        f"(check hinges and supports; smallest scaled stiffness {max(values[0], 0.0):.1e})",
        moving=moving,
    )
