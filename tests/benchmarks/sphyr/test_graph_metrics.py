"""The graph metrics against every published GPT-4.1 record, and their load direction."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mechbench.benchmarks.sphyr import graph_metrics
from mechbench.benchmarks.sphyr.rescore import rescore, rescore_record
from mechbench.benchmarks.sphyr.scoring import GRAPH_METRIC_NAMES, score_grid
from tests.published import RECORDED_SUBJECTS, RESULTS_MODEL


def _published(published_sphyr: Path) -> list[tuple[str, int, dict]]:
    folder = published_sphyr / "recorded_completions" / RESULTS_MODEL
    files = [folder / f"{s}_results.json" for s in RECORDED_SUBJECTS]
    return [(f.name, i, r) for f in files for i, r in enumerate(json.loads(f.read_text()))]


def test_every_graph_metric_of_every_published_record(published_sphyr: Path) -> None:
    records = _published(published_sphyr)
    assert len(records) >= 18
    for name, position, record in records:
        ours = rescore_record(record, position)
        for metric in GRAPH_METRIC_NAMES:
            assert getattr(ours, metric) == pytest.approx(record[metric], rel=1e-12, abs=1e-12), (
                name,
                position,
                metric,
            )


def test_totals_include_the_graph_metrics(published_sphyr: Path) -> None:
    # A copy may hold only some of the records the aggregated files sum, so the totals are checked on those held.
    folder = published_sphyr / "recorded_completions" / RESULTS_MODEL
    records = json.loads((folder / "full_easy_results.json").read_text())
    totals = rescore(records)["totals"]
    for metric in GRAPH_METRIC_NAMES:
        assert totals[f"total_{metric}"] == pytest.approx(sum(float(r[metric]) for r in records), rel=1e-12), metric


def test_directional_connection_follows_the_load_direction() -> None:
    # The only path runs sideways from the load to the support: down and right allow it, left (against) does not.
    grid = [["L", "1", "1", "S"], ["0", "0", "0", "0"]]
    assert graph_metrics.load_support_connected(grid)
    assert graph_metrics.load_support_connected_force_directional(grid, (0.0, 1.0))
    assert not graph_metrics.load_support_connected_force_directional(grid, (0.0, -1.0))
    down = score_grid(grid, grid, "L 1 1 S\n0 0 0 0", gravity=(1.0, 0.0))
    left = score_grid(grid, grid, "L 1 1 S\n0 0 0 0", gravity=(0.0, -1.0))
    assert down.load_support_connected_force_directional and not left.load_support_connected_force_directional


def test_isolated_clusters_and_path_cost() -> None:
    grid = [["L", "0", "1"], ["1", "0", "0"], ["S", "0", "1"]]
    assert graph_metrics.isolated_clusters_count(grid) == 2  # the two lone 1s on the right
    assert graph_metrics.force_path_cost(grid) == pytest.approx(1.0 * 1.05 + 1.0 * 1.10)  # two straight steps down
    broken = [["L", "0", "0"], ["0", "0", "0"], ["S", "0", "0"]]
    assert graph_metrics.force_path_cost(broken) == graph_metrics.UNSUPPORTED_PATH_COST
    assert graph_metrics.force_path_efficiency(broken, grid) == pytest.approx(2.15 / 1000)
