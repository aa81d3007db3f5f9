"""SeeSim's shortcut panel as one run scores what each model scores alone, in every modality (video as frames asks
the active model once per frame: each member must be the one asked)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.seesim.protocol import MODALITIES
from mechbench.harness.panel import member_views, panel_task
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import seesim

MODELS = ["mechbench/always-true", "mechbench/always-false", "mechbench/random"]


def _answers(log) -> dict[str, list]:
    return {str(s.id): [(v.value, v.answer) for v in s.scores.values()] for s in log.samples}


@pytest.mark.parametrize("modality", MODALITIES)
def test_a_panel_run_answers_and_scores_as_each_model_alone(modality: str, tmp_path: Path) -> None:
    (panel,) = inspect_eval(
        panel_task(seesim(data="bundled", modality=modality), MODELS), model=MODELS[0], log_dir=str(tmp_path), limit=6,
        **QUIET_EVAL,
    )  # fmt: skip
    alone = inspect_eval(seesim(data="bundled", modality=modality), model=MODELS, log_dir=str(tmp_path), limit=6,
                         **QUIET_EVAL)  # fmt: skip
    views = {view.eval.model: view for view in member_views(panel)}
    for log in alone:
        assert _answers(views[log.eval.model]) == _answers(log), (modality, log.eval.model)
        assert set(views[log.eval.model].stats.model_usage) == {log.eval.model}  # each member's calls its own
