"""What a run can show before it is paid for: the smallest difference between two models it detects at 80 % power,
and the samples a target difference needs, from the set's cluster structure and an assumption on the spread.

Two models answering the same samples are compared by their paired difference d (one per sample, epochs averaged).
With N samples in clusters of sizes m_g, a per-sample standard deviation σ of d and an intra-cluster correlation ρ
of d, the standard error of the mean difference is ``σ · √((1 + (m* − 1)ρ) / N)`` with the effective cluster size
``m* = Σ m_g² / N`` (the design effect of unequal clusters). A two-sided test at α detects a true difference δ with
power ``P(|T| > t₁₋α/₂)`` for T a t variable with G − 1 degrees of freedom shifted by δ / SE; the smallest detectable
difference at power 1 − β is ``(t₁₋α/₂ + t₁₋β) · SE``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

ALPHA = 0.05
POWER = 0.8
WORST_SD = math.sqrt(0.5)
"""The largest per-sample SD of a paired difference of two scores in [0, 1] that answer independently: two models
each right half the time (variances 1/4 + 1/4)."""
WORST_ICC = 1.0
"""The worst intra-cluster correlation: every answer about one cluster the same (each cluster one observation)."""


@dataclass(frozen=True)
class Spread:
    """The assumption a plan rests on: the per-sample SD of a paired difference and its intra-cluster correlation."""

    sd: float
    icc: float
    source: str
    """Where the numbers come from (a run's logs, or the worst case)."""
    assumed: bool = False
    """True for the worst case, assumed rather than measured."""


WORST_CASE = Spread(WORST_SD, WORST_ICC, "the worst case: two independent models right half the time, ICC 1", True)


@dataclass(frozen=True)
class Design:
    """A set's cluster structure: one size per cluster."""

    sizes: tuple[int, ...]

    @property
    def samples(self) -> int:
        return sum(self.sizes)

    @property
    def clusters(self) -> int:
        return len(self.sizes)

    @property
    def effective_size(self) -> float:
        """``Σ m² / N``: the cluster size the design effect of unequal clusters uses."""
        return sum(m * m for m in self.sizes) / self.samples if self.samples else math.nan


def standard_error(design: Design, spread: Spread) -> float:
    """Standard error of the mean paired difference over ``design`` under ``spread``."""
    if design.samples == 0:
        return math.inf
    effect = 1.0 + (design.effective_size - 1.0) * spread.icc
    return spread.sd * math.sqrt(effect / design.samples)


def power(design: Design, spread: Spread, difference: float, alpha: float = ALPHA) -> float:
    """The chance a two-sided paired test at ``alpha`` finds a true ``difference`` (NaN with fewer than 2 clusters)."""
    if design.clusters < 2:
        return math.nan
    from scipy import stats  # here, not at the top: every `mechbench` command imports this module's command

    df = design.clusters - 1
    shift = abs(difference) / standard_error(design, spread)
    critical = stats.t.ppf(1 - alpha / 2, df)
    return float(stats.nct.sf(critical, df, shift) + stats.nct.cdf(-critical, df, shift))


def detectable(design: Design, spread: Spread, target_power: float = POWER, alpha: float = ALPHA) -> float:
    """The smallest difference a paired test at ``alpha`` finds with ``target_power`` on ``design``."""
    if design.clusters < 2:
        return math.inf
    from scipy import stats

    df = design.clusters - 1
    return float((stats.t.ppf(1 - alpha / 2, df) + stats.t.ppf(target_power, df)) * standard_error(design, spread))


def scaled(design: Design, clusters: int) -> Design:
    """``design`` with ``clusters`` clusters of its own sizes (its sizes repeated in turn)."""
    return Design(tuple(design.sizes[k % len(design.sizes)] for k in range(clusters)))


MAX_CLUSTERS = 1_000_000


def clusters_needed(
    design: Design, spread: Spread, difference: float, target_power: float = POWER, alpha: float = ALPHA
) -> int | None:
    """The fewest clusters of the design's sizes with which the paired test finds ``difference`` at
    ``target_power`` (None past a million: the difference is below what such clusters can show)."""
    if difference <= 0 or not design.sizes:
        return None
    low, high = 2, 2
    while detectable(scaled(design, high), spread, target_power, alpha) > difference:
        low, high = high, high * 2
        if high > MAX_CLUSTERS:
            return None
    while low < high:
        middle = (low + high) // 2
        if detectable(scaled(design, middle), spread, target_power, alpha) <= difference:
            high = middle
        else:
            low = middle + 1
    return high


def estimate_spread(differences: Sequence[tuple[object, float]], source: str) -> Spread | None:
    """The SD and the intra-cluster correlation of paired differences given as ``(cluster, d)`` (one-way ANOVA
    estimator of the ICC, clipped to [0, 1]); None with fewer than two clusters or no spread. Where every cluster
    holds one sample the ICC cannot be measured; it is then taken as :data:`WORST_ICC`, which changes nothing on
    such a design (its effective cluster size is 1) and errs on the safe side on any other."""
    groups: dict[object, list[float]] = {}
    for cluster, value in differences:
        groups.setdefault(cluster, []).append(value)
    n, g = sum(len(v) for v in groups.values()), len(groups)
    if g < 2:
        return None
    if n == g:
        sd = statistics.stdev(v[0] for v in groups.values())
        return Spread(sd, WORST_ICC, source) if sd > 0 else None
    mean = sum(sum(v) for v in groups.values()) / n
    between = sum(len(v) * (sum(v) / len(v) - mean) ** 2 for v in groups.values()) / (g - 1)
    within = sum((x - sum(v) / len(v)) ** 2 for v in groups.values() for x in v) / (n - g)
    size = (n - sum(len(v) ** 2 for v in groups.values()) / n) / (g - 1)
    between_variance = max((between - within) / size, 0.0)
    total = between_variance + within
    if total <= 0:
        return None
    return Spread(math.sqrt(total), min(max(between_variance / total, 0.0), 1.0), source)
