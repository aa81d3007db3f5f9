"""Metrics every benchmark may log: the cluster-robust standard error of a (weighted) mean headline.

Inspect's own ``stderr(cluster=key)`` gives it for an unweighted mean; a headline weighted per sample (StructuralEval's
difficulty-weighted accuracy) needs the weights in the variance too. Both are CR1 over the clusters the benchmark
declares (:class:`mechbench.registry.Cluster`, ``docs/statistics.md``).
"""

from __future__ import annotations

import math

from inspect_ai.scorer import Metric, SampleScore, metric

from mechbench.core.intervals import Observation, clustered_interval


def _weight(value: object) -> float:
    try:
        weight = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 1.0
    return weight if math.isfinite(weight) and weight > 0 else 1.0


@metric
def clustered_stderr(cluster: str, weight: str | None = None) -> Metric:
    """CR1 standard error of the mean score weighted by sample metadata ``weight`` (1 where absent), over the
    clusters named by sample metadata ``cluster`` (a sample without one is its own cluster)."""

    def compute(scores: list[SampleScore]) -> float:
        observations = []
        for score in scores:
            meta = score.sample_metadata or {}
            observations.append(
                Observation(
                    sample=score.sample_id,
                    cluster=meta.get(cluster, f"sample {score.sample_id}"),
                    value=score.score.as_float(),
                    weight=_weight(meta.get(weight)) if weight else 1.0,
                )
            )
        se = clustered_interval(observations).se
        return se if math.isfinite(se) else 0.0

    return compute
