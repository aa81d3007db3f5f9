"""SeeSim in the report: accuracy per model and modality, the published always-True rate and the paper's
baselines where a run measured the published set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mechbench.benchmarks.seesim.dataset import VERIFIED_QUESTIONS_SHA256
from mechbench.benchmarks.seesim.protocol import (
    PUBLISHED_ALWAYS_TRUE,
    PUBLISHED_BASELINES,
    PUBLISHED_BASELINES_SOURCE,
)
from mechbench.core.text import plain_text
from mechbench.harness.figures import first_groups, png, short
from mechbench.harness.shown import shown
from mechbench.registry import Column, Picture, ReportSpec, Rows, Table, accuracy_headline, run_row

PUBLISHED_DIGEST = VERIFIED_QUESTIONS_SHA256[:12]


def _modality(args: Mapping[str, Any]) -> str:
    return str(args.get("modality", "image"))


def setting(args: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    """Modality, output budget and parser (domains pool into one row)."""
    strict = ", strict parser" if (meta.get("parser") or args.get("parser")) == "strict" else ""
    return f"{_modality(args)}, max_tokens {args.get('max_tokens', 'default')}{strict}"


def rows(log: Any, run: Any) -> Rows:
    """The run's metrics with its modality and the files it left out for want of media."""
    left_out = (log.eval.metadata or {}).get("skipped_for_missing_media") or []
    row = run_row(
        run, COUNTS, modality=_modality(run.task_args), left_out=shown(", ".join(map(str, left_out))) or "none"
    )
    return {"runs": [row]}


COUNTS = ("unparsable", "budget_exhausted")
"""The run metrics that count replies (the others are shares)."""


def published(model: str, digest: str | None) -> tuple[float, str] | None:
    """The published always-True rate, beside runs of mechbench/always-true on the published questions."""
    return PUBLISHED_ALWAYS_TRUE if model == "mechbench/always-true" and digest == PUBLISHED_DIGEST else None


def references(runs: list[Any]) -> list[dict[str, Any]]:
    """The paper's baseline accuracies for each modality a run on the published set measured: reference rows
    shown beside mechbench's (other models, the paper's runs; never pooled with them)."""
    modalities = {_modality(r.task_args) for r in runs if r.data_sha256 == PUBLISHED_DIGEST}
    return [
        {
            "model": f"{model} (published)",
            "metric": "accuracy",
            "value": value,
            "setting": f"{modality}, the paper's runs (guidelines prompt, 512 output tokens)",
            "data": "the published SeeSim set",
            "data_sha256": PUBLISHED_DIGEST,
            "note": PUBLISHED_BASELINES_SOURCE,
        }
        for modality in sorted(modalities)
        for model, value in PUBLISHED_BASELINES.get(modality, {}).items()
    ]


def tables(data: Rows) -> list[Table]:
    """Each run's accuracies."""
    columns = [
        ("model", "model"),
        ("modality", "modality"),
        ("accuracy", "accuracy"),
        ("accuracy_structural", "structural"),
        ("accuracy_fluid", "fluid"),
        ("consistency", "consistency"),
        ("validation_accuracy", "validation"),
        ("unparsable", "unparsable (count)"),
        ("budget_exhausted", "budget exhausted (count)"),
        ("samples", "samples (count)"),
        ("left_out", "files left out (no media)"),
    ]
    return [("SeeSim", data.get("runs", []), [Column(k, h) for k, h in columns])]


@plain_text
def accuracy_figure(data: Rows) -> bytes | None:
    """Accuracy by domain and consistency, per model and modality."""
    runs, left_out = first_groups(
        sorted(data.get("runs", []), key=lambda r: (str(r["modality"]), str(r["model"]))), "runs"
    )
    if not runs:
        return None
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4))
    ax = figure.add_subplot()
    labels = [f"{short(str(r['model']).removeprefix('mechbench/'))}\n{short(r['modality'])}" for r in runs]
    for k, key in enumerate(("accuracy_structural", "accuracy_fluid", "consistency")):
        ax.bar(np.arange(len(labels)) + k * 0.27, [r.get(key, 0.0) for r in runs], 0.27, label=key)
    ax.set_xticks(np.arange(len(labels)) + 0.27, labels, fontsize=7, rotation=30, ha="right")
    ax.set_ylim(0, 1)
    ax.set_title("SeeSim" + left_out)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1, 1))
    return png(figure)


def figures(data: Rows) -> list[Picture]:
    """Accuracy by domain."""
    return [("seesim.png", "SeeSim", accuracy_figure(data))]


REPORT = ReportSpec(
    headline=accuracy_headline,
    setting=setting,
    chance=lambda sample: 0.5,
    rows=rows,
    tables=tables,
    figures=figures,
    published=published,
    references=references,
    glossary=(
        (
            "accuracy",
            "share of true/false questions answered right (a video asked frame by frame is decided by "
            "the majority of its frames); 0.5 is chance; higher is better",
        ),
        (
            "consistency",
            "share of question pairs (for example 'is it in tension' and 'is it in compression') whose "
            "two answers relate as the truths do",
        ),
        (
            "validation",
            "accuracy on the questions about whether the simulation itself is sound (reactions balance, "
            "the solution converged, mass is conserved)",
        ),
        ("unparsable (count)", "replies with no True or False, counted (not a share)"),
        ("budget exhausted (count)", "replies cut off by the output-token limit before an answer, counted"),
    ),
)
