"""Figures at the precision the physics supports: the same set-up gives the same facts and text on any machine.

Results differ between machines in their last bits (BLAS kernels, fused multiply-adds); kept to
:data:`FACT_DIGITS` significant digits, far above round-off and far below the models' discretisation error, they
are identical everywhere. A sum that cancels to round-off is zero, not a tiny number.
"""

from __future__ import annotations

import math

FACT_DIGITS = 6
ROUND_OFF = 1e-9
"""A quantity smaller than this share of the quantities it was computed from is zero up to round-off."""


def significant(value: float, digits: int = FACT_DIGITS) -> float:
    """``value`` rounded to ``digits`` significant digits (zero, infinities and NaN unchanged)."""
    if not math.isfinite(value) or value == 0:
        return float(value)
    return float(round(value, digits - 1 - math.floor(math.log10(abs(value)))))


def rounded(value: object, digits: int = FACT_DIGITS) -> object:
    """Every float in ``value`` (lists, tuples and dicts walked) to ``digits`` significant digits (-0.0 as 0.0)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, float):
        return significant(value, digits) + 0.0
    if isinstance(value, list | tuple):
        return [rounded(v, digits) for v in value]
    if isinstance(value, dict):
        return {k: rounded(v, digits) for k, v in value.items()}
    return value


def ratio(numerator: float, denominator: float) -> float:
    """``|numerator / denominator|`` for two magnitudes whose round-off is not data: a side below
    :data:`ROUND_OFF` of their sum is zero (the ratio 0 or ∞)."""
    total = abs(numerator) + abs(denominator)
    if total == 0 or abs(numerator) < ROUND_OFF * total:
        return 0.0
    if abs(denominator) < ROUND_OFF * total:
        return math.inf
    return abs(numerator) / abs(denominator)
