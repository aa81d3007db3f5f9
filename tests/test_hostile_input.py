"""Whatever a model writes, the readers end in a result or a specific error: never a crash, never a hang."""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mechbench.benchmarks.seesim.parse import parse_answer
from mechbench.benchmarks.sphyr.scoring import score_grid
from mechbench.benchmarks.structural_eval.extract import ReplyFormatError, extract_model_json
from mechbench.errors import ModelFormatError, UnstableStructureError
from mechbench.frame import FrameModel, solve

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TRUTH = [["L", "1", "0"], ["1", "1", "0"], ["S", "0", "0"]]
INPUT = [["L", "V", "V"], ["V", "V", "V"], ["S", "0", "0"]]

json_values = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)
numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**9), 10**9),
    st.sampled_from(["1", "x", "", "1e308"]),
)


@FAST
@given(st.text(max_size=2000))
def test_extractor_on_any_text(reply: str) -> None:
    try:
        data, where = extract_model_json(reply)
    except ReplyFormatError as error:
        assert str(error)
    else:
        assert isinstance(data, dict) and where


@FAST
@given(json_values)
def test_schema_on_any_json(value: object) -> None:
    try:
        FrameModel.parse(value)
    except ModelFormatError as error:
        assert str(error)


@st.composite
def structures(draw: st.DrawFn) -> dict:
    n = draw(st.integers(1, 5))
    points = [{"id": f"P{i}", "x": draw(numbers), "y": draw(numbers)} for i in range(n)]
    ids = [p["id"] for p in points] + ["P9"]
    links = [
        {
            "id": f"L{i}",
            "a": draw(st.sampled_from(ids)),
            "b": draw(st.sampled_from(ids)),
            "endA": draw(st.sampled_from(["rigid", "hinge", "weird"])),
        }
        for i in range(draw(st.integers(0, 5)))
    ]
    supports = [
        {
            "id": f"S{i}",
            "at": draw(st.sampled_from(ids)),
            "kind": draw(st.sampled_from(["pin", "roller", "fixed", "slider", "hinge"])),
            "angleDeg": draw(numbers),
        }
        for i in range(draw(st.integers(0, 3)))
    ]
    loads = [
        {
            "id": f"LD{i}",
            "kind": "pointLoad",
            "at": draw(st.sampled_from(ids)),
            "value": draw(numbers),
            "angleDeg": draw(numbers),
            "flip": draw(st.sampled_from([1, -1, 0, "1"])),
        }
        for i in range(draw(st.integers(0, 3)))
    ]
    return {"points": points, "links": links, "supports": supports, "loads": loads}


@FAST
@given(structures())
def test_solver_on_hostile_structures(model: dict) -> None:
    try:
        result = solve(model)
    except (ModelFormatError, UnstableStructureError) as error:
        assert str(error)
    else:
        assert all(math.isfinite(r["value"]) for r in result["reactions"])
        json.dumps(result)


@FAST
@given(st.text(max_size=3000))
def test_grid_scorer_on_any_text(reply: str) -> None:
    result = score_grid(INPUT, TRUTH, reply)
    assert result.valid_output_grid or result.invalid_reason
    assert all(math.isfinite(v) for v in result.metrics().values())


@FAST
@given(st.lists(st.lists(st.text(max_size=4), max_size=6), max_size=6))
def test_grid_scorer_on_any_grid(grid: list[list[str]]) -> None:
    result = score_grid(INPUT, TRUTH, grid)
    assert result.valid_output_grid == (result.invalid_reason is None)


@FAST
@given(st.text(max_size=500))
def test_answer_parser_on_any_text(reply: str) -> None:
    parsed = parse_answer(reply)
    assert parsed.answer in (True, False, None) and 0 <= parsed.rule <= 6
