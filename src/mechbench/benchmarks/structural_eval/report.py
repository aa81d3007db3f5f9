"""StructuralEval in the report: the weighted-accuracy leaderboard, the diagnostic ladder, failed answers drawn."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np

from mechbench.benchmarks.structural_eval.idealisations import CONVENTIONS
from mechbench.benchmarks.structural_eval.scoring import LADDER
from mechbench.core.text import plain_text
from mechbench.harness.adaptive import ABILITY_METRIC, GLOSSARY, abilities, ability_tables, is_session, session_row
from mechbench.harness.figures import MAX_LABEL_CHARS, first_groups, png, short, side_by_side
from mechbench.harness.shown import shown
from mechbench.harness.task import tool_setting_label
from mechbench.registry import Column, Picture, ReportSpec, Rows, Table, first_score, run_row

LADDER_STEPS = tuple(LADDER)
"""The diagnostic ladder: the first check an answer fails (``correct``: none)."""
LADDER_COLOURS = {
    "geometry": "#c0392b",
    "supports": "#e67e22",
    "hinges": "#f1c40f",
    "loads": "#7fb3d5",
    "correct": "#27ae60",
}
MAX_FAILURES_DRAWN = 4


def headline(sample: Any) -> tuple[str, float, float] | None:
    """Weighted accuracy: each task's score weighted by its difficulty (the published aggregate)."""
    score = first_score(sample)
    if score is None or not isinstance(score.value, int | float) or math.isnan(float(score.value)):
        return None
    if is_session(sample):  # an adaptive session: its ability, never pooled with accuracies
        return ABILITY_METRIC, float(score.value), 1.0
    return "weighted accuracy", float(score.value), difficulty_weight(sample.metadata.get("difficulty"))


def difficulty_weight(value: Any) -> float:
    """A task's weight: its difficulty, or 1 where a log holds none that is a positive number."""
    try:
        weight = float(value)
    except (TypeError, ValueError):
        return 1.0
    return weight if math.isfinite(weight) and weight > 0 else 1.0


