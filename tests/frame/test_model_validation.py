"""Invalid models raise ModelFormatError naming the element; lenient input is accepted where unambiguous."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from mechbench.core.errors import ModelFormatError, ModelTooLargeError
from mechbench.frame import FrameModel, solve
from mechbench.frame.model import DEFAULT_E, MAX_POINTS
from tests.frame.helpers import line_load, link, link_force, model, nodal_force, point, support


@pytest.fixture
def beam() -> dict:
    return model(
        [point("P1", 0, 0), point("P2", 4, 0)],
        [link("L1", "P1", "P2")],
        [support("S1", "P1", "pin"), support("S2", "P2", "roller")],
        [nodal_force("LD1", "P2", 10, 270), line_load("LD2", "L1", 5)],
    )


def _error(data: object) -> str:
    with pytest.raises(ModelFormatError) as info:
        FrameModel.parse(data)
    return str(info.value)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda m: m["links"][0].update(b="P9"), "link L1: point P9 does not exist"),
        (lambda m: m["loads"][0].update(flip=2), "load LD1: flip must be 1 or -1"),
        (lambda m: m["loads"][0].update(flip="up"), "load LD1: flip"),
        (lambda m: m["points"][1].update(x=math.nan), "point P2: x must be a finite number"),
        (lambda m: m["points"][1].update(x=1e308), "point P2: x must be at most"),
        (lambda m: m["points"][1].update(x="four"), "point P2: x: Input should be a valid number"),
        (lambda m: m["points"].append(point("P1", 1, 1)), "point P1: id is used twice"),
        (lambda m: m["links"][0].update(b="P1"), "link L1: starts and ends at the same point P1"),
        (lambda m: m["points"][1].update(x=0), "link L1: has zero length"),
        (lambda m: m["links"][0].update(E=-5), "link L1: E must be positive"),
        (lambda m: m["supports"][0].update(kind="hinge"), "support S1: kind: Input should be"),
        (lambda m: m["supports"][0]["at"].update(id="P7"), "support S1: point P7 does not exist"),
        (
            lambda m: m["loads"][1]["at"].update(type="point", id="P1"),
            "load LD2: a distributedLoad must act on a link",
        ),
        (
            lambda m: m["loads"][1].update(fromStart=3, fromEnd=2),
            "load LD2: fromStart 3 + fromEnd 2 leave nothing",
        ),
        (lambda m: m["loads"][0].update(kind="force"), "load LD1: kind must be one of pointLoad"),
        (lambda m: m["loads"][0].pop("angleDeg"), "load LD1: angleDeg is required"),
        (lambda m: m["loads"][0]["at"].update(type="link", id="L7"), "load LD1: link L7 does not exist"),
        (lambda m: m.pop("links"), "links: is missing"),
        (lambda m: m.update(points="none"), "points: must be a list"),
    ],
)
def test_invalid_models_name_the_element(beam: dict, mutate, message: str) -> None:
    data = copy.deepcopy(beam)
    mutate(data)
    assert message in _error(data)


def test_several_problems_are_reported_together(beam: dict) -> None:
    beam["points"][0]["y"] = "low"
    beam["loads"][0]["flip"] = 3
    text = _error(beam)
    assert text.startswith("2 problems:")
    assert "point P1: y: Input should be a valid number" in text and "load LD1: flip must be 1 or -1" in text
    beam["points"][0]["y"] = 0
    beam["loads"][0]["flip"] = 1
    beam["links"][0]["a"] = "P8"
    beam["supports"][1]["at"]["id"] = "P9"
    text = _error(beam)
    assert text.startswith("2 problems:")
    assert "link L1: point P8 does not exist" in text and "support S2: point P9 does not exist" in text


def test_load_outside_its_link(beam: dict) -> None:
    beam["loads"].append(link_force("LD3", "L1", 5, 270, offset=4.5))
    assert "load LD3: position 4.5 m from end A lies outside link L1 (0 to 4 m)" in _error(beam)


def test_not_an_object() -> None:
    assert "must be a JSON object" in _error([1, 2, 3])


def test_size_limit() -> None:
    data = {
        "points": [point(f"P{i}", i, 0) for i in range(MAX_POINTS + 1)],
        "links": [],
        "supports": [],
        "loads": [],
    }
    with pytest.raises(ModelTooLargeError, match=f"at most {MAX_POINTS} points"):
        FrameModel.parse(data)


def test_lenient_input_is_read_as_meant(beam: dict) -> None:
    reference = solve(beam, diagrams=False)["reactions"]
    loose = json.loads(json.dumps(beam))
    loose["points"][1]["x"] = "4"  # numbers as strings
    loose["loads"][0]["value"] = "10.0"
    loose["loads"][0]["flip"] = "1"
    loose["supports"][0]["kind"] = "Pinned"
    loose["supports"][1]["at"] = "P2"  # a bare point id
    loose["loads"][1]["kind"] = "DistributedLoad"
    del loose["loads"][1]["wEnd"]  # one intensity means uniform
    for lk in loose["links"]:
        lk.pop("endA")
        lk.pop("endB")
    assert solve(loose, diagrams=False)["reactions"] == reference


@pytest.mark.parametrize("mode", ["m", "length", "meters", None])
def test_offset_modes_other_than_percent_read_metres(beam: dict, mode: str | None) -> None:
    load = link_force("LD3", "L1", 6, 270, offset=1.0)
    load["offsetMode"] = mode
    percent = {**load, "offsetMode": "percent", "offset": 99, "offsetPercent": 25}
    a = solve({**beam, "loads": [load]}, diagrams=False)["reactions"]
    b = solve({**beam, "loads": [percent]}, diagrams=False)["reactions"]
    assert a == b


def test_defaults_fill_missing_section(beam: dict) -> None:
    parsed = FrameModel.parse(beam)
    assert parsed.links[0].E == DEFAULT_E
    assert parsed.links[0].endA == "rigid"


def test_every_raw_model_of_a_set_parses(structural_data: Path) -> None:
    paths = sorted((structural_data / "raw_models").glob("*.json"))
    assert len(paths) == 30
    for path in paths:
        parsed = FrameModel.parse(json.loads(path.read_text()))
        assert parsed.links and parsed.supports
