"""SPhyR in the report: one leaderboard row per model and setting over all subjects, per-subject detail."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import numpy as np

from mechbench.benchmarks.sphyr.scoring import HEADLINE_METRICS
from mechbench.core.text import plain_text
from mechbench.harness.figures import first_groups, png, short
from mechbench.harness.task import tool_setting_label
from mechbench.registry import Column, Picture, ReportSpec, Rows, Table, first_score


def headline(sample: Any) -> tuple[str, float, float] | None:
    """Topology score where physics ran (else exact match), every sample weighted alike."""
    score = first_score(sample)
    if score is None or not isinstance(score.value, dict):
        return None
    name = next((n for n in HEADLINE_METRICS if n in score.value), HEADLINE_METRICS[-1])
    return name, float(score.value[name]), 1.0


def _replayed(meta: Mapping[str, Any]) -> bool:
    return str(meta.get("samples", "")).startswith("replay:")


def setting(args: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    """The settings that make two runs comparable (the subject is not one: subjects pool into one row)."""
    parts = [str(meta.get("version") or "v1")]
    if not _replayed(meta):
        parts.append(str(meta.get("data_set") or _data_set_of_old_log(args)))
    parts.append(f"{meta.get('prompt_style', 'default')} prompt")
    parts += [f"{k} {meta[k]}" for k in ("few_shot", "rotation", "feedback_rounds") if meta.get(k)]
    if meta.get("setting") == "tools":
        parts.append(tool_setting_label(meta.get("tool_budget")))
    if _replayed(meta):
        parts.append("published samples replayed")
    parts.append(_load_label(meta))
    return ", ".join(parts) + f", reference {meta.get('reference', 'published')}"


def _data_set_of_old_log(args: Mapping[str, Any]) -> str:
    """The set a log from before ``data_set`` was recorded read, from its task argument (as the task names it)."""
    data = args.get("data")
    if data in (None, "", "None"):
        return "published data"
    return "bundled set" if data == "bundled" else f"data {str(data).rstrip('/').rsplit('/', 1)[-1]}"


def _load_label(meta: Mapping[str, Any]) -> str:
    """Which load convention judged a run (logs from before the choice existed used the published one)."""
    if meta.get("load_direction") == "recovered":
        return "load recovered per sample"
    return "load by published convention"


def rows(log: Any, run: Any) -> Rows:
    """Every scored sample's metrics with its subject (a task may hold several subjects); the report merges runs
    by sample id, so a sample scored twice counts once."""
    meta = log.eval.metadata or {}
    version = str(meta.get("version") or "v1")  # logs from before versions existed ran v1
    if _replayed(meta):
        version = f"{version}, replayed"
    if meta.get("load_direction") == "recovered":
        version = f"{version}, load recovered"
    graded = []
    for sample in log.samples or []:
        score = first_score(sample)
        if score is not None and isinstance(score.value, dict):
            subject = str(sample.metadata.get("subject"))
            values = {k: float(v) for k, v in score.value.items() if isinstance(v, int | float)}
            graded.append(
                {
                    "model": run.model,
                    "version": version,
                    "subject": subject,
                    "id": str(sample.id),
                    "epoch": int(getattr(sample, "epoch", 1) or 1),
                    **values,
                }
            )
    return {"graded": graded}


def derived(data: Rows) -> Rows:
    """The per-subject means, from the merged samples."""
    return {"subjects": subject_means(data)}


def subject_means(data: Rows) -> list[dict[str, Any]]:
    """Per model, version and subject: the mean of every metric over its distinct samples."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in data.get("graded", []):
        groups[(row["model"], row["version"], row["subject"])].append(row)
    out = []
    for (model, version, subject), values in sorted(groups.items()):
        keys = {k for v in values for k, x in v.items() if isinstance(x, float)}  # the metrics (id, epoch: labels)
        means = {k: sum(float(v.get(k, 0.0)) for v in values) / len(values) for k in keys}
        labels = {k: values[0][k] for k in ("model_name", "setting") if k in values[0]}
        out.append({"model": model, **labels, "version": version, "subject": subject, "samples": len(values), **means})
    return out


