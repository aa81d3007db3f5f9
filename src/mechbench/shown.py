"""Text from logs made fit for a report: credentials in URLs masked, length bounded."""

from __future__ import annotations

from typing import Any

from mechbench.data import redact_url

MAX_SHOWN_CHARS = 300
"""Longest text a report shows from a log (model names, arguments, explanations); beyond it the text is cut."""


def shown(value: Any) -> Any:
    """Log text fit for a report: credentials in URLs masked, cut to :data:`MAX_SHOWN_CHARS` (figures and
    tables stay bounded whatever a log holds). Other values pass through."""
    if not isinstance(value, str):
        return value
    if len(value) > MAX_SHOWN_CHARS:
        value = value[: MAX_SHOWN_CHARS - 1] + "…"
    return redact_url(value)