def _prompt_style(args: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    return str(meta.get("prompt_style") or args.get("prompt_style") or args.get("prompt") or "standard")


def setting(args: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    """The settings that make two runs comparable."""
    if str(meta.get("setting", "")).startswith("adaptive"):
        return f"{meta['setting']}, max_tokens {args.get('max_tokens', 'default')}"
    answers = (
        tool_setting_label(meta.get("tool_budget"))
        if meta.get("setting") == "tools"
        else f"{args.get('max_retries', 2)} retries"
    )
    return (
        f"{meta.get('protocol', 'mechbench')} protocol, prompt {_prompt_style(args, meta)}, "
        f"{meta.get('scoring', 'strict')} scoring, {answers}"
    )


def rows(log: Any, run: Any) -> Rows:
    """The run's metrics, each task's ladder step, and its first failed answers."""
    ladder, failures, found = [], [], []
    for sample in log.samples or []:
        score = first_score(sample)
        if score is None:
            continue
        if is_session(sample):
            row = session_row(sample, score, run.model, setting(run.task_args, log.eval.metadata or {}))
            found += [row] if row else []
            continue
        step = str((score.metadata or {}).get("step", "none"))
        ladder.append(
            {
                "model": run.model,
                "id": str(sample.id),
                "epoch": int(getattr(sample, "epoch", 1) or 1),
                "difficulty": str(sample.metadata.get("difficulty")),
                "step": step,
            }
        )
        if step != "correct" and len(failures) < MAX_FAILURES_DRAWN and score.answer:
            failures.append(
                {
                    "model": run.model,
                    "id": sample.id,
                    "step": step,
                    "explanation": shown(score.explanation),
                    "answer": score.answer,
                    "truth": sample.target,
                }
            )
    meta = log.eval.metadata or {}
    runs = [run_row(run, prompt=_prompt_style(run.task_args, meta), scoring=meta.get("scoring"))]
    return {"runs": runs, "ladder": ladder, "failures": failures, "abilities": found}


def ladder_counts(data: Rows) -> list[dict[str, Any]]:
    """Tasks per model, difficulty and ladder step."""
    counts: dict[tuple[str, str], Counter] = {}
    for entry in data.get("ladder", []):
        counts.setdefault((entry["model"], entry["difficulty"]), Counter())[entry["step"]] += 1
    return [{"model": m, "difficulty": d, **dict(c)} for (m, d), c in sorted(counts.items())]


def tables(data: Rows) -> list[Table]:
    """Each run's metrics, and the ladder's counts."""
    columns = [
        ("model", "model"),
        ("prompt", "prompt"),
        ("scoring", "scoring"),
        ("weighted_accuracy", "weighted acc."),
        ("mean_ratio", "mean ratio"),
        ("beam", "beam"),
        ("frame", "frame"),
        ("truss", "truss"),
        ("exact_success", "exact"),
        ("unparsable_replies", "unparsable (share)"),
        ("budget_exhausted_replies", "budget exhausted (share)"),
        ("samples", "tasks (count)"),
    ]
    ladder = [Column("model", "model"), Column("difficulty", "difficulty"), *[Column(s, s) for s in LADDER_STEPS]]
    return [
        ("StructuralEval", data.get("runs", []), [Column(k, h) for k, h in columns]),
        ("StructuralEval ladder (counts)", ladder_counts(data), ladder),
        *ability_tables("StructuralEval", data),
    ]


@plain_text
def ladder_figure(data: Rows) -> bytes | None:
    """Stacked shares of the ladder's steps per difficulty (d1–d5 under the bars), grouped by model."""
    counts = ladder_counts(data)
    models, left_out = first_groups(sorted({b["model"] for b in counts}), "models")
    bars = [b for b in counts if b["model"] in models]
    if not bars:
        return None
    from matplotlib.figure import Figure
    from matplotlib.transforms import blended_transform_factory

    # One slot per bar and a gap between models, so each model's difficulties stand together.
    positions, x = [], 0.0
    for k, bar in enumerate(bars):
        if k and bar["model"] != bars[k - 1]["model"]:
            x += 1.0
        positions.append(x)
        x += 1.0
    figure = Figure(figsize=(max(6.0, 0.45 * x + 2.5), 4.5))
    ax = figure.add_subplot()
    bottom = np.zeros(len(bars))
    totals = np.array([max(sum(b.get(s, 0) for s in LADDER_STEPS), 1) for b in bars], dtype=float)
    for step in LADDER_STEPS:
        values = np.array([b.get(step, 0) for b in bars]) / totals
        ax.bar(positions, values, bottom=bottom, color=LADDER_COLOURS[step], label=step)
        bottom += values
    ax.set_xticks(positions, [f"d{short(b['difficulty'], 4)}" for b in bars], fontsize=8)
    below = blended_transform_factory(ax.transData, ax.transAxes)
    for model in models:
        mine = [p for p, b in zip(positions, bars, strict=True) if b["model"] == model]
        label = short(model, min(MAX_LABEL_CHARS, 9 * len(mine)))  # about as wide as the group
        ax.text(sum(mine) / len(mine), -0.11, label, transform=below, ha="center", va="top", fontsize=8)
    ax.set_ylabel("share of tasks")
    ax.set_title("StructuralEval: the first check each answer fails (d1–d5: difficulty)" + left_out, fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1, 1))
    return png(figure)


def figures(data: Rows) -> list[Picture]:
    """The ladder."""
    return [("structural_ladder.png", "StructuralEval ladder", ladder_figure(data))]


@plain_text
def failure_figures(data: Rows) -> list[Picture]:
    """Failed answers drawn beside the ground truth (evidence, folded away under the ladder)."""
    from mechbench.frame.render import render_figure

    out: list[Picture] = []
    for failure in data.get("failures", [])[:MAX_FAILURES_DRAWN]:
        try:
            answer, truth = json.loads(failure["answer"]), json.loads(failure["truth"])
            images = [
                png(render_figure(m, title=t, dimensions=True))
                for m, t in ((answer, "model's answer"), (truth, "ground truth"))
            ]
        except Exception:  # an answer the drawing cannot show is simply not drawn
            continue
        caption = f"{failure['model']} · {failure['id']}: {failure['explanation']}"
        out.append((f"failure_{len(out)}.png", caption, side_by_side(images)))
    return out


REPORT = ReportSpec(
    headline=headline,
    setting=setting,
    rows=rows,
    derived=abilities,
    tables=tables,
    figures=figures,
    folded=failure_figures,
    folded_title="failed answers drawn beside the truth",
    glossary=(
        (
            "weighted accuracy",
            "each task scores 1 when the solver finds the drawn structure's reactions and largest "
            "moment from the model's JSON (partial credit for a share of them), weighted by the task's difficulty; "
            "higher is better",
        ),
        (
            "ladder",
            "the first check a wrong answer fails: geometry, supports, hinges, loads; 'correct' passed them "
            "all; d1–d5 under the figure's bars are the task's difficulty, from 1 (a simple beam) to 5 (larger frames "
            "and trusses)",
        ),
        (
            "mean ratio",
            "each task's ladder score (0, 0.25, 0.5, 0.75 or 1: how far up the ladder its answer got) averaged "
            "with every task weighted alike (the published 'average success ratio'); higher is better",
        ),
        ("beam / frame / truss", "weighted accuracy over the tasks of that kind only"),
        ("exact", "share of tasks whose answer passed every check (ladder score 1)"),
        ("unparsable (share)", "share of all replies, retries included, with no FrameCalc JSON that could be read"),
        ("budget exhausted (share)", "share of all replies cut off by the output-token limit before an answer"),
        ("tasks (count)", "drawings scored in the run"),
        GLOSSARY,
        *((f"convention: {name}", rule) for name, rule in CONVENTIONS),
    ),
)
