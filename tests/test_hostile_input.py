"""Whatever a model writes, the readers end in a result or a specific error: never a crash, never a hang."""

from __future__ import annotations

import functools
import json
import math
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mechbench.benchmarks.seesim.dataset import load_items
from mechbench.benchmarks.seesim.parse import parse_answer
from mechbench.benchmarks.sphyr.dataset import read_records
from mechbench.benchmarks.sphyr.parse import PARSERS
from mechbench.benchmarks.sphyr.scoring import score_grid
from mechbench.benchmarks.structural_eval.check import check_reply
from mechbench.benchmarks.structural_eval.dataset import load_tasks
from mechbench.benchmarks.structural_eval.extract import ReplyFormatError, extract_model_json
from mechbench.core.errors import DataSourceError, ModelFormatError, UnstableStructureError
from mechbench.frame import FrameModel, solve
from mechbench.sources.resolve import bundled

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
    assert_solved_or_refused(model)


def assert_solved_or_refused(model: dict) -> None:
    """A finite, JSON-ready result or a specific error with a message."""
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


# ---- the named hostile categories of each reader -------------------------------------------------------------

hostile_numbers = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, 0.0, -0.0, 10**400, -(10**400), True]),
    st.sampled_from(["1e308", "nan", "", "١", "0x10", None, [], {}]),
    st.floats(allow_nan=True, allow_infinity=True),
)
UNICODE_DIGITS = "٠١۰۱０１⁰¹𝟎𝟏"


@st.composite
def crowded_structures(draw: st.DrawFn) -> dict:
    """Few distinct coordinates and ids, so coincident points (zero-length links) and duplicate ids are common."""
    ids = draw(st.lists(st.sampled_from(["A", "B", "C"]), min_size=1, max_size=5))
    coordinate = st.one_of(st.sampled_from([0, 0.0, 1, 1e-300]), hostile_numbers)
    points = [{"id": i, "x": draw(coordinate), "y": draw(coordinate)} for i in ids]
    ends = st.sampled_from([*ids, "Z"])
    links = [
        {"id": draw(st.sampled_from(["L", "M"])), "a": draw(ends), "b": draw(ends)}
        for _ in range(draw(st.integers(0, 4)))
    ]
    supports = [{"id": "S", "at": draw(ends), "kind": draw(st.sampled_from(["pin", "fixed", "roller"]))}]
    loads = [{"id": "F", "kind": "pointLoad", "at": draw(ends), "value": draw(hostile_numbers), "angleDeg": -90}]
    return {"points": points, "links": links, "supports": supports, "loads": loads}


@FAST
@given(crowded_structures())
def test_solver_on_coincident_points_duplicate_ids_and_hostile_numbers(model: dict) -> None:
    assert_solved_or_refused(model)


def test_schema_refuses_huge_and_deep_models_quickly() -> None:
    from mechbench.core.errors import ModelTooLargeError

    with pytest.raises(ModelTooLargeError, match="100000 points"):
        FrameModel.parse({"points": [{"id": f"P{i}", "x": i, "y": 0} for i in range(100_000)], "links": []})
    deep: object = 1
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(ModelFormatError):
        FrameModel.parse({"points": deep, "links": [], "supports": [], "loads": []})
    with pytest.raises(ReplyFormatError):
        extract_model_json("{" + '"a": [' * 100_000)  # too deep to repair: refused in milliseconds


@FAST
@given(st.text(alphabet=st.sampled_from(list(UNICODE_DIGITS + "01LSV \n")), max_size=400))
def test_grid_scorer_on_unicode_digits(reply: str) -> None:
    result = score_grid(INPUT, TRUTH, reply)
    assert result.valid_output_grid or result.invalid_reason


@FAST
@given(st.binary(max_size=3000))
def test_grid_scorer_on_binary_junk(junk: bytes) -> None:
    result = score_grid(INPUT, TRUTH, junk.decode("latin-1"))
    assert result.valid_output_grid or result.invalid_reason


@FAST
@given(json_values)
def test_grid_scorer_on_any_json_value(value: object) -> None:
    result = score_grid(INPUT, TRUTH, value)  # type: ignore[arg-type]
    assert result.valid_output_grid == (result.invalid_reason is None)


@FAST
@given(st.text(max_size=2000))
def test_structural_judge_never_raises(reply: str) -> None:
    attempt = _judge()(reply)
    assert attempt.explanation and 0.0 <= attempt.ratio <= 1.0


