"""Leaderboard rows that answered the same samples, compared pair by pair.

Two models (or two settings of one model) asked the same questions are compared on their paired difference: one
difference per shared sample, its mean with a cluster-robust 95 % interval and the p-value of the same t
(``core.intervals``). The p-values of a benchmark's pairs are corrected together (Holm), a pair is called only below
0.05 after that, and each row gets the ranks it could hold given the pairs that were called. Rows that share too few
clusters are listed as not compared, with the reason.

Every pair of a group is compared while there are at most :data:`MAX_ALL_PAIRS` of them. Past that (a report of
hundreds of models would hold hundreds of thousands of pairs, each a clustered interval), each row is compared with
the :data:`NEIGHBOURS` rows next to it in the order of the headlines and with the :data:`TOP_ROWS` best: the pairs a
reader asks about (is it told apart from the rows beside it, and from the leaders?), about ``(NEIGHBOURS + TOP_ROWS)``
per row. Holm's correction then still counts every pair of the group, those not compared as not told apart, so the
family-wise error stays at 5 % over all of them; the ranks come from the called pairs and what they imply, and the
report says how many of the pairs they rest on.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from mechbench.core.intervals import (
    MIN_SHARED_CLUSTERS,
    Observation,
    Samples,
    holm,
    paired_difference,
    rank_intervals,
    samples_of,
)

ALPHA = 0.05
"""The family-wise error rate of a benchmark's pair verdicts (Holm over all its pairs)."""
MAX_ALL_PAIRS = 1225
"""Every pair of a group is compared up to this many pairs (50 rows); past it, the pairs :func:`chosen_pairs` names."""
NEIGHBOURS = 2
"""Past :data:`MAX_ALL_PAIRS`, each row is compared with this many rows on either side of it in the headlines' order."""
TOP_ROWS = 10
"""Past :data:`MAX_ALL_PAIRS`, each of this many best rows is compared with every other row."""

RowKey = tuple[str, str, str, str]
"""(benchmark, model, setting, data): one leaderboard row."""
Group = tuple[str, str | None, str]
"""(benchmark, data hash, metric): rows that can share samples."""


def row_key(row: dict[str, Any]) -> RowKey:
    """The key a leaderboard row pools its samples under."""
    return (row["benchmark"], row["model"], row["setting"], row["data"])


def _group(row: dict[str, Any]) -> Group:
    """Rows that can share samples: same benchmark, same data (hash) and same headline metric."""
    return (row["benchmark"], row.get("data_sha256") or row["data"], row["metric"])


def comparable(row: dict[str, Any]) -> bool:
    """A row of mechbench's own runs with at least one finite score (a published number, or a row whose every score
    was left out, has nothing to compare)."""
    return not row.get("reference") and row.get("samples", 1) != 0


