"""SPhyR's eval.yaml names the upstream commit the code pins, and its oracle reaches the top of every scale."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import eval as inspect_eval

from mechbench import registry, tasks
from mechbench.benchmarks.sphyr.versions import UPSTREAM_REVISION
from mechbench.harness.quiet import QUIET_EVAL


def test_the_listing_names_the_pinned_upstream_commit() -> None:
    entry = registry.spec("sphyr")
    assert entry is not None and entry.listing is not None
    assert f"commit {UPSTREAM_REVISION}" in entry.listing.read_text()


def test_the_oracle_reaches_the_top_of_each_scale(sphyr_v2_data: Path, tmp_path: Path) -> None:
    task = tasks.sphyr(data=str(sphyr_v2_data), subject="3_random_row_easy", samples="4", oracle=True)
    (log,) = inspect_eval(task, model="mockllm/model", log_dir=str(tmp_path), **QUIET_EVAL)
    metrics = {s.name: s.metrics["mean"].value for s in log.results.scores if s.metrics}
    assert metrics["exact_match"] == 1.0 and metrics["load_carrying"] == 1.0 and metrics["topology_score"] > 0