@functools.cache
def _first_bundled_task():
    """The bundled set's first StructuralEval task (loaded once: hypothesis asks for it hundreds of times)."""
    return load_tasks(bundled("structural_eval"))[0]


@functools.cache
def _judge():
    task = _first_bundled_task()
    truth_model, truth = FrameModel.parse(task.raw_model), task.response()
    return lambda reply: check_reply(reply, truth_model, truth, tolerance=0.05, scoring="strict")


# ---- dataset loaders: missing files, wrong types, path traversal in file names --------------------------------

file_names = st.one_of(
    st.sampled_from(["../../../etc/passwd", "/etc/passwd", "..\\x", "a/../../b", "\x00.png", "x" * 5000, ""]),
    st.text(max_size=40),
)


@FAST
@given(st.lists(st.one_of(json_values.map(json.dumps), st.text(max_size=200)), max_size=4))
def test_sphyr_loader_on_any_lines(lines: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "full_easy.jsonl"
        path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
        try:
            records = read_records(path)
        except DataSourceError as error:
            assert str(error)
        else:
            assert all(r.ground_truth for r in records)


@FAST
@given(json_values, json_values, file_names)
def test_structural_loader_on_any_files(model: object, meta: object, image_name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        for sub in ("raw_models", "ground_truth_meta", "images"):
            (data / sub).mkdir(parents=True)
        (data / "raw_models" / "beam_1.json").write_text(json.dumps(model))
        if isinstance(meta, dict):
            meta = {**meta, "image_filename": image_name}
        (data / "ground_truth_meta" / "beam_1.json").write_text(json.dumps(meta))
        try:
            tasks = load_tasks(folder)
        except DataSourceError as error:
            assert str(error)
        else:
            assert all(
                Path(t.image).resolve().is_relative_to(Path(folder).resolve()) or t.image_source == "rendered"
                for t in tasks
            )


@FAST
@given(json_values, file_names)
def test_seesim_loader_on_any_benchmark_file(block: object, file_key: str) -> None:
    raw = {"structural": block}
    if isinstance(block, dict):
        raw = {
            "structural": {"questions": [{"qid": "Q", "question": "?"}], "files": {file_key: {"answers": {"Q": True}}}}
        }
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "benchmark").mkdir()
        (Path(folder) / "benchmark" / "qa-benchmark-with-qids.json").write_text(json.dumps(raw))
        (Path(folder) / "data" / "structural" / "text").mkdir(parents=True)
        (Path(folder) / "data" / "structural" / "text" / "File_1.txt").write_text("report")
        try:
            items, _ = load_items(folder, "text", "structural")
        except DataSourceError as error:
            assert str(error)
        else:
            assert all(Path(i.media).resolve().is_relative_to(Path(folder).resolve()) for i in items)


def test_missing_data_files_are_specific_errors(tmp_path: Path) -> None:
    with pytest.raises(DataSourceError, match="cannot read"):
        read_records(tmp_path / "absent.jsonl")
    with pytest.raises(DataSourceError, match="raw_models"):
        load_tasks(tmp_path)
    with pytest.raises(DataSourceError, match=r"qa-benchmark-with-qids\.json"):
        load_items(tmp_path, "text")


# ---- numbers past Python's limits (red team #20): a bad answer is a scored answer ------------------------------

huge_digits = st.integers(4290, 4400).map(lambda n: "9" * n)
huge_exponents = st.integers(10**5, 10**9).map(lambda e: f"1e{e}")


@pytest.mark.slow
@FAST
@given(huge_digits, st.sampled_from(["x", "y", "E", "value", None]))
def test_structural_judge_on_integers_past_the_int_limit(number: str, key: str | None) -> None:
    text = json.dumps(_first_bundled_task().raw_model)
    if key is None:  # an extra key
        reply = text[:-1] + f', "n": {number}}}'
    else:  # the first value of that key
        reply = re.sub(rf'"{key}": -?[0-9.e+-]+', f'"{key}": {number}', text, count=1)
    attempt = _judge()(reply)
    assert attempt.explanation and 0.0 <= attempt.ratio <= 1.0


@FAST
@given(st.one_of(huge_digits, huge_exponents, huge_exponents.map(lambda t: "-" + t)), st.sampled_from(PARSERS))
def test_grid_scorers_on_numbers_past_every_limit(token: str, parser: str) -> None:
    rows = [list(row) for row in TRUTH]
    rows[0][1] = token
    result = score_grid(INPUT, TRUTH, "\n".join(" ".join(r) for r in rows), parser)  # type: ignore[arg-type]
    for value in result.metrics().values():
        assert math.isfinite(value)
