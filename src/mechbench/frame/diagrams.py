"""Internal-force diagrams along each link, sampled exactly as FrameCalc samples them.

Sign rules (``docs/framecalc-format.md`` section 7.4): at a section s, (n, v, m) is the resultant of
everything acting on the part of the link from end A to the section, A's end forces included — n
along local x (positive in compression), v along local y, m about the section point, CCW positive.
Sampling: the link is split at interior load positions; each segment gets 500 evenly spaced samples,
shared positions are listed once with the value just after the load.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from mechbench.frame.loads import SpanLoads

SAMPLES_PER_SEGMENT = 500
_UNIT = np.linspace(0.0, 1.0, SAMPLES_PER_SEGMENT)
_QUARTERS = np.array([0.25, 0.5, 0.75])


@dataclass(frozen=True)
class LinkDiagram:
    """Sampled internal forces of one link: positions ``s`` (m from A) and n, v, m at each."""

    link_id: str
    s: np.ndarray
    n: np.ndarray
    v: np.ndarray
    m: np.ndarray

    def records(self) -> list[dict[str, float]]:
        """FrameCalc's sample records ``{"s", "n", "v", "m"}`` (plain floats, JSON-ready)."""
        return [
            {"s": a, "n": b, "v": c, "m": d}
            for a, b, c, d in zip(self.s.tolist(), self.n.tolist(), self.v.tolist(), self.m.tolist(), strict=True)
        ]


def sample_positions(length: float, cuts: list[float]) -> np.ndarray:
    """Sample positions s (m from A): 500 per segment between cuts, shared ends listed once."""
    if not cuts:
        out = _UNIT * length
        out[-1] = length
        return out
    bounds = [0.0, *cuts, length]
    parts = [np.linspace(bounds[0], bounds[1], SAMPLES_PER_SEGMENT)]
    parts.extend(np.linspace(start, end, SAMPLES_PER_SEGMENT)[1:] for start, end in pairwise(bounds[1:]))
    return np.concatenate(parts)


def _rows_by_link(rows: np.ndarray) -> dict[int, np.ndarray]:
    if not len(rows):
        return {}
    links = rows[:, 0].astype(np.int64)
    return {int(k): rows[links == k] for k in np.unique(links)}


