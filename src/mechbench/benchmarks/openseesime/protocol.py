"""OpenSeeSimE's multiple-choice protocol: the prompt with lettered choices and the first-line answer rule.

The model sees the result (an image, or 8 consecutive frames centred on the video's middle frame), the
question and its answer choices, and answers on the first line. The first line (after any inline reasoning)
decides: a choice letter (``B``, ``(B)``, ``B.``, ``B) …``), or the text of one choice exactly; anything
else is no answer. Decoding is greedy (temperature 0).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from mechbench.core.errors import BaselineInputError
from mechbench.registry import Cluster

VIDEO_FRAMES = 8
CLUSTER = Cluster("simulation", "simulation")
"""The questions about one simulation are one cluster: its ``source_file`` (its media file where that is missing)."""
TEMPERATURE = 0.0
LETTERS = string.ascii_uppercase
_LETTER = re.compile(r"^\W{0,3}(?:answer\W{0,3})?\(?([A-Za-z])\)?(?:[.):\s]|$)", re.IGNORECASE)


def letter(index: int) -> str:
    """The letter of choice ``index`` (0 → A)."""
    return LETTERS[index]


def prompt(question: str, choices: list[str]) -> str:
    """The question, the lettered choices, and the answer instruction."""
    lines = "\n".join(f"{letter(i)}. {choice}" for i, choice in enumerate(choices))
    return (
        f"{question}\n\n{CHOICES_HEADING}\n{lines}\n\n"
        f"Answer with the letter of the correct choice ({letter(0)}–{letter(len(choices) - 1)}) on the first line."
    )


@dataclass(frozen=True)
class Choice:
    """The choice a reply names (None: no answer) and the first line it was read from."""

    index: int | None
    line: str


def parse_choice(reply: str, choices: list[str]) -> Choice:
    """The choice named on the reply's first non-empty line."""
    first = next((line.strip() for line in (reply or "").splitlines() if line.strip()), "")
    match = _LETTER.match(first)
    if match:
        index = LETTERS.index(match.group(1).upper())
        if index < len(choices):
            return Choice(index, first)
    lowered = first.lower().rstrip(".")
    for index, choice in enumerate(choices):
        if lowered == choice.strip().lower().rstrip("."):
            return Choice(index, first)
    return Choice(None, first)


_CHOICE_LINE = re.compile(r"^([A-Z])\. ", re.MULTILINE)
CHOICES_HEADING = "Answer choices:"


def is_choice_prompt(prompt: str) -> bool:
    """The prompt asks an OpenSeeSimE multiple-choice question."""
    return CHOICES_HEADING in prompt and bool(_CHOICE_LINE.search(prompt))


def choice_count(prompt: str) -> int:
    """How many choices an OpenSeeSimE prompt lists (a usage error for any other prompt)."""
    if not is_choice_prompt(prompt):
        raise BaselineInputError("this baseline answers multiple-choice questions only (OpenSeeSimE prompts)")
    return len(_CHOICE_LINE.findall(prompt.split(CHOICES_HEADING, 1)[1]))
