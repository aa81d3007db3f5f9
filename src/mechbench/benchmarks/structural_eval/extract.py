"""Getting the FrameCalc JSON out of a model's reply.

Looked for in order: ``<json>…</json>`` tags, ``<|begin_of_box|>…<|end_of_box|>`` markers, fenced code
blocks (the last one that parses), then the outermost braces. Broken JSON is repaired with
json-repair; what cannot be read as a JSON object raises :class:`ReplyFormatError` with the reason.
"""

from __future__ import annotations

import re
from typing import Any

import json_repair

from mechbench.core import safejson
from mechbench.core.errors import MechbenchError
from mechbench.harness.replies import tagged_blocks

# Replies longer than this are not structural models; bounding them bounds the repair work.
MAX_REPLY_CHARS = 500_000
_LANGUAGE = re.compile(r"[a-zA-Z]{0,20}\s{0,20}")
"""A fenced block's language tag and the blank after it."""
# A FrameCalc model nests about five deep; repairing text nested far deeper costs seconds and cannot give a model.
MAX_REPAIR_DEPTH = 64


class ReplyFormatError(MechbenchError):
    """No JSON object could be read from a reply."""


def _bracket_depth(text: str) -> int:
    """Deepest nesting of brackets and braces outside strings (a cheap bound, not a parser)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(0, depth - 1)
    return deepest


def _fenced(reply: str) -> list[str]:
    """The contents of the reply's fenced code blocks (one split: linear however many fences it holds)."""
    parts = reply.split("```")
    return [_LANGUAGE.sub("", part, count=1) if _LANGUAGE.match(part) else part for part in parts[1:-1:2]]


def _candidates(reply: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for where, blocks in (
        ("<json> tags", tagged_blocks(reply, "<json>", "</json>")),
        ("box markers", tagged_blocks(reply, "<|begin_of_box|>", "<|end_of_box|>")),
        ("a fenced block", _fenced(reply)),
    ):
        found.extend((where, block) for block in reversed(blocks))
    start, end = reply.find("{"), reply.rfind("}")
    if start >= 0 and end > start:
        found.append(("the outermost braces", reply[start : end + 1]))
    elif start >= 0:
        found.append(("an unterminated object", reply[start:]))  # truncated replies: repair may recover
    return found


def extract_model_json(reply: str) -> tuple[dict[str, Any], str]:
    """The JSON object in ``reply`` and how it was found (e.g. ``"a fenced block, repaired"``)."""
    if not isinstance(reply, str) or not reply.strip():
        raise ReplyFormatError("the reply is empty")
    if len(reply) > MAX_REPLY_CHARS:
        raise ReplyFormatError(f"the reply is {len(reply)} characters long; at most {MAX_REPLY_CHARS} are read")
    # Lone surrogates (possible in a Python str, never in UTF-8) become U+FFFD instead of failing later.
    reply = reply.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    candidates = _candidates(reply)
    if not candidates:
        raise ReplyFormatError("the reply contains no JSON object (no '{' found)")
    for where, text in candidates:
        try:
            value = safejson.loads(text)
        except ValueError:  # JSONDecodeError or JSONNestingError
            continue
        if isinstance(value, dict):
            return value, where
    for where, text in candidates:
        if _bracket_depth(text) > MAX_REPAIR_DEPTH:
            continue
        try:
            value = json_repair.loads(text)
        except Exception:
            continue
        if isinstance(value, dict) and value:
            return value, f"{where}, repaired"
    raise ReplyFormatError(f"the JSON in the reply could not be read, even after repair (tried {candidates[0][0]})")
