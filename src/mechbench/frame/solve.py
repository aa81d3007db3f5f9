"""Linear static analysis of FrameCalc models by the direct stiffness method.

One exact Euler–Bernoulli element per link (span loads enter as exact fixed-end forces), hinged ends
condensed out of their link, supports as the 1e12 springs FrameCalc uses (or exact restraints).
:func:`solve_many` stacks many models into one batched factorisation, which is what makes large
batches cheap; :func:`solve` is the same code path for one model.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mechbench.errors import ModelFormatError, UnstableStructureError
from mechbench.frame import diagrams as _diagrams
from mechbench.frame.elements import condense_releases, local_stiffness, rotation
from mechbench.frame.loads import SpanLoads, cos_sin_deg, fixed_end_vector, resolve_loads, split_positions
from mechbench.frame.model import FrameModel

# FrameCalc imposes every restraint with a linear spring of exactly this stiffness (kN/m, kN·m/rad):
# the published ground truth is reproduced to 1e-13 with it, and only to ~1e-7 with exact restraints.
SUPPORT_STIFFNESS = 1e12

# Smallest pivot of the Jacobi-scaled stiffness matrix a stable structure may have. Mechanisms give
# round-off pivots (~1e-15); the most flexible realistic frames stay above ~1e-9.
MIN_SCALED_PIVOT = 1e-12

_REACTION_TYPES = {
    "fixed": ("ux", "uy", "rz"),
    "pin": ("ux", "uy"),
    "roller": ("normal",),
    "slider": ("normal", "rz"),
}


@dataclass
class _Compiled:
    """A validated model reduced to arrays: the input of the numerical stages."""

    model: FrameModel
    node_ids: list[str]
    link_ids: list[str]
    ia: np.ndarray
    ib: np.ndarray
    E: np.ndarray
    A: np.ndarray
    I: np.ndarray  # noqa: E741
    L: np.ndarray
    c: np.ndarray
    s: np.ndarray
    release_a: np.ndarray
    release_b: np.ndarray
    span: SpanLoads
    nodal_force: np.ndarray
    free_rotation: np.ndarray
    spring_node: np.ndarray
    spring_dir: np.ndarray
    reaction_labels: list[tuple[str, str]]

    @property
    def ndof(self) -> int:
        return 3 * len(self.node_ids)


def _compile(model: FrameModel) -> _Compiled:
    attached: set[str] = set()
    for link in model.links:
        attached.update((link.a, link.b))
    if not model.links:
        raise ModelFormatError("the model has no links")
    if not model.supports:
        raise UnstableStructureError("the structure has no supports: it can move freely as a rigid body")
    node_ids = [p.id for p in model.points if p.id in attached]
    index = {pid: i for i, pid in enumerate(node_ids)}
    coords = {p.id: (p.x, p.y) for p in model.points}
    for support in model.supports:
        if support.at.id not in index:
            raise ModelFormatError(f"support {support.id}: point {support.at.id} is not the end of any link")

    ia = np.array([index[link.a] for link in model.links])
    ib = np.array([index[link.b] for link in model.links])
    dx = np.array([coords[link.b][0] - coords[link.a][0] for link in model.links])
    dy = np.array([coords[link.b][1] - coords[link.a][1] for link in model.links])
    length = np.hypot(dx, dy)
    c, s = dx / length, dy / length
    geometry = {link.id: (i, length[i], c[i], s[i]) for i, link in enumerate(model.links)}
    resolved = resolve_loads(model, geometry)

    nodal = np.zeros(3 * len(node_ids))
    for pid, (fx, fy, mz) in resolved.nodal.items():
        if pid not in index:
            raise ModelFormatError(f"a load acts on point {pid}, which is not the end of any link")
        nodal[3 * index[pid] : 3 * index[pid] + 3] += (fx, fy, mz)

    release_a = np.array([link.endA == "hinge" for link in model.links])
    release_b = np.array([link.endB == "hinge" for link in model.links])
    rigid_end = np.zeros(len(node_ids), dtype=bool)
    rigid_end[ia[~release_a]] = True
    rigid_end[ib[~release_b]] = True

    spring_node, spring_dir, labels = [], [], []
    for support in model.supports:
        node = index[support.at.id]
        cos_t, sin_t = cos_sin_deg(support.angleDeg)
        directions = {
            "fixed": [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)],
            "pin": [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0)],
            "roller": [(-sin_t, cos_t, 0.0)],
            "slider": [(cos_t, sin_t, 0.0), (0.0, 0.0, 1.0)],
        }[support.kind]
        for direction, label in zip(directions, _REACTION_TYPES[support.kind], strict=True):
            spring_node.append(node)
            spring_dir.append(direction)
            labels.append((support.id, label))
    spring_node_arr = np.array(spring_node, dtype=int)
    spring_dir_arr = np.array(spring_dir, dtype=float).reshape(-1, 3)

    # A joint where every link end is hinged has no rotational stiffness from the links; its rotation
    # is decoupled and carries nothing, unless a support restrains it or a moment is applied to it.
    free_rotation = ~rigid_end
    restrained_rotation = np.zeros(len(node_ids), dtype=bool)
    restrained_rotation[spring_node_arr[spring_dir_arr[:, 2] != 0]] = True
    for i in np.flatnonzero(free_rotation & ~restrained_rotation):
        if nodal[3 * i + 2] != 0.0:
            raise UnstableStructureError(
                f"a point moment acts at {node_ids[i]}, where every link end is hinged: nothing resists it",
                moving=[node_ids[i]],
            )

    return _Compiled(
        model=model,
        node_ids=node_ids,
        link_ids=[link.id for link in model.links],
        ia=ia,
        ib=ib,
        E=np.array([link.E for link in model.links]),
        A=np.array([link.A for link in model.links]),
        I=np.array([link.Iz for link in model.links]),
        L=length,
        c=c,
        s=s,
        release_a=release_a,
        release_b=release_b,
        span=resolved.span,
        nodal_force=nodal,
        free_rotation=free_rotation & ~restrained_rotation,
        spring_node=spring_node_arr,
        spring_dir=spring_dir_arr,
        reaction_labels=labels,
    )


@dataclass
class _Elements:
    k_local: np.ndarray
    f_local: np.ndarray
    T: np.ndarray
    dofs: np.ndarray


def _elements(compiled: _Compiled) -> _Elements:
    k = local_stiffness(compiled.E, compiled.A, compiled.I, compiled.L)
    f = fixed_end_vector(compiled.span, compiled.L)
    k, f = condense_releases(k, f, compiled.release_a, compiled.release_b)
    T = rotation(compiled.c, compiled.s)
    a3, b3 = 3 * compiled.ia, 3 * compiled.ib
    dofs = np.stack([a3, a3 + 1, a3 + 2, b3, b3 + 1, b3 + 2], axis=1)
    return _Elements(k_local=k, f_local=f, T=T, dofs=dofs)


def _assemble(compiled: _Compiled, elements: _Elements, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Global stiffness (size×size, springs included) and load vector; DOFs past ndof are padding."""
    K = np.zeros((size, size))
    kg = np.einsum("nji,njk,nkl->nil", elements.T, elements.k_local, elements.T)
    fg = np.einsum("nji,nj->ni", elements.T, elements.f_local)
    d = elements.dofs
    np.add.at(K, (d[:, :, None], d[:, None, :]), kg)
    F = np.zeros(size)
    F[: compiled.ndof] = compiled.nodal_force
    np.add.at(F, d, fg)
    free = 3 * np.flatnonzero(compiled.free_rotation) + 2
    K[free, free] += 1.0
    sd = 3 * compiled.spring_node[:, None] + np.arange(3)[None, :]
    np.add.at(
        K,
        (sd[:, :, None], sd[:, None, :]),
        SUPPORT_STIFFNESS * compiled.spring_dir[:, :, None] * compiled.spring_dir[:, None, :],
    )
    pad = np.arange(compiled.ndof, size)
    K[pad, pad] = 1.0
    return K, F