def groups_of(rows: Sequence[dict[str, Any]]) -> dict[Group, list[dict[str, Any]]]:
    """The comparable rows (:func:`comparable`) by group, each group in the leaderboard's order."""
    groups: dict[Group, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if comparable(row):
            groups[_group(row)].append(row)
    return dict(sorted(groups.items(), key=lambda item: str(item[0])))


def _order(members: Sequence[dict[str, Any]]) -> list[int]:
    """Member indexes best first by headline (ties and NaN last, then in the leaderboard's order)."""
    value = [m["value"] if finite(m.get("value")) else -math.inf for m in members]
    return sorted(range(len(members)), key=lambda k: -value[k])


def chosen_pairs(members: Sequence[dict[str, Any]]) -> tuple[list[tuple[int, int]], bool]:
    """The pairs of ``members`` (indexes) to compare, and whether they are all of them: every pair up to
    :data:`MAX_ALL_PAIRS`, in the leaderboard's order; past it, each row with its :data:`NEIGHBOURS` neighbours on
    either side in the headlines' order and each of the :data:`TOP_ROWS` best with every other row (the better row
    first)."""
    n = len(members)
    if n * (n - 1) // 2 <= MAX_ALL_PAIRS:
        return [(i, j) for i in range(n) for j in range(i + 1, n)], True
    order = _order(members)
    chosen: set[tuple[int, int]] = set()
    for position in range(n):
        reach = (
            range(position + 1, n) if position < TOP_ROWS else range(position + 1, min(position + NEIGHBOURS + 1, n))
        )
        chosen.update((position, other) for other in reach)
    return [(order[a], order[b]) for a, b in sorted(chosen)], False


def scope_rule(rows: int) -> str:
    """Which pairs of a group of ``rows`` rows were compared, in words."""
    pairs = rows * (rows - 1) // 2
    if pairs <= MAX_ALL_PAIRS:
        return f"all {pairs:,} pairs"
    return (
        f"each row against the {NEIGHBOURS} rows on either side of it by headline and each of the {TOP_ROWS} best "
        f"rows against every other row: all {pairs:,} pairs would take a clustered interval each (up to "
        f"{MAX_ALL_PAIRS:,} pairs are all compared); Holm's correction counts all {pairs:,}, those not compared as "
        "not told apart, and the ranks rest on the pairs compared"
    )


def _verdict(a: str, b: str, difference: float, adjusted: float, clusters: int) -> str:
    if adjusted < ALPHA:
        return f"{a} ahead of {b}" if difference > 0 else f"{b} ahead of {a}"
    return f"not distinguishable on these {clusters} clusters"


def compare_rows(
    rows: Sequence[dict[str, Any]],
    observations: dict[RowKey, list[Observation]],
    labels: dict[RowKey, str],
    scope: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The pairs of each group (``_group``) that :func:`chosen_pairs` names: compared (difference, interval, p, Holm
    p, verdict) or not, with why. ``labels`` name each row as the report does; ``scope``, when given, receives one
    entry per group saying which of its pairs were compared."""
    pairs = []
    families: dict[str, int] = defaultdict(int)
    for (benchmark, data, metric), members in groups_of(rows).items():
        chosen, every = chosen_pairs(members)
        total = len(members) * (len(members) - 1) // 2
        families[benchmark] += total
        if scope is not None:
            scope.append(
                {"benchmark": benchmark, "metric": metric, "data_sha256": data, "rows": len(members), "pairs": total,
                 "compared": len(chosen), "all_pairs": every, "rule": scope_rule(len(members))}
            )  # fmt: skip
        samples: dict[int, Samples] = {}  # each row's per-sample means, computed once however often it is compared
        for i, j in chosen:
            first, second = members[i], members[j]
            for k in (i, j):
                if k not in samples:
                    samples[k] = samples_of(observations[row_key(members[k])])
            found = paired_difference(samples[i], samples[j])
            pair: dict[str, Any] = {"benchmark": benchmark, "metric": metric}
            pair |= {"a": labels[row_key(first)], "b": labels[row_key(second)]}
            pair |= {"a_key": list(row_key(first)), "b_key": list(row_key(second))}
            if found is None:
                shared = _shared(samples[i], samples[j])
                pair |= {
                    "compared": False,
                    "reason": f"they share {shared[0]} samples in {shared[1]} clusters (a comparison needs "
                    f"{MIN_SHARED_CLUSTERS})",
                }
            elif not (finite(found.mean) and finite(found.p_value)):  # never turned into a verdict
                pair |= {"compared": False, "reason": "their paired difference is not a finite number"}
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
    _adjust(pairs, families)
    return pairs


def _shared(a: Samples, b: Samples) -> tuple[int, int]:
    shared = set(a.means) & set(b.means)
    return len(shared), len({a.clusters[s] for s in shared})


def _adjust(pairs: list[dict[str, Any]], families: dict[str, int] | None = None) -> None:
    """Holm's correction over each benchmark's compared pairs (counting every pair of its groups, ``families``, where
    not all were compared), and each pair's verdict."""
    by_benchmark: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for pair in pairs:
        if pair["compared"]:
            by_benchmark[pair["benchmark"]].append(pair)
    for benchmark, family in by_benchmark.items():
        size = (families or {}).get(benchmark)
        for pair, adjusted in zip(family, holm([p["p_value"] for p in family], size), strict=True):
            pair["p_holm"] = adjusted
            pair["verdict"] = _verdict(pair["a"], pair["b"], pair["difference"], adjusted, pair["clusters"])
            pair["ahead"] = pair["a"] if adjusted < ALPHA and pair["difference"] > 0 else (
                pair["b"] if adjusted < ALPHA else None
            )  # fmt: skip
    for pair in pairs:
        if not pair["compared"]:
            pair["verdict"] = "not compared: " + pair["reason"]


def ranks(
    rows: Sequence[dict[str, Any]],
    pairs: Sequence[dict[str, Any]],
    labels: dict[RowKey, str],
    scope: Sequence[dict[str, Any]] = (),
) -> None:
    """Each row's rank interval among the rows of its group (1 the best), from the pairs that were called and what
    they imply: written into the rows as ``rank_best``, ``rank_worst``, ``rank`` and ``rank_of``, and, where not every
    pair of the group was compared, ``rank_pairs`` (how many of them the ranks rest on). A row with nothing to
    compare gets none."""
    called = {(p["ahead"], p["b"] if p["ahead"] == p["a"] else p["a"]) for p in pairs if p.get("ahead")}
    partial = {(s["benchmark"], s["data_sha256"], s["metric"]): s for s in scope if not s["all_pairs"]}
    for group, members in groups_of(rows).items():
        # Best first, so the implied calls settle in one pass over the called pairs.
        ordered = [members[k] for k in _order(members)]
        names = [labels[row_key(r)] for r in ordered]
        found = rank_intervals(names, called)
        for row, name in zip(ordered, names, strict=True):
            best, worst = found[name]
            row["rank_best"], row["rank_worst"] = best, worst
            row["rank"] = str(best) if best == worst else f"{best}–{worst}"
            row["rank_of"] = len(members)
            if group in partial:
                row["rank_pairs"] = f"{partial[group]['compared']:,} of {partial[group]['pairs']:,} pairs"


def finite(value: Any) -> bool:
    """A number that is neither NaN nor infinite."""
    return isinstance(value, int | float) and math.isfinite(value)
