"""Intervals that treat correlated questions as correlated: cluster-robust means, paired differences, Holm's
correction and the ranks a model could hold.

Questions of one benchmark are rarely independent: SeeSim asks about twenty questions of each simulation, a SPhyR
layout appears in all 16 subjects. Treating them as independent understates the uncertainty by the design effect
``1 + (m − 1)·ICC``. Everything here is computed over *clusters* (the unit a benchmark declares) with the CR1
cluster-robust variance — Σ over clusters of the squared sum of weighted residuals, times G/(G − 1) — and a t quantile
with G − 1 degrees of freedom, which is what keeps coverage near 95 % with a dozen clusters (``docs/statistics.md``).

Repeated epochs of one sample are averaged within the sample first (a sample is one item however often it was
asked); the spread is then split into its run-to-run part (between epochs of a sample) and its between-items part.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

LEVEL = 0.95
"""The intervals' confidence level."""
Z95 = 1.959963984540054
EXACT_FLIPS = 16
"""Up to this many clusters the sign-flip test enumerates every flip (2^16 = 65,536); past it, it draws them."""
DRAWN_FLIPS = 20_000
"""Random sign flips of the paired test past :data:`EXACT_FLIPS` clusters (p-value error below ±0.004 at 0.05)."""
MIN_SHARED_CLUSTERS = 5
"""Two rows are compared only when they share samples in at least this many clusters (a t with 4 degrees of freedom;
with fewer, no interval over clusters means much)."""


@dataclass(frozen=True)
class Observation:
    """One scored answer: its sample, epoch, cluster, value and weight."""

    sample: Hashable
    cluster: Hashable
    value: float
    weight: float = 1.0
    epoch: int = 1


@dataclass(frozen=True)
class Interval:
    """A weighted mean over samples with its cluster-robust 95 % interval."""

    mean: float
    half: float
    """Half-width of the interval (t quantile, clusters − 1 degrees of freedom); NaN with fewer than two clusters."""
    se: float
    samples: int
    """Distinct samples (epochs averaged within each)."""
    clusters: int
    naive_half: float
    """The half-width of a normal interval that takes every sample as independent (what reports used to print)."""
    epochs: int = 1
    """The most epochs any sample was asked."""
    run_to_run: float | None = None
    """The share of the spread that is run-to-run (between epochs of one sample); None without repeated epochs."""

    @property
    def design_effect(self) -> float:
        """How much wider than the naive interval clustering makes it, squared (the variance ratio)."""
        if not (self.naive_half > 0 and math.isfinite(self.half)):
            return math.nan
        return (self.half / self.naive_half) ** 2


def t_quantile(clusters: int, level: float = LEVEL) -> float:
    """The two-sided ``level`` quantile of Student's t with ``clusters − 1`` degrees of freedom (NaN below two)."""
    if clusters < 2:
        return math.nan
    return float(stats.t.ppf(0.5 + level / 2, clusters - 1))


def per_sample(observations: Sequence[Observation]) -> tuple[dict[Hashable, float], dict, dict, float | None, int]:
    """Each sample's mean over its epochs, weight and cluster; the run-to-run share of the spread; the most epochs.

    The run-to-run variance is the pooled within-sample variance of samples asked more than once; the between-items
    variance is the variance of the sample means less the run-to-run part each mean still carries."""
    values: dict[Hashable, list[float]] = defaultdict(list)
    weights: dict[Hashable, float] = {}
    clusters: dict[Hashable, Hashable] = {}
    for o in observations:
        values[o.sample].append(o.value)
        weights[o.sample] = o.weight
        clusters[o.sample] = o.cluster
    means = {s: float(np.mean(v)) for s, v in values.items()}
    repeated = [v for v in values.values() if len(v) > 1]
    epochs = max((len(v) for v in values.values()), default=0)
    share = None
    if repeated:
        within = float(np.mean([np.var(v, ddof=1) for v in repeated]))
        per_mean = within / float(np.mean([len(v) for v in values.values()]))
        between = max(float(np.var(list(means.values()), ddof=1)) - per_mean, 0.0) if len(means) > 1 else 0.0
        share = within / (within + between) if within + between > 0 else 0.0
    return means, weights, clusters, share, epochs