def _describe_mechanism(compiled: _Compiled, K: np.ndarray) -> UnstableStructureError:
    """Find the motion that costs no energy and say, in words, which part moves."""
    n = compiled.ndof
    K = K[:n, :n]
    scale = 1.0 / np.sqrt(np.maximum(np.diag(K), 1e-300))
    values, vectors = np.linalg.eigh(K * scale[:, None] * scale[None, :])
    mode = vectors[:, 0] * scale
    coords = np.array(
        [[compiled.model.point(pid).x, compiled.model.point(pid).y] for pid in compiled.node_ids]
    )
    size = max(float(np.ptp(coords, axis=0).max()), 1.0)
    motion = mode.reshape(-1, 3)
    magnitude = np.hypot(motion[:, 0], motion[:, 1]) + size * np.abs(motion[:, 2]) * ~compiled.free_rotation
    order = np.argsort(-magnitude)
    moving = [compiled.node_ids[i] for i in order if magnitude[i] > 1e-3 * magnitude.max()]
    # Does every point move as one rigid body (u = a − ω·y, v = b + ω·x)?
    rows = np.zeros((2 * len(coords), 3))
    rows[0::2, 0], rows[1::2, 1] = 1.0, 1.0
    rows[0::2, 2], rows[1::2, 2] = -coords[:, 1], coords[:, 0]
    translations = motion[:, :2].reshape(-1)
    fit, *_ = np.linalg.lstsq(rows, translations, rcond=None)
    rigid = np.linalg.norm(rows @ fit - translations) <= 1e-6 * max(np.linalg.norm(translations), 1e-300)
    if rigid and len(moving) == len(compiled.node_ids):
        a, b, omega = fit
        if abs(omega) * size > 1e-6 * max(abs(a), abs(b)):
            x0, y0 = round(-b / omega, 3) + 0.0, round(a / omega, 3) + 0.0  # + 0.0 turns -0.0 into 0.0
            what = f"rotate about ({x0:g}, {y0:g})"
        else:
            what = "slide along x" if abs(a) >= abs(b) else "slide along y"
        return UnstableStructureError(
            f"the supports do not hold the structure: it can {what} as a rigid body without resistance",
            moving=moving,
        )
    listed = ", ".join(moving[:8]) + (f" and {len(moving) - 8} more" if len(moving) > 8 else "")
    return UnstableStructureError(
        f"the structure is a mechanism: points {listed} can move without deforming any member "
        f"(check hinges and supports; smallest scaled stiffness {max(values[0], 0.0):.1e})",
        moving=moving,
    )


