"""Intervals that treat correlated questions as correlated: cluster-robust means, paired differences, Holm's
correction and the ranks a model could hold.

Questions of one benchmark are rarely independent: SeeSim asks about twenty questions of each simulation, a SPhyR
layout appears in all 16 subjects. Treating them as independent understates the uncertainty by the design effect
``1 + (m − 1)·ICC``. Everything here is computed over *clusters* (the unit a benchmark declares): the variance of a
(weighted) mean is the bias-reduced cluster-robust CR2 (Bell and McCaffrey 2002: each cluster's summed residual
inflated by ``1/(1 − W_g/W)``, its share of the weight), and the interval uses a t quantile with the degrees of
freedom of Imbens and Kolesár (2016), which fall below clusters − 1 when clusters differ in size or their answers
are alike. With a dozen unequal clusters this keeps coverage near 95 % where CR1 with clusters − 1 gives 91 %
(``docs/statistics.md``, ``tests/test_intervals.py``).

Repeated epochs of one sample are averaged within the sample first (a sample is one item however often it was
asked); the spread is then split into its run-to-run part (between epochs of a sample) and its between-items part.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

LEVEL = 0.95
"""The intervals' confidence level."""
VARIANCE = "CR2"
"""The cluster-robust variance :func:`clustered_interval` and :func:`paired_difference` compute (``_cr2``)."""
DEGREES_OF_FREEDOM = "Imbens–Kolesár"
"""Whose degrees of freedom the t quantile takes (``_degrees_of_freedom``)."""
INTERVAL_METHOD = (
    f"cluster-robust ({VARIANCE}: Bell and McCaffrey's bias-reduced variance, each cluster's residual inflated by its "
    f"share of the weight) with a t quantile on the degrees of freedom of {DEGREES_OF_FREEDOM} (2016), which equal "
    "clusters − 1 for equal clusters of unrelated answers and fall below it when clusters differ in size or their "
    "answers are alike"
)
"""The interval in words, as the report prints it: what this module computes, named in one place beside it."""
Z95 = 1.959963984540054
MAX_GRAM_CLUSTERS = 4000
"""Past this many clusters the degrees of freedom are taken as clusters − 1 (t is then normal to three digits)."""
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
    """Half-width of the interval (t quantile on :attr:`df` degrees of freedom); NaN with fewer than two clusters."""
    se: float
    samples: int
    """Distinct samples (epochs averaged within each)."""
    clusters: int
    df: float
    """Degrees of freedom of the t quantile (Imbens–Kolesár; at most clusters − 1)."""
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


def t_quantile(df: float, level: float = LEVEL) -> float:
    """The two-sided ``level`` quantile of Student's t with ``df`` degrees of freedom (NaN without any)."""
    if not df >= 1:
        return math.nan
    # scipy.special's ufunc, not scipy.stats.t.ppf: the same number in a hundredth of the time (a report of many rows
    # asks for thousands). Here, not at the top: the command line imports this module and starts faster.
    from scipy import special

    return float(special.stdtrit(df, 0.5 + level / 2))


def t_two_sided_p(t: float, df: float) -> float:
    """The two-sided p-value of ``t`` under Student's t with ``df`` degrees of freedom."""
    from scipy import special

    return float(2 * special.stdtr(df, -abs(t)))


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
    means = {s: v[0] if len(v) == 1 else sum(v) / len(v) for s, v in values.items()}
    repeated = [v for v in values.values() if len(v) > 1]
    epochs = max((len(v) for v in values.values()), default=0)
    share = None
    if repeated:
        within = float(np.mean([np.var(v, ddof=1) for v in repeated]))
        per_mean = within / float(np.mean([len(v) for v in values.values()]))
        between = max(float(np.var(list(means.values()), ddof=1)) - per_mean, 0.0) if len(means) > 1 else 0.0
        share = within / (within + between) if within + between > 0 else 0.0
    return means, weights, clusters, share, epochs


@dataclass(frozen=True)
class Samples:
    """A row's answers as the intervals read them: each sample's mean over its epochs, its weight and cluster
    (computed once per row, however many rows it is compared with)."""

    means: dict[Hashable, float]
    weights: dict[Hashable, float]
    clusters: dict[Hashable, Hashable]


