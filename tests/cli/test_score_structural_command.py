"""``mechbench score structural``: ratio, ladder step and explanation as JSON."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mechbench.cli import app

runner = CliRunner()


def test_correct_and_wrong_answers(structural_data: Path, tmp_path: Path) -> None:
    truth = structural_data / "raw_models" / "beam_001.json"
    result = runner.invoke(app, ["score", "structural", "--truth", str(truth), "--answer", str(truth)])
    assert result.exit_code == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["ratio"] == 1.0 and verdict["step"] == "correct"
    model = json.loads(truth.read_text())
    model["loads"][0]["wStart"] = model["loads"][0]["wEnd"] = 99
    answer = tmp_path / "answer.txt"
    answer.write_text(f"Sure! Here it is:\n```json\n{json.dumps(model)}\n```")
    verdict = json.loads(
        runner.invoke(app, ["score", "structural", "--truth", str(truth), "--answer", str(answer)]).stdout
    )
    assert verdict["step"] == "loads" and verdict["ratio"] == 0.75
    assert verdict["found_in"] == "a fenced block"


def test_a_bad_answer_is_a_score_not_an_error(structural_data: Path, tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("The structure is a simply supported beam.")
    truth = structural_data / "raw_models" / "beam_003.json"
    result = runner.invoke(app, ["score", "structural", "--truth", str(truth), "--answer", str(answer)])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["outcome"] == "unparsable"


def test_bad_truth_or_arguments_are_usage_errors(structural_data: Path, tmp_path: Path) -> None:
    bad = tmp_path / "truth.json"
    bad.write_text(json.dumps({"points": [], "links": [{"id": "L1", "a": "A", "b": "B"}], "supports": []}))
    answer = structural_data / "raw_models" / "beam_003.json"
    result = runner.invoke(app, ["score", "structural", "--truth", str(bad), "--answer", str(answer)])
    assert result.exit_code == 2 and "link L1: point A does not exist" in result.stderr
    truth = structural_data / "raw_models" / "beam_003.json"
    result = runner.invoke(app, ["score", "structural", "--truth", str(truth), "--answer", str(tmp_path / "none")])
    assert result.exit_code == 2 and "does not exist" in result.stderr
    result = runner.invoke(
        app, ["score", "structural", "--truth", str(truth), "--answer", str(truth), "--scoring", "x"]
    )
    assert result.exit_code == 2 and "--scoring must be one of" in result.stderr
