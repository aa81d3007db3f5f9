"""StructuralEval protocol choices shared by the task, the solver and the scorer.

``structured=true`` asks providers that support JSON-schema output (Inspect's ``response_schema``; OpenAI,
Google, vLLM and others) for a FrameCalc model directly; the schema is generated from mechbench's pydantic
model of the format, so it never drifts from what the judge accepts. The reply still goes through the same
extraction, schema check and solver, and each attempt's metadata says which path produced it.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from inspect_ai.model import ResponseSchema
from inspect_ai.util import json_schema

from mechbench.frame import FrameModel

Protocol = Literal["mechbench", "official"]
PROTOCOLS: tuple[Protocol, ...] = ("mechbench", "official")
PartialCredit = Literal["last", "best"]
PARTIAL_CREDIT: tuple[PartialCredit, ...] = ("last", "best")
# The release that produced the 2026-01-31 leaderboard rows: 0.1 on the first attempt, 0.4 on retries, and
# partial credit only from the last attempt. (A later runner uses 0.6 / 0.7 and keeps the best attempt.)
LEADERBOARD_TEMPERATURES = (0.1, 0.4)
LEADERBOARD_PARTIAL_CREDIT: PartialCredit = "last"


@cache
def framecalc_response_schema() -> ResponseSchema:
    """The FrameCalc model format as a JSON schema for providers' structured output."""
    return ResponseSchema(
        name="framecalc_model",
        json_schema=json_schema(FrameModel),
        description="A 2D structure in FrameCalc's model format: points, links, supports and loads.",
    )
