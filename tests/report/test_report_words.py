"""The report says what it computes (issue 63: its opening paragraph called the interval CR1 on clusters − 1 degrees
of freedom, while it computes CR2 with Imbens–Kolesár degrees of freedom, and named SeeSim's and SPhyR's particulars
in the generic renderer). The words come from the constant beside the interval code and from each benchmark's spec."""

from __future__ import annotations

import math

import pytest

from mechbench import registry
from mechbench.core.intervals import DEGREES_OF_FREEDOM, INTERVAL_METHOD, VARIANCE, Observation, clustered_interval
from mechbench.report.build import Report
from mechbench.report.render import reading


def test_the_named_method_is_the_one_computed() -> None:
    # Unequal clusters of unalike answers: CR2 and CR1 differ, and Imbens–Kolesár's df fall below clusters − 1.
    sizes = [1, 2, 3, 5, 8, 13]
    observations, k = [], 0
    for g, size in enumerate(sizes):
        for j in range(size):
            observations.append(Observation(k, g, float((g + j) % 3 == 0)))
            k += 1
    found = clustered_interval(observations)
    values = [o.value for o in observations]
    mean, n = sum(values) / len(values), len(values)
    sums = [sum(o.value - mean for o in observations if o.cluster == g) for g in range(len(sizes))]
    cr2 = math.sqrt(sum(u * u / (1 - m / n) for u, m in zip(sums, sizes, strict=True))) / n
    cr1 = math.sqrt(len(sizes) / (len(sizes) - 1) * sum(u * u for u in sums)) / n
    assert found.se == pytest.approx(cr2) and found.se != pytest.approx(cr1)
    assert found.df < len(sizes) - 1
    assert VARIANCE == "CR2" and f"({VARIANCE}:" in INTERVAL_METHOD
    assert f"degrees of freedom of {DEGREES_OF_FREEDOM}" in INTERVAL_METHOD and "CR1" not in INTERVAL_METHOD


@pytest.mark.parametrize("present", [["seesim"], ["sphyr", "structural_eval"], ["hand_calc"]])
def test_the_reading_names_the_method_and_the_clusters_of_the_benchmarks_present_only(present: list[str]) -> None:
    board = [{"benchmark": name, "model": "m"} for name in present]
    text = reading(Report(runs=[], leaderboard=board))
    assert INTERVAL_METHOD in text and "CR1" not in text
    for entry in registry.specs():
        said = entry.cluster is not None and f"{entry.title}: one {entry.cluster.unit}" in text
        assert said == (entry.name in present), entry.name
    assert "SeeSim's rules" not in text and "StructuralEval's JSON repair" not in text  # their glossaries say so
