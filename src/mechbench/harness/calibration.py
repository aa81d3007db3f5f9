"""Comparing a fresh benchmark set with the published one: the statistics every benchmark's ``calibrate`` shares.

A benchmark supplies two things per set: a table of features over its items (numbers or categories) and each
reference solver's score per item. This module compares them: a two-sample permutation test per feature (difference
of means for numbers, the chi-square statistic for categories: exact enough for small, tied samples, where
asymptotic tests are far too lenient), Cliff's delta or Cramér's V, Holm's correction across the features that
vary at all; and per solver the means with Student t intervals and the Welch interval of their difference.

The verdict is what these tests can say: **no difference detected at N items** (no feature differs after correction
and every difference interval holds 0), or what differs. It is not a proof of equivalence: each solver's interval
is the smallest difference N items could have shown.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

SIGNIFICANCE = 0.01
"""Family-wise level of the feature tests (after Holm's correction)."""
CONFIDENCE = 0.95
"""Two-sided level of the panel's intervals."""
PERMUTATIONS = 4999
"""Resamples of each feature's permutation test (seeded: the same sets give the same p-values)."""
MIN_ITEMS = 4
"""The fewest items per set a comparison takes (two halves for retrieval, and an interval)."""

Table = dict[str, list[float | str]]


def cliffs_delta(a: list[float], b: list[float]) -> float:
    """P(a > b) − P(a < b) over all pairs: 0 when neither set tends higher."""
    x, y = np.asarray(a)[:, None], np.asarray(b)[None, :]
    return float((x > y).mean() - (x < y).mean())


def compare(a: list[float | str], b: list[float | str]) -> dict[str, Any]:
    """The two-sample permutation test of one feature: its statistic, p-value and effect size (``varies`` False
    when the feature takes one value in both sets: it then cannot differ and is left out of the correction)."""
    from scipy import stats

    rng = np.random.default_rng(0)
    if isinstance(a[0], str):
        categories = sorted({*map(str, a), *map(str, b)})
        codes = {k: i for i, k in enumerate(categories)}
        x, y = np.array([codes[str(v)] for v in a]), np.array([codes[str(v)] for v in b])
        row = {"test": "permutation, chi-square", "effect_name": "Cramér's V", "varies": len(categories) > 1}
        if not row["varies"]:
            return {**row, "statistic": 0.0, "p": 1.0, "effect": 0.0}

        def chi2(u: np.ndarray, v: np.ndarray) -> float:
            counts = np.array([np.bincount(u, minlength=len(categories)), np.bincount(v, minlength=len(categories))])
            expected = np.outer(counts.sum(axis=1), counts.sum(axis=0)) / counts.sum()
            used = expected > 0
            return float(((counts[used] - expected[used]) ** 2 / expected[used]).sum())

        found = stats.permutation_test(
            (x, y), chi2, n_resamples=PERMUTATIONS, alternative="greater", vectorized=False, rng=rng
        )
        statistic = float(found.statistic)
        effect = math.sqrt(statistic / (len(x) + len(y))) if len(x) + len(y) else 0.0
        return {**row, "statistic": statistic, "p": float(found.pvalue), "effect": effect}
    x, y = np.array([float(v) for v in a]), np.array([float(v) for v in b])
    row = {"test": "permutation, difference of means", "effect_name": "Cliff's delta"}
    if len(set(x.tolist()) | set(y.tolist())) == 1:
        return {**row, "statistic": 0.0, "p": 1.0, "effect": 0.0, "varies": False}
    found = stats.permutation_test(
        (x, y),
        lambda u, v, axis=-1: np.mean(u, axis=axis) - np.mean(v, axis=axis),
        n_resamples=PERMUTATIONS,
        vectorized=True,
        rng=rng,
    )
    return {**row, "statistic": float(found.statistic), "p": float(found.pvalue), "effect": cliffs_delta(x, y),
            "varies": True}  # fmt: skip


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment: each p-value as it must be read against the family-wise level."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def feature_rows(fresh: Table, published: Table) -> list[dict[str, Any]]:
    """Every feature of two tables compared, with Holm-adjusted p-values over the features that vary."""
    rows = []
    for name in fresh:
        row = {"feature": name, **compare(fresh[name], published[name])}
        numeric = not isinstance(fresh[name][0], str)
        row["fresh"] = float(np.mean(fresh[name])) if numeric else _shares(fresh[name])
        row["published"] = float(np.mean(published[name])) if numeric else _shares(published[name])
        rows.append(row)
    varying = [r for r in rows if r["varies"]]
    for row, adjusted in zip(varying, holm([r["p"] for r in varying]), strict=True):
        row["p_holm"] = adjusted
    for row in rows:
        row.setdefault("p_holm", 1.0)
        row["differs"] = row["p_holm"] < SIGNIFICANCE
    return rows


def _shares(values: list[float | str]) -> str:
    keys = sorted({str(v) for v in values})
    return ", ".join(f"{k} {sum(str(v) == k for v in values) / len(values):.0%}" for k in keys)


def interval(values: list[float]) -> tuple[float, float, float]:
    """(mean, its standard error, its degrees of freedom) over items."""
    n = len(values)
    mean = float(np.mean(values)) if n else 0.0
    error = float(np.std(values, ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    return mean, error, float(max(n - 1, 1))


def half_width(error: float, freedom: float) -> float:
    """Half-width of the two-sided :data:`CONFIDENCE` interval (Student's t)."""
    from scipy import stats

    return float(stats.t.ppf(0.5 + CONFIDENCE / 2, freedom)) * error


def panel_rows(fresh: dict[str, list[float]], published: dict[str, list[float]]) -> list[dict[str, Any]]:
    """Each solver's per-item scores on both sets: means with intervals, the difference with its Welch interval,
    and whether that interval holds 0."""
    rows = []
    for solver in fresh:
        (ma, ea, fa), (mb, eb, fb) = interval(fresh[solver]), interval(published[solver])
        error = math.hypot(ea, eb)
        freedom = error**4 / (ea**4 / fa + eb**4 / fb) if ea > 0 or eb > 0 else 1.0  # Welch–Satterthwaite
        half = half_width(error, freedom)
        rows.append({"solver": solver, "fresh": ma, "fresh_half_width": half_width(ea, fa), "published": mb,
                     "published_half_width": half_width(eb, fb), "difference": ma - mb,
                     "difference_half_width": half, "agrees": abs(ma - mb) <= half})  # fmt: skip
    return rows


BOOTSTRAPS = 999
"""Resamples of the replies' predicted-score comparison (seeded)."""
Recorded = tuple[dict[str, list[float]], list[float]]
"""Recorded replies of one subject: their features (a column per feature) and their scores."""


def _ranks(values: np.ndarray) -> np.ndarray:
    from scipy import stats

    return stats.rankdata(values)


def difficulty_rows(features: dict[str, list[float]], scores: list[float], groups: list[str]) -> list[dict[str, Any]]:
    """What recorded replies say about difficulty: per feature that varies, Spearman's rho between the feature and
    the replies' scores, and its permutation p-value with the scores shuffled within each group (subject): a feature
    that only tells the subjects apart, whose scores differ in scale, is then no evidence."""
    rng = np.random.default_rng(0)
    y = _ranks(np.asarray(scores, dtype=float))
    members = [np.flatnonzero(np.asarray(groups) == g) for g in sorted(set(groups))]
    shuffled = np.repeat(y[None, :], PERMUTATIONS, axis=0)
    for index in members:
        shuffled[:, index] = rng.permuted(shuffled[:, index], axis=1)
    rows = []
    for name, values in features.items():
        x = _ranks(np.asarray(values, dtype=float))
        if np.ptp(x) == 0 or np.ptp(y) == 0:
            continue
        xc = (x - x.mean()) / np.linalg.norm(x - x.mean())
        observed = float(xc @ (y - y.mean()) / np.linalg.norm(y - y.mean()))
        null = (shuffled - y.mean()) @ xc / np.linalg.norm(y - y.mean())
        p = (1 + int(np.sum(np.abs(null) >= abs(observed) - 1e-12))) / (PERMUTATIONS + 1)
        rows.append({"feature": name, "rho": observed, "p": p, "n": len(x)})
    return rows


def predicted_scores(
    recorded: dict[str, list[float]], scores: list[float], items: dict[str, list[float]]
) -> np.ndarray:
    """Each item's score as the recorded replies predict it: the mean score of its k nearest recorded items (k the
    square root of their number; every item tied with the k-th counts) in the features, each scaled by its spread
    over the recorded items."""
    names = list(recorded)
    x = np.array([recorded[n] for n in names], dtype=float).T
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    targets = np.array([items[n] for n in names], dtype=float).T
    k = max(1, round(math.sqrt(len(scores))))
    y = np.asarray(scores, dtype=float)
    distances = np.linalg.norm((targets[:, None, :] - x[None, :, :]) / scale, axis=2)
    kth = np.sort(distances, axis=1)[:, k - 1 : k]
    near = distances <= kth + 1e-9
    return (near * y).sum(axis=1) / near.sum(axis=1)


def predicted_comparison(
    recorded: dict[str, Recorded],
    fresh: dict[str, dict[str, list[float]]],
    published: dict[str, dict[str, list[float]]],
) -> dict[str, Any]:
    """The score recorded replies predict on two sets (per item, averaged over the recorded subjects), with 95 %
    bootstrap intervals that resample the replies (within subject) and the items of each set together."""
    rng = np.random.default_rng(0)
    subjects = sorted(recorded)

    def mean(sets: dict[str, dict[str, list[float]]], picks: dict[str, np.ndarray], items: np.ndarray) -> float:
        total = 0.0
        for subject in subjects:
            table, scores = recorded[subject]
            chosen = picks[subject]
            rows = {name: [table[name][i] for i in chosen] for name in table}
            items_table = {name: [sets[subject][name][i] for i in items] for name in table}
            total += float(predicted_scores(rows, [scores[i] for i in chosen], items_table).mean())
        return total / len(subjects)

    whole = {s: np.arange(len(recorded[s][1])) for s in subjects}
    sizes = [len(next(iter(sets[subjects[0]].values()))) for sets in (fresh, published)]
    point = (mean(fresh, whole, np.arange(sizes[0])), mean(published, whole, np.arange(sizes[1])))
    draws = []
    for _ in range(BOOTSTRAPS):
        picks = {s: rng.integers(0, len(whole[s]), len(whole[s])) for s in subjects}
        a = mean(fresh, picks, rng.integers(0, sizes[0], sizes[0]))
        b = mean(published, picks, rng.integers(0, sizes[1], sizes[1]))
        draws.append((a, b, a - b))
    low, high = np.percentile(np.array(draws), [100 * (1 - CONFIDENCE) / 2, 100 * (1 + CONFIDENCE) / 2], axis=0)
    return {"fresh": point[0], "fresh_interval": [low[0], high[0]], "published": point[1],
            "published_interval": [low[1], high[1]], "difference": point[0] - point[1],
            "difference_interval": [low[2], high[2]], "agrees": bool(low[2] <= 0 <= high[2])}  # fmt: skip


def report(
    names: tuple[str, str], items: tuple[int, int], features: list[dict[str, Any]], panel: list[dict[str, Any]]
) -> dict[str, Any]:
    """The comparison as one record (what ``--json`` writes)."""
    return {
        "fresh": {"name": names[0], "items": items[0]},
        "published": {"name": names[1], "items": items[1]},
        "significance": SIGNIFICANCE,
        "confidence": CONFIDENCE,
        "features": features,
        "panel": panel,
        "no_difference_detected": not any(r["differs"] for r in features) and all(r["agrees"] for r in panel),
    }


def replies_section(
    source: str,
    recorded: dict[str, Recorded],
    fresh: dict[str, dict[str, list[float]]],
    published: dict[str, dict[str, list[float]]],
) -> dict[str, Any]:
    """The report's part on recorded replies (per subject: their features and scores; per set and subject: its
    items' features): difficulty by feature over every reply, and the score the replies predict on each set. Shown,
    not part of the verdict: the predictions come from the features the verdict already tests."""
    subjects = sorted(recorded)
    names = list(recorded[subjects[0]][0])
    pooled = {name: [v for s in subjects for v in recorded[s][0][name]] for name in names}
    scores = [v for s in subjects for v in recorded[s][1]]
    groups = [s for s in subjects for _ in recorded[s][1]]
    return {"source": source, "subjects": subjects, "records": len(scores), "mean_score": float(np.mean(scores)),
            "difficulty": difficulty_rows(pooled, scores, groups),
            "predicted": predicted_comparison(recorded, fresh, published)}  # fmt: skip


def verdict(report: dict[str, Any]) -> str:
    """One line: no difference detected at N items, or what differs."""
    counts = {report["fresh"]["items"], report["published"]["items"]}
    items = " and ".join(str(n) for n in sorted(counts))
    if report["no_difference_detected"]:
        return f"no difference detected at {items} items (not a proof of equivalence: see each interval)"
    differing = [r["feature"] for r in report["features"] if r["differs"]]
    disagreeing = [r["solver"] for r in report["panel"] if not r["agrees"]]
    return f"differs at {items} items: " + "; ".join(
        part for part in (", ".join(differing), ", ".join(disagreeing)) if part
    )


def markdown(report: dict[str, Any]) -> str:
    """The report as two Markdown tables and a verdict."""
    fresh, published = report["fresh"], report["published"]
    lines = [
        f"# Calibration: {fresh['name']} ({fresh['items']} items) against {published['name']} "
        f"({published['items']} items)",
        "",
        f"Feature tests (two-sample permutation tests, Holm-corrected across the "
        f"{sum(r['varies'] for r in report['features'])} features that vary; a feature differs below "
        f"p = {report['significance']}):",
        "",
        "| feature | fresh | published | test | p | p (Holm) | effect |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in report["features"]:
        values = [row["fresh"], row["published"]]
        shown = [f"{v:.3g}" if isinstance(v, float) else v for v in values]
        holm_p = f"{row['p_holm']:.3g}{' **differs**' if row['differs'] else ''}" if row["varies"] else "constant"
        lines.append(
            f"| {row['feature']} | {shown[0]} | {shown[1]} | {row['test']} | {row['p']:.3g} | {holm_p} | "
            f"{row['effect_name']} {row['effect']:+.2f} |"
        )
    lines += [
        "",
        f"Panel of solvers ({report.get('score', 'mean score')} over items, 95 % t intervals; agreement: the "
        "difference's Welch interval holds 0, so a difference smaller than its half-width cannot be seen at this "
        "many items):",
        "",
        "| solver | fresh | published | difference | agrees |",
        "|---|---|---|---|---|",
    ]
    for row in report["panel"]:
        lines.append(
            f"| {row['solver']} | {row['fresh']:.3f} ± {row['fresh_half_width']:.3f} | {row['published']:.3f} ± "
            f"{row['published_half_width']:.3f} | {row['difference']:+.3f} ± {row['difference_half_width']:.3f} | "
            f"{'yes' if row['agrees'] else '**no**'} |"
        )
    if "replies" in report:
        lines += _replies_markdown(report["replies"])
    return "\n".join([*lines, "", f"Verdict: {verdict(report)}.", ""])


def _replies_markdown(replies: dict[str, Any]) -> list[str]:
    row = replies["predicted"]

    def span(low_high: list[float], sign: str = "") -> str:
        return f"[{low_high[0]:{sign}.3f}, {low_high[1]:{sign}.3f}]"

    return [
        "",
        f"Recorded replies ({replies['source']}: {replies['records']} records of {', '.join(replies['subjects'])}; "
        f"mean score {replies['mean_score']:.3f}). Difficulty by feature (Spearman's rho with the replies' score; "
        "negative: items with more of it scored lower; permutation p with scores shuffled within each subject, "
        "uncorrected):",
        "",
        "| feature | rho | p | records |",
        "|---|---|---|---|",
        *(f"| {r['feature']} | {r['rho']:+.2f} | {r['p']:.3g} | {r['n']} |" for r in replies["difficulty"]),
        "",
        "The score these replies predict on each set (each item scored as its nearest recorded items were; 95 % "
        "bootstrap intervals over the replies and the items; shown, not part of the verdict):",
        "",
        "| | fresh | published | difference | agrees |",
        "|---|---|---|---|---|",
        f"| predicted score | {row['fresh']:.3f} {span(row['fresh_interval'])} | {row['published']:.3f} "
        f"{span(row['published_interval'])} | {row['difference']:+.3f} {span(row['difference_interval'], '+')} | "
        f"{'yes' if row['agrees'] else '**no**'} |",
    ]
