"""The "answers read" figure of every benchmark: for each leaderboard row, how many of its answers were read as
given, how many only by a repair or fallback rule, and how many could not be read — so a model that failed
everything shows as "0 of N read" with the reason, never as an empty axis."""

from __future__ import annotations

from typing import Any

from mechbench.core.text import plain_text
from mechbench.harness.figures import first_groups, png, short
from mechbench.report.build import setting_labels

COLOURS = {"read": "#27ae60", "repaired": "#f1c40f", "unreadable": "#c0392b"}
LABELS = {
    "read": "read as given",
    "repaired": "read by a repair or fallback rule",
    "unreadable": "could not be read",
}


def counts(row: dict[str, Any]) -> dict[str, int]:
    """A leaderboard row's answers by how they were read (counts of distinct samples)."""
    total = int(row.get("samples") or 0)
    unreadable = round(float(row.get("unreadable") or 0.0) * total)
    repaired = round(float(row.get("repaired") or 0.0) * total)
    return {"read": max(total - unreadable - repaired, 0), "repaired": repaired, "unreadable": unreadable}


def caption(row: dict[str, Any]) -> str:
    """``k of N read`` and, when none was, the most common reason."""
    numbers, total = counts(row), int(row.get("samples") or 0)
    read = numbers["read"] + numbers["repaired"]
    text = f"{read} of {total} read"
    if read == 0 and row.get("unreadable_reason"):
        text += f": {row['unreadable_reason']}"
    return text


@plain_text
def reading_figure(rows: list[dict[str, Any]], title: str) -> bytes | None:
    """Horizontal stacked counts per row (model and setting), each bar labelled "k of N read"."""
    rows = [r for r in rows if not r.get("reference") and r.get("samples")]
    rows, left_out = first_groups(rows, "rows")
    if not rows:
        return None
    from matplotlib.figure import Figure

    figure = Figure(figsize=(10, 0.55 * len(rows) + 1.6))
    ax = figure.add_subplot()
    settings: dict[str, set[str]] = {}
    for r in rows:
        settings.setdefault(r["model"], set()).add(r["setting"])
    labels = setting_labels(settings)
    names = [short(labels[(r["model"], r["setting"])], 60) for r in rows]
    left = [0.0] * len(rows)
    for kind in ("read", "repaired", "unreadable"):
        values = [counts(r)[kind] for r in rows]
        ax.barh(range(len(rows)), values, left=left, color=COLOURS[kind], label=LABELS[kind])
        left = [a + b for a, b in zip(left, values, strict=True)]
    for y, row in enumerate(rows):
        ax.text(left[y], y, "  " + short(caption(row), 90), va="center", fontsize=8)
    ax.set_yticks(range(len(rows)), names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, max(left) * 1.9 or 1)
    ax.set_xlabel("answers (count of distinct samples)")
    ax.set_title(f"{title}: answers read" + left_out, fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    return png(figure)
