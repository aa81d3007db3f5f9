"""Adaptive StructuralEval (``-T adaptive=true``): drawings generated at the estimated ability; the built-in models sit
at the bottom of the level scale and the ground truth past its top, apart with confidence, and the report shows the
abilities beside the accuracies, never pooled with them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.core.errors import UsageError
from mechbench.harness.adaptive import ABILITY_METRIC
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import structural_eval


@pytest.mark.slow
def test_built_in_models_sit_at_the_bottom_and_the_truth_past_the_top(tmp_path: Path) -> None:
    from mechbench.harness.panel import panel_task
    from mechbench.report import build_report

    panel = ["mechbench/random", "mechbench/template"]
    task = structural_eval(adaptive=True, budget=10)
    logs = inspect_eval(panel_task(task, panel), model=panel[0], log_dir=str(tmp_path), **QUIET_EVAL)
    logs += inspect_eval(structural_eval(adaptive=True, budget=10, oracle=True), model="mechbench/random",
                         log_dir=str(tmp_path), **QUIET_EVAL)  # fmt: skip
    (session,) = logs[-1].samples or []
    asked = next(iter(session.scores.values())).metadata["items"]
    levels = [a["level"] for a in asked]  # from the prior's level up to the top, every drawing right
    assert levels[0] == 5 and levels == sorted(levels) and levels[-1] == 10 and all(a["share"] == 1 for a in asked)
    report = build_report(tmp_path, logs=logs)
    found = {row["model"]: row for row in report.benchmarks["structural_eval"]["ability"]}
    for model in panel:
        assert found[model]["high"] < 2.0 and found[model]["items"] == 10, found[model]
    (truth,) = [row for name, row in found.items() if name.startswith("oracle")]
    assert truth["low"] > 10.0
    pairs = report.benchmarks["structural_eval"]["ability_pairs"]
    assert all(p["p"] < 1e-6 for p in pairs if "oracle" in p["a"] + p["b"])
    data = json.loads(report.model_dump_json())
    rows = [row for row in data["leaderboard"] if row["benchmark"] == "structural_eval"]
    assert rows and all(row["metric"] == ABILITY_METRIC for row in rows)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"data": "bundled"}, "generates its drawings"),
        ({"tools": True}, "without tools"),
        ({"protocol": "official"}, "mechbench's protocol"),
        ({"budget": 0}, "1 <= budget <= 200"),
        ({"target_se": 0}, "0 < target_se < 5"),
    ],
)
def test_adaptive_settings_it_cannot_honour_are_refused(args: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        structural_eval(adaptive=True, **args)
