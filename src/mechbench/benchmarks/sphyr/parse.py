"""Reading a completed grid out of a model's reply, as the two published SPhyR scorers did.

``current``: the last block of consecutive grid-like lines (two or more whitespace-separated tokens,
each only digits, '.', and the letters L/V/S in either case), so code fences, prose and earlier grids
in a reasoning trace are skipped. ``legacy`` (paper era): every line of the raw reply, split on
whitespace, with no extraction.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from typing import Literal

from mechbench.core.limits import MAX_GRID_SIDE

Parser = Literal["current", "legacy"]
PARSERS: tuple[Parser, ...] = ("current", "legacy")

# A reply longer than this keeps only its end, where the final grid is: bounded work on any input.
MAX_REPLY_CHARS = 1_000_000
_TOKEN = re.compile(r"^[0-9.LVSlvs]+$")
KEPT_ROWS = MAX_GRID_SIDE + 1
"""Rows of a grid the parsers keep: one more than any SPhyR grid has, so an oversized block still reads as too tall
(every published and generated grid is unchanged), and a reply of a million rows keeps no million lists."""


@dataclass(frozen=True)
class ParsedReply:
    """The grid read from a reply (possibly empty) and which lines it came from."""

    grid: list[list[str]]
    first_line: int | None
    """Index of the reply line where the grid starts (None when no grid was found)."""


def _grid_like(tokens: list[str]) -> bool:
    return len(tokens) >= 2 and all(_TOKEN.match(token) for token in tokens)


def grid_blocks(text: str) -> list[list[list[str]]]:
    """Every block of consecutive grid-like lines in ``text``, in order."""
    blocks: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in text[-MAX_REPLY_CHARS:].splitlines():
        tokens = line.split()
        if _grid_like(tokens):
            current.append(tokens)
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def parse_reply(reply: str, parser: Parser = "current") -> ParsedReply:
    """Read the completed grid from ``reply`` with the published ``parser``."""
    if parser not in PARSERS:
        raise ValueError(f"parser must be one of {', '.join(PARSERS)}, got {parser!r}")
    if not isinstance(reply, str):
        reply = "" if reply is None else str(reply)
    reply = reply[-MAX_REPLY_CHARS:]
    lines = reply.splitlines()
    if parser == "legacy":
        rows = [line.split() for line in reply.strip().split("\n", KEPT_ROWS)[:KEPT_ROWS]] if reply.strip() else []
        return ParsedReply(grid=rows, first_line=0 if rows else None)
    # A block taller than any SPhyR grid keeps only its last rows (it reads as too tall either way).
    block: deque[list[str]] = deque(maxlen=KEPT_ROWS)
    start: int | None = None
    best: tuple[deque[list[str]], int | None] = (deque(), None)
    for index, line in enumerate(lines):
        tokens = line.split()  # linear in the reply, which is capped at MAX_REPLY_CHARS
        if _grid_like(tokens):
            if not block:
                start = index
            block.append(tokens)
            best = (block, start)
        else:
            block = deque(maxlen=KEPT_ROWS)
    return ParsedReply(grid=[list(row) for row in best[0]], first_line=best[1])
