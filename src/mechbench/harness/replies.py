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
# One scan finds every reasoning tag (bounded repetition: linear on any text); the pairing below walks that list
# once, so a reply of a million tags costs what a million characters cost.
_TAG = re.compile(r"<(/?)(" + "|".join(REASONING_TAGS) + r")\b[^>]{0,200}>", re.IGNORECASE)
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
    closing tag. Linear in the reply's length whatever it holds.
    """
    text = text or ""
    kept: list[str] = []
    position = 0
    closed = stray = False
    opened_at: int | None = None
    open_name = ""
    for match in _TAG.finditer(text):
        start, end, closing, name = match.start(), match.end(), match.group(1) == "/", match.group(2).lower()
        if opened_at is None:
            if not closing:
                kept.append(text[position:start])
                opened_at, open_name = start, name
            elif not stray:  # the first closing tag with nothing open: the reply began mid-reasoning
                kept, position, stray = [], end, True
        elif closing and name == open_name:
            closed, opened_at, position = True, None, end
    if opened_at is None:
        kept.append(text[position:])
    return Reply(
        answer="".join(kept).strip(),
        had_reasoning=bool(closed or stray or opened_at is not None),
        cut_in_reasoning=opened_at is not None,
    )


def tagged_blocks(text: str, opening: str, closing: str) -> list[str]:
    """The text between each ``opening`` marker and the next ``closing`` one (literal, case-insensitive), in order;
    one linear scan however many markers the text holds."""
    pattern = re.compile(f"({re.escape(opening)})|({re.escape(closing)})", re.IGNORECASE)
    blocks, start = [], None
    for match in pattern.finditer(text):
        if match.group(1) is not None and start is None:
            start = match.end()
        elif match.group(2) is not None and start is not None:
            blocks.append(text[start : match.start()])
            start = None
    return blocks


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
