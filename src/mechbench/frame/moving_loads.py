"""A train of point loads crossing a simply supported span: the largest bending moment at a section and anywhere
(the absolute maximum), found exactly; and crossing a continuous beam, by its influence lines.

The train keeps its order and spacing; its position s is that of its first load, and a load is on the span while
0 ≤ s + oₖ ≤ L. At a fixed section the moment is piecewise linear in s (influence line), so its maximum is at a
position where some load enters, leaves or stands on the section. Under load k the moment is piecewise quadratic in
s (the left reaction and the lever arm both move), so its maximum over each stretch with the same loads on the span
is at the parabola's vertex or at an end of the stretch; the absolute maximum stands under some load.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np


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


def _simple_deflection(span: float, at: np.ndarray, load: np.ndarray) -> np.ndarray:
    """Deflection × EI of a simply supported beam at ``at`` under a unit load at ``load`` (broadcast; Maxwell's
    reciprocity makes it symmetric)."""
    a = np.minimum(at, load)
    b = np.maximum(at, load)
    # unit load at b, section at a ≤ b: y·EI = (L − b) a (L² − (L − b)² − a²) / (6 L)
    return (span - b) * a * (span**2 - (span - b) ** 2 - a**2) / (6 * span)


def _simple_moment(span: float, at: np.ndarray, load: np.ndarray) -> np.ndarray:
    """Sagging moment of a simply supported beam at ``at`` under a unit load at ``load`` (broadcast)."""
    return np.where(load <= at, load * (span - at) / span, at * (span - load) / span)


def continuous_influence(supports: Sequence[float], section: float, load: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Influence lines of a continuous beam of constant EI resting on ``supports`` (x, m; the ends pinned and on
    rollers): the sagging moment at ``section`` and the reaction of every support, for a unit downward load at each
    position of ``load``. The interior reactions are the redundants of the simply supported beam over the two end
    supports, found from its deflections (closed forms) by compatibility."""
    xs = np.asarray(supports, dtype=float)
    start, span = xs[0], xs[-1] - xs[0]
    inner = xs[1:-1] - start
    at = np.asarray(load, dtype=float) - start
    flexibility = _simple_deflection(span, inner[:, None], inner[None, :])
    # upward redundants R: flexibility·R = deflection under the unit load (both downward positive)
    redundants = np.linalg.solve(flexibility, _simple_deflection(span, inner[:, None], at[None, :]))
    moment = (
        _simple_moment(span, np.array(section - start), at)
        - _simple_moment(span, np.array(section - start), inner) @ redundants
    )
    total = 1.0 - redundants.sum(axis=0)  # what the two end supports carry
    right = (at - inner @ redundants) / span  # moments about the left end
    reactions = np.vstack([total - right, redundants, right])
    return moment, reactions


def train_extreme(
    influence: Callable[[np.ndarray], np.ndarray], start: float, end: float, loads: Sequence[float],
    spacings: Sequence[float], kinks: Sequence[float], sign: float = 1.0,
) -> float:  # fmt: skip
    """The extreme (largest, or with ``sign`` −1 the most negative) of Σ Pₖ·I(s + oₖ) over every train position s,
    loads off ``[start, end]`` counting for nothing. ``kinks``: where the influence line I has a kink (supports, the
    section): the sum may peak with a load there, so those positions are tried exactly; between them a fine sweep and
    a bounded Brent refinement find the smooth maxima."""
    from scipy.optimize import minimize_scalar

    o = np.asarray(offsets(spacings))
    p = np.asarray(loads, dtype=float)

    def effect(s: np.ndarray | float) -> np.ndarray:
        place = np.asarray(s, dtype=float)[..., None] + o
        on = (place >= start) & (place <= end)
        values = influence(np.clip(place, start, end).ravel()).reshape(place.shape)
        return sign * np.sum(np.where(on, values * p, 0.0), axis=-1)

    low, high = start - o[-1], end
    grid = np.linspace(low, high, 1201)
    values = effect(grid)
    candidates = [float(values.max())]
    special = np.array([k - ok for k in (*kinks, start, end) for ok in o])
    candidates.append(float(effect(special[(special >= low) & (special <= high)]).max()))
    step = grid[1] - grid[0]
    for i in np.argsort(values)[-3:]:
        best = minimize_scalar(lambda s: -float(effect(s)), bounds=(grid[i] - step, grid[i] + step),
                               method="bounded", options={"xatol": 1e-10})  # fmt: skip
        candidates.append(-float(best.fun))
    return sign * max(candidates)
