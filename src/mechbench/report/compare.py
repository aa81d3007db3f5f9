"""Every two leaderboard rows that answered the same samples, compared pair by pair.

Two models (or two settings of one model) asked the same questions are compared on their paired difference: one
difference per shared sample, its mean with a cluster-robust 95 % interval and the p-value of the same t
(``core.intervals``). The p-values of a benchmark's pairs are corrected together
(Holm), a pair is called only below 0.05 after that, and each row gets the ranks it could hold given the pairs that
were called. Rows that share too few clusters are listed as not compared, with the reason.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from mechbench.core.intervals import MIN_SHARED_CLUSTERS, Observation, holm, paired_difference, rank_intervals

ALPHA = 0.05
"""The family-wise error rate of a benchmark's pair verdicts (Holm over all its compared pairs)."""

RowKey = tuple[str, str, str, str]
"""(benchmark, model, setting, data): one leaderboard row."""


def row_key(row: dict[str, Any]) -> RowKey:
    """The key a leaderboard row pools its samples under."""
    return (row["benchmark"], row["model"], row["setting"], row["data"])


def _group(row: dict[str, Any]) -> tuple[str, str | None, str]:
    """Rows that can share samples: same benchmark, same data (hash) and same headline metric."""
    return (row["benchmark"], row.get("data_sha256") or row["data"], row["metric"])


def _verdict(a: str, b: str, difference: float, adjusted: float, clusters: int) -> str:
    if adjusted < ALPHA:
        return f"{a} ahead of {b}" if difference > 0 else f"{b} ahead of {a}"
    return f"not distinguishable on these {clusters} clusters"


def compare_rows(
    rows: Sequence[dict[str, Any]], observations: dict[RowKey, list[Observation]], labels: dict[RowKey, str]
) -> list[dict[str, Any]]:
    """Every pair of rows of one group (``_group``): compared (difference, interval, p, Holm p, verdict) or not, with
    why. ``labels`` name each row as the report does."""
    groups: dict[tuple[str, str | None, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if not row.get("reference"):
            groups[_group(row)].append(row)
    pairs = []
    for (benchmark, _, metric), members in sorted(groups.items(), key=lambda item: str(item[0])):
        for i, first in enumerate(members):
            for second in members[i + 1 :]:
                a, b = labels[row_key(first)], labels[row_key(second)]
                found = paired_difference(observations[row_key(first)], observations[row_key(second)])
                pair: dict[str, Any] = {"benchmark": benchmark, "metric": metric, "a": a, "b": b}
                pair |= {"a_key": list(row_key(first)), "b_key": list(row_key(second))}
                if found is None:
                    shared = _shared(observations[row_key(first)], observations[row_key(second)])
                    pair |= {
                        "compared": False,
                        "reason": f"they share {shared[0]} samples in {shared[1]} clusters (a comparison needs "
                        f"{MIN_SHARED_CLUSTERS})",
                    }
                else:
                    pair |= {
                        "compared": True,
                        "difference": found.mean,
                        "ci95": found.half,
                        "p_value": found.p_value,
                        "samples": found.samples,
                        "clusters": found.clusters,
                    }
                pairs.append(pair)
    _adjust(pairs)
    return pairs


def _shared(a: list[Observation], b: list[Observation]) -> tuple[int, int]:
    clusters = {o.sample: o.cluster for o in a}
    shared = {o.sample for o in b} & set(clusters)
    return len(shared), len({clusters[s] for s in shared})


def _adjust(pairs: list[dict[str, Any]]) -> None:
    """Holm's correction over each benchmark's compared pairs, and each pair's verdict."""
    by_benchmark: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for pair in pairs:
        if pair["compared"]:
            by_benchmark[pair["benchmark"]].append(pair)
    for family in by_benchmark.values():
        for pair, adjusted in zip(family, holm([p["p_value"] for p in family]), strict=True):
            pair["p_holm"] = adjusted
            pair["verdict"] = _verdict(pair["a"], pair["b"], pair["difference"], adjusted, pair["clusters"])
            pair["ahead"] = pair["a"] if adjusted < ALPHA and pair["difference"] > 0 else (
                pair["b"] if adjusted < ALPHA else None
            )  # fmt: skip
    for pair in pairs:
        if not pair["compared"]:
            pair["verdict"] = "not compared: " + pair["reason"]


def ranks(rows: Sequence[dict[str, Any]], pairs: Sequence[dict[str, Any]], labels: dict[RowKey, str]) -> None:
    """Each row's rank interval among the rows of its group (1 the best), from the pairs that were called: written
    into the rows as ``rank_best``, ``rank_worst`` and ``rank``."""
    groups: dict[tuple[str, str | None, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if not row.get("reference"):
            groups[_group(row)].append(row)
    called = {(p["ahead"], p["b"] if p["ahead"] == p["a"] else p["a"]) for p in pairs if p.get("ahead")}
    for members in groups.values():
        names = [labels[row_key(r)] for r in members]
        found = rank_intervals(names, called)
        # Higher is better on every headline: ties in the point estimates share the interval the pairs allow.
        for row, name in zip(members, names, strict=True):
            best, worst = found[name]
            row["rank_best"], row["rank_worst"] = best, worst
            row["rank"] = str(best) if best == worst else f"{best}–{worst}"
            row["rank_of"] = len(members)


def finite(value: Any) -> bool:
    """A number that is neither NaN nor infinite."""
    return isinstance(value, int | float) and math.isfinite(value)
