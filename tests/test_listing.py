"""Each benchmark's eval.yaml is in the register's schema and agrees with the code: task names and files, the
pinned commit (it holds the task file), the repository, the publishers' pinned revisions, sample counts."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest

from mechbench import registry, tasks
from mechbench.benchmarks.seesim.dataset import DEFAULT_REVISION as SEESIM_REVISION
from mechbench.benchmarks.seesim.dataset import OFFICIAL_REPOSITORY as SEESIM_REPOSITORY
from mechbench.benchmarks.sphyr.versions import UPSTREAM_REVISION
from mechbench.benchmarks.structural_eval.dataset import OFFICIAL_REVISION
from mechbench.registry.listing import listing_problems, read_listing

REPO = Path(__file__).resolve().parents[1]
NAMES = [entry.name for entry in registry.specs()]


def _listing(name: str):
    entry = registry.spec(name)
    assert entry is not None and entry.listing is not None, f"{name} has no eval.yaml"
    return entry, read_listing(entry.listing)


@pytest.mark.parametrize("name", NAMES)
def test_the_listing_is_in_the_register_schema_and_names_real_tasks(name: str) -> None:
    entry, listing = _listing(name)
    assert listing_problems(listing, name, entry.task, dict(entry.exports)) == []
    assert set(listing.baselines) == {"trivial", "oracle"}
    trivial = listing.baselines["trivial"].split("--model mechbench/", 1)[1].split()[0]
    assert trivial in {*registry.baselines(), "replay"}, f"{trivial} is not a built-in model"


@pytest.mark.parametrize("name", [n for n in NAMES if _listing(n)[1].paper is not None])
def test_a_published_benchmark_carries_its_publishers_citation_in_listing_and_docs(name: str) -> None:
    entry, listing = _listing(name)
    assert listing.citation is not None and listing.citation.lstrip().startswith("@")
    key = listing.citation.split("{", 1)[1].split(",", 1)[0]
    assert key in (entry.listing.parent / "README.md").read_text()  # the docs page cites the same entry
    uncited = listing.model_copy(update={"citation": None})
    assert any("citation" in p for p in listing_problems(uncited, name, entry.task, dict(entry.exports)))


@pytest.mark.parametrize("name", NAMES)
def test_the_listing_points_at_this_repository_and_a_commit_holding_the_task(name: str) -> None:
    _, listing = _listing(name)
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert listing.source.repository_url == project["urls"]["Repository"]
    inside = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=REPO, capture_output=True, text=True)
    if inside.returncode != 0:
        pytest.skip("not a git checkout: the pinned commit cannot be looked up")
    for task in listing.tasks:
        found = subprocess.run(
            ["git", "cat-file", "-e", f"{listing.source.repository_commit}:{task.task_path}"], cwd=REPO
        )
        assert found.returncode == 0, f"{task.task_path} is not in commit {listing.source.repository_commit}"


def test_pinned_revisions_match_the_code() -> None:
    def text(name: str) -> str:
        entry = registry.spec(name)
        assert entry is not None and entry.listing is not None
        return entry.listing.read_text()

    assert f"commit {UPSTREAM_REVISION}" in text("sphyr")
    assert f"commit {OFFICIAL_REVISION}" in text("structural_eval")
    assert SEESIM_REPOSITORY in text("seesim") and f"commit {SEESIM_REVISION}" in text("seesim")


def test_seesim_counts_match_the_published_data(published_seesim: Path) -> None:
    _, listing = _listing("seesim")
    for entry in listing.tasks:
        task = tasks.seesim(data=str(published_seesim), **entry.args)
        assert len(task.dataset) == entry.dataset_samples, entry


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


def test_mechbench_itself_is_licensed_and_citable_as_its_package_says() -> None:
    import yaml

    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    citation = yaml.safe_load((root / "CITATION.cff").read_text())
    assert project["license"]["text"] == citation["license"] == "MIT"
    assert "MIT License" in (root / "LICENSE").read_text()
    assert citation["version"] == project["version"] and citation["cff-version"] == "1.2.0"
