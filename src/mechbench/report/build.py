"""Inspect logs → leaderboards (one per benchmark, one row per model and setting) and the benchmarks' rows.

Generic over the benchmark registry (:mod:`mechbench.registry`): each benchmark's
:class:`~mechbench.registry.ReportSpec` says what a sample's headline is, which settings make runs comparable and
which rows its tables and figures need; this module names no benchmark. Plain data out (:class:`Report`), rendered
to Markdown, a single self-contained HTML page and JSON by :mod:`mechbench.report.render`.
"""

from __future__ import annotations

import hashlib
import math
import statistics
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from pydantic import BaseModel, PrivateAttr

from mechbench import registry
from mechbench.core.intervals import Interval, Observation, clustered_interval, t_quantile
from mechbench.core.text import plural
from mechbench.harness.panel import member_views
from mechbench.harness.shown import shown
from mechbench.harness.task import TOOL_SETTING_PREFIX
from mechbench.report.compare import RowKey, compare_rows, finite, ranks, row_key
from mechbench.report.models import identity_args, model_identity, model_labels


class Run(BaseModel):
    """One evaluation run (one Inspect log)."""

    benchmark: str
    task: str
    model: str
    """The model as the report names it: with what sets its model arguments apart where it ran with several on the
    same benchmark (:mod:`mechbench.report.models`)."""
    model_name: str = ""
    """The provider/model name alone (``mechbench/replay``)."""
    model_args: dict[str, Any] = {}
    """The model arguments that make it distinct (``-M file=…``, ``-M seed=…``; transport and credentials left out)."""
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
    leaderboard: list[dict[str, Any]] = []
    """One row per (benchmark, model, setting, data): the headline metric with a 95 % interval over every sample
    of the runs it pools; reference rows (``reference: true``) are published results of other models."""
    benchmarks: dict[str, dict[str, list[dict[str, Any]]]] = {}
    """Benchmark → its named lists of rows (what its tables and figures are drawn from)."""
    skipped_logs: list[str] = []
    settings_compared: list[dict[str, Any]] = []
    """The tool setting against each other setting of the same model on the same data: the paired difference of the
    headlines (tools minus the other) with its clustered 95 % interval."""
    shortcut_panels: dict[str, list[dict[str, Any]]] = {}
    """Per benchmark, what its shortcut models scored (rows of the leaderboard) with the chance level."""
    comparison_scope: list[dict[str, Any]] = []
    """Per group of rows that can be compared (benchmark, data, metric): its rows, its pairs, how many were compared
    and by which rule (:mod:`mechbench.report.compare`: every pair of up to 50 rows; past that, the pairs a reader
    uses)."""
    _observations: dict[RowKey, list[Observation]] = PrivateAttr(default_factory=dict)

    def observations(self, row: dict[str, Any]) -> list[Observation]:
        """The scored answers a leaderboard row pools (what its interval and comparisons are computed from)."""
        return self._observations.get(row_key(row), [])

    calibrated_abilities: list[dict[str, Any]] = []
    """Rows on a set ``mechbench calibrate items`` calibrated: each one's ability on the calibration's scale
    (:mod:`mechbench.report.calibrated`)."""
    comparisons: list[dict[str, Any]] = []
    """The pairs of rows of a benchmark that answered the same samples (every pair, or those
    :data:`comparison_scope` names): the paired difference (a − b) with its clustered 95 % interval, its p-value and
    Holm's correction, the verdict in words; or why they were not compared (:mod:`mechbench.report.compare`)."""


TOOL_SETTING = TOOL_SETTING_PREFIX
"""How a tool-setting run's setting reads (the benchmarks' ``setting`` writes it with ``tool_setting_label``)."""


def _base(setting: str) -> str:
    """A setting without its answering part (tools, retries, feedback rounds): what two compared rows share."""
    parts = setting.split(", ")
    return ", ".join(
        p for p in parts if not (p.startswith((TOOL_SETTING_PREFIX, "feedback_rounds")) or p.endswith("retries"))
    )


SCRIPTED = (f"mechbench/{registry.TOOL_DEMO}",)
"""Built-in agents whose tool runs follow a script: their differences show the path works, they measure nothing."""


