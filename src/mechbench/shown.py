"""Text from logs made fit for a report: credentials in URLs masked, length bounded."""

from __future__ import annotations

import re
from typing import Any

from mechbench.data import redact_url

MAX_SHOWN_CHARS = 300
"""Longest text a report shows from a log (model names, arguments, explanations); beyond it the text is cut."""


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """``text`` that any writer accepts and no terminal interprets: lone surrogates replaced, control and ANSI
    escape characters shown as ``\\xNN``."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def shown(value: Any) -> Any:
    """Log text fit for a report: cleaned (:func:`clean`), credentials in URLs masked, cut to
    :data:`MAX_SHOWN_CHARS` (figures and tables stay bounded whatever a log holds). Other values pass through."""
    if not isinstance(value, str):
        return value
    value = clean(value)
    if len(value) > MAX_SHOWN_CHARS:
        value = value[: MAX_SHOWN_CHARS - 1] + "…"
    return redact_url(value)
