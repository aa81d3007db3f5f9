"""The replay provider's book: replies by sample id or prompt, attempts in order, clear file errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mechbench.providers.replay import ReplayBook, ReplayFileError


def test_replies_by_id_and_prompt(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"id": "a", "replies": ["first", "second"]},
                {"id": "a", "reply": "third"},
                {"prompt": "What is it?", "reply": "a beam"},
            ]
        )
    )
    book = ReplayBook(path)
    assert [book.reply("a", "", k) for k in range(4)] == ["first", "second", "third", None]  # None: nothing recorded
    assert book.reply(None, "What is it?", 0) == "a beam"
    with pytest.raises(ReplayFileError, match="no recorded reply for sample 'b'"):
        book.reply("b", "other", 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "line 1: not JSON"),
        ('{"id": "a"}', "needs id (or prompt) and reply"),
        ("[1]", "expected an object"),
    ],
)
def test_malformed_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(text)
    with pytest.raises(ReplayFileError, match=re.escape(message)):
        ReplayBook(path)
    with pytest.raises(ReplayFileError, match="cannot read replay file"):
        ReplayBook(tmp_path / "missing.jsonl")
