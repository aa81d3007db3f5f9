"""Reading a reply's number and judging it against the solver's truth (plain functions, no Inspect)."""

from __future__ import annotations

import math
import re

from mechbench.harness.replies import split_reply

from .items import ANSWER_MARK, TOLERANCE

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def read_number(reply: str) -> float | None:
    """The number on the reply's ``Answer:`` line (reasoning blocks removed); None when there is none."""
    answer = split_reply(reply).answer
    marked = [line for line in answer.splitlines() if line.strip().startswith(ANSWER_MARK)]
    if not marked:
        return None
    found = _NUMBER.search(marked[-1][len(ANSWER_MARK) + marked[-1].index(ANSWER_MARK) :])
    value = float(found.group()) if found else None
    return value if value is not None and math.isfinite(value) else None


def correct(value: float, truth: float) -> bool:
    """Within :data:`TOLERANCE` of the truth."""
    return abs(value - truth) <= TOLERANCE * abs(truth)
