"""SeeSim's built-in baselines, which need no language model: always True, always False, or a seeded coin."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

from mechbench.benchmarks.seesim.shortcuts import keyword, majority, text_only
from mechbench.core.errors import BaselineInputError
from mechbench.registry import Baseline

BENCHMARK = "seesim"
TRUE_FALSE_MARK = "(True/False)"
"""What the guidelines' prompt asks every question with."""


def is_true_false_prompt(prompt: str) -> bool:
    """The prompt asks a SeeSim true/false question."""
    return TRUE_FALSE_MARK in prompt


def _require(prompt: str) -> None:
    if not is_true_false_prompt(prompt):
        raise BaselineInputError("this baseline answers True/False questions only (SeeSim prompts)")


def always_true(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """Answers True to every question."""
    _require(prompt)
    return "True"


def always_false(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """Answers False to every question."""
    _require(prompt)
    return "False"


def coin(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """True or False, seeded per prompt."""
    _require(prompt)
    sample = (context or {}).get("sample_id")  # the same question of another simulation draws again
    digest = hashlib.sha256(f"{seed}\0{sample}\0{prompt}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big")).choice(["True", "False"])


BASELINES = (
    Baseline("always-true", BENCHMARK, always_true, is_true_false_prompt, "True to every question"),
    Baseline("always-false", BENCHMARK, always_false, is_true_false_prompt, "False to every question"),
    Baseline("random", BENCHMARK, coin, is_true_false_prompt, "True or False at random (seeded per prompt)"),
    Baseline(
        "majority",
        BENCHMARK,
        majority,
        is_true_false_prompt,
        "each question's more common answer, learned on another set (the question alone)",
    ),
    Baseline(
        "text-only",
        BENCHMARK,
        text_only,
        is_true_false_prompt,
        "a word model of the question text learned on another set (never sees the simulation)",
    ),
    Baseline(
        "keyword",
        BENCHMARK,
        keyword,
        is_true_false_prompt,
        "regime words of the report or labels the question names ('laminar', 'LES', 'steady', 'isothermal', 'cyclic')",
    ),
)
SHORTCUTS = ("always-true", "always-false", "random", "majority", "text-only", "keyword")
"""The shortcut panel: what a model scores on SeeSim without the skill (chance: one half)."""
