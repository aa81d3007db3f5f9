"""SPhyR's built-in baselines, which need no language model: they read the grid from the prompt.

``empty`` and ``solid`` fill every masked cell; ``random`` draws each (seeded per prompt); ``retrieval`` and
``retrieval-lookup`` answer with the nearest record of the subject (:mod:`mechbench.benchmarks.sphyr.retrieval`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping
from typing import Any

from mechbench.benchmarks.sphyr.prompts import FILL_HARD, grid_from_prompt, render_grid
from mechbench.benchmarks.sphyr.retrieval import corpus_truths, retrieve
from mechbench.core.errors import BaselineInputError
from mechbench.registry import Baseline

BENCHMARK = "sphyr"


def seeded(prompt: str, seed: int) -> random.Random:
    """A random stream per prompt, so a sample's answer does not depend on the order samples run in."""
    digest = hashlib.sha256(f"{seed}\0{prompt}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def is_sphyr_prompt(prompt: str) -> bool:
    """The prompt holds a SPhyR grid."""
    try:
        grid_from_prompt(prompt)
    except ValueError:
        return False
    return True


def _fill(prompt: str, choose: Callable[[bool], str]) -> str:
    try:
        grid = grid_from_prompt(prompt)
    except ValueError as error:
        raise BaselineInputError(f"this baseline answers SPhyR prompts only: {error}") from None
    hard = FILL_HARD in prompt
    return render_grid([[choose(hard) if cell == "V" else cell for cell in row] for row in grid])


def sphyr_empty(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """Every masked cell empty (0, or 0.0 on hard subjects)."""
    return _fill(prompt, lambda hard: "0.0" if hard else "0")


def sphyr_solid(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """Every masked cell solid (1, or 1.0 on hard subjects)."""
    return _fill(prompt, lambda hard: "1.0" if hard else "1")


def sphyr_random(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """Every masked cell drawn at random: 0/1 on easy subjects, one-decimal densities on hard ones."""
    rng = seeded(prompt, seed)
    return _fill(prompt, lambda hard: f"{rng.randint(0, 10) / 10:.1f}" if hard else str(rng.randint(0, 1)))


def _retrieval(skip_perfect: bool) -> Callable[[str, int, Mapping[str, Any]], str]:
    def answer(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
        context = context or {}
        corpus = context.get("corpus") or context.get("sphyr_corpus")
        name = "retrieval" if skip_perfect else "retrieval-lookup"
        if not corpus:
            raise BaselineInputError(
                f"mechbench/{name} searches the records of the SPhyR subject being asked; run it on mechbench/sphyr "
                "(not replayed samples) or name the records with -M corpus=SUBJECT.jsonl"
            )
        try:
            query = grid_from_prompt(prompt)
        except ValueError as error:
            raise BaselineInputError(f"this baseline answers SPhyR prompts only: {error}") from None
        truths = corpus_truths(corpus, int(context.get("sphyr_rotation", 0)))
        return render_grid(retrieve(query, truths, skip_perfect=skip_perfect))

    return answer


BASELINES = (
    Baseline("empty", BENCHMARK, sphyr_empty, is_sphyr_prompt, "every masked cell empty"),
    Baseline("solid", BENCHMARK, sphyr_solid, is_sphyr_prompt, "every masked cell solid"),
    Baseline("random", BENCHMARK, sphyr_random, is_sphyr_prompt, "every masked cell at random (seeded per prompt)"),
    Baseline("retrieval", BENCHMARK, _retrieval(True), is_sphyr_prompt, "the nearest other record's truth"),
    Baseline(
        "retrieval-lookup", BENCHMARK, _retrieval(False), is_sphyr_prompt, "the nearest record's truth (itself too)"
    ),
)