def _short(subject: str) -> str:
    return subject.replace("_random_", " ").replace("_", " ")


def tables(data: Rows) -> list[Table]:
    """Model × subject pivots of topology score and exact match, and every metric per subject."""
    subjects_rows = data.get("subjects", [])
    subjects = sorted({r["subject"] for r in subjects_rows})
    out: list[Table] = []
    for metric, title in (("topology_score", "topology score"), ("exact_match", "exact match")):
        pivot = []
        for model, version in sorted({(r["model"], r["version"]) for r in subjects_rows}):
            row: dict[str, Any] = {"model": model, "version": version}
            row.update(
                {
                    r["subject"]: r[metric]
                    for r in subjects_rows
                    if r["model"] == model and r["version"] == version and metric in r
                }
            )
            pivot.append(row)
        if any(len(row) > 2 for row in pivot):
            columns = [
                Column("model", "model"),
                Column("version", "version"),
                *[Column(s, _short(s)) for s in subjects],
            ]
            out.append((f"SPhyR {title} (model × subject)", pivot, columns))
    detail = [
        ("version", "version"),
        ("subject", "subject"),
        ("model", "model"),
        ("exact_match", "EM"),
        ("normalized_score", "norm. score"),
        ("topology_score", "topology score"),
        ("invalid_output_grid", "invalid"),
        ("budget_exhausted", "budget exhausted"),
        ("samples", "samples"),
    ]
    ordered = sorted(subjects_rows, key=lambda r: (r["version"], r["subject"], r["model"]))
    out.append(("SPhyR per subject", ordered, [Column(k, h) for k, h in detail]))
    return out


@plain_text
def subject_figure(data: Rows) -> bytes | None:
    """Topology score (or normalised score) per subject, one bar group per model."""
    subject_rows = data.get("subjects", [])
    if not subject_rows:
        return None
    several = len({r["version"] for r in subject_rows}) > 1

    def label(row: dict) -> str:  # versions apart: v1 and v2 full_easy are different benchmarks
        return f"{row['subject']} [{row['version']}]" if several else row["subject"]

    subjects = sorted({label(r) for r in subject_rows})
    models, left_out = first_groups(sorted({r["model"] for r in subject_rows}), "models")
    value = {(r["model"], label(r)): r.get("topology_score", r.get("normalized_score", 0.0)) for r in subject_rows}
    from matplotlib.figure import Figure

    figure = Figure(figsize=(12, 4.5))
    ax = figure.add_subplot()
    width = 0.8 / len(models)
    for k, model in enumerate(models):
        values = [value.get((model, s), 0.0) for s in subjects]
        x = np.arange(len(subjects)) + k * width
        ax.bar(x, values, width, label=short(model))
        for where, v in zip(x, values, strict=True):
            if v == 0:  # a bar of height zero is otherwise invisible
                ax.text(where, 0, "0", ha="center", va="bottom", fontsize=7)
    ticks = [short(s) for s in subjects]
    ax.set_xticks(np.arange(len(subjects)) + 0.4 - width / 2, ticks, rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("topology score (or normalised score)")
    ax.set_title("SPhyR per subject" + left_out)
    ax.legend(fontsize=8)
    return png(figure)


def figures(data: Rows) -> list[Picture]:
    """Per subject."""
    return [("sphyr.png", "SPhyR per subject", subject_figure(data))]


REPORT = ReportSpec(
    headline=headline,
    setting=setting,
    rows=rows,
    derived=derived,
    tables=tables,
    figures=figures,
    glossary=(
        (
            "topology score",
            "how close the completed grid's stiffness per material comes to the reference "
            "optimum's under the sample's loads and supports (finite-element judge; 1 matches it, 0 for a grid that "
            "does not carry the load); higher is better",
        ),
        ("exact match (EM)", "share of grids whose every masked cell equals the ground truth"),
        ("norm. score", "1 minus the cells that differ from the truth over the cells to fill, at least 0"),
        ("invalid", "share of replies with no grid of the right shape and alphabet"),
        ("budget exhausted", "share of replies cut off by the output-token limit before a grid"),
    ),
)
