"""Built-in models of BeamDeflection that need no language model: the benchmark's shortcut panel.

A built-in model reads the item as data: ``context`` holds the first user message's metadata (``items.inputs``:
span, EI, load kind and value) and the model's arguments (``-M name=value``). Parsing the prompt's words would tie
the model to its wording. Its names (``random``, ``zero``, ``textbook``) are shared with other benchmarks: each
benchmark's entry answers its own prompts (``accepts``), and ``mechbench list`` lists them under one name.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

from mechbench.registry import Baseline

from .items import ANSWER_MARK, BENCHMARK, STRUCTURE


def is_beam_prompt(prompt: str) -> bool:
    """The prompt is one of this benchmark's (a built-in model name shared by several benchmarks is dispatched by
    it)."""
    return prompt.startswith(STRUCTURE)


def random_answer(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """A deflection between 0 and 100 mm, seeded per prompt."""
    digest = hashlib.sha256(f"{seed}\0{prompt}".encode()).digest()
    return f"{ANSWER_MARK} {random.Random(int.from_bytes(digest[:8], 'big')).uniform(0, 100):.2f}"


def zero(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """No deflection at all."""
    return f"{ANSWER_MARK} 0"


def cantilever(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """The right quantities in the wrong formula: the tip deflection of a cantilever (P·L³/3EI, w·L⁴/8EI), read from
    the item's metadata. A model that recalls a formula without the supports scores what this does."""
    item = context or {}
    span, ei, value = float(item["span"]), float(item["ei"]), float(item["value"])
    metres = value * span**3 / (3 * ei) if item["load"] == "point" else value * span**4 / (8 * ei)
    return f"{ANSWER_MARK} {metres * 1000:.4g}"


BASELINES = (
    Baseline("random", BENCHMARK, random_answer, is_beam_prompt, "a deflection between 0 and 100 mm (seeded)"),
    Baseline("zero", BENCHMARK, zero, is_beam_prompt, "no deflection"),
    Baseline("textbook", BENCHMARK, cantilever, is_beam_prompt, "the cantilever's tip deflection (the wrong supports)"),
)
SHORTCUTS = ("random", "zero", "textbook")
"""The shortcut panel: the built-in models that must score near nothing (``mechbench validate --shortcuts``)."""
