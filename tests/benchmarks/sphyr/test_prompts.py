"""The SPhyR prompt equals the published one byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mechbench.benchmarks.sphyr.dataset import read_records
from mechbench.benchmarks.sphyr.prompts import build_prompt, grid_from_prompt
from tests.published import RECORDED_SUBJECTS, RESULTS_MODEL


def _recorded(published_sphyr: Path) -> list[tuple[str, dict]]:
    folder = published_sphyr / "recorded_completions" / RESULTS_MODEL
    files = [folder / f"{s}_results.json" for s in RECORDED_SUBJECTS]
    return [(f.name.removesuffix("_results.json"), r) for f in files for r in json.loads(f.read_text())]


def test_prompt_matches_every_recorded_prompt(published_sphyr: Path) -> None:
    records = _recorded(published_sphyr)
    assert len(records) >= 16
    for subject, record in records:
        grid = grid_from_prompt(record["prompt"])
        assert build_prompt(grid, subject) == record["prompt"]


def test_template_matches_the_dataset_card(published_sphyr: Path) -> None:
    card = (published_sphyr / "PROMPT.md").read_text()
    template = card.split("```\n", 1)[1].split("\n```", 1)[0]
    grid = [["L", "V"], ["S", "0"]]
    expected = template.replace("{FILL_INSTRUCTION}", "'V' cells with either '1' (solid) or '0' (empty)")
    assert build_prompt(grid, "full_easy") == expected.replace("{GRID}", "L V\nS 0")


def test_grid_round_trips_through_the_prompt(sphyr_data: Path) -> None:
    record = read_records(sphyr_data / "full_hard.jsonl")[0]
    assert grid_from_prompt(build_prompt(record.input_grid, "full_hard")) == record.input_grid


def test_prompt_without_grid_section() -> None:
    with pytest.raises(ValueError, match="input grid section"):
        grid_from_prompt("hello")