def samples_of(observations: Sequence[Observation] | Samples) -> Samples:
    """The per-sample means, weights and clusters of ``observations`` (epochs averaged)."""
    if isinstance(observations, Samples):
        return observations
    means, weights, clusters, _, _ = per_sample(observations)
    return Samples(means, weights, clusters)


@dataclass(frozen=True)
class _Robust:
    mean: float
    se: float
    df: float
    clusters: int


def _cr2(values: dict[Hashable, float], weights: dict[Hashable, float], clusters: dict[Hashable, Hashable]) -> _Robust:
    """The weighted mean of ``values`` with its CR2 standard error and Imbens–Kolesár degrees of freedom."""
    total = sum(weights[s] for s in values)
    mean = sum(weights[s] * values[s] for s in values) / total
    sums: dict[Hashable, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])  # Σ w e, Σ w, Σ w²
    for s, value in values.items():
        entry = sums[clusters[s]]
        entry[0] += weights[s] * (value - mean)
        entry[1] += weights[s]
        entry[2] += weights[s] ** 2
    u, w, q = (np.array([v[k] for v in sums.values()]) for k in range(3))
    g = len(u)
    if g < 2:
        return _Robust(mean, math.nan, math.nan, g)
    share = 1.0 - w / total
    se = math.sqrt(float(np.sum(u**2 / share))) / total
    return _Robust(mean, se, _degrees_of_freedom(values, weights, clusters, w, q, share, total), g)


def _degrees_of_freedom(
    values: dict[Hashable, float],
    weights: dict[Hashable, float],
    clusters: dict[Hashable, Hashable],
    w: np.ndarray,
    q: np.ndarray,
    share: np.ndarray,
    total: float,
) -> float:
    """Imbens and Kolesár's degrees of freedom of the CR2 variance: (tr Gram)² / ‖Gram‖² for the clusters' adjusted
    score vectors under a working model of exchangeable answers within a cluster (the ICC estimated from the data)."""
    g = len(w)
    if g > MAX_GRAM_CLUSTERS:  # so many clusters that t is normal: the Gram matrix would only cost memory
        return float(g - 1)
    root = np.sqrt(share)
    # c_g·c_h with c_g = (w_g − (W_g/W) w) / √(1 − W_g/W): w_g the weights in cluster g, zero elsewhere.
    gram = np.diag(q) - np.outer(w / total, q) - np.outer(q, w / total) + np.outer(w, w) * q.sum() / total**2
    gram /= np.outer(root, root)
    # Σ_k (1_k·c_g)(1_k·c_h): what the within-cluster correlation adds.
    sums = (np.diag(w) - np.outer(w, w) / total) / root[None, :]
    rho = _icc(values, clusters)
    working = (1.0 - rho) * gram + rho * (sums.T @ sums)
    return float(max(1.0, min(g - 1.0, np.trace(working) ** 2 / np.sum(working**2))))


def _icc(values: dict[Hashable, float], clusters: dict[Hashable, Hashable]) -> float:
    """The one-way ANOVA estimate of the intra-cluster correlation of ``values`` (0 when it cannot be told)."""
    groups: dict[Hashable, list[float]] = defaultdict(list)
    for s, value in values.items():
        groups[clusters[s]].append(value)
    n, g = len(values), len(groups)
    if g < 2 or n <= g:
        return 0.0
    mean = sum(values.values()) / n
    between = sum(len(v) * (sum(v) / len(v) - mean) ** 2 for v in groups.values()) / (g - 1)
    within = sum((x - sum(v) / len(v)) ** 2 for v in groups.values() for x in v) / (n - g)
    size = (n - sum(len(v) ** 2 for v in groups.values()) / n) / (g - 1)
    component = max((between - within) / size, 0.0)
    return component / (component + within) if component + within > 0 else 0.0


