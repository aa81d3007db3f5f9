"""BeamDeflection in the report: accuracy per model (the report pools runs and draws the leaderboard itself)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mechbench.registry import ReportSpec, accuracy_headline, run_row


def setting(args: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    """Runs compare when their output budget is the same."""
    return f"max_tokens {args.get('max_tokens', 'default')}"


REPORT = ReportSpec(
    headline=accuracy_headline,
    setting=setting,
    rows=lambda log, run: {"runs": [run_row(run)]},
    glossary=(("accuracy", "share of beams whose midspan deflection is within 2 % of the frame solver's"),),
)
