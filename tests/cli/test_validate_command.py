"""``mechbench validate sphyr``: the published validation of the physics scoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mechbench.cli import app

runner = CliRunner()


def test_validation_is_strictly_ordered(sphyr_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "validation.json"
    result = runner.invoke(
        app,
        ["validate", "sphyr", "--data", str(sphyr_data), "--subject", "full_easy", "--samples", "6", "-o", str(out)],
    )
    assert result.exit_code == 0, result.stderr
    report = json.loads(out.read_text())
    means = report["means"]
    assert report["strictly_ordered"] is True
    assert means["answer"] > means["2 flipped"] > means["10 flipped"] > means["empty"] == 0.0
    assert means["answer"] > 0.85  # published: 0.933 on 20 samples
    for row in report["records"]:
        # Filled solid: its material efficiency is the answer's volume fraction.
        assert row["solid material_efficiency"] == pytest.approx(row["answer volume_fraction"])
        assert row["answer optimal_not_beaten"]
    assert "strictly ordered answer > 2 flipped > 10 flipped > empty: True" in result.stdout


def test_rescoring_with_physics(published_sphyr: Path) -> None:
    path = published_sphyr / "recorded_completions" / "gpt-4.1-2025-04-14" / "full_easy_results.json"
    result = runner.invoke(app, ["score", "sphyr", str(path), "--physics"])
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    recorded = json.loads(path.read_text())
    for ours, theirs in zip(report["records"], recorded, strict=True):
        assert (ours["compliance"] is None) == (theirs["compliance"] is None)
        if theirs["compliance"] is not None:
            assert ours["compliance"] == pytest.approx(theirs["compliance"], rel=1e-6)
        assert ours["load_carrying"] == theirs["load_carrying"]
    assert report["totals"]["total_load_carrying"] == sum(r["load_carrying"] for r in recorded)


def test_bad_subject_is_a_usage_error(sphyr_data: Path) -> None:
    result = runner.invoke(app, ["validate", "sphyr", "--data", str(sphyr_data), "--subject", "nope"])
    assert result.exit_code == 2 and "unknown SPhyR subject" in result.stderr


def test_a_set_of_another_grid_size_than_the_version_is_refused_naming_the_option(sphyr_data: Path) -> None:
    result = runner.invoke(app, ["validate", "sphyr", "--data", str(sphyr_data), "--version", "v2-20"])
    assert result.exit_code == 2 and "is 10×10, but SPhyR v2-20 has 20×20 grids; for 10×10 grids use --version v1" in (
        result.stderr
    )
