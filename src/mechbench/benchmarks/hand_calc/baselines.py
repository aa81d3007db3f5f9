"""HandCalc's built-in models: ``random`` and the shortcut panel, each answering from what a shortcut can read (the
problem's inputs: its largest load, span, first line or point load, EI), never the truth.

- ``zero``: every quantity 0;
- ``largest-load``: every quantity the largest applied load (or stress) in its unit's number;
- ``textbook``: a formula applied blindly: moments wL²/8 or PL/4, forces half the load, deflections 5wL⁴/384EI or
  PL³/48EI, buckling π²EI/L², principal stresses σx ± |τxy|, a frequency √(k/m)/2π of the first storey alone, a
  collapse load 8Mp/L;
- ``random``: a seeded number within a decade of the largest load's scale, either sign.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Mapping
from typing import Any

from mechbench.registry import Baseline

from .prompts import UNIT_SHOWN
from .protocol import BENCHMARK, MARK


def is_hand_calc(prompt: str) -> bool:
    """The prompt is a HandCalc item."""
    return prompt.startswith(MARK) and "= <number>" in prompt


def _reply(context: Mapping[str, Any], value: Any) -> str:
    asked = context.get("asked") or []
    inputs = context.get("inputs") or {}
    return "\n".join(f"{key} = {value(key, unit, kind, inputs):.6g} {UNIT_SHOWN[unit]}" for key, unit, kind in asked)


def zero(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """Every quantity 0."""
    return _reply(context or {}, lambda *_: 0.0)


def largest_load(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """Every quantity the largest applied load."""
    return _reply(context or {}, lambda key, unit, kind, inputs: float(inputs.get("largest_load", 0.0)))


def _textbook(key: str, unit: str, kind: str, inputs: Mapping[str, float]) -> float:
    span, w, p = inputs.get("span", 0.0), inputs.get("w", 0.0), inputs.get("p", 0.0)
    ei = inputs.get("ei") or 21000.0
    if "sx" in inputs:  # principal stresses from σx alone
        return inputs["sx"] + (abs(inputs["txy"]) if key.endswith("1") else -abs(inputs["txy"]))
    if key == "P_cr":
        return math.pi**2 * ei / span**2
    if kind == "frequency" and inputs.get("mass"):  # one storey alone: √(k/m) / 2π
        return math.sqrt(inputs.get("k", 0.0) / inputs["mass"]) / (2 * math.pi)
    if key.startswith("P_") and inputs.get("mp_beam"):  # a fixed beam's central load at collapse, 8 Mp / L
        return 8 * inputs["mp_beam"] / span
    if kind == "moment":
        return w * span**2 / 8 if w else p * span / 4
    if kind == "deflection":
        return (5 * w * span**4 / (384 * ei) if w else p * span**3 / (48 * ei)) * 1e3
    if kind == "stress" and inputs.get("area"):
        return math.pi**2 * ei / span**2 / inputs["area"] * 1e3
    return (w * span if w else p or inputs.get("largest_load", 0.0)) / 2


def textbook(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """A textbook formula applied blindly."""
    return _reply(context or {}, _textbook)


def random_answer(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """A seeded number within a decade of the problem's load scale, either sign."""
    digest = hashlib.sha256(f"{seed}\0{prompt}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))

    def draw(key: str, unit: str, kind: str, inputs: Mapping[str, float]) -> float:
        scale = max(float(inputs.get("largest_load", 1.0)), 1.0)
        return rng.choice((-1, 1)) * scale * 10 ** rng.uniform(-1, 1)

    return _reply(context or {}, draw)


BASELINES = (
    Baseline("random", BENCHMARK, random_answer, is_hand_calc, "a number within a decade of the load scale (seeded)"),
    Baseline("zero", BENCHMARK, zero, is_hand_calc, "every quantity 0"),
    Baseline("largest-load", BENCHMARK, largest_load, is_hand_calc, "every quantity the largest applied load"),
    Baseline("textbook", BENCHMARK, textbook, is_hand_calc, "wL²/8, PL/4, 5wL⁴/384EI, π²EI/L² … applied blindly"),
)
SHORTCUTS = ("zero", "largest-load", "textbook", "random")