def settings_compared(leaderboard: list[dict[str, Any]], pairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each tool-setting row against every other row of its benchmark and model with the same data (hash), metric
    and setting apart from how the answer is given: the paired difference on the samples both answered (tools minus
    the other), with its clustered interval."""
    rows = {tuple(row_key(r)): r for r in leaderboard if not r.get("reference")}
    out = []
    for pair in pairs:
        if not pair["compared"]:
            continue
        first, second = rows[tuple(pair["a_key"])], rows[tuple(pair["b_key"])]  # type: ignore[index]
        for tools, other, sign in ((first, second, 1.0), (second, first, -1.0)):
            same = tools["model"] == other["model"]
            if not same or TOOL_SETTING not in tools["setting"] or TOOL_SETTING in other["setting"]:
                continue
            if _base(other["setting"]) != _base(tools["setting"]):
                continue
            out.append(
                {
                    "benchmark": tools["benchmark"],
                    "model": tools["model"],
                    "metric": tools["metric"],
                    "tools_setting": tools["setting"],
                    "other_setting": other["setting"],
                    "tools": tools["value"],
                    "other": other["value"],
                    "difference": sign * pair["difference"],
                    "ci95": pair["ci95"],
                    "p_holm": pair["p_holm"],
                    "clusters": pair["clusters"],
                    "note": "a scripted agent: it shows the path works, it measures nothing"
                    if tools.get("model_name", tools["model"]) in SCRIPTED
                    else "",
                }
            )
    return out


def _metrics(log: EvalLog) -> dict[str, float]:
    out: dict[str, float] = {}
    if log.results is None:
        return out
    for score in log.results.scores:
        keyed = score.name != score.scorer  # one key of a dict-valued score (SPhyR's exact_match, topology_score)
        for name, metric in score.metrics.items():
            key = score.name if name == "mean" else f"{score.name}_{name}" if keyed else name
            if isinstance(metric.value, int | float):
                out[key] = float(metric.value)
    return out


ORACLE_MODEL = "oracle: the ground truth (no model called)"
"""How runs that answered with the ground truth are named (``oracle=true``, or ``debug=true`` in older logs)."""


def _data(log: EvalLog) -> str:
    """Which data a run used, as its log says (mechbench's bundled set named as such)."""
    meta, args = log.eval.metadata or {}, log.eval.task_args or {}
    source = str(shown(meta.get("data_source") or args.get("data") or "the task's default"))
    during = meta.get("generated_during_run")
    if isinstance(during, dict):  # items generated by the task itself (no data folder read)
        return f"generated during the run by mechbench (seed {during.get('seed')}): {source}"
    if args.get("data") == "bundled":
        return "mechbench's bundled generated set"
    generated = meta.get("generated")
    if isinstance(generated, dict):  # a set written by `mechbench generate seesim`
        return f"generated by mechbench (seed {generated.get('seed')}): {source}"
    return source


def _run(log: EvalLog, path: str) -> Run:
    """The run a log holds, its model named by its identity (:func:`~mechbench.report.models.model_identity`) until
    every run is read and the report names them (:func:`labels_by_benchmark`)."""
    usage = log.stats.model_usage if log.stats else {}
    args = log.eval.task_args or {}
    meta = log.eval.metadata or {}
    oracle = bool(args.get("oracle") or args.get("debug"))
    model = ORACLE_MODEL if oracle else str(shown(log.eval.model))
    model_args = {} if oracle else identity_args(log.eval.model_args)
    return Run(
        benchmark=str(meta.get("benchmark", log.eval.task)),
        task=shown(log.eval.task),
        model=model_identity(model, model_args),
        model_name=model,
        model_args=model_args,
        data=_data(log),
        data_sha256=str(meta.get("data_sha256") or "")[:12] or None,
        created=str(log.eval.created),
        status=log.status,
        samples=log.results.completed_samples if log.results else 0,
        # A data URL may carry a token (logs written by plain ``inspect eval`` keep it): never shown.
        task_args={shown(k): shown(v) for k, v in args.items()},
        mechbench_version=(log.eval.packages or {}).get("mechbench"),
        input_tokens=sum(u.input_tokens for u in usage.values()),
        output_tokens=sum(u.output_tokens for u in usage.values()),
        metrics=_metrics(log),
        log=path,
    )


@dataclass(frozen=True)
class Scored:
    """One sample's part in a leaderboard row."""

    value: float
    weight: float
    chance: float | None
    unreadable: bool
    repaired: bool
    reason: str | None = None
    """Why an unreadable answer could not be read (the score's explanation, first line)."""
    cluster: str | None = None
    """The cluster the sample belongs to (its benchmark's :class:`~mechbench.registry.Cluster`); None in a log written
    before its benchmark declared one (the sample is then its own cluster, and the row says how many were)."""


MAX_REASON_CHARS = 80
MAX_NAMED_LOGS = 3
"""Runs a row names when it says where samples were left out (the count of the others follows)."""


@dataclass
class _Pool:
    """The samples of every run that shares one leaderboard row, each counted once: a sample (id and epoch) scored
    again by a later run replaces its earlier score, and is counted as a repeat."""

    metric: str
    samples: dict[tuple[str, str, int], Scored] = field(default_factory=dict)
    repeats: int = 0
    digests: set[str] = field(default_factory=set)
    runs: int = 0
    left_out: dict[tuple[str, str, int], str] = field(default_factory=dict)
    """Samples (id and epoch) whose score is not a finite number, each with the log that gave it: left out of the
    row (a later finite score of the same sample replaces it)."""

    def add(self, key: tuple[str, str, int], scored: Scored) -> None:
        self.repeats += key in self.samples or key in self.left_out
        self.left_out.pop(key, None)
        self.samples[key] = scored

    def leave_out(self, key: tuple[str, str, int], log: str) -> None:
        """A sample whose score is infinite or NaN: kept out of every interval and comparison, and counted."""
        self.repeats += key in self.samples or key in self.left_out
        self.samples.pop(key, None)
        self.left_out[key] = log

    @property
    def left_out_note(self) -> str | None:
        """How many samples were left out for a score that is not a finite number, and from which runs."""
        if not self.left_out:
            return None
        by_log = Counter(self.left_out.values()).most_common()
        named = "; ".join(f"{count} in {log}" for log, count in by_log[:MAX_NAMED_LOGS])
        more = f"; {len(by_log) - MAX_NAMED_LOGS} more runs" if len(by_log) > MAX_NAMED_LOGS else ""
        return f"{len(self.left_out)} samples left out: their score is not a finite number (inf or NaN): {named}{more}"

    def observations(self) -> list[Observation]:
        """Every scored answer as the intervals read it: its sample (task and id), epoch, cluster, value, weight."""
        return [
            Observation((task, sample), s.cluster if s.cluster is not None else f"sample {task}/{sample}", s.value,
                        s.weight, epoch)
            for (task, sample, epoch), s in self.samples.items()
        ]  # fmt: skip

    @property
    def unclustered(self) -> int:
        """Samples whose log names no cluster (each then counted as its own)."""
        return sum(s.cluster is None for s in self.samples.values())

    @property
    def binary(self) -> bool:
        """Every value 0 or 1 (an accuracy): its variance at a rate p is p(1 − p)."""
        return all(s.value in (0.0, 1.0) for s in self.samples.values())

    def share(self, flag: str) -> float:
        """The share of samples whose answer could not be read (``unreadable``) or was decided by a repair or a
        fallback rule (``repaired``)."""
        return sum(getattr(s, flag) for s in self.samples.values()) / max(len(self.samples), 1)

    @property
    def reason(self) -> str | None:
        """The most common reason an answer could not be read."""
        reasons = Counter(s.reason for s in self.samples.values() if s.unreadable and s.reason)
        return reasons.most_common(1)[0][0] if reasons else None

    @property
    def chance(self) -> float | None:
        levels = [s.chance for s in self.samples.values()]
        if not levels or any(c is None for c in levels):
            return None
        return sum(levels) / len(levels)  # type: ignore[arg-type]


def combined_digest(digests: set[str]) -> str | None:
    """One run's data hash as it is; several runs' (subjects, files) as the first 12 hex digits of the SHA-256 of
    their sorted hashes, so a row still names exactly which data it pooled."""
    if len(digests) <= 1:
        return next(iter(digests), None)
    return hashlib.sha256(",".join(sorted(digests)).encode()).hexdigest()[:12]


PoolKey = tuple[str, str, str, str]
"""(benchmark, model identity, setting, data): the runs one leaderboard row pools."""
Models = Mapping[tuple[str, str], tuple[str, dict[str, Any]]]
"""(benchmark, model identity) -> (model name, model arguments): every model the runs of a benchmark used."""


def labels_by_benchmark(models: Models) -> dict[tuple[str, str], str]:
    """(benchmark, identity) -> how the report names the model: by what sets its arguments apart from those of the
    same model's other runs on that benchmark (rows of other benchmarks are never compared with them, so a replay
    file on one benchmark leaves another benchmark's lone replay named ``mechbench/replay``)."""
    by_benchmark: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {}
    for (benchmark, identity), model in models.items():
        by_benchmark.setdefault(benchmark, {})[identity] = model
    return {
        (benchmark, identity): label
        for benchmark, own in by_benchmark.items()
        for identity, label in model_labels(own).items()
    }


def _leaderboard(
    pools: dict[PoolKey, _Pool], models: Models, labels: Mapping[tuple[str, str], str]
) -> tuple[list[dict[str, Any]], dict[RowKey, list[Observation]]]:
    """The rows, and each row's observations by its key. ``labels``: (benchmark, identity) -> how the report names
    the model."""
    rows = []
    observations: dict[RowKey, list[Observation]] = {}
    for (benchmark, identity, setting, data), pool in sorted(pools.items()):
        observed = pool.observations()
        found = clustered_interval(observed)
        digest = combined_digest(pool.digests)
        entry = registry.spec(benchmark)
        model, model_args = models.get((benchmark, identity), (identity, {}))
        published = entry.report.published(model, digest) if entry else None
        row = {
            "benchmark": benchmark,
            "model": labels.get((benchmark, identity), identity),
            "model_name": model,
            "model_args": model_args,
            "metric": pool.metric,
            "value": found.mean,
            "ci95": found.half,
            "se": found.se,
            "naive_ci95": found.naive_half,
            "samples": found.samples,
            "answers": len(pool.samples),
            "clusters": found.clusters,
            "df": found.df,
            "cluster_unit": entry.cluster.unit if entry is not None and entry.cluster is not None else "sample",
            "unclustered": pool.unclustered,
            "epochs": found.epochs,
            "run_to_run": found.run_to_run,
            "repeats": pool.repeats,
            "unreadable": pool.share("unreadable"),
            "repaired": pool.share("repaired"),
            "unreadable_reason": pool.reason,
            "chance": pool.chance,
            "runs": pool.runs,
            "setting": setting,
            "data": data,
            "data_sha256": digest,
            "published": published[0] if published else None,
            "published_note": published[1] if published else None,
            "left_out": len(pool.left_out),
            "left_out_note": pool.left_out_note,
        }
        row |= {"design_effect": found.design_effect, "binary": pool.binary}
        rows.append({**row, **published_against(row, found, pool.binary)})
        observations[row_key(row)] = observed
    return rows, observations


def reference_intervals(references: list[dict[str, Any]], board: list[dict[str, Any]]) -> None:
    """A published result of another model, with no interval of its own, gets one computed on our runs' items and
    clusters (the largest set of its benchmark measured on the same metric): p(1 − p) over those items, widened by the
    median design effect of our rows there. Rates only (a score that is not right/wrong has no such formula)."""
    for reference in references:
        ours = [
            r
            for r in board
            if r["benchmark"] == reference["benchmark"]
            and r["metric"] == reference.get("metric")
            and r["binary"]
            and math.isfinite(r["design_effect"])
        ]
        value = reference.get("value")
        if not ours or not isinstance(value, int | float) or not 0 <= value <= 1:
            continue
        base = max(ours, key=lambda r: r["samples"])
        effect = statistics.median(r["design_effect"] for r in ours if r["samples"] == base["samples"])
        half = t_quantile(base["df"]) * math.sqrt(value * (1 - value) / base["samples"] * effect)
        reference["published_ci95"] = half
        reference["published_interval_note"] = (
            f"on {base['samples']} items in {base['clusters']} {plural(base['cluster_unit'])}, with the design effect "
            f"{effect:.2g} of our runs there"
        )


def published_against(row: dict[str, Any], found: Interval, binary: bool) -> dict[str, Any]:
    """Where a published number stands beside ours: its interval (the publisher gave none, so it is computed on the
    same items and clusters: p(1 − p) with our design effect for an accuracy, our own spread otherwise), whether ours
    lies in it and whether it lies in ours."""
    published = row["published"]
    if published is None or not math.isfinite(found.half):
        return {"published_ci95": None, "ours_in_published": None, "published_in_ours": None}
    if binary and found.samples > 1 and math.isfinite(found.design_effect):
        half = t_quantile(found.df) * math.sqrt(published * (1 - published) / found.samples * found.design_effect)
    else:
        half = found.half
    gap = abs(found.mean - published)
    return {"published_ci95": half, "ours_in_published": gap <= half, "published_in_ours": gap <= found.half}


def _references(benchmark: str, runs: list[Run]) -> list[dict[str, Any]]:
    entry = registry.spec(benchmark)
    if entry is None:
        return []
    return [
        {
            "benchmark": benchmark,
            "ci95": math.nan,
            "samples": None,
            "runs": None,
            "published": row["value"],
            "published_note": row.get("note"),
            "reference": True,
            **row,
        }
        for row in entry.report.references(runs)
    ]


def _non_finite_headline(entry: registry.BenchmarkSpec, sample: Any) -> tuple[str, float, float] | None:
    """The headline of a sample whose score is a number that is not finite (benchmarks' headlines pass NaN by as
    unscored, and an infinite one would poison every interval): the metric it counts under, value NaN; None for any
    other sample."""
    score = registry.first_score(sample)
    value = getattr(score, "value", None)
    if not isinstance(value, int | float) or math.isfinite(value):
        return None
    stand_in = sample.model_copy(
        update={"scores": {k: v.model_copy(update={"value": 0.0}) for k, v in (sample.scores or {}).items()}}
    )
    found = entry.report.headline(stand_in)
    return None if found is None else (found[0], math.nan, found[2])


def _headlines(entry: registry.BenchmarkSpec, log: EvalLog) -> list[tuple[str, tuple[str, str, int], Scored | None]]:
    """(metric, the sample's key, its part) of every scored sample of ``log``; the part None for a sample whose
    score is not a finite number (left out with that reason)."""
    out: list[tuple[str, tuple[str, str, int], Scored | None]] = []
    for sample in log.samples or []:
        headline = entry.report.headline(sample) or _non_finite_headline(entry, sample)
        if headline is None:
            continue
        metric, value, weight = headline
        key = (str(log.eval.task), str(sample.id), int(getattr(sample, "epoch", 1) or 1))
        if not (finite(value) and finite(weight)):
            out.append((metric, key, None))
            continue
        meta = getattr(registry.first_score(sample), "metadata", None) or {}
        score = registry.first_score(sample)
        unreadable = bool(meta.get("unreadable"))
        explained = str(shown(getattr(score, "explanation", None) or "")).strip().splitlines() if unreadable else []
        reason = explained[0][:MAX_REASON_CHARS] if explained else None
        cluster = (sample.metadata or {}).get(entry.cluster.key) if entry.cluster is not None else None
        part = Scored(
            value,
            weight,
            entry.report.chance(sample),
            unreadable,
            bool(meta.get("repaired")),
            reason,
            None if cluster is None else str(cluster),
        )
        out.append((metric, key, part))
    return out


MAX_LOG_BYTES = 512 * 1024**2
"""Bytes a log may take once inflated for the report to read it (a 10,000-sample run with images takes ~300 MB)."""


def oversized_log(name: str) -> str | None:
    """Why the log at ``name`` may not be read (None when it may): not a regular file, or larger than
    :data:`MAX_LOG_BYTES` once inflated. A ``.eval`` log's members are inflated as a stream with a hard cap before
    Inspect reads them (:func:`mechbench.core.log_archive.inflation_problem`): the sizes its directory declares are
    not trusted."""
    import os
    import stat

    from mechbench.core.log_archive import inflation_problem

    path = name.removeprefix("file://")
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        return f"cannot be read ({type(error).__name__})"
    if not stat.S_ISREG(mode):
        return "not a regular file"
    if path.endswith(".eval"):
        return inflation_problem(path, MAX_LOG_BYTES)
    size = os.stat(path).st_size
    if size > MAX_LOG_BYTES:
        return f"{size} bytes, more than the {MAX_LOG_BYTES} the report reads from one log"
    return None


def setting_labels(settings: dict[str, set[str]]) -> dict[tuple[str, str], str]:
    """(model, setting) -> how the model is named in figures and tables: the model alone when it ran in one setting,
    else the model with what sets this setting apart from its others (``gpt-4o [tools (budget 8)]``)."""
    labels = {}
    for model, several in settings.items():
        parts = [set(s.split(", ")) for s in several]
        shared, every = (set.intersection(*parts), set.union(*parts)) if parts else (set(), set())
        for setting in several:
            own = setting.split(", ")
            apart = [part for part in own if part not in shared]
            if len(several) == 1:
                labels[(model, setting)] = model
            elif apart:
                labels[(model, setting)] = f"{model} [{', '.join(apart)}]"
            else:  # everything it has, the others have too: it is set apart by what it lacks
                labels[(model, setting)] = f"{model} [without {', '.join(sorted(every - set(own)))}]"
    return labels


def split_by_setting(
    collected: list[tuple[Run, str, dict[str, list[dict[str, Any]]]]],
    names: Mapping[tuple[str, str], str] | None = None,
) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Every benchmark's table rows, merged over runs (oldest first) as the leaderboard is: a model's rows from
    different settings carry the setting in their model label, so no figure or table pools them; a row naming a
    sample (``id``) scored again by a later run of the same label keeps only the latest. ``names``: how the report
    names each run's model ((benchmark, identity) -> its label, :func:`labels_by_benchmark`), so that two models of
    one name (two replay files, two seeds) stay two in every table and figure."""
    names = names or {}
    settings: dict[tuple[str, str], set[str]] = {}
    for run, setting, _ in collected:
        settings.setdefault((run.benchmark, names.get((run.benchmark, run.model), run.model)), set()).add(setting)
    sections: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for run, setting, rows in collected:
        model = names.get((run.benchmark, run.model), run.model)
        label = setting_labels({model: settings[(run.benchmark, model)]})[(model, setting)]
        section = sections.setdefault(run.benchmark, {})
        for table, table_rows in rows.items():
            section.setdefault(table, []).extend(
                {**row, "model": label, "model_name": model, "setting": setting}
                if row.get("model") == run.model
                else row
                for row in table_rows
            )
    for section in sections.values():
        for table, table_rows in section.items():
            if any("id" in row for row in table_rows):
                latest = {(row.get("model"), row.get("id"), row.get("epoch")): row for row in table_rows}
                section[table] = [row for row in table_rows if "id" not in row] + [
                    row for row in latest.values() if "id" in row
                ]
    return sections


PARALLEL_FROM = 40
"""Logs from which the report reads them on every core (below it a worker's start costs more than it saves)."""


@dataclass
class _Digest:
    """What the report keeps of one run (a panel run gives one per model): where it came from and either why it is
    left out or its run, setting, headline samples and table rows. Plain data, so a worker process can send it."""

    location: str
    skip: str | None = None
    run: Run | None = None
    known: bool = False
    setting: str = ""
    headlines: list[tuple[str, tuple[str, str, int], Scored | None]] = field(default_factory=list)
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def _digests(location: str, log: EvalLog | str, tables: bool = True) -> list[_Digest]:
    """The digests of one log (or of why it could not be read): everything it gives is read before any is kept, so
    an odd log leaves no half."""
    if isinstance(log, str):
        return [_Digest(location, skip=log)]
    out = []
    for view in member_views(log):  # a panel run (several built-in models in one run): one run per model
        if view.status != "success" or view.results is None:
            out.append(_Digest(location, skip=f"status {view.status}"))
            continue
        try:
            run = _run(view, location)
            entry = registry.spec(run.benchmark)
            digest = _Digest(location, run=run, known=entry is not None)
            if entry is not None:
                digest.setting = str(shown(entry.report.setting(view.eval.task_args or {}, view.eval.metadata or {})))
                digest.headlines = _headlines(entry, view)
                digest.rows = entry.report.rows(view, run) if tables else {}
        except Exception as error:
            out.append(_Digest(location, skip=f"cannot be reported ({type(error).__name__}: {shown(str(error))})"))
            continue
        out.append(digest)
    return out


def _read_digests(job: tuple[str, bool]) -> list[_Digest]:
    """The digests of the log at ``job[0]`` (``job[1]``: with table rows), read within the report's limits: a log
    too large or broken is a digest saying why, never an error."""
    location, tables = job
    too_large = oversized_log(location)
    if too_large is not None:
        return [_Digest(location, skip=too_large)]
    try:
        log = read_eval_log(location)
    except Exception as error:  # a broken log is listed as left out, never fatal to the report
        return [_Digest(location, skip=type(error).__name__)]
    return _digests(location, log, tables)


def _logs_in(log_dir: str | Path) -> list[str]:
    """Every log under ``log_dir``, oldest first (a sample scored again by a later run keeps its latest score)."""
    infos = sorted(list_eval_logs(str(log_dir)), key=lambda info: (getattr(info, "mtime", 0) or 0, info.name))
    return [info.name for info in infos]


def digests_in(log_dir: str | Path, tables: bool = True) -> list[_Digest]:
    """The digests of every log under ``log_dir``, in order; read on every core when there are many (reading is
    most of a large report's time: Inspect takes about 60 ms a log)."""
    from mechbench.core.executor import run_batch, usable_cores

    jobs = [(location, tables) for location in _logs_in(log_dir)]
    if len(jobs) < PARALLEL_FROM or usable_cores() == 1:
        done = [_read_digests(job) for job in jobs]
    else:
        done = run_batch(_read_digests, jobs, workers=usable_cores(), chunk_size=10)
    return [digest for per_log in done for digest in per_log]


@dataclass
class _Collected:
    """What the logs hold, read once: the runs, the logs left out, the leaderboard's pools, each run's table rows and
    every model's identity (its name and model arguments)."""

    runs: list[Run] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    pools: dict[PoolKey, _Pool] = field(default_factory=dict)
    collected: list[tuple[Run, str, dict[str, list[dict[str, Any]]]]] = field(default_factory=list)
    models: dict[tuple[str, str], tuple[str, dict[str, Any]]] = field(default_factory=dict)


def _collect(digests: Iterable[_Digest]) -> _Collected:
    """Every run of ``digests``, in order, each looked at once (``digests`` may be a generator: nothing is kept of
    a log but what the report shows)."""
    out = _Collected()
    for digest in digests:
        name = shown(digest.location)
        if digest.skip is not None or digest.run is None:
            out.skipped.append(f"{name}: {digest.skip}")
            continue
        run = digest.run
        out.runs.append(run)
        out.models[(run.benchmark, run.model)] = (run.model_name, run.model_args)
        if not digest.known:  # another package's task: listed with the runs, no leaderboard of its own
            continue
        touched: set[PoolKey] = set()
        for metric, sample_key, part in digest.headlines:
            key = (run.benchmark, run.model, digest.setting, run.data)
            if key in out.pools and out.pools[key].metric != metric:  # with and without physics (SPhyR): never one row
                key = (run.benchmark, run.model, f"{digest.setting} ({metric})", run.data)
            pool = out.pools.setdefault(key, _Pool(metric))
            if part is None:
                pool.leave_out(sample_key, str(name))
            else:
                pool.add(sample_key, part)
            touched.add(key)
        for key in touched:
            out.pools[key].runs += 1
            if run.data_sha256:
                out.pools[key].digests.add(run.data_sha256)
        out.collected.append((run, digest.setting, digest.rows))
    return out


def _given(given: Iterable[tuple[str, EvalLog | str]], tables: bool) -> Iterator[_Digest]:
    """The digests of logs already read (or of why they could not be), one log at a time."""
    for location, log in given:
        yield from _digests(location, log, tables)


def leaderboard_of(
    given: Iterable[tuple[str, EvalLog | str]],
) -> tuple[list[dict[str, Any]], dict[RowKey, list[Observation]]]:
    """The leaderboard rows of ``given`` logs (as :func:`build_report` reads them) and each row's observations by its
    key, without the benchmarks' tables or any comparison: what a plan measures its spread on."""
    found = _collect(_given(given, tables=False))
    return _leaderboard(found.pools, found.models, labels_by_benchmark(found.models))


def build_report(
    log_dir: str | Path, logs: list[EvalLog] | None = None, digests: list[_Digest] | None = None
) -> Report:
    """Read every Inspect log under ``log_dir`` (any models, any benchmarks), or report ``logs`` as given (logs just
    returned by ``inspect_ai.eval``, in the order they ran: nothing is read twice), or ``digests`` already read from
    ``log_dir`` (:func:`digests_in`). A calibration ``mechbench calibrate items`` stored in ``log_dir`` adds each
    row's ability on its set (:mod:`mechbench.report.calibrated`).

    A log that cannot be read, did not finish, or holds something its benchmark's report cannot use is listed
    under the logs left out, with the reason; the others are reported.
    """
    if logs is not None:
        found = _collect(_given(((log.location, log) for log in logs), True))
    else:
        found = _collect(digests_in(log_dir) if digests is None else digests)
    names = labels_by_benchmark(found.models)
    sections = split_by_setting(found.collected, names)
    for run in found.runs:
        run.model = names.get((run.benchmark, run.model), run.model)
    for benchmark, section in sections.items():
        entry = registry.spec(benchmark)
        if entry is not None:
            section.update(entry.report.derived(section))
    references = [
        row
        for benchmark in sections
        for row in _references(benchmark, [r for r in found.runs if r.benchmark == benchmark])
    ]
    board, observations = _leaderboard(found.pools, found.models, names)
    reference_intervals(references, board)
    labels = row_labels(board)
    scope: list[dict[str, Any]] = []
    pairs = compare_rows(board, observations, labels, scope)
    ranks(board, pairs, labels, scope)
    from mechbench.report.calibrated import calibrated_abilities, find_calibrations

    calibrations, refused = find_calibrations(log_dir)
    report = Report(
        runs=found.runs,
        leaderboard=board + references,
        benchmarks=sections,
        skipped_logs=[*found.skipped, *refused],
        settings_compared=settings_compared(board, pairs),
        comparisons=pairs,
        shortcut_panels=shortcut_panels(board),
        comparison_scope=scope,
        calibrated_abilities=calibrated_abilities(board, lambda row: observations.get(row_key(row), []), calibrations),
    )
    report._observations = observations
    return report


def row_labels(board: list[dict[str, Any]]) -> dict[RowKey, str]:
    """How each leaderboard row is named in comparisons: the model, with what sets its setting apart where the model
    has several (and its data where it ran on several)."""
    labels: dict[RowKey, str] = {}
    for benchmark in {r["benchmark"] for r in board}:
        rows = [r for r in board if r["benchmark"] == benchmark]
        settings: dict[str, set[str]] = {}
        for row in rows:
            settings.setdefault(row["model"], set()).add(row["setting"])
        named = setting_labels(settings)
        for row in rows:
            labels[row_key(row)] = named[(row["model"], row["setting"])]
    return labels


SHORTCUT_Z = 2.0
"""A shortcut beats chance when its score exceeds the chance level by more than this many standard errors."""
COIN = "mechbench/random"
"""The seeded coin of every panel: its expected score is chance on any set, so its distance from chance is the noise
of one draw (about one set in forty lands past 2 SE), shown beside the shortcuts as the yardstick, never as one."""


def panel_verdict(row: dict[str, Any]) -> str:
    """What one shortcut-panel row says about the set, in words."""
    if row.get("chance") is None:
        return "no chance level: compare with the leaderboard"
    if row.get("model_name", row["model"]) == COIN:
        return "a draw around chance (its expected score is chance)"
    return "BEATS CHANCE (by more than 2 SE)" if row["beats_chance"] else "within chance"


def shortcut_panels(board: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per benchmark, the leaderboard rows of its shortcut panel (the built-in models that answer without the
    skill), each with its chance level and whether it beats chance by more than two standard errors."""
    panels: dict[str, list[dict[str, Any]]] = {}
    for entry in registry.specs():
        names = {f"mechbench/{name}" for name in entry.shortcuts}
        rows = [r for r in board if r["benchmark"] == entry.name and r.get("model_name", r["model"]) in names]
        for row in rows:
            chance, error = row.get("chance"), row["se"]
            beats = chance is not None and error == error and row["value"] - chance > SHORTCUT_Z * error
            row = {**row, "beats_chance": beats and row.get("model_name", row["model"]) != COIN}
            row["verdict"] = panel_verdict(row)
            panels.setdefault(entry.name, []).append(row)
        if entry.shortcuts and entry.name not in panels:
            panels[entry.name] = []
    return panels
