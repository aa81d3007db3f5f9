"""The registry of benchmarks: one plug-in per benchmark, found by discovery, named nowhere else.

Each benchmark is one package under :mod:`mechbench.benchmarks` whose ``spec`` module calls :func:`register` with
its :class:`BenchmarkSpec`: its task, its report (headline, tables, figures, published numbers, glossary), its
built-in baselines and the recorded-reply formats it reads, and its part of the demo. The report, the built-in
models, the demo and the listing tests iterate :func:`specs`; none of them imports a benchmark, so adding a fifth
benchmark means writing one folder.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mechbench.core.errors import UsageError
from mechbench.registry.training import Trainer

BENCHMARKS_PACKAGE = "mechbench.benchmarks"


@dataclass(frozen=True)
class Baseline:
    """A built-in model's answers for one benchmark: ``answer(prompt, seed, context) -> reply``.

    ``context`` holds the first user message's metadata and the model's arguments (``-M name=value``);
    ``accepts(prompt)`` says whether a prompt is this benchmark's (a baseline serving several benchmarks is
    dispatched by it).
    """

    name: str
    benchmark: str
    answer: Callable[[str, int, Mapping[str, Any]], str]
    accepts: Callable[[str], bool]
    description: str


@dataclass(frozen=True)
class ReplayReader:
    """A benchmark's own format of recorded replies (beside mechbench's JSONL): ``read(path) -> {key: replies}``
    for paths ``accepts(path)`` recognises."""

    accepts: Callable[[Path], bool]
    read: Callable[[Path], dict[str, list[str]]]


@dataclass(frozen=True)
class Cluster:
    """The unit a benchmark's samples cluster in (questions about one simulation, the subjects of one layout): answers
    within a cluster are correlated, so intervals and comparisons are computed over clusters (``docs/statistics.md``).
    Every sample's metadata carries the cluster's id under ``key``."""

    key: str
    """The sample metadata key holding the cluster's id (Inspect's ``stderr(cluster=key)`` reads the same)."""
    unit: str
    """What one cluster is, in a word or two: ``simulation``, ``layout``, ``drawing``."""


@dataclass(frozen=True)
class Column:
    """A column of a report table: the row key and its heading."""

    key: str
    heading: str


Rows = dict[str, list[dict[str, Any]]]
"""A benchmark's report data: named lists of rows (for example ``runs``, ``subjects``, ``ladder``)."""
Table = tuple[str, list[dict[str, Any]], list[Column]]
"""(title, rows, columns)."""
Picture = tuple[str, str, bytes | None]
"""(file name, caption, PNG bytes or None when there is nothing to draw)."""


def _nothing(*args: Any) -> list[Any]:
    return []


def _no_number(model: str, digest: str | None) -> None:
    return None


@dataclass(frozen=True)
class ReportSpec:
    """How the report shows a benchmark's runs.

    ``headline(sample)`` gives (metric, value, weight) for one sample (None: unscored); runs of one model with the
    same ``setting(task_args, metadata)`` and data pool into one leaderboard row with an interval over all their
    samples. ``rows(log, run)`` reads one run's rows (named lists, merged over runs); ``tables(rows)``,
    ``figures(rows)`` and ``folded(rows)`` (figures shown only on request) are drawn from the merged rows.
    ``published(model, data_sha256)`` is a published number measured the same way, as (value, note), or None;
    ``references(runs)`` are published results of other models to show beside the runs they compare with.
    ``glossary`` says what each number means.
    """

    headline: Callable[[Any], tuple[str, float, float] | None]
    setting: Callable[[Mapping[str, Any], Mapping[str, Any]], str]
    rows: Callable[[Any, Any], Rows] = lambda log, run: {}
    derived: Callable[[Rows], Rows] = lambda rows: {}
    """Tables computed from the rows once they are merged over runs (means over distinct samples)."""
    tables: Callable[[Rows], list[Table]] = _nothing
    figures: Callable[[Rows], list[Picture]] = _nothing
    folded: Callable[[Rows], list[Picture]] = _nothing
    published: Callable[[str, str | None], tuple[float, str] | None] = _no_number
    references: Callable[[list[Any]], list[dict[str, Any]]] = _nothing
    glossary: tuple[tuple[str, str], ...] = ()
    folded_title: str = "figures kept as evidence"
    """What the folded figures show, in a few words."""
    chance: Callable[[Any], float | None] = lambda sample: None
    """A sample's chance level (one over its number of choices), where its score has one."""


