"""The eval.yaml listing metadata agrees with the code: tasks, pinned revisions, sample counts, baselines."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import mechbench
from mechbench import registry, tasks
from mechbench.benchmarks.seesim.dataset import DEFAULT_REVISION as SEESIM_REVISION
from mechbench.benchmarks.seesim.dataset import OFFICIAL_REPOSITORY as SEESIM_REPOSITORY
from mechbench.benchmarks.sphyr.versions import UPSTREAM_REVISION
from mechbench.benchmarks.structural_eval.dataset import OFFICIAL_REVISION

ROOT = Path(mechbench.__file__).parent / "benchmarks"
REQUIRED = ("title", "description", "paper", "version", "tasks", "external_assets", "baselines", "sample_ids")


@pytest.mark.parametrize("family", [entry.name for entry in registry.specs()])
def test_listing_is_complete_and_names_real_tasks(family: str) -> None:
    entry = registry.spec(family)
    assert entry is not None and entry.listing is not None, f"{family} has no eval.yaml"
    listing = yaml.safe_load(entry.listing.read_text())
    assert all(listing.get(key) for key in REQUIRED), [k for k in REQUIRED if not listing.get(k)]
    assert listing["version"] == "N-A"
    for entry in listing["tasks"]:
        name = entry["name"].removeprefix("mechbench/")
        assert name == family and callable(getattr(tasks, name))
        assert entry["dataset_samples"] > 0
        import inspect

        valid = inspect.signature(getattr(tasks, name)).parameters
        assert set(entry["args"]) <= set(valid), entry
    assert set(listing["baselines"]) == {"trivial", "oracle"}
    trivial = listing["baselines"]["trivial"].split("--model mechbench/", 1)[1].split()[0]
    assert trivial in {*registry.baselines(), "replay"}, f"{trivial} is not a built-in model"
    for asset in listing["external_assets"]:
        assert {"name", "source", "fetched", "pinned"} <= set(asset)


def test_pinned_revisions_match_the_code() -> None:
    sphyr = (ROOT / "sphyr" / "eval.yaml").read_text()
    structural = (ROOT / "structural_eval" / "eval.yaml").read_text()
    seesim = (ROOT / "seesim" / "eval.yaml").read_text()
    assert f"commit {UPSTREAM_REVISION}" in sphyr
    assert f"commit {OFFICIAL_REVISION}" in structural
    assert SEESIM_REPOSITORY in seesim and f"commit {SEESIM_REVISION}" in seesim


def test_seesim_counts_match_the_published_data(published_seesim: Path) -> None:
    listing = yaml.safe_load((ROOT / "seesim" / "eval.yaml").read_text())
    for entry in listing["tasks"]:
        task = tasks.seesim(data=str(published_seesim), **entry["args"])
        assert len(task.dataset) == entry["dataset_samples"], entry


def test_the_oracles_reach_the_top_of_each_scale(sphyr_v2_data: Path, seesim_data: Path, tmp_path: Path) -> None:
    from inspect_ai import eval as inspect_eval

    (sphyr_log,) = inspect_eval(
        tasks.sphyr(data=str(sphyr_v2_data), subject="3_random_row_easy", samples="4", oracle=True),
        model="mockllm/model",
        log_dir=str(tmp_path),
        display="none",
    )
    metrics = {s.name: s.metrics["mean"].value for s in sphyr_log.results.scores if s.metrics}
    assert metrics["exact_match"] == 1.0 and metrics["load_carrying"] == 1.0 and metrics["topology_score"] > 0
    (seesim_log,) = inspect_eval(
        tasks.seesim(data=str(seesim_data), modality="text", oracle=True),
        model="mockllm/model",
        log_dir=str(tmp_path),
        display="none",
    )
    values = {k: v.value for s in seesim_log.results.scores for k, v in s.metrics.items()}
    assert values["accuracy"] == values["consistency"] == values["validation_accuracy"] == 1.0
    assert seesim_log.stats.model_usage == {}  # no model was called
