"""OpenSeeSimE's built-in baselines, which need no language model: always the first choice, or a seeded draw."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Mapping
from typing import Any

from mechbench.benchmarks.openseesime.protocol import letter
from mechbench.core.errors import BaselineInputError
from mechbench.registry import Baseline

BENCHMARK = "openseesime"
_CHOICE_LINE = re.compile(r"^([A-Z])\. ", re.MULTILINE)
CHOICES_HEADING = "Answer choices:"


def is_choice_prompt(prompt: str) -> bool:
    """The prompt asks an OpenSeeSimE multiple-choice question."""
    return CHOICES_HEADING in prompt and bool(_CHOICE_LINE.search(prompt))


def _choices(prompt: str) -> int:
    if not is_choice_prompt(prompt):
        raise BaselineInputError("this baseline answers multiple-choice questions only (OpenSeeSimE prompts)")
    return len(_CHOICE_LINE.findall(prompt.split(CHOICES_HEADING, 1)[1]))


def first_choice(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """Always the first choice (A)."""
    _choices(prompt)
    return letter(0)


def random_choice(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """A choice drawn at random, seeded per prompt."""
    count = _choices(prompt)
    digest = hashlib.sha256(f"{seed}\0{prompt}".encode()).digest()
    return letter(random.Random(int.from_bytes(digest[:8], "big")).randrange(count))


BASELINES = (
    Baseline("first-choice", BENCHMARK, first_choice, is_choice_prompt, "the first choice (A) every time"),
    Baseline("random", BENCHMARK, random_choice, is_choice_prompt, "a choice at random (seeded per prompt)"),
)