def _cluster_totals(residuals: dict[Hashable, float], clusters: dict[Hashable, Hashable]) -> np.ndarray:
    totals: dict[Hashable, float] = defaultdict(float)
    for sample, residual in residuals.items():
        totals[clusters[sample]] += residual
    return np.array(list(totals.values()), dtype=float)


def clustered_interval(observations: Sequence[Observation]) -> Interval:
    """The weighted mean of the observations' samples (epochs averaged first) with its CR1 cluster-robust interval."""
    means, weights, clusters, share, epochs = per_sample(observations)
    total = sum(weights.values())
    if not means or total <= 0:
        return Interval(math.nan, math.nan, math.nan, 0, 0, math.nan, epochs, share)
    mean = sum(weights[s] * means[s] for s in means) / total
    residuals = {s: weights[s] * (means[s] - mean) for s in means}
    sums = _cluster_totals(residuals, clusters)
    g, n = len(sums), len(means)
    se = math.sqrt(g / (g - 1) * float(np.sum(sums**2))) / total if g > 1 else math.nan
    naive = math.sqrt(n / (n - 1) * sum(r * r for r in residuals.values())) / total if n > 1 else math.nan
    return Interval(mean, t_quantile(g) * se, se, n, g, Z95 * naive, epochs, share)


@dataclass(frozen=True)
class Difference:
    """A paired difference (A − B) on the samples two rows share, with its clustered interval and p-value."""

    mean: float
    half: float
    se: float
    samples: int
    clusters: int
    p_value: float
    """Two-sided, from flipping the sign of each cluster's summed difference (exact up to 16 clusters)."""


def _sign_flip_p(sums: np.ndarray, seed: str) -> float:
    """The two-sided p-value of Σ sums under random signs per cluster (the paired null: A and B exchangeable)."""
    observed = abs(float(np.sum(sums)))
    if observed == 0.0:
        return 1.0
    tolerance = 1e-12 * max(float(np.sum(np.abs(sums))), 1e-300)
    if len(sums) <= EXACT_FLIPS:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=len(sums))))
        return float(np.mean(np.abs(signs @ sums) >= observed - tolerance))
    rng = np.random.default_rng(random.Random(seed).getrandbits(64))
    signs = rng.choice((1.0, -1.0), size=(DRAWN_FLIPS, len(sums)))
    hits = int(np.sum(np.abs(signs @ sums) >= observed - tolerance))
    return (hits + 1) / (DRAWN_FLIPS + 1)


def paired_difference(a: Sequence[Observation], b: Sequence[Observation], seed: str = "paired") -> Difference | None:
    """A − B on the samples both have (epochs averaged within each), weighted by A's weights; None when they share
    samples in fewer than :data:`MIN_SHARED_CLUSTERS` clusters."""
    means_a, weights, clusters, _, _ = per_sample(a)
    means_b, _, _, _, _ = per_sample(b)
    shared = [s for s in means_a if s in means_b]
    if len({clusters[s] for s in shared}) < MIN_SHARED_CLUSTERS:
        return None
    total = sum(weights[s] for s in shared)
    differences = {s: means_a[s] - means_b[s] for s in shared}
    mean = sum(weights[s] * differences[s] for s in shared) / total
    residuals = {s: weights[s] * (differences[s] - mean) for s in shared}
    sums = _cluster_totals(residuals, clusters)
    g = len(sums)
    se = math.sqrt(g / (g - 1) * float(np.sum(sums**2))) / total
    raw = _cluster_totals({s: weights[s] * differences[s] for s in shared}, clusters)
    return Difference(mean, t_quantile(g) * se, se, len(shared), g, _sign_flip_p(raw, seed))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` (family-wise error at the nominal level over all of them)."""
    order = sorted(range(len(p_values)), key=lambda k: p_values[k])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[k]))
        adjusted[k] = running
    return adjusted


def rank_intervals(names: Sequence[str], ahead: set[tuple[str, str]]) -> dict[str, tuple[int, int]]:
    """The ranks each row could hold (1 is the best) given the pairs ``(a, b)`` where a is shown ahead of b: its best
    rank is one more than the rows shown ahead of it, its worst is the count of rows less those it is shown ahead
    of."""
    out = {}
    for name in names:
        above = sum((other, name) in ahead for other in names)
        below = sum((name, other) in ahead for other in names)
        out[name] = (1 + above, len(names) - below)
    return out
