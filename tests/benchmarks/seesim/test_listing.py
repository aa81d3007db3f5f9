"""SeeSim's eval.yaml names the publishers' repository and the commit the code pins, counts the published questions
right, and the oracle reaches the top of every scale without calling a model."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import eval as inspect_eval

from mechbench import registry, tasks
from mechbench.benchmarks.seesim.dataset import DEFAULT_REVISION, OFFICIAL_REPOSITORY
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.registry.listing import read_listing


def _listing_path() -> Path:
    entry = registry.spec("seesim")
    assert entry is not None and entry.listing is not None
    return entry.listing


def test_the_listing_names_the_publishers_repository_and_pinned_commit() -> None:
    text = _listing_path().read_text()
    assert OFFICIAL_REPOSITORY in text and f"commit {DEFAULT_REVISION}" in text


def test_the_listed_counts_match_the_published_data(published_seesim: Path) -> None:
    for entry in read_listing(_listing_path()).tasks:
        task = tasks.seesim(data=str(published_seesim), **entry.args)
        assert len(task.dataset) == entry.dataset_samples, entry


def test_the_oracle_reaches_the_top_of_each_scale(seesim_data: Path, tmp_path: Path) -> None:
    task = tasks.seesim(data=str(seesim_data), modality="text", oracle=True)
    (log,) = inspect_eval(task, model="mockllm/model", log_dir=str(tmp_path), **QUIET_EVAL)
    values = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    assert values["accuracy"] == values["consistency"] == 1.0
    assert values.get("validation_accuracy", 1.0) == 1.0  # where the set asks a validation question
    assert log.stats.model_usage == {}  # no model was called
