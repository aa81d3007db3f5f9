"""Strict vs legacy comparison and the diagnostic ladder, one wrong answer per step."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mechbench.benchmarks.structural_eval.check import check_reply
from mechbench.benchmarks.structural_eval.scoring import solve_response
from mechbench.frame import FrameModel
from tests.benchmarks.structural_eval.models import overhanging_beam


def _raw(structural_data: Path, name: str) -> dict:
    return json.loads((structural_data / "raw_models" / f"{name}.json").read_text())


def _check(truth: dict, answer: dict | str, scoring: str = "strict"):
    model = FrameModel.parse(truth)
    reply = answer if isinstance(answer, str) else json.dumps(answer)
    return check_reply(reply, model, solve_response(model), tolerance=0.05, scoring=scoring)


def _frame(structural_data: Path) -> dict:
    return _raw(structural_data, "frame_001")


def test_the_truth_itself_is_correct(structural_data: Path) -> None:
    truth = _frame(structural_data)
    verdict = _check(truth, truth)
    assert verdict.outcome == "correct" and verdict.ratio == 1.0


def test_shifted_origin_is_still_correct(structural_data: Path) -> None:
    truth = _frame(structural_data)
    shifted = copy.deepcopy(truth)
    for p in shifted["points"]:
        p["x"] += 10
        p["y"] -= 3
    assert _check(truth, shifted).ratio == 1.0


def _mutate(truth: dict, step: str) -> dict:
    answer = copy.deepcopy(truth)
    if step == "geometry":
        next(p for p in answer["points"] if p["id"] == "P3")["y"] += 1
    elif step == "supports":
        next(s for s in answer["supports"] if s["kind"] == "pin")["kind"] = "fixed"
    elif step == "hinges":
        for link in answer["links"]:
            link["endA"] = link["endB"] = "rigid"
    elif step == "loads":
        load = answer["loads"][0]
        for key in ("value", "wStart", "wEnd"):
            if key in load:
                load[key] *= 2
    return answer


@pytest.mark.parametrize(("step", "ratio"), [("geometry", 0.0), ("supports", 0.25), ("hinges", 0.5), ("loads", 0.75)])
def test_one_wrong_answer_per_ladder_step(structural_data: Path, step: str, ratio: float) -> None:
    truth = _frame(structural_data)
    verdict = _check(truth, _mutate(truth, step))
    assert verdict.outcome == "wrong"
    assert verdict.step == step and verdict.ratio == ratio
    assert verdict.explanation.startswith("wrong (")


def test_mirrored_structure_passes_legacy_but_not_strict() -> None:
    truth = overhanging_beam()
    span = max(p["x"] for p in truth["points"])
    mirrored = copy.deepcopy(truth)
    for p in mirrored["points"]:
        p["x"] = span - p["x"]
    # Links keep their ends, so they now point the other way: relative angles change sign, world
    # angles reflect (ψ → 180° − ψ), moments turn the other way.
    for load in mirrored["loads"]:
        if load["kind"] == "bendingMoment":
            load["flip"] = -load["flip"]
        elif load["angleMode"] == "relative" and load["at"]["type"] == "link":
            load["angleDeg"] = -load["angleDeg"]
        else:
            load["angleDeg"] = 180 - load["angleDeg"]
    assert _check(truth, mirrored, "legacy").outcome == "correct"
    strict = _check(truth, mirrored, "strict")
    assert strict.outcome == "wrong" and "no support at (0, 0)" in strict.explanation


def test_max_moment_is_compared_in_strict_mode() -> None:
    # Same reactions, different moment distribution: move the point loads on the 8 m span while keeping the
    # reactions (5 kN at 2 m from A and 6 kN at 5 m ⇄ 6 kN at 2.5 m and 5 kN at 5 m leaves the moment about A
    # unchanged: 5·2 + 6·5 = 40 = 6·2.5 + 5·5).
    truth = overhanging_beam()
    answer = copy.deepcopy(truth)
    on_link = [load for load in answer["loads"] if load["kind"] == "pointLoad" and load["at"]["type"] == "link"]
    assert len(on_link) == 2
    for load, (value, offset) in zip(on_link, [(6, 2.5), (5, 5.0)], strict=True):
        load.update(value=value, offsetMode="m", refEnd="A", offset=offset)
    legacy = _check(truth, answer, "legacy")
    strict = _check(truth, answer, "strict")
    assert legacy.outcome == "correct"
    assert strict.outcome == "wrong" and "largest bending moment" in strict.explanation


@pytest.mark.parametrize(
    ("reply", "outcome", "reason"),
    [
        ("no json here", "unparsable", "no readable JSON model"),
        ('{"points": "many"}', "invalid_model", "invalid model: "),
        (
            '```json\n{"points": [{"id": "P1", "x": 0, "y": 0}, {"id": "P2", "x": 4, "y": 0}], "links": '
            '[{"id": "L1", "a": "P1", "b": "P2"}], "supports": [{"id": "S1", "at": "P1", "kind": "roller"}], '
            '"loads": []}\n```',
            "unstable",
            "unstable structure",
        ),
    ],
)
def test_malformed_replies_score_zero_with_reason(structural_data: Path, reply: str, outcome: str, reason: str) -> None:
    verdict = _check(_raw(structural_data, "beam_003"), reply)
    assert verdict.outcome == outcome and reason in verdict.explanation
    assert verdict.ratio <= 0.25
