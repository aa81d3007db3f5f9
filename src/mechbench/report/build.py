"""Inspect logs → leaderboards (one per benchmark, in the form its publication uses) and run metadata.

Plain data out (:class:`Report`), rendered to Markdown, a single self-contained HTML page and JSON by
:mod:`mechbench.report.render`.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from pydantic import BaseModel

from mechbench.benchmarks.seesim.dataset import VERIFIED_QUESTIONS_SHA256 as SEESIM_VERIFIED_SHA256
from mechbench.data import redact_url

LADDER_STEPS = ("geometry", "supports", "hinges", "loads", "correct")


class Run(BaseModel):
    """One evaluation run (one Inspect log)."""

    benchmark: str
    task: str
    model: str
    created: str
    status: str
    samples: int
    data: str = ""
    data_sha256: str | None = None
    """The first 12 hex digits of the SHA-256 of the files the run read, where the task records it."""
    task_args: dict[str, Any]
    mechbench_version: str | None
    input_tokens: int
    output_tokens: int
    metrics: dict[str, float]
    log: str


class Report(BaseModel):
    """Everything the report shows."""

    runs: list[Run]
    structural: list[dict[str, Any]]
    structural_ladder: dict[str, dict[str, dict[str, int]]]
    """model → difficulty → ladder step → count."""
    structural_failures: list[dict[str, Any]]
    sphyr: list[dict[str, Any]]
    seesim: list[dict[str, Any]]
    skipped_logs: list[str]
    leaderboard: list[dict[str, Any]] = []
    """One row per (benchmark, model, protocol, data): the headline metric with a 95 % interval."""


def _metrics(log: EvalLog) -> dict[str, float]:
    out: dict[str, float] = {}
    if log.results is None:
        return out
    for score in log.results.scores:
        for name, metric in score.metrics.items():
            key = score.name if name == "mean" else name
            if isinstance(metric.value, int | float):
                out[key] = float(metric.value)
    return out


# Longest text a report shows from a log (model names, arguments, explanations); beyond it the text is cut.
MAX_SHOWN_CHARS = 300


def shown(value: Any) -> Any:
    """Log text fit for a report: credentials in URLs masked, cut to :data:`MAX_SHOWN_CHARS` (figures and
    tables stay bounded whatever a log holds). Other values pass through."""
    if not isinstance(value, str):
        return value
    if len(value) > MAX_SHOWN_CHARS:
        value = value[: MAX_SHOWN_CHARS - 1] + "…"
    return redact_url(value)


DEBUG_MODEL = "ground truth (debug: no model called)"
ORACLE_MODEL = "oracle: the ground truth (no model called)"


def _data(log: EvalLog) -> str:
    """Which data a run used, as its log says (mechbench's bundled set named as such)."""
    meta, args = log.eval.metadata or {}, log.eval.task_args or {}
    if args.get("data") == "bundled":
        return "mechbench's bundled generated set"
    return str(shown(meta.get("data_source") or args.get("data") or "the task's default"))


def _run(log: EvalLog, path: str) -> Run:
    usage = log.stats.model_usage if log.stats else {}
    debug = bool((log.eval.task_args or {}).get("debug"))
    oracle = bool((log.eval.task_args or {}).get("oracle"))
    meta = log.eval.metadata or {}
    return Run(
        benchmark=str(meta.get("benchmark", log.eval.task)),
        task=shown(log.eval.task),
        model=DEBUG_MODEL if debug else ORACLE_MODEL if oracle else shown(log.eval.model),
        data=_data(log),
        data_sha256=str(meta.get("data_sha256") or "")[:12] or None,
        created=str(log.eval.created),
        status=log.status,
        samples=log.results.completed_samples if log.results else 0,
        # A data URL may carry a token (logs written by plain ``inspect eval`` keep it): never shown.
        task_args={shown(k): shown(v) for k, v in (log.eval.task_args or {}).items()},
        mechbench_version=(log.eval.packages or {}).get("mechbench"),
        input_tokens=sum(u.input_tokens for u in usage.values()),
        output_tokens=sum(u.output_tokens for u in usage.values()),
        metrics=_metrics(log),
        log=path,
    )


def _sphyr_rows(log: EvalLog, run: Run) -> list[dict[str, Any]]:
    """Per-subject means from the samples (a task may hold several subjects)."""
    by_subject: dict[str, list[dict[str, float]]] = defaultdict(list)
    for sample in log.samples or []:
        score = next(iter(sample.scores.values())) if sample.scores else None
        if score is not None and isinstance(score.value, dict):
            by_subject[str(sample.metadata.get("subject"))].append(score.value)  # type: ignore[arg-type]
    meta = log.eval.metadata or {}
    version = str(meta.get("version") or "v1")  # logs from before versions existed ran v1
    if str(meta.get("samples", "")).startswith("replay:"):
        version = f"{version}, replayed"
    rows = []
    for subject, values in sorted(by_subject.items()):
        keys = set().union(*values)
        means = {k: sum(float(v.get(k, 0.0)) for v in values) / len(values) for k in keys}
        rows.append({"model": run.model, "version": version, "subject": subject, "samples": len(values), **means})
    return rows


Z95 = 1.959963984540054
PUBLISHED = {
    ("seesim", "mechbench/always-true"): (
        127 / 240,
        "127/240: the published always-True rate",
        SEESIM_VERIFIED_SHA256[:12],
    )
}
"""Published numbers shown beside mechbench's where a run measures the same thing on the same data (the data
hash a run logs must be the published copy's: a generated set has its own answers)."""


def _protocol(benchmark: str, args: dict[str, Any], meta: dict[str, Any]) -> str:
    """The settings that make a run comparable with another, in a few words."""
    if benchmark == "structural_eval":
        return (
            f"{meta.get('protocol', 'mechbench')} protocol, prompt {args.get('prompt', 'standard')}, "
            f"{meta.get('scoring', 'strict')} scoring, {args.get('max_retries', 2)} retries"
        )
    if benchmark == "sphyr":
        parts = [str(meta.get("version") or "v1"), f"{meta.get('prompt_style', 'default')} prompt"]
        parts += [f"{k} {meta[k]}" for k in ("few_shot", "rotation", "feedback_rounds") if meta.get(k)]
        if str(meta.get("samples", "")).startswith("replay:"):
            parts.append("published samples replayed")
        return ", ".join(parts) + f", reference {meta.get('reference', 'published')}"
    return f"{args.get('modality', 'image')}, max_tokens {args.get('max_tokens', 'default')}"


def _headline(benchmark: str, sample: Any) -> tuple[str, float, float] | None:
    """(metric, value, weight) of one sample's score; None when unscored."""
    score = next(iter(sample.scores.values())) if sample.scores else None
    if score is None:
        return None
    value = score.value
    if benchmark == "sphyr" and isinstance(value, dict):
        name = "topology_score" if "topology_score" in value else "exact_match"
        return name, float(value[name]), 1.0
    if isinstance(value, int | float) and not math.isnan(float(value)):
        if benchmark == "structural_eval":
            return "weighted accuracy", float(value), float(sample.metadata.get("difficulty", 1) or 1)
        return "accuracy", float(value), 1.0
    return None


def _interval(values: list[float], weights: list[float]) -> tuple[float, float]:
    """Weighted mean and the half-width of its normal-approximation 95 % interval."""
    total = sum(weights)
    mean = sum(w * v for v, w in zip(values, weights, strict=True)) / total
    if len(values) < 2:
        return mean, math.nan
    spread = sum((w * (v - mean)) ** 2 for v, w in zip(values, weights, strict=True))
    n = len(values)
    return mean, Z95 * math.sqrt(spread * n / (n - 1)) / total


def _leaderboard(pooled: dict[tuple, tuple[list[float], list[float], str]]) -> list[dict[str, Any]]:
    rows = []
    for (benchmark, model, protocol, data, digest), (values, weights, metric) in sorted(pooled.items()):
        mean, half = _interval(values, weights)
        entry = PUBLISHED.get((benchmark, model))
        published = entry[:2] if entry and entry[2] == digest else None
        rows.append(
            {
                "benchmark": benchmark,
                "model": model,
                "metric": metric,
                "value": mean,
                "ci95": half,
                "samples": len(values),
                "protocol": protocol,
                "data": data,
                "data_sha256": digest,
                "published": published[0] if published else None,
                "published_note": published[1] if published else None,
            }
        )
    return rows


def build_report(log_dir: str | Path, max_failures: int = 4) -> Report:
    """Read every Inspect log under ``log_dir`` (any models, any benchmarks)."""
    runs, structural, sphyr, seesim, failures, skipped = [], [], [], [], [], []
    pooled: dict[tuple, tuple[list[float], list[float], str]] = {}
    ladder: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for info in list_eval_logs(str(log_dir)):
        try:
            log = read_eval_log(info.name)
        except Exception as error:
            skipped.append(f"{info.name}: {type(error).__name__}")
            continue
        if log.status != "success" or log.results is None:
            skipped.append(f"{info.name}: status {log.status}")
            continue
        run = _run(log, info.name)
        runs.append(run)
        key = (
            run.benchmark,
            run.model,
            _protocol(run.benchmark, log.eval.task_args or {}, log.eval.metadata or {}),
            run.data,
            run.data_sha256,
        )
        for sample in log.samples or []:
            headline = _headline(run.benchmark, sample)
            if headline is not None:
                values, weights, _ = pooled.setdefault(key, ([], [], headline[0]))
                values.append(headline[1])
                weights.append(headline[2])
        row = {"model": run.model, **run.metrics, "samples": run.samples}
        if run.benchmark == "structural_eval":
            structural.append({**row, "prompt": run.task_args.get("prompt"), "scoring": run.task_args.get("scoring")})
            for sample in log.samples or []:
                score = next(iter(sample.scores.values())) if sample.scores else None
                if score is None:
                    continue
                step = (score.metadata or {}).get("step", "none")
                ladder[run.model][str(sample.metadata.get("difficulty"))][step] += 1
                if step != "correct" and len(failures) < max_failures and score.answer:
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
        elif run.benchmark == "sphyr":
            sphyr.extend(_sphyr_rows(log, run))
        elif run.benchmark == "seesim":
            left_out = (log.eval.metadata or {}).get("skipped_for_missing_media") or []
            seesim.append(
                {
                    **row,
                    "modality": run.task_args.get("modality", "image"),
                    "left_out": shown(", ".join(map(str, left_out))) or "none",
                }
            )
    return Report(
        runs=runs,
        structural=structural,
        structural_ladder={m: {d: dict(c) for d, c in by.items()} for m, by in ladder.items()},
        structural_failures=failures,
        sphyr=sphyr,
        seesim=seesim,
        skipped_logs=skipped,
        leaderboard=_leaderboard(pooled),
    )
