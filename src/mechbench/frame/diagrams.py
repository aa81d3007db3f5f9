"""Internal-force diagrams along each link, sampled exactly as FrameCalc samples them.

Sign rules (``framecalc-format.md`` section 7.4): at a section s, (n, v, m) is the resultant of
everything acting on the part of the link from end A to the section, A's end forces included — n
along local x (positive in compression), v along local y, m about the section point, CCW positive.
Sampling: the link is split at interior load positions; each segment gets 500 evenly spaced samples,
shared positions are listed once with the value just after the load.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

SAMPLES_PER_SEGMENT = 500


@dataclass(frozen=True)
class LinkLoads:
    """Span loads of one link in local axes (rows as in :class:`mechbench.frame.loads.SpanLoads`)."""

    forces: np.ndarray
    moments: np.ndarray
    lines: np.ndarray


def sample_positions(length: float, cuts: list[float]) -> np.ndarray:
    """Sample positions s (m from A): 500 per segment between cuts, shared ends listed once."""
    bounds = [0.0, *cuts, length]
    parts = [np.linspace(bounds[0], bounds[1], SAMPLES_PER_SEGMENT)]
    for start, end in pairwise(bounds[1:]):
        parts.append(np.linspace(start, end, SAMPLES_PER_SEGMENT)[1:])
    return np.concatenate(parts)


def evaluate(end_a: np.ndarray, loads: LinkLoads, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n, v, m at positions ``s`` from the forces end A's joint applies (local N, V, M) and the span loads.

    A load at position a counts at every s ≥ a, so at a cut the value is the right-hand limit.
    """
    n = np.full_like(s, end_a[0])
    v = np.full_like(s, end_a[1])
    m = end_a[2] - s * end_a[1]
    for _, a, px, py in loads.forces:
        past = s >= a
        n += np.where(past, px, 0.0)
        v += np.where(past, py, 0.0)
        m += np.where(past, (a - s) * py, 0.0)
    for _, a, moment in loads.moments:
        m += np.where(s >= a, moment, 0.0)
    for _, s1, s2, qx1, qy1, qx2, qy2 in loads.lines:
        width = s2 - s1
        d = np.clip(s, s1, s2) - s1  # loaded length on the A side of the section
        kx, ky = (qx2 - qx1) / width, (qy2 - qy1) / width
        n += qx1 * d + kx * d * d / 2
        v += qy1 * d + ky * d * d / 2
        # ∫ (t − s) q_y(t) dt over the loaded part, with t = s1 + τ.
        c0 = s1 - s
        m += qy1 * d * d / 2 + ky * d**3 / 3 + c0 * (qy1 * d + ky * d * d / 2)
    return n, v, m


def samples_as_records(s: np.ndarray, n: np.ndarray, v: np.ndarray, m: np.ndarray) -> list[dict[str, float]]:
    """FrameCalc's sample records ``{"s", "n", "v", "m"}`` (plain floats, JSON-ready)."""
    return [
        {"s": a, "n": b, "v": c, "m": d}
        for a, b, c, d in zip(s.tolist(), n.tolist(), v.tolist(), m.tolist(), strict=True)
    ]