def clustered_interval(observations: Sequence[Observation]) -> Interval:
    """The weighted mean of the observations' samples (epochs averaged first) with its CR2 cluster-robust interval."""
    means, weights, clusters, share, epochs = per_sample(observations)
    total = sum(weights.values())
    if not means or total <= 0:
        return Interval(math.nan, math.nan, math.nan, 0, 0, math.nan, math.nan, epochs, share)
    found = _cr2(means, weights, clusters)
    n = len(means)
    residuals = [weights[s] * (means[s] - found.mean) for s in means]
    naive = math.sqrt(n / (n - 1) * sum(r * r for r in residuals)) / total if n > 1 else math.nan
    half = t_quantile(found.df) * found.se
    return Interval(found.mean, half, found.se, n, found.clusters, found.df, Z95 * naive, epochs, share)


@dataclass(frozen=True)
class Difference:
    """A paired difference (A − B) on the samples two rows share, with its clustered interval and p-value."""

    mean: float
    half: float
    se: float
    samples: int
    clusters: int
    df: float
    p_value: float
    """Two-sided, from the same t as the interval (so p < 0.05 exactly when the interval excludes 0)."""


def paired_difference(a: Sequence[Observation] | Samples, b: Sequence[Observation] | Samples) -> Difference | None:
    """A − B on the samples both have (epochs averaged within each), weighted by A's weights; None when they share
    samples in fewer than :data:`MIN_SHARED_CLUSTERS` clusters. Either side may be given as its :class:`Samples`
    (computed once for a row compared with many)."""
    first, second = samples_of(a), samples_of(b)
    means_b = second.means
    shared = [s for s in first.means if s in means_b]
    if len({first.clusters[s] for s in shared}) < MIN_SHARED_CLUSTERS:
        return None
    differences = {s: first.means[s] - means_b[s] for s in shared}
    found = _cr2(differences, first.weights, first.clusters)
    # No spread at all (every shared sample scored alike, or all differing by one constant): nothing to test against.
    constant = 1.0 if found.mean == 0 else 0.0
    if not math.isfinite(found.mean):  # a value that is not a number cannot be tested (callers leave such out)
        p = math.nan
    else:
        p = t_two_sided_p(found.mean / found.se, found.df) if found.se > 0 else constant
    return Difference(found.mean, t_quantile(found.df) * found.se, found.se, len(shared), found.clusters, found.df, p)


def holm(p_values: Sequence[float], family: int | None = None) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` (family-wise error at the nominal level over all of them).

    ``family``: the number of hypotheses in the family when only some were tested (the others counted as not
    rejected, p = 1). Holm's rejections only shrink as p-values grow, so those of the tested ones are a subset of what
    Holm over the whole family would reject, whichever were chosen for testing: the family-wise error stays at the
    nominal level over the whole family."""
    size = max(len(p_values), family or 0)
    order = sorted(range(len(p_values)), key=lambda k: p_values[k])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (size - rank) * p_values[k]))
        adjusted[k] = running
    return adjusted


def _reach(count: int, edges: Sequence[tuple[int, int]]) -> list[int]:
    """For each node, the set of nodes reachable from it through ``edges`` (bit k set for node k)."""
    reach = [0] * count
    changed = True
    while changed:  # a pass in reverse order settles a graph whose edges mostly run forward; repeat until none moves
        changed = False
        for a, b in reversed(edges):
            grown = reach[a] | reach[b] | (1 << b)
            if grown != reach[a]:
                reach[a], changed = grown, True
    return reach


def rank_intervals(names: Sequence[str], ahead: set[tuple[str, str]]) -> dict[str, tuple[int, int]]:
    """The ranks each row could hold (1 is the best) given the pairs ``(a, b)`` where a is shown ahead of b: its best
    rank is one more than the rows shown ahead of it, its worst is the count of rows less those it is shown ahead
    of, directly or through a chain of such pairs (a ahead of b and b ahead of c put a ahead of c: if both calls hold,
    so does that)."""
    index = {name: k for k, name in enumerate(names)}
    edges = sorted((index[a], index[b]) for a, b in ahead if a in index and b in index and a != b)
    below = _reach(len(names), edges)
    above = _reach(len(names), sorted((b, a) for a, b in edges))
    out = {}
    for name, k in index.items():
        best = 1 + (above[k] & ~(1 << k)).bit_count()
        worst = len(names) - (below[k] & ~(1 << k)).bit_count()
        out[name] = (best, max(best, worst))  # calls that contradict each other (a cycle) leave at least one rank
    return out
