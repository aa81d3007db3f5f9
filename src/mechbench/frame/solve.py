"""Linear static analysis of FrameCalc models by the direct stiffness method.

One exact Euler–Bernoulli element per link (span loads enter as exact fixed-end forces), hinged ends
condensed out of their link, supports as the 1e12 springs FrameCalc uses (or exact restraints).
:func:`solve_many` stacks many models into one batched factorisation, which is what makes large
batches cheap; :func:`solve` is the same code path for one model.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.linalg import lapack

from mechbench.errors import ModelFormatError, UnstableStructureError
from mechbench.frame import diagrams as _diagrams
from mechbench.frame.elements import condense_releases, local_stiffness, rotation
from mechbench.frame.loads import SpanLoads, cos_sin_deg, fixed_end_vector, resolve_loads, split_positions
from mechbench.frame.model import FrameModel

# FrameCalc imposes every restraint with a linear spring of exactly this stiffness (kN/m, kN·m/rad):
# the published ground truth is reproduced to 1e-13 with it, and only to ~1e-7 with exact restraints.
SUPPORT_STIFFNESS = 1e12

# Smallest reciprocal condition number of the Jacobi-scaled stiffness matrix a stable structure may
# have. Mechanisms give ~1e-16 or fail to factorise; the 20 benchmark models give 2e-6 to 0.17.
MIN_RECIPROCAL_CONDITION = 1e-11

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
    coords: np.ndarray
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
        coords=np.array([coords[pid] for pid in node_ids], dtype=float).reshape(-1, 2),
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


def _assemble(compiled: _Compiled, elements: _Elements) -> tuple[np.ndarray, np.ndarray]:
    """Global stiffness (springs included) and load vector."""
    size = compiled.ndof
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
    return K, F


def _rigid_motion(
    coords: np.ndarray, free_rotation: np.ndarray, tx: float, ty: float, omega: float, centre: np.ndarray
) -> np.ndarray:
    """DOF vector of a rigid-body motion: translation (tx, ty) plus rotation ω about ``centre``."""
    motion = np.zeros((len(coords), 3))
    motion[:, 0] = tx - omega * (coords[:, 1] - centre[1])
    motion[:, 1] = ty + omega * (coords[:, 0] - centre[0])
    motion[:, 2] = np.where(free_rotation, 0.0, omega)  # decoupled joint rotations need not follow
    return motion.reshape(-1)


def _free_rigid_motions(compiled: _Compiled, K: np.ndarray, coords: np.ndarray) -> list[str]:
    """Rigid-body motions the supports do not resist, in words ("slide along x", "rotate about P1")."""
    diagonal = np.diag(K)

    def free(vector: np.ndarray) -> bool:
        return float(vector @ K @ vector) <= 1e-10 * float(vector @ (diagonal * vector))

    found = []
    for name, (tx, ty) in (("slide along x", (1.0, 0.0)), ("slide along y", (0.0, 1.0))):
        if free(_rigid_motion(coords, compiled.free_rotation, tx, ty, 0.0, coords[0])):
            found.append(name)
    size = max(float(np.ptp(coords, axis=0).max()), 1.0)
    for i, pid in enumerate(compiled.node_ids):
        if free(_rigid_motion(coords, compiled.free_rotation, 0.0, 0.0, 1.0 / size, coords[i])):
            found.append(f"rotate about {pid}")
            break
    return found


def _describe_mechanism(compiled: _Compiled, K: np.ndarray) -> UnstableStructureError:
    """Find the motion that costs no energy and say, in words, which part moves."""
    n = compiled.ndof
    K = K[:n, :n]
    coords = compiled.coords
    rigid = _free_rigid_motions(compiled, K, coords)
    if rigid:
        return UnstableStructureError(
            f"the supports do not hold the structure: it can {' and '.join(rigid)} as a rigid body "
            "without resistance",
            moving=list(compiled.node_ids),
        )
    scale = 1.0 / np.sqrt(np.maximum(np.diag(K), 1e-300))
    values, vectors = np.linalg.eigh(K * scale[:, None] * scale[None, :])
    motion = (vectors[:, 0] * scale).reshape(-1, 3)
    size = max(float(np.ptp(coords, axis=0).max()), 1.0)
    magnitude = np.hypot(motion[:, 0], motion[:, 1]) + size * np.abs(motion[:, 2]) * ~compiled.free_rotation
    order = np.argsort(-magnitude)
    moving = [compiled.node_ids[i] for i in order if magnitude[i] > 1e-3 * magnitude.max()]
    # Every point moving as one rigid body (u = a − ω·y, v = b + ω·x) about a point that is not a node.
    rows = np.zeros((2 * len(coords), 3))
    rows[0::2, 0], rows[1::2, 1] = 1.0, 1.0
    rows[0::2, 2], rows[1::2, 2] = -coords[:, 1], coords[:, 0]
    translations = motion[:, :2].reshape(-1)
    fit, *_ = np.linalg.lstsq(rows, translations, rcond=None)
    is_rigid = np.linalg.norm(rows @ fit - translations) <= 1e-6 * max(np.linalg.norm(translations), 1e-300)
    if is_rigid and len(moving) == len(compiled.node_ids) and abs(fit[2]) > 0:
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


def _factor_and_solve(
    compiled: _Compiled, K: np.ndarray, F: np.ndarray
) -> np.ndarray | UnstableStructureError:
    """Displacements of one system, or the mechanism found.

    Stability is judged on the Jacobi-scaled matrix (unit diagonal), whose reciprocal condition
    number LAPACK estimates from the Cholesky factor: mechanisms give ~1e-16 or fail to factorise,
    the most flexible realistic frames ~1e-8 (a 40-member cantilever 20 m long: 4e-8).
    """
    scale = 1.0 / np.sqrt(np.diag(K))
    S = K * scale[:, None] * scale[None, :]
    norm = float(np.abs(S).sum(axis=0).max())
    factor, info = lapack.dpotrf(S, lower=0, clean=0, overwrite_a=1)
    if info != 0:
        return _describe_mechanism(compiled, K)
    rcond, _ = lapack.dpocon(factor, norm)
    if rcond < MIN_RECIPROCAL_CONDITION:
        return _describe_mechanism(compiled, K)
    y, _ = lapack.dpotrs(factor, F * scale)
    return y * scale


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
    for position, item in compiled:
        elements = _elements(item)
        K, F = _assemble(item, elements)
        u = _factor_and_solve(item, K, F)
        if isinstance(u, UnstableStructureError):
            if errors == "raise":
                raise u
            outcomes[position] = u
            continue
        if exact_supports:
            u, reactions = _exact_solve(item, K, F)
        else:
            sd = 3 * item.spring_node[:, None] + np.arange(3)[None, :]
            reactions = -SUPPORT_STIFFNESS * np.einsum("ij,ij->i", item.spring_dir, u[sd])
        outcomes[position] = _results(item, elements, u, reactions, diagrams)
    return outcomes
