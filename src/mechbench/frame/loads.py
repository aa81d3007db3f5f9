"""Loads in the solver's terms: world directions, positions on links and local components.

FrameCalc rules (``docs/framecalc-format.md`` section 6): a force points along ``flip·(cos ψ, sin ψ)`` with
ψ = angleDeg in world mode (and always for loads on points) and ψ = link angle + angleDeg in relative
mode on a link; any other ``angleMode`` is read as world. Moments are ``value·flip``, CCW positive.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from mechbench.frame.model import DistributedLoad, PointLoad

_QUARTERS = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))


def cos_sin_deg(angle_deg: float) -> tuple[float, float]:
    """cos and sin of an angle in degrees, exact at multiples of 90° (so 90° gives exactly (0, 1))."""
    quarter = angle_deg / 90.0
    if quarter.is_integer():
        return _QUARTERS[int(quarter) % 4]
    radians = math.radians(angle_deg)
    return math.cos(radians), math.sin(radians)


def force_angle_deg(load: PointLoad | DistributedLoad, link_angle_deg: float | None) -> float:
    """World direction ψ (degrees) of a force, before ``flip``."""
    if load.angleMode == "relative" and load.at.type == "link" and link_angle_deg is not None:
        return link_angle_deg + load.angleDeg
    return load.angleDeg


@dataclass
class SpanLoads:
    """Loads acting inside links, in each link's local axes (rows stacked over many links).

    Rows: ``forces`` [link, a, px, py]; ``moments`` [link, a, m]; ``lines`` [link, s1, s2, qx1, qy1,
    qx2, qy2] with intensities varying linearly from s1 to s2 (distances from end A, metres).
    """

    forces: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    moments: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    lines: np.ndarray = field(default_factory=lambda: np.zeros((0, 7)))


# 3-point Gauss–Legendre rule on [0, 1]: exact for the degree-4 products of cubic shape functions
# and linear intensities that the consistent load vector needs.
_GAUSS_X = np.array([0.5 - math.sqrt(15) / 10, 0.5, 0.5 + math.sqrt(15) / 10])
_GAUSS_W = np.array([5 / 18, 8 / 18, 5 / 18])


def _shape(xi: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Axial (linear) and Hermite shape functions at ξ, as (..., 6) in local DOF order."""
    xi2 = xi * xi
    xi3 = xi2 * xi
    out = np.empty((*xi.shape, 6))
    out[..., 0] = 1 - xi
    out[..., 1] = 1 - 3 * xi2 + 2 * xi3
    out[..., 2] = length * (xi - 2 * xi2 + xi3)
    out[..., 3] = xi
    out[..., 4] = 3 * xi2 - 2 * xi3
    out[..., 5] = length * (xi3 - xi2)
    return out


def _shape_slope(xi: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Derivatives d/ds of the transverse shape functions (rotation DOFs respond to point moments)."""
    out = np.zeros((*xi.shape, 6))
    out[..., 1] = 6 * (xi * xi - xi) / length
    out[..., 2] = 1 - 4 * xi + 3 * xi * xi
    out[..., 4] = -out[..., 1]
    out[..., 5] = 3 * xi * xi - 2 * xi
    return out


# Which load component (0: local x, 1: local y) drives each local DOF.
_COMPONENT = np.array([0, 1, 1, 0, 1, 1])


def fixed_end_vector(span: SpanLoads, lengths: np.ndarray) -> np.ndarray:
    """Work-equivalent nodal loads (n_links, 6) in local axes.

    For prismatic Euler–Bernoulli members the consistent load vector equals the exact fixed-end
    forces, so one element per link is exact.
    """
    out = np.zeros((len(lengths), 6))
    if len(span.forces):
        link = span.forces[:, 0].astype(np.int64)
        length = lengths[link]
        n = _shape(span.forces[:, 1] / length, length)
        np.add.at(out, link, n * span.forces[:, 2:4][:, _COMPONENT])
    if len(span.moments):
        link = span.moments[:, 0].astype(np.int64)
        length = lengths[link]
        np.add.at(out, link, _shape_slope(span.moments[:, 1] / length, length) * span.moments[:, 2:3])
    if len(span.lines):
        rows = span.lines
        link = rows[:, 0].astype(np.int64)
        length = lengths[link][:, None]
        s1, width = rows[:, 1:2], (rows[:, 2] - rows[:, 1])[:, None]
        t = s1 + _GAUSS_X[None, :] * width  # (loads, 3 Gauss points)
        qx = rows[:, 3:4] + _GAUSS_X * (rows[:, 5:6] - rows[:, 3:4])
        qy = rows[:, 4:5] + _GAUSS_X * (rows[:, 6:7] - rows[:, 4:5])
        q = np.stack([qx, qy], axis=-1)[:, :, _COMPONENT]  # (loads, 3, 6)
        weighted = (_GAUSS_W[None, :] * width)[:, :, None] * _shape(t / length, length) * q
        np.add.at(out, link, weighted.sum(axis=1))
    return out
