"""HandCalc in the report: difficulty-weighted accuracy, and per model the score on drawings, on text and the paired
gap on the same items (how much of what a model gets wrong from a drawing it gets right from the words)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from mechbench.core.intervals import Observation, paired_difference
from mechbench.harness.adaptive import ABILITY_METRIC, GLOSSARY, abilities, ability_tables, is_session, session_row
from mechbench.harness.task import tool_setting_label
from mechbench.registry import Column, ReportSpec, Rows, Table, first_score, run_row

from .protocol import CLUSTER, TOLERANCE


def headline(sample: Any) -> tuple[str, float, float] | None:
    """Weighted accuracy: an item's share of quantities right, weighted by its level (an adaptive session: its
    ability on the level scale)."""
    score = first_score(sample)
    if score is None or not isinstance(score.value, int | float) or math.isnan(float(score.value)):
        return None
    if is_session(sample):  # an adaptive session: its ability, never pooled with accuracies
        return ABILITY_METRIC, float(score.value), 1.0
    level = sample.metadata.get("level")
    weight = float(level) if isinstance(level, int | float) and level > 0 else 1.0
    return "weighted accuracy", float(score.value), weight


def setting(args: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    """Runs compare when they answer the same way with the same output budget (presentations are rows of their own
    table, paired item by item)."""
    if str(meta.get("setting", "")).startswith("adaptive"):
        return f"{meta['setting']}, max_tokens {args.get('max_tokens', 'default')}"
    answers = tool_setting_label(meta.get("tool_budget")) if meta.get("setting") == "tools" else "single answer"
    return f"{answers}, max_tokens {args.get('max_tokens', 'default')}"


def rows(log: Any, run: Any) -> Rows:
    """The run's metrics and every scored sample (item, presentation, level, score)."""
    answered, abilities = [], []
    for sample in log.samples or []:
        score = first_score(sample)
        if score is None or not isinstance(score.value, int | float):
            continue
        if is_session(sample):
            found = session_row(sample, score, run.model, setting(run.task_args, log.eval.metadata or {}))
            if found:
                abilities.append(found)
            continue
        answered.append(
            {
                "model": run.model,
                "setting": setting(run.task_args, log.eval.metadata or {}),
                "item": str(sample.metadata.get(CLUSTER.key)),
                "presentation": str(sample.metadata.get("presentation")),
                "level": sample.metadata.get("level"),
                "epoch": int(getattr(sample, "epoch", 1) or 1),
                "value": float(score.value),
            }
        )
    return {"runs": [run_row(run)], "answers": answered, "abilities": abilities}


def presentations(data: Rows) -> Rows:
    """Per model and setting: the score on drawings and on text over the items asked both ways, the paired gap
    (text − drawing) with its 95 % interval over items, and the share of drawing errors the text put right."""
    grouped: dict[tuple[str, str], dict[str, list[Observation]]] = defaultdict(lambda: defaultdict(list))
    for row in data.get("answers", []):
        weight = float(row["level"]) if isinstance(row["level"], int | float) else 1.0
        grouped[(row["model"], row["setting"])][row["presentation"]].append(
            Observation(row["item"], row["item"], row["value"], weight, row["epoch"])
        )
    out = []
    for (model, chosen), shown in sorted(grouped.items()):
        drawing, text = shown.get("drawing", []), shown.get("text", [])
        both = {o.sample for o in drawing} & {o.sample for o in text}
        if not both:
            continue
        d = [o for o in drawing if o.sample in both]
        t = [o for o in text if o.sample in both]
        gap = paired_difference(t, d)
        mean_d = _mean(d)
        mean_t = _mean(t)
        by_item_d, by_item_t = _per_item(d), _per_item(t)
        missed = sum(1 - v for v in by_item_d.values())
        recovered = sum(max(0.0, by_item_t[k] - v) for k, v in by_item_d.items())
        out.append(
            {
                "model": model,
                "setting": chosen,
                "items": len(both),
                "drawing": mean_d,
                "text": mean_t,
                "gap": gap.mean if gap else mean_t - mean_d,
                "gap_ci95": gap.half if gap else None,
                "gap_p": gap.p_value if gap else None,
                "perception_share": recovered / missed if missed > 0 else None,
            }
        )
    return {"presentations": out}


def _mean(observations: list[Observation]) -> float:
    total = sum(o.weight for o in observations)
    return sum(o.value * o.weight for o in observations) / total if total else math.nan


def _per_item(observations: list[Observation]) -> dict[str, float]:
    values: dict[str, list[float]] = defaultdict(list)
    for o in observations:
        values[str(o.sample)].append(o.value)
    return {k: sum(v) / len(v) for k, v in values.items()}


def _derived(data: Rows) -> Rows:
    return {**presentations(data), **abilities(data)}


def tables(data: Rows) -> list[Table]:
    """The drawing–text table and, for adaptive runs, the abilities."""
    shown = []
    for row in data.get("presentations", []):
        interval = f" ± {row['gap_ci95']:.3f}" if row["gap_ci95"] is not None else ""
        shown.append(
            {
                **row,
                "gap_shown": f"{row['gap']:+.3f}{interval}",
                "perception": "—" if row["perception_share"] is None else f"{row['perception_share']:.0%}",
            }
        )
    columns = [
        Column("model", "model"),
        Column("setting", "setting"),
        Column("items", "items asked both ways"),
        Column("drawing", "weighted accuracy, drawing"),
        Column("text", "weighted accuracy, text"),
        Column("gap_shown", "text − drawing (paired, 95 %)"),
        Column("perception", "drawing errors the text put right"),
    ]
    out: list[Table] = [("HandCalc: drawing against text, on the same items", shown, columns)]
    return [*out, *ability_tables("HandCalc", data)]


REPORT = ReportSpec(
    headline=headline,
    setting=setting,
    rows=rows,
    derived=_derived,
    tables=tables,
    glossary=(
        (
            "weighted accuracy",
            f"each item's share of quantities within {TOLERANCE:.0%} of the truth (units converted), weighted by its "
            "level",
        ),
        GLOSSARY,
        (
            "text − drawing",
            "the same items asked as text and as a drawing: the paired difference over items, with its 95 % interval; "
            "above 0, the model reads the words better than the figure",
        ),
        (
            "drawing errors the text put right",
            "of the quantities missed from the drawing, the share answered right from the text: errors of perception "
            "rather than of reasoning",
        ),
    ),
)
