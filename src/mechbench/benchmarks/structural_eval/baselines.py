"""StructuralEval's built-in models, which need no language model and never look at the drawing: a random
structure and one fixed template structure. They show what a model scores without reading the drawing."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from typing import Any

from mechbench.core.errors import BaselineInputError
from mechbench.frame.generate import generate_structure
from mechbench.registry import Baseline

BENCHMARK = "structural_eval"
PROMPT_MARK = "FrameCalc"
"""What every StructuralEval prompt of mechbench's protocol names."""
TEMPLATE_MODEL: dict[str, Any] = {
    "points": [{"id": "P1", "x": 0, "y": 0}, {"id": "P2", "x": 3, "y": 0}, {"id": "P3", "x": 6, "y": 0}],
    "links": [{"id": "L1", "a": "P1", "b": "P2"}, {"id": "L2", "a": "P2", "b": "P3"}],
    "supports": [
        {"id": "S1", "at": {"type": "point", "id": "P1"}, "kind": "pin", "angleDeg": 0},
        {"id": "S2", "at": {"type": "point", "id": "P3"}, "kind": "roller", "angleDeg": 0},
    ],
    "loads": [{"id": "LD1", "kind": "pointLoad", "at": {"type": "point", "id": "P2"}, "value": 10, "angleDeg": 270}],
}
"""The textbook's first structure: a 6 m simply supported beam with 10 kN at midspan."""


def is_structural_prompt(prompt: str) -> bool:
    """The prompt asks for a FrameCalc model."""
    return PROMPT_MARK in prompt


def _require(prompt: str) -> None:
    if not is_structural_prompt(prompt):
        raise BaselineInputError("this baseline writes FrameCalc models only (StructuralEval prompts)")


def random_structure(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """A random stable structure from mechbench's generator, seeded per prompt (never the drawn one)."""
    _require(prompt)
    digest = hashlib.sha256(f"{seed}\0{prompt}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    _, model = generate_structure(rng, rng.randint(1, 5))
    return json.dumps(model)


def template(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """The same simply supported beam for every drawing."""
    _require(prompt)
    return json.dumps(TEMPLATE_MODEL)


BASELINES = (
    Baseline("random", BENCHMARK, random_structure, is_structural_prompt, "a random structure (seeded per prompt)"),
    Baseline("template", BENCHMARK, template, is_structural_prompt, "one simply supported beam for every drawing"),
)
