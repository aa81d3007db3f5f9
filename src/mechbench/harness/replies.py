"""What part of a model's reply is the answer, and whether the model ran out of budget before giving one.

Reasoning models often write their reasoning inline (``<think>…</think>``) before the answer. Parsers read
only what follows it (the log keeps the whole reply), so a "true" or a grid inside the reasoning is never
taken for the answer. A reply cut off by the output limit while still reasoning has no answer: it is reported
as "budget exhausted", apart from wrong and from unparsable answers, because raising the budget, not the
model's knowledge, is what it says about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspect_ai.model import ModelOutput

REASONING_TAGS = ("think", "thinking", "reasoning", "thought")
_CLOSED = re.compile(r"<(" + "|".join(REASONING_TAGS) + r")\b[^>]{0,200}>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_OPEN = re.compile(r"<(" + "|".join(REASONING_TAGS) + r")\b[^>]{0,200}>", re.IGNORECASE)
_STRAY_CLOSE = re.compile(r"^.*?</(" + "|".join(REASONING_TAGS) + r")\s*>", re.IGNORECASE | re.DOTALL)
REPLAY_EXHAUSTED = "replay_exhausted"
"""Metadata key of a model output past the recorded replies (nothing to replay: not an answer); attempt loops stop
there and keep the last recorded answer."""
BUDGET_STOP_REASONS = ("max_tokens", "model_length")
"""Inspect stop reasons that mean the output limit (or the context) cut the reply off."""


@dataclass(frozen=True)
class Reply:
    """A reply split into its answer and whether reasoning was removed from it."""

    answer: str
    had_reasoning: bool
    cut_in_reasoning: bool
    """The reply ends inside an unclosed reasoning block (nothing after it can be an answer)."""


def split_reply(text: str | None) -> Reply:
    """The answer part of ``text``: closed reasoning blocks removed, an unclosed one cut off with all after it.

    A reply that starts mid-reasoning and closes it (some servers drop the opening tag) keeps what follows the
    closing tag.
    """
    text = text or ""
    answer, closed = _CLOSED.subn("", text)
    stray = _STRAY_CLOSE.match(answer)
    stray = stray if stray and not _OPEN.search(answer[: stray.end()]) else None
    if stray:
        answer = answer[stray.end() :]
    opened = _OPEN.search(answer)
    if opened:
        answer = answer[: opened.start()]
    return Reply(answer=answer.strip(), had_reasoning=bool(closed or stray or opened), cut_in_reasoning=bool(opened))


def budget_exhausted(output: ModelOutput | None, reply: Reply) -> bool:
    """The output limit stopped the model before it gave an answer (nothing left once reasoning is removed)."""
    return stop_reason(output) in BUDGET_STOP_REASONS and (reply.cut_in_reasoning or not reply.answer)


def stop_reason(output: ModelOutput | None) -> str | None:
    """Why the model stopped (None for no output, or an output with no choices: a malformed API reply)."""
    if output is None or not output.choices:
        return None
    return str(output.choices[0].stop_reason)


def budget_note(output: ModelOutput | None) -> str:
    """``"(stop reason max_tokens, N output tokens)"`` for explanations."""
    tokens = getattr(getattr(output, "usage", None), "output_tokens", None)
    return f"(stop reason {stop_reason(output)}" + (f", {tokens} output tokens)" if tokens else ")")
