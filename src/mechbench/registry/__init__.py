"""The registry of benchmarks: one plug-in per benchmark, found by discovery, named nowhere else.

Each benchmark is one package under :mod:`mechbench.benchmarks` whose ``spec`` module calls :func:`register` with
its :class:`BenchmarkSpec`. The report, the built-in models, the demo, the command line and :mod:`mechbench.tasks`
iterate :func:`specs`; none of them imports a benchmark, so adding a benchmark means writing one folder.
"""

from mechbench.registry.specs import (
    BENCHMARKS_PACKAGE,
    REPLAY,
    TOOL_DEMO,
    Baseline,
    BenchmarkSpec,
    Cluster,
    Column,
    Picture,
    ReplayReader,
    ReportSpec,
    Rows,
    Table,
    accuracy_headline,
    baselines,
    built_in_models,
    check_builtin_model,
    discover,
    first_score,
    register,
    replay_readers,
    run_row,
    spec,
    specs,
)
from mechbench.registry.training import Reward, Trainer, TrainingItem

__all__ = [
    "BENCHMARKS_PACKAGE",
    "REPLAY",
    "TOOL_DEMO",
    "Baseline",
    "BenchmarkSpec",
    "Cluster",
    "Column",
    "Picture",
    "ReplayReader",
    "ReportSpec",
    "Reward",
    "Rows",
    "Table",
    "Trainer",
    "TrainingItem",
    "accuracy_headline",
    "baselines",
    "built_in_models",
    "check_builtin_model",
    "discover",
    "first_score",
    "register",
    "replay_readers",
    "run_row",
    "spec",
    "specs",
]
