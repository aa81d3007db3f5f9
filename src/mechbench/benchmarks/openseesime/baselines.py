"""OpenSeeSimE's built-in baselines, which need no language model: always the first choice, or a seeded draw."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

from mechbench.benchmarks.openseesime.protocol import choice_count, is_choice_prompt, letter
from mechbench.benchmarks.openseesime.shortcuts import last_choice, majority
from mechbench.registry import Baseline

BENCHMARK = "openseesime"


def first_choice(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """Always the first choice (A)."""
    choice_count(prompt)
    return letter(0)


def random_choice(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """A choice drawn at random, seeded per prompt."""
    count = choice_count(prompt)
    sample = (context or {}).get("sample_id")  # the same question of another simulation draws again
    digest = hashlib.sha256(f"{seed}\0{sample}\0{prompt}".encode()).digest()
    return letter(random.Random(int.from_bytes(digest[:8], "big")).randrange(count))


BASELINES = (
    Baseline("first-choice", BENCHMARK, first_choice, is_choice_prompt, "the first choice (A) every time"),
    Baseline("random", BENCHMARK, random_choice, is_choice_prompt, "a choice at random (seeded per prompt)"),
    Baseline("last-choice", BENCHMARK, last_choice, is_choice_prompt, "the last choice every time"),
    Baseline(
        "majority",
        BENCHMARK,
        majority,
        is_choice_prompt,
        "each question's most common correct choice, learned on another set (the question alone)",
    ),
)
SHORTCUTS = ("first-choice", "last-choice", "random", "majority")
"""The shortcut panel: what a model scores on OpenSeeSimE without looking (chance: one over the choices)."""
