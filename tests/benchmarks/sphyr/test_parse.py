"""Reading grids out of replies with the current and legacy parsers."""

from __future__ import annotations

from mechbench.benchmarks.sphyr.parse import MAX_REPLY_CHARS, parse_reply

GRID = "L L 0\n0 1 0\nS S 0"
ROWS = [["L", "L", "0"], ["0", "1", "0"], ["S", "S", "0"]]


def test_plain_grid() -> None:
    assert parse_reply(GRID).grid == ROWS


def test_fenced_and_prefixed_reply() -> None:
    reply = f"Here is the completed grid:\n\n```\n{GRID}\n```\nHope this helps."
    assert parse_reply(reply).grid == ROWS


def test_reasoning_trace_keeps_the_last_grid() -> None:
    draft = "L L 1\n1 1 1\nS S 1"
    reply = f"<think>First try:\n{draft}\nToo much material.</think>\nFinal answer:\n{GRID}"
    assert parse_reply(reply).grid == ROWS


def test_trailing_spaces_are_harmless() -> None:
    assert parse_reply("L L 0  \n0 1 0  \nS S 0  ").grid == ROWS


def test_ragged_and_extra_column_are_read_as_written() -> None:
    assert parse_reply("L L 0\n0 1\nS S 0").grid[1] == ["0", "1"]
    assert parse_reply("L L 0 0\n0 1 0 0\nS S 0 0").grid[0] == ["L", "L", "0", "0"]


def test_lowercase_letters_count_as_grid_tokens() -> None:
    assert parse_reply("l l 0\n0 1 0\ns s 0").grid[0] == ["l", "l", "0"]


def test_empty_and_prose_only_replies_give_no_grid() -> None:
    assert parse_reply("").grid == []
    assert parse_reply("I cannot solve this.").grid == []
    assert parse_reply(None).grid == []  # type: ignore[arg-type]


def test_single_token_lines_are_not_grid_lines() -> None:
    assert parse_reply("1\n0\n1").grid == []


def test_enormous_reply_is_bounded() -> None:
    reply = ("0 1 " * 50 + "\n") * 50_000 + GRID
    assert len(reply) > 10 * MAX_REPLY_CHARS
    parsed = parse_reply(reply)
    assert parsed.grid[-3:] == ROWS
    # Bounded by what it reads, not by a clock: the reply's tail at the cap gives the same parse.
    assert parse_reply(reply[-MAX_REPLY_CHARS:]) == parsed


def test_legacy_parser_splits_every_line() -> None:
    reply = f"```\n{GRID}\n```"
    grid = parse_reply(reply, "legacy").grid
    assert grid[0] == ["```"] and grid[1] == ["L", "L", "0"]
