"""Baselines read the SPhyR grid from the prompt and fill only the masked cells."""

from __future__ import annotations

import pytest

from mechbench.benchmarks.sphyr.baselines import sphyr_empty, sphyr_random, sphyr_solid
from mechbench.benchmarks.sphyr.prompts import build_prompt
from mechbench.core.errors import BaselineInputError

GRID = [["L", "V", "0"], ["V", "V", "V"], ["S", "S", "V"]]


def _cells(reply: str) -> list[list[str]]:
    return [line.split() for line in reply.splitlines()]


def test_empty_and_solid_fill_masked_cells_only() -> None:
    easy, hard = build_prompt(GRID, "full_easy"), build_prompt(GRID, "full_hard")
    assert _cells(sphyr_empty(easy)) == [["L", "0", "0"], ["0", "0", "0"], ["S", "S", "0"]]
    assert _cells(sphyr_solid(easy)) == [["L", "1", "0"], ["1", "1", "1"], ["S", "S", "1"]]
    assert _cells(sphyr_solid(hard))[1] == ["1.0", "1.0", "1.0"]


def test_random_is_seeded_per_prompt_and_uses_the_right_alphabet() -> None:
    easy, hard = build_prompt(GRID, "full_easy"), build_prompt(GRID, "full_hard")
    assert sphyr_random(easy, 1) == sphyr_random(easy, 1)
    values = {cell for seed in range(20) for row in _cells(sphyr_random(easy, seed)) for cell in row}
    assert values <= {"L", "S", "0", "1"} and {"0", "1"} <= values
    hard_values = {c for seed in range(20) for row in _cells(sphyr_random(hard, seed)) for c in row} - {
        "L",
        "S",
        "0",
    }
    assert all(len(v) == 3 and 0.0 <= float(v) <= 1.0 for v in hard_values) and len(hard_values) > 3


def test_non_sphyr_prompt_is_refused() -> None:
    with pytest.raises(BaselineInputError, match="SPhyR prompts only"):
        sphyr_empty("Is the beam in tension? (True/False)")
