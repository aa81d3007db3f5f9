"""Getting the JSON model out of replies in every shape models write them."""

from __future__ import annotations

import json

import pytest

from mechbench.benchmarks.structural_eval.extract import MAX_REPLY_CHARS, ReplyFormatError, extract_model_json

MODEL = {"points": [{"id": "P1", "x": 0, "y": 0}], "links": [], "supports": [], "loads": []}
TEXT = json.dumps(MODEL)


@pytest.mark.parametrize(
    ("reply", "found_in"),
    [
        (f"<json>{TEXT}</json>", "<json> tags"),
        (f"Thinking... <JSON>\n{TEXT}\n</JSON> done", "<json> tags"),
        (f"<|begin_of_box|>{TEXT}<|end_of_box|>", "box markers"),
        (f"Here:\n```json\n{TEXT}\n```", "a fenced block"),
        (f"```\n{TEXT}\n```", "a fenced block"),
        (f"The model is {TEXT} as requested.", "the outermost braces"),
    ],
)
def test_finds_the_json(reply: str, found_in: str) -> None:
    data, where = extract_model_json(reply)
    assert data == MODEL and where == found_in


def test_last_fenced_block_wins() -> None:
    draft = json.dumps({**MODEL, "points": []})
    data, _ = extract_model_json(f"```json\n{draft}\n```\nfixed:\n```json\n{TEXT}\n```")
    assert data == MODEL


@pytest.mark.parametrize(
    "broken",
    [
        TEXT[:-1],  # truncated
        TEXT.replace('"x": 0', "'x': 0"),  # single quotes
        TEXT.replace("]", ",]", 1),  # trailing comma
        "{points: [{id: 'P1', x: 0, y: 0}], links: [], supports: [], loads: []}",
    ],
)
def test_repairs_broken_json(broken: str) -> None:
    data, where = extract_model_json(f"```json\n{broken}\n```")
    assert where.endswith("repaired")
    assert data["points"][0]["id"] == "P1"


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ("", "the reply is empty"),
        ("   \n", "the reply is empty"),
        ("a beam on two supports", "no JSON object"),
        ("x" * (MAX_REPLY_CHARS + 1), "characters long"),
    ],
)
def test_unreadable_replies_say_why(reply: str, message: str) -> None:
    with pytest.raises(ReplyFormatError, match=message):
        extract_model_json(reply)


def test_deeply_nested_reply_does_not_crash() -> None:
    with pytest.raises(ReplyFormatError):
        extract_model_json("[" * 100_000 + "{" + "]" * 100_000)