@dataclass(frozen=True)
class BenchmarkSpec:
    """Everything mechbench knows about one benchmark, in one place."""

    name: str
    title: str
    task: Callable[..., Any]
    report: ReportSpec
    listing: Path | None = None
    """Its ``eval.yaml`` (Inspect's community register entry)."""
    baselines: tuple[Baseline, ...] = ()
    replay_readers: tuple[ReplayReader, ...] = ()
    demo: Callable[[Path, Mapping[str, Any], Callable[[str], None]], list[Any]] | None = None
    """``demo(out, eval_kwargs, step)``: run this benchmark's part of ``mechbench demo`` offline, return its logs."""
    demo_models: str = ""
    """The models the demo runs on this benchmark, in a few words."""
    order: int = 100
    """Where the benchmark comes in listings and the report (smaller first)."""
    tools: tuple[str, ...] = ()
    """The names of the tools its tool setting (``-T tools=true``) offers."""
    tool_script: Callable[[str, Sequence[str], Mapping[str, Any]], tuple[str, dict[str, str]]] | None = None
    """``mechbench/tool-demo``'s next call, ``(tool, arguments)``, from the prompt, the tools called so far and a
    context (``answers``: recorded answers, ``results``: the tool results so far); ``submit`` ends it."""
    exports: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    """Further public callables :mod:`mechbench.tasks` offers (for example a suite of tasks)."""
    shortcuts: tuple[str, ...] = ()
    """The built-in models that answer without the skill (first choice, always True, a prior, the question alone, a
    keyword reader, a template): the panel ``mechbench validate <name> --shortcuts`` runs and the report shows."""
    shortcut_prior: str = ""
    """What its shortcut models learn their prior from when ``-M prior=PATH`` (``validate --prior``) names one, in a
    few words; empty when they learn none (``--prior`` is then refused, never ignored)."""
    oracle_metric: str = "accuracy"
    """The metric of the task's log that the oracle (``-T oracle=true``) brings to 1, the top of the scale."""
    aliases: tuple[str, ...] = ()
    """Other names ``mechbench eval`` takes for the task (``structural`` for ``structural_eval``)."""
    derives_from: str | None = None
    """The benchmark whose generated sets this one's can be written from (OpenSeeSimE from SeeSim's)."""
    derive: Callable[[Path, Path], str] | None = None
    """``derive(source_set, out)``: write this benchmark's set from a generated set of :attr:`derives_from` into
    ``out``; returns one line saying what it wrote (``mechbench generate <derives_from>`` calls it)."""
    sees: str = ""
    """What the model is shown and what it answers, in a few words (the README's table of benchmarks)."""
    scored_by: str = ""
    """What decides the score, in a few words."""
    needs: str = ""
    """What a model must take in (images, video, text only)."""
    chance: str = ""
    """The headline's chance level in words (the validity page's shortcut panels): ``1/2``, or why there is none."""
    cluster: Cluster | None = None
    """The unit its samples cluster in; a benchmark without one fails ``check_benchmark``."""
    trainer: Trainer | None = None
    """Its items and rewards for training (:mod:`mechbench.training`), where it generates items."""


_SPECS: dict[str, BenchmarkSpec] = {}
_DISCOVERED = False


def register(spec: BenchmarkSpec) -> BenchmarkSpec:
    """Add a benchmark (its ``spec`` module calls this when imported)."""
    _SPECS[spec.name] = spec
    return spec


