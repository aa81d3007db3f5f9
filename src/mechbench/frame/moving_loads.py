"""A train of point loads crossing a simply supported span: the largest bending moment at a section and anywhere
(the absolute maximum), found exactly.

The train keeps its order and spacing; its position s is that of its first load, and a load is on the span while
0 ≤ s + oₖ ≤ L. At a fixed section the moment is piecewise linear in s (influence line), so its maximum is at a
position where some load enters, leaves or stands on the section. Under load k the moment is piecewise quadratic in
s (the left reaction and the lever arm both move), so its maximum over each stretch with the same loads on the span
is at the parabola's vertex or at an end of the stretch; the absolute maximum stands under some load.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence


def offsets(spacings: Sequence[float]) -> list[float]:
    """Each load's distance behind the first, from the spacings between consecutive loads."""
    return [0.0, *itertools.accumulate(spacings)]


def moment_at(span: float, x: float, loads: Sequence[float], place: Sequence[float]) -> float:
    """Sagging moment at ``x`` with the loads (kN, downward) standing at ``place`` (m; off the span they count for
    nothing)."""
    total = 0.0
    for p, a in zip(loads, place, strict=True):
        if 0.0 <= a <= span:
            total += p * (a * (span - x) / span if a <= x else x * (span - a) / span)
    return total


def max_moment_at(span: float, x: float, loads: Sequence[float], spacings: Sequence[float]) -> float:
    """The largest sagging moment the train gives at section ``x``."""
    o = offsets(spacings)
    candidates = {edge - ok for ok in o for edge in (0.0, x, span)}
    return max(moment_at(span, x, loads, [s + ok for ok in o]) for s in candidates)


def absolute_max_moment(span: float, loads: Sequence[float], spacings: Sequence[float]) -> tuple[float, float]:
    """The largest sagging moment anywhere as the train crosses, and the section where it acts."""
    o = offsets(spacings)
    events = sorted({edge - ok for ok in o for edge in (0.0, span)})
    best = (0.0, span / 2)
    for low, high in itertools.pairwise(events):
        middle = (low + high) / 2
        on = [k for k, ok in enumerate(o) if 0.0 <= middle + ok <= span]
        if not on:
            continue
        weight = sum(loads[k] for k in on)
        lever = sum(loads[k] * o[k] for k in on)  # the left reaction is (weight·(L − s) − lever) / L
        for k in on:
            # M_k(s) = R_A(s)·(s + o_k) − Σ_{j on, j < k} P_j (o_k − o_j): a parabola in s
            behind = sum(loads[j] * (o[k] - o[j]) for j in on if o[j] < o[k])
            vertex = ((weight * span - lever) / weight - o[k]) / 2  # where dM_k/ds = 0
            for s in (low, high, vertex):
                if low <= s <= high:
                    x = s + o[k]
                    value = (weight * (span - s) - lever) / span * x - behind
                    if value > best[0]:
                        best = (value, x)
    return best
