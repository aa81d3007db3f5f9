"""Adaptive HandCalc: on simulated responders of known ability the interval holds the truth as often as it says, with
fewer items than a fixed set needs for the same standard error; in real runs the built-in models sit at the bottom
of the level scale and the ground truth at the top, and the report shows abilities beside accuracies."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.hand_calc import adaptive
from mechbench.core.irt import Ability, probability
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import hand_calc

DRAWS = 500
TARGET_SE = 0.5


def _session(rng: np.random.Generator, theta: float, fixed: bool) -> tuple[Ability, int]:
    """A simulated responder of ability ``theta`` answering items at the adaptive rule's levels (or a fixed set's,
    every level equally often in a random order) until the standard error reaches :data:`TARGET_SE`."""
    order = rng.permutation(np.tile(np.arange(1, 11), 30))
    running = adaptive.posterior()
    found = running.summary()
    for step in range(300):
        level = int(order[step]) if fixed else adaptive.next_level(found.theta)
        found = adaptive.record(
            running, level, float(rng.random() < probability(theta, adaptive.DISCRIMINATION, level))
        )
        if found.se <= TARGET_SE:
            break
    return found, found.items


def test_on_simulated_responders_the_interval_holds_and_fewer_items_are_asked() -> None:
    rng = np.random.default_rng(65)
    held, asked, fixed_asked = 0, [], []
    for _ in range(DRAWS):
        theta = rng.normal(*adaptive.PRIOR)
        found, items = _session(rng, theta, fixed=False)
        held += found.low <= theta <= found.high
        asked.append(items)
        fixed_asked.append(_session(rng, theta, fixed=True)[1])
    assert 0.93 <= held / DRAWS <= 0.97
    # Measured at a = 1 per level: the adaptive rule needs about 0.41 of a fixed set's items (docs/statistics.md).
    assert np.mean(asked) <= 0.5 * np.mean(fixed_asked)


@pytest.mark.slow
def test_built_in_models_sit_at_the_bottom_and_the_truth_at_the_top(tmp_path: Path) -> None:
    from mechbench.harness.panel import panel_task
    from mechbench.report import build_report

    panel = ["mechbench/zero", "mechbench/largest-load", "mechbench/textbook", "mechbench/random"]
    task = hand_calc(adaptive=True, presentation="text", budget=20)
    logs = inspect_eval(panel_task(task, panel), model=panel[0], log_dir=str(tmp_path), **QUIET_EVAL)
    logs += inspect_eval(hand_calc(adaptive=True, presentation="text", budget=20, oracle=True),
                         model="mechbench/random", log_dir=str(tmp_path), **QUIET_EVAL)  # fmt: skip
    report = build_report(tmp_path, logs=logs)
    found = {row["model"]: row for row in report.benchmarks["hand_calc"]["ability"]}
    for model in panel:
        assert found[model]["high"] < 3.0, found[model]  # bottom of the scale: below level 3 with confidence
    (truth,) = [row for name, row in found.items() if name.startswith("oracle")]
    assert truth["low"] > 10.0  # past the top level
    pairs = report.benchmarks["hand_calc"]["ability_pairs"]
    assert all(p["p"] < 1e-6 for p in pairs if p["a"].startswith("oracle") or p["b"].startswith("oracle"))
    data = json.loads(report.model_dump_json())
    assert any(row["metric"] == adaptive.ABILITY_METRIC for row in data["leaderboard"])
