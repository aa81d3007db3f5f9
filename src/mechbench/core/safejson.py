"""JSON from text mechbench does not control (model replies, data files, results files, logs).

The standard parser raises ``ValueError`` on an integer of more than 4,300 digits (Python's int-to-string
limit), which no caller expects from a JSON reader. Here such an integer reads as a float (±inf when it
is that large), so it reaches the code that checks values and is rejected there with a reason, like any
other out-of-range number. Syntax errors stay :class:`json.JSONDecodeError`; nesting too deep to parse is
:class:`JSONNestingError`, also a ``ValueError``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

MAX_INT_DIGITS = sys.get_int_max_str_digits() or 4300


class JSONNestingError(ValueError):
    """The text nests too deeply to be parsed."""


def _integer(text: str) -> int | float:
    digits = len(text) - (text[0] in "+-")
    return int(text) if digits <= MAX_INT_DIGITS else float(text)


def loads(text: str | bytes) -> Any:
    """``json.loads`` that accepts integers of any length (as floats beyond the int limit)."""
    try:
        return json.loads(text, parse_int=_integer)
    except RecursionError:
        raise JSONNestingError("the JSON nests too deeply to be read") from None
