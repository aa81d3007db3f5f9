"""Baseline answers that need no language model: they read what they need from the prompt.

Each is a plain function ``prompt -> reply`` so it can be tested without Inspect; the Inspect model
provider (:mod:`mechbench.providers.model`) only adapts them.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from mechbench.benchmarks.sphyr.prompts import FILL_HARD, grid_from_prompt, render_grid


class BaselineInputError(ValueError):
    """The prompt does not hold what a baseline needs (for example no SPhyR grid)."""


def _rng(prompt: str, seed: int) -> random.Random:
    # Seeded per prompt, so a sample's answer does not depend on the order samples run in.
    digest = hashlib.sha256(f"{seed}\0{prompt}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _sphyr_fill(prompt: str, choose: Callable[[bool], str]) -> str:
    try:
        grid = grid_from_prompt(prompt)
    except ValueError as error:
        raise BaselineInputError(f"this baseline answers SPhyR prompts only: {error}") from None
    hard = FILL_HARD in prompt
    return render_grid([[choose(hard) if cell == "V" else cell for cell in row] for row in grid])


def sphyr_empty(prompt: str, seed: int = 0) -> str:
    """Every masked cell empty (0, or 0.0 on hard subjects)."""
    return _sphyr_fill(prompt, lambda hard: "0.0" if hard else "0")


def sphyr_solid(prompt: str, seed: int = 0) -> str:
    """Every masked cell solid (1, or 1.0 on hard subjects)."""
    return _sphyr_fill(prompt, lambda hard: "1.0" if hard else "1")


def _sphyr_random(prompt: str, seed: int = 0) -> str:
    rng = _rng(prompt, seed)
    return _sphyr_fill(prompt, lambda hard: f"{rng.randint(0, 10) / 10:.1f}" if hard else str(rng.randint(0, 1)))


TRUE_FALSE_MARK = "(True/False)"


def always_true(prompt: str, seed: int = 0) -> str:
    """SeeSim baseline: answers True to every question."""
    _require_true_false(prompt)
    return "True"


def always_false(prompt: str, seed: int = 0) -> str:
    """SeeSim baseline: answers False to every question."""
    _require_true_false(prompt)
    return "False"


def _require_true_false(prompt: str) -> None:
    if TRUE_FALSE_MARK not in prompt:
        raise BaselineInputError("this baseline answers True/False questions only (SeeSim prompts)")


def random_answer(prompt: str, seed: int = 0) -> str:
    """Random, seeded per prompt: a random grid completion for SPhyR, True or False for SeeSim.

    SPhyR: 0/1 on easy subjects, one-decimal densities on hard ones.
    """
    if TRUE_FALSE_MARK in prompt:
        return _rng(prompt, seed).choice(["True", "False"])
    return _sphyr_random(prompt, seed)


sphyr_random = random_answer

BASELINES: dict[str, Callable[[str, int], str]] = {
    "empty": sphyr_empty,
    "solid": sphyr_solid,
    "random": random_answer,
    "always-true": always_true,
    "always-false": always_false,
}
