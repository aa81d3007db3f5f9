"""The guidelines' six answer rules, in order, and the majority vote over frames."""

from __future__ import annotations

import pytest

from mechbench.benchmarks.seesim.parse import majority, parse_answer


@pytest.mark.parametrize(
    ("reply", "answer", "rule"),
    [
        ("True", True, 1),
        ("The answer is TRUE.", True, 1),
        ("false", False, 2),
        ("It is false that the flow is laminar", False, 2),
        ("True or false? I would say true", True, 3),  # both words: falls through to "starts with t"
        ("  tRUE-ish", True, 1),
        ("False, not true", False, 4),
        ("T", True, 3),
        ("F.", False, 4),
        ("Yes, that is correct", True, 5),  # 't' ×3 vs 'f' ×0
        ("Definitely affirmative", False, 6),  # 'f' ×3 vs 't' ×2
        ("Wahr", None, 0),  # German: neither letter, an exact tie
        ("Falsch", False, 4),
        ("Oui", None, 0),
        ("", None, 0),
        (None, None, 0),
    ],
)
def test_rules_in_order(reply: str | None, answer: bool | None, rule: int) -> None:
    parsed = parse_answer(reply)
    assert (parsed.answer, parsed.rule) == (answer, rule)


def test_long_reply_is_bounded() -> None:
    assert parse_answer("x" * 10_000_000 + " true").answer is None  # only the first 100 000 characters count


def test_majority_vote() -> None:
    assert majority([True, True, False]) is True
    assert majority([False, None, False]) is False
    assert majority([True, False]) is None  # a tie is no answer
    assert majority([None, None]) is None
