"""The report's comparisons grow with the number of rows, not its square (issue 63: a report of 300 models took 37 s
and 1,000 never finished). Checked by counting work in one process (paired differences computed, bytes of
report.json), never by a clock; ``benchmarks/report_scale.py`` times 1,000 models. Past 50 rows the pairs compared
are each row's neighbours by headline and the ten best against every row; Holm's correction still counts every pair,
and the ranks say how many pairs they rest on."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog

from mechbench.core.intervals import Observation, holm, rank_intervals
from mechbench.report import build_report, compare, write_report
from mechbench.report.compare import MAX_ALL_PAIRS, NEIGHBOURS, TOP_ROWS, compare_rows, row_key
from tests.report.clones import base_run, clones


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many paired differences the report computes (one per pair it compares)."""
    calls = [0]
    real = compare.paired_difference

    def counting(*args: object) -> object:
        calls[0] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(compare, "paired_difference", counting)
    return calls


def _rows(count: int) -> tuple[list[dict], dict, dict]:
    """``count`` rows on one benchmark's samples (60 in 12 clusters), row k right at its own rate."""
    draw = random.Random(5)
    rows, observations = [], {}
    for k in range(count):
        row = {"benchmark": "b", "model": f"m{k:04d}", "setting": "s", "data": "d", "metric": "accuracy"}
        values = [float(draw.random() < 0.2 + 0.6 * k / count) for _ in range(60)]
        observations[row_key(row)] = [Observation(j, j % 12, v) for j, v in enumerate(values)]
        rows.append({**row, "value": sum(values) / 60, "samples": 60})
    return rows, observations, {row_key(r): r["model"] for r in rows}


def test_pairs_compared_grow_linearly_past_fifty_rows(counted: list[int]) -> None:
    work = {}
    for count in (50, 100, 400):
        counted[0] = 0
        rows, observations, labels = _rows(count)
        scope: list[dict] = []
        pairs = compare_rows(rows, observations, labels, scope)
        work[count] = counted[0]
        assert len(pairs) == counted[0] == scope[0]["compared"]
        assert scope[0]["pairs"] == count * (count - 1) // 2
    assert work[50] == MAX_ALL_PAIRS  # every pair of 50 rows
    assert work[400] <= (NEIGHBOURS + TOP_ROWS) * 400  # not the 79,800 pairs of 400 rows
    assert work[400] / work[100] < 5  # four times the rows: about four times the work (all pairs: 16)


def test_holm_counts_every_pair_and_ranks_follow_the_calls_they_imply() -> None:
    rows, observations, labels = _rows(100)
    scope: list[dict] = []
    pairs = compare_rows(rows, observations, labels, scope)
    total, tested = scope[0]["pairs"], scope[0]["compared"]
    assert tested < total and not scope[0]["all_pairs"]
    for pair in pairs:  # the k-th smallest p of those tested is multiplied by at least total − tested + 1
        assert pair["p_holm"] >= min(1.0, pair["p_value"] * (total - tested + 1)) - 1e-12
    assert holm([0.01, 0.02], family=10) == pytest.approx([0.1, 0.18])
    # a ahead of b and b ahead of c: a is ahead of c though that pair was never compared.
    assert rank_intervals(["a", "b", "c", "d"], {("a", "b"), ("b", "c")}) == {
        "a": (1, 2),
        "b": (2, 3),
        "c": (3, 4),
        "d": (1, 4),
    }


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    return base_run(tmp_path_factory.mktemp("scale"))


@pytest.mark.slow  # an Inspect run, and a report of 240 models
def test_a_report_of_many_models_computes_and_writes_a_bounded_number_of_pairs(
    base: EvalLog, counted: list[int], tmp_path: Path
) -> None:
    sizes, work = {}, {}
    for count in (60, 240):
        counted[0] = 0
        report = build_report(tmp_path, logs=clones(base, count))
        work[count] = counted[0]
        sizes[count] = len(report.model_dump_json(indent=1))
        assert len([r for r in report.leaderboard if r["benchmark"] == "seesim"]) == count
    assert work[240] / work[60] < 5 and sizes[240] / sizes[60] < 6  # all pairs: 16 times the work
    # The ranks say they rest on some of the pairs, and the page says which pairs and why not all.
    rows = [r for r in report.leaderboard if r["benchmark"] == "seesim"]
    assert all(r["rank_pairs"] == f"{work[240]:,} of {240 * 239 // 2:,} pairs" for r in rows)
    markdown = write_report(report, tmp_path / "out")["md"].read_text()
    assert f"(from {work[240]:,} of 28,680 pairs compared)" in markdown
    assert "240 rows, " in markdown and "Holm's correction counts all 28,680" in markdown
    assert "<table class='matrix'>" not in (tmp_path / "out" / "report.html").read_text()  # 240 × 240 cells: no
    assert all(math.isfinite(p["p_holm"]) for p in report.comparisons if p["compared"])
