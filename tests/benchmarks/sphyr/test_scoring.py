"""SPhyR metrics: the published numbers reproduced, invalid grids explained, edge cases defined."""

from __future__ import annotations

import pytest

from mechbench.benchmarks.sphyr.prompts import grid_from_prompt
from mechbench.benchmarks.sphyr.scoring import difficulty_score, score_grid, totals

FIELDS = (
    "valid_output_grid",
    "exact_match",
    "difference_ratio",
    "relative_difference_ratio",
    "penalized_difference_ratio",
    "difficulty_score",
)


def test_reproduces_every_recorded_record(recorded_sphyr_records: list[dict]) -> None:
    records = recorded_sphyr_records
    assert len(records) >= 18
    for record in records:
        truth = [line.split() for line in record["ground_truth"].strip().splitlines()]
        result = score_grid(grid_from_prompt(record["prompt"]), truth, record["completion"])
        for field in FIELDS:
            assert getattr(result, field) == pytest.approx(record[field], abs=1e-12), field


INPUT = [["L", "V", "V"], ["V", "V", "V"], ["S", "0", "0"]]
TRUTH = [["L", "1", "0"], ["1", "1", "0"], ["S", "0", "0"]]


def test_exact_match_is_one_everywhere() -> None:
    result = score_grid(INPUT, TRUTH, "L 1 0\n1 1 0\nS 0 0")
    assert result.exact_match and result.valid_output_grid
    assert result.score == result.normalized_score == result.difference_ratio == 1.0
    assert result.relative_difference_ratio == result.penalized_difference_ratio == 1.0


def test_seed_score_and_ratios_on_one_wrong_cell() -> None:
    result = score_grid(INPUT, TRUTH, "L 1 0\n1 1 1\nS 0 0")
    to_fill = 5  # cells where the input differs from the truth: every masked (V) cell
    assert result.score == pytest.approx(1 - 1 / to_fill)
    assert result.difference_ratio == pytest.approx(1 - 1 / 3)  # G = 3 ones in the truth


def test_marker_mismatch_costs_more_in_the_penalised_ratio() -> None:
    result = score_grid(INPUT, TRUTH, "L 1 0\n1 1 0\n0 0 0")  # the support replaced by 0
    assert result.relative_difference_ratio == pytest.approx(1 - 1 / 3)
    assert result.penalized_difference_ratio == pytest.approx(1 - 3 / 3)


def test_string_comparison_for_exact_match() -> None:
    hard_truth = [["L", "0.5"], ["S", "0.0"]]
    result = score_grid([["L", "V"], ["S", "0.0"]], hard_truth, "L 0.50\nS 0.0")
    assert not result.exact_match
    assert result.relative_difference_ratio == 1.0  # |0.50 − 0.5| = 0 in exact decimals


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("", "no grid found in the reply"),
        ("L 1 0\n1 1 0", "wrong row count: 2 rows, expected 3"),
        ("L 1 0\n1 1\nS 0 0", "row 1 has 2 cells, expected 3"),
        ("L 1 0\n1 V 0\nS 0 0", "unparsable token 'V' at (1, 1)"),
        ("L 1 0\n1 1.1.1 0\nS 0 0", "unparsable token '1.1.1' at (1, 1)"),
        ("L 1 0\n1 1 0\nS 0 2", "value 2 out of range [0, 1] at (2, 2)"),
        ("l 1 0\n1 1 0\nS 0 0", "unparsable token 'l' at (0, 0)"),
    ],
)
def test_invalid_grids_score_zero_with_their_reason(reply: str, reason: str) -> None:
    result = score_grid(INPUT, TRUTH, reply)
    assert not result.valid_output_grid and not result.exact_match
    assert result.invalid_reason == reason
    assert result.metrics()["normalized_score"] == 0.0 and result.difference_ratio == 0.0


def test_legacy_parser_ignores_extra_rows_as_the_paper_scorer_did() -> None:
    reply = "L 1 0\n1 1 0\nS 0 0\nextra row here"
    assert score_grid(INPUT, TRUTH, reply, "legacy").exact_match
    assert not score_grid(INPUT, TRUTH, "```\nL 1 0\n1 1 0\nS 0 0\n```", "legacy").exact_match
    assert score_grid(INPUT, TRUTH, "```\nL 1 0\n1 1 0\nS 0 0\n```", "current").exact_match


def test_difficulty_weights() -> None:
    # Centre cell masked; its neighbours all 0 and it is 0 → weight 1; if it were 1 → 2; mixed → 3.
    zeros = [["0"] * 3 for _ in range(3)]
    masked = [["0", "0", "0"], ["0", "V", "0"], ["0", "0", "0"]]
    assert difficulty_score(masked, zeros) == 1.0
    one_in_middle = [["0", "0", "0"], ["0", "1", "0"], ["0", "0", "0"]]
    assert difficulty_score(masked, one_in_middle) == 2.0
    mixed = [["1", "0", "0"], ["0", "0", "0"], ["0", "0", "0"]]
    assert difficulty_score(masked, mixed) == 3.0
    isolated = [["L", "L", "L"], ["L", "V", "L"], ["S", "S", "S"]]
    assert difficulty_score(isolated, [["L", "L", "L"], ["L", "0", "L"], ["S", "S", "S"]]) == 0.0


def test_totals_sum_the_samples() -> None:
    scores = [score_grid(INPUT, TRUTH, "L 1 0\n1 1 0\nS 0 0"), score_grid(INPUT, TRUTH, "")]
    out = totals(scores)
    assert out["total_exact_match"] == 1.0 and out["total_valid_output_grid"] == 1.0
    assert out["evaluated_samples"] == 2.0
