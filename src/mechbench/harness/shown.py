"""Text made fit for logs, reports and terminals: lone surrogates replaced, escapes shown, credentials in URLs
masked, length bounded."""

from __future__ import annotations

from typing import Any

from mechbench.core.text import clean, redact_url

MAX_SHOWN_CHARS = 300
"""Longest text a report shows from a log (model names, arguments, explanations); beyond it the text is cut."""


def shown(value: Any) -> Any:
    """Log text fit for a report: cleaned (:func:`clean`), credentials in URLs masked, cut to
    :data:`MAX_SHOWN_CHARS` (figures and tables stay bounded whatever a log holds). Other values pass through."""
    if not isinstance(value, str):
        return value
    value = clean(value)
    if len(value) > MAX_SHOWN_CHARS:
        value = value[: MAX_SHOWN_CHARS - 1] + "…"
    return redact_url(value)


def _loggable(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8") if not value.isascii() else value
    if isinstance(value, list):
        return [_loggable(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_loggable(v) for v in value)
    if isinstance(value, dict):
        return {_loggable(k): _loggable(v) for k, v in value.items()}
    return value


def loggable_dataset(dataset: Any) -> Any:
    """``dataset`` with every lone surrogate in its samples' text, targets and metadata replaced by ``?``.

    One such character (from a data file, never a valid UTF-8 text) makes Inspect's log writer fail the whole task;
    replaced, the sample runs and the others are kept. Everything else is left exactly as it was.
    """
    for sample in dataset:
        if isinstance(sample.input, str):
            sample.input = _loggable(sample.input)
        else:
            for message in sample.input:
                if isinstance(message.content, str):
                    message.content = _loggable(message.content)
                if message.metadata:
                    message.metadata = _loggable(message.metadata)
        sample.target = _loggable(sample.target)
        if sample.metadata:
            sample.metadata = _loggable(sample.metadata)
    return dataset
