"""``mechbench score sphyr``: rescoring published results files and JSONL completions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mechbench.cli import app

runner = CliRunner()
FIELDS = (
    "valid_output_grid",
    "exact_match",
    "difference_ratio",
    "relative_difference_ratio",
    "penalized_difference_ratio",
)


def _files(sphyr_data: Path) -> list[Path]:
    folder = sphyr_data / "recorded_completions" / "gpt-4.1-2025-04-14"
    return [f for f in sorted(folder.glob("*_results.json")) if "aggregated" not in f.name]


def test_reproduces_the_recorded_results(sphyr_data: Path, tmp_path: Path) -> None:
    for path in _files(sphyr_data):
        out = tmp_path / f"{path.stem}.json"
        result = runner.invoke(app, ["score", "sphyr", str(path), "-o", str(out)])
        assert result.exit_code == 0, result.stderr
        assert "records: exact match" in result.stdout
        report = json.loads(out.read_text())
        recorded = json.loads(path.read_text())
        assert len(report["records"]) == len(recorded)
        for ours, theirs in zip(report["records"], recorded, strict=True):
            for field in FIELDS:
                assert ours[field] == pytest.approx(theirs[field], abs=1e-12), (path.name, field)
        assert report["totals"]["evaluated_samples"] == len(recorded)
        assert report["totals"]["total_exact_match"] == sum(r["exact_match"] for r in recorded)


def test_jsonl_of_completions_and_bad_answers(tmp_path: Path) -> None:
    rows = [
        {
            "input_grid": [["L", "V"], ["S", "V"]],
            "ground_truth": [["L", "1"], ["S", "0"]],
            "completion": "L 1\nS 0",
        },
        {
            "input_grid": [["L", "V"], ["S", "V"]],
            "ground_truth": [["L", "1"], ["S", "0"]],
            "completion": "garbage",
        },
        {
            "input_grid": [["L", "V"], ["S", "V"]],
            "ground_truth": [["L", "1"], ["S", "0"]],
            "completion": None,
        },
    ]
    path = tmp_path / "c.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows))
    result = runner.invoke(app, ["score", "sphyr", str(path)])
    assert result.exit_code == 0  # bad answers are scoring outcomes
    report = json.loads(result.stdout)
    assert [r["exact_match"] for r in report["records"]] == [True, False, False]
    assert report["records"][1]["invalid_reason"] == "no grid found in the reply"


def test_bad_files_are_usage_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", "sphyr", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "does not exist" in result.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("[{")
    result = runner.invoke(app, ["score", "sphyr", str(broken)])
    assert result.exit_code == 2 and "neither a JSON array nor JSONL" in result.stderr
    no_truth = tmp_path / "no_truth.jsonl"
    no_truth.write_text(json.dumps({"completion": "1 0"}))
    result = runner.invoke(app, ["score", "sphyr", str(no_truth)])
    assert result.exit_code == 2 and "record 0: no ground_truth" in result.stderr
    assert "Traceback" not in result.stderr
    result = runner.invoke(app, ["score", "sphyr", str(no_truth), "--parser", "fancy"])
    assert result.exit_code == 2 and "--parser must be one of" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--reference", "worst"], "--reference must be one of published, best, got 'worst'"),
        (["--gravity", "sideways"], "--gravity: gravity must be one of down, up, right, left"),
    ],
)
def test_bad_physics_options_are_one_line_usage_errors(sphyr_data: Path, args: list[str], message: str) -> None:
    path = sphyr_data / "recorded_completions" / "gpt-4.1-2025-04-14" / "full_easy_results.json"
    result = runner.invoke(app, ["score", "sphyr", str(path), "--physics", *args])
    assert result.exit_code == 2 and message in result.stderr and result.stderr.count("\n") == 1
