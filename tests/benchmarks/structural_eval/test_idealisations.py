"""A correct model of the drawing gets full marks: a truss modelled pin-jointed or with rigid joints, a hinge written
on every member end at a joint or on all but one; trusses are real trusses; the published rule stays exact."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from mechbench.benchmarks.structural_eval.check import check_reply
from mechbench.benchmarks.structural_eval.dataset import load_tasks
from mechbench.benchmarks.structural_eval.idealisations import AS_DRAWN, PINNED, RIGID, readings, with_joints
from mechbench.benchmarks.structural_eval.scoring import solve_response
from mechbench.frame import FrameModel, solve
from mechbench.frame.generate import generate_structure
from mechbench.frame.render import render_layout


def _verdict(answer: dict, truth: FrameModel, scoring: str = "strict"):
    return check_reply(json.dumps(answer), truth, solve_response(truth), tolerance=0.05, scoring=scoring)  # type: ignore[arg-type]


def _trusses(count: int) -> list[FrameModel]:
    out = []
    for k in range(count):
        _, model = generate_structure(random.Random(f"trusses:{k}"), 4 + k % 2, ("truss",))
        out.append(FrameModel.parse(model))
    return out


def test_every_generated_truss_is_a_stable_pin_jointed_truss_loaded_at_its_joints() -> None:
    for truss in _trusses(30):
        assert {end for link in truss.links for end in (link.endA, link.endB)} == {"hinge"}
        assert all(load.kind == "pointLoad" and load.at.type == "point" for load in truss.loads)
        result = solve(truss.to_json_dict(), diagrams=True)  # raises for a mechanism
        assert result["maxMoment"]["overall"] < 1e-9  # members carry axial force only
        assert [r.name for r in readings(truss)] == [AS_DRAWN, RIGID]


def test_a_truss_scores_full_marks_pin_jointed_and_with_rigid_joints() -> None:
    for truss in _trusses(30):
        pinned, rigid = (_verdict(with_joints(truss, kind).to_json_dict(), truss) for kind in ("hinge", "rigid"))
        assert (pinned.ratio, pinned.idealisation) == (1.0, AS_DRAWN)
        assert (rigid.ratio, rigid.idealisation) == (1.0, RIGID)
        # The published rule compares reactions only: both pass it too, and it is unchanged.
        assert _verdict(with_joints(truss, "rigid").to_json_dict(), truss, "legacy").ratio == 1.0


def test_the_bundled_trusses_are_trusses_both_ways() -> None:
    trusses = [t for t in load_tasks("bundled") if t.category == "truss"]
    assert len(trusses) >= 5
    for task in trusses:
        truth = FrameModel.parse(task.raw_model)
        for kind in ("hinge", "rigid"):
            attempt = check_reply(
                json.dumps(with_joints(truth, kind).to_json_dict()),
                truth,
                task.response(),
                tolerance=0.05,
                scoring="strict",
            )
            assert attempt.outcome == "correct", (task.id, kind, attempt.explanation)


def test_the_ladder_never_blames_hinges_for_an_accepted_idealisation() -> None:
    truss = _trusses(1)[0]
    wrong = with_joints(truss, "rigid").to_json_dict()
    wrong["loads"][0]["value"] *= 2
    attempt = _verdict(wrong, truss)
    assert attempt.step == "loads" and attempt.idealisation == RIGID


def test_a_published_style_rigid_truss_accepts_the_pin_jointed_model() -> None:
    """The published trusses join every member rigidly; an engineer's pin-jointed model of one scores 1.0."""
    truss = with_joints(_trusses(1)[0], "rigid")
    assert [r.name for r in readings(truss)] == [AS_DRAWN, PINNED]
    attempt = _verdict(with_joints(truss, "hinge").to_json_dict(), truss)
    assert (attempt.ratio, attempt.idealisation) == (1.0, PINNED)
    legacy = _verdict(with_joints(truss, "hinge").to_json_dict(), truss, "legacy")
    assert legacy.ratio == 1.0  # reactions alone


def test_frames_and_beams_keep_their_one_reading() -> None:
    for k, kind in enumerate(("beam", "frame")):
        _, model = generate_structure(random.Random(f"one:{k}"), 3, (kind,))
        assert [r.name for r in readings(FrameModel.parse(model))] == [AS_DRAWN]


@pytest.mark.parametrize("released", ["one end", "both ends"])
def test_a_hinge_on_every_member_end_or_all_but_one_is_the_same_structure(released: str) -> None:
    _, model = generate_structure(random.Random("gerber"), 3, ("beam",))
    truth = FrameModel.parse(model)
    answer = truth.to_json_dict()
    hinged = next(link for link in answer["links"] if "hinge" in (link["endA"], link["endB"]))
    if released == "both ends":
        joint = hinged["b"] if hinged["endB"] == "hinge" else hinged["a"]
        for link in answer["links"]:
            if link is not hinged and joint in (link["a"], link["b"]):
                link["endA" if link["a"] == joint else "endB"] = "hinge"
    assert _verdict(answer, truth).ratio == 1.0


def test_hinge_circles_sit_on_their_joint() -> None:
    """A hinge at a joint of two members, or a truss's pins, are drawn centred on the point they mark."""
    for kinds, level in ((("beam",), 3), (("truss",), 4), (("frame",), 4)):
        _, model = generate_structure(random.Random(f"draw:{kinds}"), level, kinds)
        markers = render_layout(model)["markers"]
        assert markers
        for centre, _radius, point in markers:
            assert np.linalg.norm(np.array(centre) - np.array(point)) < 0.5, (kinds, centre, point)
