"""Built-in models of BeamDeflection that need no language model: a seeded random number and always zero."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

from mechbench.registry import Baseline

from .items import ANSWER_MARK

BENCHMARK = "beam_deflection"


def is_beam_prompt(prompt: str) -> bool:
    """The prompt asks for a midspan deflection."""
    return "simply supported beam" in prompt and "deflection at midspan" in prompt


def random_answer(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """A deflection between 0 and 100 mm, seeded per prompt."""
    digest = hashlib.sha256(f"{seed}\0{prompt}".encode()).digest()
    return f"{ANSWER_MARK} {random.Random(int.from_bytes(digest[:8], 'big')).uniform(0, 100):.2f}"


def zero(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """No deflection at all."""
    return f"{ANSWER_MARK} 0"


BASELINES = (
    Baseline("random", BENCHMARK, random_answer, is_beam_prompt, "a deflection between 0 and 100 mm (seeded)"),
    Baseline("zero", BENCHMARK, zero, is_beam_prompt, "no deflection"),
)
