"""OpenSeeSimE's shortcut panel: answers a model could give without looking at the simulation.

- ``first-choice`` and ``last-choice``: a position bias;
- ``majority``: each question's most common correct choice, learned elsewhere (the question text alone: a
  media-blind answerer);
- ``random``: a seeded draw.

The prior is learned from raw answers and figures of a generated SeeSim set whose seed no shipped set uses
(:data:`PRIOR_FILE`), never from the set scored; ``-M prior=PATH`` learns it from another generated SeeSim set.
Published OpenSeeSimE sets have no text report, so no keyword reader is run on them.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mechbench.benchmarks.openseesime.generated_set import VALUE_QUESTIONS, range_choices, range_index
from mechbench.benchmarks.openseesime.protocol import CHOICES_HEADING, choice_count, letter

PRIOR_FILE = Path(__file__).with_name("shortcut_prior.json")
_CHOICE = re.compile(r"^[A-Z]\. (.*)$", re.MULTILINE)


def learn_prior(seesim_set: Path) -> dict[str, Any]:
    """Correct-answer counts per question text, from a generated SeeSim set's raw answers (those balanced out too)
    and its printed figures (the range each falls in)."""
    manifest = json.loads((seesim_set / "generated.json").read_text(encoding="utf-8"))
    qa = json.loads((seesim_set / "benchmark" / "qa-benchmark-with-qids.json").read_text(encoding="utf-8"))
    counts: dict[str, dict[str, int]] = {}
    for key, entry in manifest["files"].items():
        domain = key.split("/")[0]
        wording = {q["qid"]: q["question"] for q in qa[domain]["questions"]}
        for qid, value in [*entry["answers"].items(), *entry.get("balanced_out", {}).items()]:
            answer = "Yes" if value else "No"
            row = counts.setdefault(wording[qid], {})
            row[answer] = row.get(answer, 0) + 1
        for fact, question, unit, edges in VALUE_QUESTIONS[domain]:
            value = entry["facts"].get(fact)
            if isinstance(value, int | float) and (position := range_index(float(value), edges)) is not None:
                answer = range_choices(edges, unit)[position]
                row = counts.setdefault(question, {})
                row[answer] = row.get(answer, 0) + 1
    generator = manifest["generator"]
    return {
        "source": f"generated SeeSim set, generator {generator.get('version')}, seed {generator['seed']}",
        "questions": counts,
    }


@functools.cache
def _prior(path: str) -> dict[str, Any]:
    source = Path(path)
    return json.loads(source.read_text(encoding="utf-8")) if source.is_file() else learn_prior(source)


def last_choice(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """Always the last choice."""
    return letter(choice_count(prompt) - 1)


def majority(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """The choice most often correct for this question in the prior (the first choice when it never saw it)."""
    count = choice_count(prompt)
    question, listed = prompt.split(CHOICES_HEADING, 1)
    choices = _CHOICE.findall(listed)[:count]
    seen = _prior(str((context or {}).get("prior") or PRIOR_FILE))["questions"].get(question.strip(), {})
    best = max(range(len(choices)), key=lambda k: (seen.get(choices[k], 0), -k)) if choices else 0
    return letter(best)
