"""The red team's model-output findings (#20), each as a case that must end in a score or a specific error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from typer.testing import CliRunner

from mechbench.benchmarks.sphyr.scoring import score_grid
from mechbench.benchmarks.structural_eval.check import check_reply
from mechbench.benchmarks.structural_eval.scoring import solve_response
from mechbench.cli import app
from mechbench.cli.frame import result_json
from mechbench.core.errors import ModelTooLargeError
from mechbench.core.safejson import loads
from mechbench.frame import FrameModel, solve
from mechbench.frame.model import MAX_LINKS, MAX_LOADS, MAX_POINTS, MAX_SUPPORTS
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import structural_eval

runner = CliRunner()
HUGE = "1" * 4301  # one digit past Python's int-to-string limit


def _beam(structural_data: Path) -> dict:
    return json.loads((structural_data / "raw_models" / "beam_001.json").read_text())


def _judge(structural_data: Path, reply: str):
    truth = FrameModel.parse(_beam(structural_data))
    return check_reply(reply, truth, solve_response(truth), tolerance=0.05, scoring="strict")


def test_safe_json_reads_integers_past_the_int_limit() -> None:
    assert loads(f'{{"a": {HUGE}, "b": -{HUGE}, "c": 12}}') == {"a": float("inf"), "b": float("-inf"), "c": 12}


def test_a_huge_integer_in_a_reply_is_judged_not_raised(structural_data: Path) -> None:
    text = json.dumps(_beam(structural_data))
    extra_key = _judge(structural_data, text[:-1] + f', "note": {HUGE}}}')
    assert extra_key.outcome == "correct"  # an unknown key holding a huge number changes nothing
    model = _beam(structural_data)
    model["points"][1]["x"] = 0.5  # placeholder, replaced by the huge integer as text
    coordinate = _judge(structural_data, json.dumps(model).replace('"x": 0.5', f'"x": {HUGE}'))
    assert coordinate.outcome == "invalid_model" and coordinate.ratio == 0.0
    assert "finite" in coordinate.explanation or "at most" in coordinate.explanation


def test_a_huge_integer_reply_loses_no_sample_in_inspect(structural_data: Path, tmp_path: Path) -> None:
    good = json.dumps(_beam(structural_data))
    replies = tmp_path / "replies.jsonl"
    lines = [{"id": f"beam_00{i}", "reply": good[:-1] + f', "x": {HUGE}}}'} for i in range(1, 10)]
    lines[1]["reply"] = f"{{{HUGE}"  # and one that is nothing but the number
    replies.write_text("\n".join(json.dumps(r) for r in lines))
    (log,) = inspect_eval(
        structural_eval(data=str(structural_data), filter="beam_00", max_retries=0),
        model="mechbench/replay",
        model_args={"file": str(replies)},
        log_dir=str(tmp_path / "logs"),
        **QUIET_EVAL,
    )
    assert log.status == "success", log.error
    assert len(log.samples) == 9 and all(s.error is None for s in log.samples)
    assert log.results.scores[0].scored_samples == 9


def test_an_overflowing_token_is_scored_by_both_sphyr_parsers() -> None:
    truth, inputs = [["1", "0"], ["S", "L"]], [["V", "0"], ["S", "L"]]
    legacy = score_grid(inputs, truth, "1e9999999 0\nS L", "legacy")
    assert legacy.relative_difference_ratio < -1e300 and legacy.penalized_difference_ratio < -1e300
    assert legacy.relative_difference_ratio > float("-inf")  # finite: means over samples stay numbers
    current = score_grid(inputs, truth, f"{HUGE} 0\nS L", "current")
    assert not current.valid_output_grid and "out of range" in current.invalid_reason
    assert score_grid(inputs, truth, f"{HUGE}.5 0\nS L", "legacy").relative_difference_ratio < -1e300


def test_stability_does_not_depend_on_the_units(structural_data: Path) -> None:
    stiff = _beam(structural_data)
    for link in stiff["links"]:
        link["E"] = link["A"] = link["Iz"] = 1e15
    attempt = _judge(structural_data, json.dumps(stiff))
    assert attempt.outcome == "correct" and attempt.ratio == 1.0
    reactions = {(r["atId"], r["type"]): r["value"] for r in solve(stiff, diagrams=False)["reactions"]}
    truth = {(r["atId"], r["type"]): r["value"] for r in solve(_beam(structural_data), diagrams=False)["reactions"]}
    assert reactions.keys() == truth.keys()
    for key, value in truth.items():
        assert reactions[key] == pytest.approx(value, rel=1e-6, abs=1e-6)


def test_limits_match_the_benchmark_and_are_refused_above(structural_data: Path) -> None:
    # Ten times the largest published task (19 points, 36 links, 4 supports, 6 loads), no more.
    assert (MAX_POINTS, MAX_LINKS, MAX_SUPPORTS, MAX_LOADS) == (200, 400, 100, 400)
    model = _beam(structural_data)
    model["points"] += [{"id": f"Q{i}", "x": i, "y": 1} for i in range(MAX_POINTS)]
    with pytest.raises(ModelTooLargeError, match=f"at most {MAX_POINTS} points"):
        FrameModel.parse(model)
    assert _judge(structural_data, json.dumps(model)).outcome == "invalid_model"


def test_solve_output_encodes_the_shared_diagram_list_once_and_reads_back_equal(structural_data: Path) -> None:
    result = solve(_beam(structural_data))
    assert json.loads(result_json(result)) == json.loads(json.dumps(result))
    path = structural_data / "raw_models" / "beam_001.json"
    printed = runner.invoke(app, ["solve", str(path)])
    assert printed.exit_code == 0 and json.loads(printed.stdout)["moment"] == result["moment"]


def test_solve_and_render_on_a_huge_integer_are_one_line_errors(structural_data: Path, tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    model = _beam(structural_data)
    model["points"][1]["x"] = 0.5  # placeholder, replaced by the huge integer as text
    path.write_text(json.dumps(model).replace('"x": 0.5', f'"x": {HUGE}', 1))
    for args in (["solve", str(path)], ["render", str(path), "-o", str(tmp_path / "x.png")]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output and result.stderr.count("\n") == 1


def test_a_data_file_with_a_huge_integer_names_its_line(tmp_path: Path) -> None:
    (tmp_path / "full_easy.jsonl").write_text(
        '{"index": 0, "input_grid": [["V"]], "ground_truth": [["1"]]}\n'
        f'{{"index": {HUGE}, "input_grid": [["V"]], "ground_truth": [[{HUGE}]]}}\n'
    )
    result = runner.invoke(app, ["validate", "sphyr", "--data", str(tmp_path), "--subject", "full_easy"])
    assert result.exit_code == 2
    assert "full_easy.jsonl line 2: not a SPhyR record" in result.stderr