def _factor_and_solve(
    compiled_list: Sequence[_Compiled], K: np.ndarray, F: np.ndarray
) -> list[np.ndarray | UnstableStructureError]:
    """Solve a stack of systems; each entry is the displacement vector or the mechanism found."""
    scale = 1.0 / np.sqrt(np.einsum("bii->bi", K))
    S = K * scale[:, :, None] * scale[:, None, :]
    try:
        chol = np.linalg.cholesky(S)
        pivots = np.einsum("bii->bi", chol) ** 2
        stable = pivots.min(axis=1) > MIN_SCALED_PIVOT
    except np.linalg.LinAlgError:
        stable = np.array([_is_positive_definite(S[i]) for i in range(len(S))])
    out: list[np.ndarray | UnstableStructureError] = [None] * len(compiled_list)  # type: ignore[list-item]
    ok = np.flatnonzero(stable)
    if len(ok):
        y = np.linalg.solve(S[ok], (F[ok] * scale[ok])[:, :, None])[:, :, 0]
        for j, i in enumerate(ok):
            out[i] = y[j] * scale[i]
    for i in np.flatnonzero(~stable):
        out[i] = _describe_mechanism(compiled_list[i], K[i])
    return out


def _is_positive_definite(S: np.ndarray) -> bool:
    try:
        pivots = np.diag(np.linalg.cholesky(S)) ** 2
    except np.linalg.LinAlgError:
        return False
    return bool(pivots.min() > MIN_SCALED_PIVOT)


