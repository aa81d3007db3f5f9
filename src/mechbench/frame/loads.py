"""Loads in the solver's terms: world directions, positions on links and local components.

FrameCalc rules (``framecalc-format.md`` section 6): a force points along ``flip·(cos ψ, sin ψ)`` with
ψ = angleDeg in world mode (and always for loads on points) and ψ = link angle + angleDeg in relative
mode on a link; any other ``angleMode`` is read as world. Moments are ``value·flip``, CCW positive.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from mechbench.frame.model import BendingMoment, DistributedLoad, FrameModel, PointLoad


def cos_sin_deg(angle_deg: float) -> tuple[float, float]:
    """cos and sin of an angle in degrees, exact at multiples of 90° (so 90° gives exactly (0, 1))."""
    quarter = angle_deg / 90.0
    if quarter == round(quarter):
        return ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[round(quarter) % 4]
    radians = math.radians(angle_deg)
    return math.cos(radians), math.sin(radians)


def force_angle_deg(load: PointLoad | DistributedLoad, link_angle_deg: float | None) -> float:
    """World direction ψ (degrees) of a force, before ``flip``."""
    if load.angleMode == "relative" and load.at.type == "link" and link_angle_deg is not None:
        return link_angle_deg + load.angleDeg
    return load.angleDeg


@dataclass
class SpanLoads:
    """Loads acting inside the links of one model, in each link's local axes.

    Rows: ``forces`` [link, a, px, py]; ``moments`` [link, a, m]; ``lines`` [link, s1, s2, qx1, qy1,
    qx2, qy2] with intensities varying linearly from s1 to s2 (distances from end A, metres).
    """

    forces: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    moments: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    lines: np.ndarray = field(default_factory=lambda: np.zeros((0, 7)))


@dataclass
class ResolvedLoads:
    """Nodal loads (per point id: fx, fy, mz) and span loads (per link index) of one model."""

    nodal: dict[str, list[float]]
    span: SpanLoads


def resolve_loads(
    model: FrameModel, link_geometry: dict[str, tuple[float, float, float, float]]
) -> ResolvedLoads:
    """Turn every load of ``model`` into nodal or local span loads.

    ``link_geometry`` maps link id to (index, length, cos α, sin α).
    """
    nodal: dict[str, list[float]] = {}
    forces: list[list[float]] = []
    moments: list[list[float]] = []
    lines: list[list[float]] = []
    for load in model.loads:
        on_link = load.at.type == "link"
        geometry = link_geometry[load.at.id] if on_link else None
        if isinstance(load, BendingMoment):
            moment = load.value * load.flip
            if geometry is None:
                nodal.setdefault(load.at.id, [0.0, 0.0, 0.0])[2] += moment
            else:
                index, length, _, _ = geometry
                moments.append([index, load.position_from_a(length), moment])
            continue
        link_angle = math.degrees(math.atan2(geometry[3], geometry[2])) if geometry else None
        dx, dy = cos_sin_deg(force_angle_deg(load, link_angle))
        if isinstance(load, PointLoad):
            fx, fy = load.value * load.flip * dx, load.value * load.flip * dy
            if geometry is None:
                node = nodal.setdefault(load.at.id, [0.0, 0.0, 0.0])
                node[0] += fx
                node[1] += fy
            else:
                index, length, c, s = geometry
                forces.append([index, load.position_from_a(length), fx * c + fy * s, -fx * s + fy * c])
            continue
        index, length, c, s = geometry
        ux, uy = load.flip * (dx * c + dy * s), load.flip * (-dx * s + dy * c)
        lines.append(
            [
                index,
                load.fromStart,
                length - load.fromEnd,
                load.wStart * ux,
                load.wStart * uy,
                load.wEnd * ux,
                load.wEnd * uy,
            ]
        )
    span = SpanLoads(
        forces=np.array(forces, dtype=float).reshape(-1, 4),
        moments=np.array(moments, dtype=float).reshape(-1, 3),
        lines=np.array(lines, dtype=float).reshape(-1, 7),
    )
    return ResolvedLoads(nodal=nodal, span=span)


# 3-point Gauss–Legendre rule on [0, 1]: exact for the degree-4 products of cubic shape functions
# and linear intensities that the consistent load vector needs.
_GAUSS_X = np.array([0.5 - math.sqrt(15) / 10, 0.5, 0.5 + math.sqrt(15) / 10])
_GAUSS_W = np.array([5 / 18, 8 / 18, 5 / 18])


def _shape(xi: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Axial (linear) and Hermite shape functions at ξ, stacked as (..., 6) in local DOF order."""
    xi2, xi3 = xi * xi, xi * xi * xi
    return np.stack(
        [
            1 - xi,
            1 - 3 * xi2 + 2 * xi3,
            length * (xi - 2 * xi2 + xi3),
            xi,
            3 * xi2 - 2 * xi3,
            length * (-xi2 + xi3),
        ],
        axis=-1,
    )


def _shape_slope(xi: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Derivatives d/ds of the transverse shape functions (rotation DOFs respond to point moments)."""
    zero = np.zeros_like(xi)
    return np.stack(
        [
            zero,
            (-6 * xi + 6 * xi * xi) / length,
            1 - 4 * xi + 3 * xi * xi,
            zero,
            (6 * xi - 6 * xi * xi) / length,
            -2 * xi + 3 * xi * xi,
        ],
        axis=-1,
    )


def fixed_end_vector(span: SpanLoads, lengths: np.ndarray) -> np.ndarray:
    """Work-equivalent nodal loads (n_links, 6) in local axes.

    For prismatic Euler–Bernoulli members the consistent load vector equals the exact fixed-end
    forces, so one element per link is exact.
    """
    out = np.zeros((len(lengths), 6))
    if len(span.forces):
        link = span.forces[:, 0].astype(int)
        length = lengths[link]
        n = _shape(span.forces[:, 1] / length, length)
        px, py = span.forces[:, 2], span.forces[:, 3]
        load = np.stack([px, py, py, px, py, py], axis=-1)
        np.add.at(out, link, n * load)
    if len(span.moments):
        link = span.moments[:, 0].astype(int)
        length = lengths[link]
        np.add.at(out, link, _shape_slope(span.moments[:, 1] / length, length) * span.moments[:, 2:3])
    if len(span.lines):
        link = span.lines[:, 0].astype(int)
        length = lengths[link]
        s1, s2 = span.lines[:, 1], span.lines[:, 2]
        for x, w in zip(_GAUSS_X, _GAUSS_W, strict=True):
            t = s1 + x * (s2 - s1)
            qx = span.lines[:, 3] + x * (span.lines[:, 5] - span.lines[:, 3])
            qy = span.lines[:, 4] + x * (span.lines[:, 6] - span.lines[:, 4])
            n = _shape(t / length, length)
            q = np.stack([qx, qy, qy, qx, qy, qy], axis=-1)
            np.add.at(out, link, (w * (s2 - s1))[:, None] * n * q)
    return out


def split_positions(span: SpanLoads, link_index: int, length: float) -> list[float]:
    """Interior positions (sorted, unique) where loads split a link's diagrams into segments."""
    cuts: set[float] = set()
    for rows, columns in ((span.forces, (1,)), (span.moments, (1,)), (span.lines, (1, 2))):
        if not len(rows):
            continue
        mine = rows[rows[:, 0] == link_index]
        for column in columns:
            cuts.update(float(a) for a in mine[:, column] if 0.0 < a < length)
    return sorted(cuts)
