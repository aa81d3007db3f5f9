"""OpenSeeSimE in the report: accuracy per model and setting, and per question type."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mechbench.core.text import plain_text
from mechbench.harness.figures import first_groups, png, short
from mechbench.registry import Column, Picture, ReportSpec, Rows, Table, accuracy_headline, run_row


def setting(args: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    """Domain and subset (each its own questions)."""
    return f"{meta.get('domain', args.get('domain', 'structural'))}, {meta.get('subset', args.get('subset', 'mini'))}"


def rows(log: Any, run: Any) -> Rows:
    """The run's metrics with its domain and subset."""
    meta = log.eval.metadata or {}
    return {"runs": [run_row(run, domain=meta.get("domain"), subset=meta.get("subset"))]}


def tables(data: Rows) -> list[Table]:
    """Each run's accuracy, overall and per question type."""
    runs = data.get("runs", [])
    kinds = sorted({k for r in runs for k in r if k.startswith("accuracy_")})
    columns = [
        Column("model", "model"),
        Column("domain", "domain"),
        Column("subset", "subset"),
        Column("accuracy", "accuracy"),
        *[Column(k, k.removeprefix("accuracy_").replace("_", " ")) for k in kinds],
        Column("no_answer", "no answer (share)"),
        Column("budget_exhausted", "budget exhausted (share)"),
        Column("samples", "questions (count)"),
    ]
    return [("OpenSeeSimE", runs, columns)]


@plain_text
def accuracy_figure(data: Rows) -> bytes | None:
    """Accuracy per question type, per model and domain."""
    runs, left_out = first_groups(
        sorted(data.get("runs", []), key=lambda r: (str(r["domain"]), str(r["model"]))), "runs"
    )
    kinds = sorted({k for r in runs for k in r if k.startswith("accuracy_")})
    if not runs or not kinds:
        return None
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4))
    ax = figure.add_subplot()
    width = 0.8 / len(kinds)
    labels = [f"{short(str(r['model']).removeprefix('mechbench/'))}\n{short(r['domain'])}" for r in runs]
    for k, key in enumerate(kinds):
        values = [r.get(key, 0.0) for r in runs]
        ax.bar(np.arange(len(runs)) + k * width, values, width, label=key.removeprefix("accuracy_"))
    ax.set_xticks(np.arange(len(runs)) + 0.4 - width / 2, labels, fontsize=7, rotation=30, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("accuracy")
    ax.set_title("OpenSeeSimE by question type" + left_out)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1, 1))
    return png(figure)


def figures(data: Rows) -> list[Picture]:
    """Accuracy by question type."""
    return [("openseesime.png", "OpenSeeSimE by question type", accuracy_figure(data))]


def chance(sample: Any) -> float | None:
    """One over the question's number of choices."""
    count = len((sample.metadata or {}).get("answer_choices") or [])
    return 1 / count if count else None


REPORT = ReportSpec(
    headline=accuracy_headline,
    setting=setting,
    chance=chance,
    rows=rows,
    tables=tables,
    figures=figures,
    glossary=(
        (
            "accuracy",
            "share of multiple-choice questions whose first line names the correct choice; chance is one "
            "over the number of choices; higher is better",
        ),
        ("no answer (share)", "share of replies whose first line names no choice"),
        ("budget exhausted (share)", "share of replies cut off by the output-token limit before an answer"),
        (
            "question types",
            "the published sets' own types; mechbench's generated sets ask 'set-up' (a property of the set-up "
            "read off the details box, Yes/No), 'threshold' (a result read against a stated threshold, Yes/No) and "
            "'value range' (which of four ranges holds a result)",
        ),
    ),
)