def _exact_solve(compiled: _Compiled, K: np.ndarray, F: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact restraints by Lagrange multipliers; returns displacements and reaction values."""
    n = compiled.ndof
    Kf = K[:n, :n].copy()
    sd = 3 * compiled.spring_node[:, None] + np.arange(3)[None, :]
    # Remove the springs again: restraints are imposed exactly through the multipliers.
    np.add.at(
        Kf,
        (sd[:, :, None], sd[:, None, :]),
        -SUPPORT_STIFFNESS * compiled.spring_dir[:, :, None] * compiled.spring_dir[:, None, :],
    )
    m = len(compiled.spring_node)
    C = np.zeros((m, n))
    np.put_along_axis(C, sd, compiled.spring_dir, axis=1)
    kkt = np.block([[Kf, C.T], [C, np.zeros((m, m))]])
    solution = np.linalg.solve(kkt, np.concatenate([F[:n], np.zeros(m)]))
    return solution[:n], -solution[n:]


def _results(
    compiled: _Compiled,
    elements: _Elements,
    u: np.ndarray,
    reactions: np.ndarray,
    diagrams: bool,
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "reactions": [
            {"atId": support_id, "type": label, "value": float(value)}
            for (support_id, label), value in zip(compiled.reaction_labels, reactions, strict=True)
        ]
    }
    motion = u[: compiled.ndof].reshape(-1, 3)
    result["displacements"] = [
        {
            "pointId": pid,
            "ux": float(motion[i, 0]),
            "uy": float(motion[i, 1]),
            "rz": None if compiled.free_rotation[i] else float(motion[i, 2]),
        }
        for i, pid in enumerate(compiled.node_ids)
    ]
    if not diagrams:
        return result
    u_local = np.einsum("nij,nj->ni", elements.T, u[elements.dofs])
    end_forces = np.einsum("nij,nj->ni", elements.k_local, u_local) - elements.f_local
    span = compiled.span
    per_link: list[dict[str, Any]] = []
    max_moment: dict[str, float] = {}
    for i in sorted(range(len(compiled.link_ids)), key=lambda j: compiled.link_ids[j]):
        loads = _diagrams.LinkLoads(
            forces=span.forces[span.forces[:, 0] == i],
            moments=span.moments[span.moments[:, 0] == i],
            lines=span.lines[span.lines[:, 0] == i],
        )
        length = float(compiled.L[i])
        s = _diagrams.sample_positions(length, split_positions(span, i, length))
        n, v, m = _diagrams.evaluate(end_forces[i, :3], loads, s)
        per_link.append({"linkId": compiled.link_ids[i], "samples": _diagrams.samples_as_records(s, n, v, m)})
        max_moment[compiled.link_ids[i]] = float(np.abs(m).max())
    result["axial"] = result["shear"] = result["moment"] = per_link
    result["maxMoment"] = {"overall": max(max_moment.values()), "links": max_moment}
    return result


def _parse(model: dict[str, Any] | FrameModel) -> FrameModel:
    return model if isinstance(model, FrameModel) else FrameModel.parse(model)


def solve(
    model: dict[str, Any] | FrameModel, *, diagrams: bool = True, exact_supports: bool = False
) -> dict[str, Any]:
    """Solve one FrameCalc model and return FrameCalc's result format.

    Keys: ``reactions`` (per support, FrameCalc's order and types), ``axial``/``shear``/``moment``
    (one identical list of per-link samples, links sorted by id as strings) and ``maxMoment`` (largest
    |m| per link and overall) when ``diagrams``, and ``displacements`` per point.

    Raises :class:`ModelFormatError` for an invalid model and :class:`UnstableStructureError` for a
    mechanism. ``exact_supports`` imposes restraints exactly instead of FrameCalc's 1e12 springs.
    """
    outcome = solve_many([model], diagrams=diagrams, exact_supports=exact_supports, errors="raise")
    return outcome[0]  # type: ignore[return-value]


def solve_many(
    models: Iterable[dict[str, Any] | FrameModel],
    *,
    diagrams: bool = True,
    exact_supports: bool = False,
    errors: str = "return",
) -> list[dict[str, Any] | Exception]:
    """Solve many models in one batched factorisation.

    Returns one entry per model, in order: the result dict, or (with ``errors="return"``) the
    :class:`ModelFormatError` / :class:`UnstableStructureError` that model raised, so one bad model
    does not stop the batch. ``errors="raise"`` raises the first error instead.
    """
    if errors not in ("return", "raise"):
        raise ValueError("errors must be 'return' or 'raise'")
    outcomes: list[dict[str, Any] | Exception] = []
    compiled: list[tuple[int, _Compiled]] = []
    for position, model in enumerate(models):
        try:
            compiled.append((position, _compile(_parse(model))))
            outcomes.append({})
        except (ModelFormatError, UnstableStructureError) as error:
            if errors == "raise":
                raise
            outcomes.append(error)
    # Batch systems of similar size together so padding stays small.
    for group in _size_groups(compiled):
        size = max(item.ndof for _, item in group)
        elements = [_elements(item) for _, item in group]
        systems = [_assemble(item, el, size) for (_, item), el in zip(group, elements, strict=True)]
        K = np.stack([k for k, _ in systems])
        F = np.stack([f for _, f in systems])
        solved = _factor_and_solve([item for _, item in group], K, F)
        for (position, item), el, u, (Ki, Fi) in zip(group, elements, solved, systems, strict=True):
            if isinstance(u, UnstableStructureError):
                if errors == "raise":
                    raise u
                outcomes[position] = u
                continue
            if exact_supports:
                u, reactions = _exact_solve(item, Ki, Fi)
            else:
                sd = 3 * item.spring_node[:, None] + np.arange(3)[None, :]
                reactions = -SUPPORT_STIFFNESS * np.einsum("ij,ij->i", item.spring_dir, u[sd])
            outcomes[position] = _results(item, el, u, reactions, diagrams)
    return outcomes


def _size_groups(compiled: list[tuple[int, _Compiled]]) -> list[list[tuple[int, _Compiled]]]:
    buckets: dict[int, list[tuple[int, _Compiled]]] = {}
    for entry in compiled:
        ndof = entry[1].ndof
        bucket = 1 << max(3, math.ceil(math.log2(ndof))) if ndof > 0 else 8
        # Within a power-of-two bucket the padding is at most half the system.
        buckets.setdefault(bucket, []).append(entry)
    return list(buckets.values())
