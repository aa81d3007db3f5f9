"""SeeSim's built-in baselines, which need no language model: always True, always False, or a seeded coin."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

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
    digest = hashlib.sha256(f"{seed}\0{prompt}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big")).choice(["True", "False"])


BASELINES = (
    Baseline("always-true", BENCHMARK, always_true, is_true_false_prompt, "True to every question"),
    Baseline("always-false", BENCHMARK, always_false, is_true_false_prompt, "False to every question"),
    Baseline("random", BENCHMARK, coin, is_true_false_prompt, "True or False at random (seeded per prompt)"),
)