def discover() -> None:
    """Import every benchmark package's ``spec`` module (once)."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    package = importlib.import_module(BENCHMARKS_PACKAGE)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.ispkg:
            try:
                importlib.import_module(f"{BENCHMARKS_PACKAGE}.{info.name}.spec")
            except ModuleNotFoundError as error:
                if error.name != f"{BENCHMARKS_PACKAGE}.{info.name}.spec":
                    raise
    _DISCOVERED = True


def specs() -> list[BenchmarkSpec]:
    """Every registered benchmark, in its listing order."""
    discover()
    return sorted(_SPECS.values(), key=lambda entry: (entry.order, entry.name))


def spec(name: str) -> BenchmarkSpec | None:
    """The benchmark called ``name`` (None if there is none)."""
    discover()
    return _SPECS.get(name)


def baselines() -> dict[str, list[Baseline]]:
    """The built-in baselines by name (a name may serve several benchmarks)."""
    out: dict[str, list[Baseline]] = {}
    for entry in specs():
        for baseline in entry.baselines:
            out.setdefault(baseline.name, []).append(baseline)
    return out


REPLAY = "replay"
"""The built-in model that answers every benchmark from recorded replies."""
TOOL_DEMO = "tool-demo"
"""The scripted agent of the tool setting: calls each of the task's tools, then submits (no key, no network)."""


def built_in_models(benchmark: str) -> list[str]:
    """The built-in models that answer ``benchmark`` (without ``mechbench/``): its baselines, the tool setting's
    scripted agent where it has one, and replay."""
    entry = spec(benchmark)
    served = sorted(n for n, found in baselines().items() if any(b.benchmark == benchmark for b in found))
    return [*served, *([TOOL_DEMO] if entry is not None and entry.tool_script is not None else []), REPLAY]


def replay_readers() -> list[ReplayReader]:
    """Every benchmark's own recorded-reply formats."""
    return [reader for entry in specs() for reader in entry.replay_readers]


def _active_model() -> Any:
    try:  # Inspect's model of the evaluation being set up (not exported; absent → no check)
        from inspect_ai.model._model import active_model

        return active_model()
    except (ImportError, LookupError):
        return None


def check_builtin_model(benchmark: str) -> None:
    """Refuse, before any sample runs, a built-in baseline that cannot answer ``benchmark``'s prompts."""
    name = getattr(getattr(_active_model(), "api", None), "mechbench_baseline", None)
    known = baselines()
    if name not in known:
        return
    serves = sorted({b.benchmark for b in known[name]})
    if benchmark not in serves:
        able = ", ".join(f"mechbench/{n}" for n in built_in_models(benchmark))
        raise UsageError(
            f"mechbench/{name} answers {', '.join(serves)} prompts only, not {benchmark}; built-in models for "
            f"{benchmark}: {able}"
        )


def first_score(sample: Any) -> Any:
    """A logged sample's (first) score, or None when it was not scored."""
    return next(iter(sample.scores.values())) if getattr(sample, "scores", None) else None


def run_row(run: Any, counts: Sequence[str] = (), **extra: Any) -> dict[str, Any]:
    """The row every benchmark's run table starts from: the model, the run's metrics, its sample count. The metrics
    named in ``counts`` count replies: whole numbers, never printed as 5.000 among shares."""
    row = {"model": run.model, **run.metrics, "samples": run.samples, **extra}
    for name in counts:
        if isinstance(row.get(name), float) and row[name].is_integer():
            row[name] = int(row[name])
    return row


def accuracy_headline(sample: Any) -> tuple[str, float, float] | None:
    """The headline of benchmarks scored right or wrong per sample: accuracy, every sample weighted alike."""
    score = first_score(sample)
    if score is None or not isinstance(score.value, int | float) or math.isnan(float(score.value)):
        return None
    return "accuracy", float(score.value), 1.0
