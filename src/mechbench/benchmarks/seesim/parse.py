"""True/False answers by the evaluation guidelines' rules, in order, on the lower-cased reply.

1. contains "true" and not "false" → True
2. contains "false" and not "true" → False
3. starts with "t" → True
4. starts with "f" → False
5. more "t" than "f" letters → True
6. more "f" than "t" letters → False
An exact tie at rule 5/6 (including a reply with neither letter, such as an empty one) is not an
answer: it is recorded as unparsable and scored wrong. Leading whitespace is ignored for rules 3–4.

Rules 3–6 are fallbacks: they decide replies that name neither answer ("The answer is 42." is True by rule 3). The
published numbers depend on them, so they stay the default; every score records its rule, and the report shows the
share decided by a fallback. ``parser=strict`` accepts only an explicit answer: the word True or the word False,
one of them, in the reply's answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

# Long replies are judged on their first part, which bounds the work on any input.
MAX_REPLY_CHARS = 100_000
Parser = Literal["published", "strict"]
PARSERS: tuple[Parser, ...] = ("published", "strict")
FALLBACK_RULES = (3, 4, 5, 6)
"""The published rules that decide a reply naming neither True nor False."""
STRICT_RULE = 7
"""The rule number recorded for an answer the strict parser accepted."""
_WORDS = re.compile(r"\b(true|false)\b")


@dataclass(frozen=True)
class ParsedAnswer:
    """The answer (None when unparsable) and the rule that decided it (0 for an exact tie)."""

    answer: bool | None
    rule: int

    @property
    def label(self) -> str:
        return {True: "True", False: "False", None: "unparsable"}[self.answer]

    @property
    def fallback(self) -> bool:
        """Decided by a fallback rule: the reply named neither True nor False."""
        return self.rule in FALLBACK_RULES


def parse_answer(reply: str | None, parser: Parser = "published") -> ParsedAnswer:
    """Classify a reply as True/False with the six published rules, or (``strict``) only when it names one."""
    text = (reply or "")[:MAX_REPLY_CHARS].lower()
    if parser == "strict":
        named = set(_WORDS.findall(text))
        return ParsedAnswer(named == {"true"}, STRICT_RULE) if len(named) == 1 else ParsedAnswer(None, 0)
    has_true, has_false = "true" in text, "false" in text
    if has_true and not has_false:
        return ParsedAnswer(True, 1)
    if has_false and not has_true:
        return ParsedAnswer(False, 2)
    stripped = text.lstrip()
    if stripped.startswith("t"):
        return ParsedAnswer(True, 3)
    if stripped.startswith("f"):
        return ParsedAnswer(False, 4)
    t, f = text.count("t"), text.count("f")
    if t > f:
        return ParsedAnswer(True, 5)
    if f > t:
        return ParsedAnswer(False, 6)
    return ParsedAnswer(None, 0)


def majority(answers: list[bool | None]) -> bool | None:
    """Majority vote of per-frame answers; unparsable frames abstain; a tie is no answer."""
    yes = sum(a is True for a in answers)
    no = sum(a is False for a in answers)
    if yes == no:
        return None
    return yes > no