def _forces_at(
    s: np.ndarray,
    ends: np.ndarray,
    f: np.ndarray | None,
    mo: np.ndarray | None,
    li: np.ndarray | None,
    before: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, v, m) at positions ``s`` of one link; a concentrated load at a counts for s ≥ a, or, with
    ``before``, only for s > a (the left-hand limit at the load)."""
    n0, v0, m0 = ends[0], ends[1], ends[2]
    n = np.full_like(s, n0)
    v = np.full_like(s, v0)
    m = m0 - s * v0
    if f is not None:
        for _, a, px, py in f:
            past = s > a if before else s >= a
            n[past] += px
            v[past] += py
            m[past] += (a - s[past]) * py
    if mo is not None:
        for _, a, moment in mo:
            m[s > a if before else s >= a] += moment
    if li is not None:
        for _, s1, s2, qx1, qy1, qx2, qy2 in li:
            width = s2 - s1
            d = np.clip(s, s1, s2) - s1  # loaded length on the A side of the section
            kx, ky = (qx2 - qx1) / width, (qy2 - qy1) / width
            n += qx1 * d + kx * d * d / 2
            v += qy1 * d + ky * d * d / 2
            # ∫ (t − s) q_y(t) dt over the loaded part, with t = s1 + τ.
            m += qy1 * d * d / 2 + ky * d**3 / 3 + (s1 - s) * (qy1 * d + ky * d * d / 2)
    return n, v, m


def _link_loads(span: SpanLoads) -> tuple[dict[int, np.ndarray], ...]:
    return _rows_by_link(span.forces), _rows_by_link(span.moments), _rows_by_link(span.lines)


def _cuts(length: float, f: np.ndarray | None, mo: np.ndarray | None, li: np.ndarray | None) -> list[float]:
    cuts: set[float] = set()
    for rows, columns in ((f, (1,)), (mo, (1,)), (li, (1, 2))):
        if rows is not None:
            for column in columns:
                cuts.update(float(a) for a in rows[:, column] if 0.0 < a < length)
    return sorted(cuts)


def link_diagrams(
    link_ids: list[str], lengths: list[float], end_forces: np.ndarray, span: SpanLoads
) -> list[LinkDiagram]:
    """Diagrams of every link, sorted by link id as plain strings (FrameCalc's order).

    ``end_forces[k, :3]`` are the forces joint A applies to link k (local N, V, M); a load at
    position a counts at every s ≥ a, so at a cut the value is the right-hand limit.
    """
    forces, moments, lines = _link_loads(span)
    out = []
    for k in sorted(range(len(link_ids)), key=link_ids.__getitem__):
        f, mo, li = forces.get(k), moments.get(k), lines.get(k)
        s = sample_positions(lengths[k], _cuts(lengths[k], f, mo, li))
        out.append(LinkDiagram(link_ids[k], s, *_forces_at(s, end_forces[k], f, mo, li)))
    return out


def section_forces(
    link_ids: list[str], end_forces: np.ndarray, span: SpanLoads, link_id: str, s: float
) -> tuple[float, float, float]:
    """(n, v, m) of link ``link_id`` at ``s`` m from its end A, exactly (the right-hand limit at a concentrated load),
    in the signs of :class:`LinkDiagram`."""
    forces, moments, lines = _link_loads(span)
    k = link_ids.index(link_id)
    n, v, m = _forces_at(np.array([float(s)]), end_forces[k], forces.get(k), moments.get(k), lines.get(k))
    return float(n[0]), float(v[0]), float(m[0])


def peak_moments(
    link_ids: list[str], lengths: list[float], end_forces: np.ndarray, span: SpanLoads
) -> dict[str, float]:
    """The true largest |m| of every link, not the largest sample.

    Between cuts m is a polynomial with dm/ds = −v and v at most quadratic, so |m| peaks at a segment's
    ends — both one-sided limits at a concentrated moment or force — or where v changes sign inside it.
    Every segment's quadratic comes from v at three interior points, all segments evaluated at once.
    """
    forces, moments, lines = _link_loads(span)
    out = {}
    for k in sorted(range(len(link_ids)), key=link_ids.__getitem__):
        f, mo, li = forces.get(k), moments.get(k), lines.get(k)
        bounds = np.array([0.0, *_cuts(lengths[k], f, mo, li), lengths[k]])
        lo, hi = bounds[:-1], bounds[1:]
        width = hi - lo
        _, v, _ = _forces_at((lo[:, None] + width[:, None] * _QUARTERS).ravel(), end_forces[k], f, mo, li)
        v1, v2, v3 = v.reshape(-1, 3).T
        # v(u) = a u² + b u + c on u = (s − lo)/width, through u = 1/4, 1/2, 3/4.
        qa = (v1 - 2 * v2 + v3) * 8.0
        qb = (v3 - v1) * 2.0 - qa
        qc = v2 - qa / 4 - qb / 2
        with np.errstate(all="ignore"):
            linear = np.abs(qa) <= 1e-12 * (np.abs(qb) + np.abs(qc) + 1e-300)
            root = np.sqrt(np.maximum(qb * qb - 4 * qa * qc, 0.0))
            has_roots = linear | (qb * qb - 4 * qa * qc >= 0)
            u = np.concatenate(
                [
                    np.where(linear, -qc / qb, (-qb + root) / (2 * qa)),
                    np.where(linear, np.nan, (-qb - root) / (2 * qa)),
                ]
            )
        inside = np.tile(has_roots, 2) & np.isfinite(u) & (u > 0) & (u < 1)
        s = np.concatenate([bounds, (np.tile(lo, 2) + np.tile(width, 2) * u)[inside]])
        _, _, m = _forces_at(s, end_forces[k], f, mo, li)
        _, _, left = _forces_at(bounds, end_forces[k], f, mo, li, before=True)
        out[link_ids[k]] = float(max(np.abs(m).max(initial=0.0), np.abs(left).max(initial=0.0)))
    return out
