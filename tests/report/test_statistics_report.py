"""A report of several models with repeated epochs: clustered intervals, cluster counts, epochs and the pair
verdicts, the same numbers in report.md, report.html (as Chromium renders it) and report.json."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.harness.quiet import QUIET_EVAL
from mechbench.report import build_report, write_report
from mechbench.sources.resolve import bundled
from mechbench.tasks import seesim
from tests.report.chromium import chromium

pytestmark = pytest.mark.slow
MODELS = ["mechbench/always-true", "mechbench/majority", "mechbench/keyword"]


def _asked() -> int:
    """Questions the bundled SeeSim set asks (each simulation is one cluster; it holds 12)."""
    qa = json.loads((bundled("seesim") / "benchmark" / "qa-benchmark-with-qids.json").read_text())
    return sum(len(f["answers"]) for d in ("structural", "fluid") for f in qa[d]["files"].values())


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("statistics")
    inspect_eval(seesim(data="bundled", modality="text"), model=MODELS, epochs=2, log_dir=str(folder / "logs"),
                 **QUIET_EVAL)  # fmt: skip
    write_report(build_report(folder / "logs"), folder / "report")
    return folder / "report", json.loads((folder / "report" / "report.json").read_text())


def test_intervals_are_over_clusters_with_epochs_averaged_and_said_so(report: tuple[Path, dict]) -> None:
    out, data = report
    rows = [r for r in data["leaderboard"] if r["benchmark"] == "seesim"]
    assert {r["model"] for r in rows} == set(MODELS)
    markdown = (out / "report.md").read_text()
    page = html.unescape(chromium(out / "report.html", out, "--dump-dom"))
    for row in rows:
        asked = _asked()
        assert row["samples"] == asked and row["answers"] == 2 * asked and row["clusters"] == 12 and row["epochs"] == 2
        assert row["run_to_run"] == 0.0  # built-in models answer a prompt the same in every epoch
        assert row["ci95"] >= row["naive_ci95"] * 0.8  # clustered: not narrower than the independent one by much
        headline = f"accuracy {row['value']:.3f} ± {row['ci95']:.3f}"
        counted = f"{asked} / 12 simulations; 2 epochs, 0% of the spread run-to-run"
        assert headline in markdown and headline in page, headline
        assert counted in markdown and counted in page
        assert f"± {row['naive_ci95']:.3f}" in markdown
        assert re.search(rf"{re.escape(row['rank'])} of 3", markdown)


def test_every_pair_is_compared_and_its_verdict_is_the_same_everywhere(report: tuple[Path, dict]) -> None:
    out, data = report
    pairs = [p for p in data["comparisons"] if p["benchmark"] == "seesim"]
    assert len(pairs) == 3 and all(p["compared"] for p in pairs)  # three models: three pairs
    markdown = (out / "report.md").read_text()
    page = html.unescape(chromium(out / "report.html", out, "--dump-dom"))
    assert '<table class="matrix">' in page  # the matrix, as the browser built it
    for pair in pairs:
        assert pair["p_holm"] >= pair["p_value"] and pair["clusters"] == 12 and pair["samples"] == _asked()
        shown = f"{pair['difference']:+.3f} ± {pair['ci95']:.3f}"
        assert shown in markdown and shown in page
        assert pair["verdict"] in markdown and pair["verdict"] in page
        cell = (
            f"{pair['difference']:+.3f} {'▲' if pair.get('ahead') == pair['a'] else '▼' if pair.get('ahead') else '·'}"
        )
        assert cell in page, cell
