"""Reading a reply's number and judging it against the solver's truth (plain functions, no Inspect).

The reader is as lenient as the published benchmarks' answer extraction: chat models decorate their answer line
(``**Answer:** 4.5``, ``Final answer: $4.5$ mm``, ``Answer: \\boxed{4.5}``), and a decorated right answer is right.
Only the number is taken from the last answer line, so a reply that changes its mind counts its last word.
"""

from __future__ import annotations

import math
import re

from mechbench.harness.replies import split_reply

from .items import ANSWER_MARK, TOLERANCE

_NUMBER = re.compile(r"[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_MARKUP = re.compile(r"[*_`$#>]|\\boxed|\\text|\\mathrm|[{}]")
_MARK = re.compile(r"^\s*(?:final\s+)?" + re.escape(ANSWER_MARK.rstrip(":")) + r"\s*:", re.IGNORECASE)


def read_number(reply: str) -> float | None:
    """The first number on the reply's last ``Answer:`` line (reasoning blocks and markup removed; ``Final answer:``
    and any letter case count); None when there is none or it is not finite."""
    marked = [
        _MARK.sub("", plain, count=1)
        for plain in (_MARKUP.sub("", line) for line in split_reply(reply).answer.splitlines())
        if _MARK.match(plain)
    ]
    found = _NUMBER.search(marked[-1]) if marked else None
    if found is None:
        return None
    value = float(found.group().replace("−", "-"))
    return value if math.isfinite(value) else None


def correct(value: float, truth: float) -> bool:
    """Within :data:`TOLERANCE` of the truth."""
    return abs(value - truth) <= TOLERANCE * abs(truth)
