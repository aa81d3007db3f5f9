"""SeeSim's shortcut panel: answers a model could give without the skill, run as built-in models.

- ``majority``: each question's more common answer, learned elsewhere (a prior over the question alone);
- ``text-only``: a word model of the question text learned elsewhere (a media-blind answerer: it never sees the
  simulation);
- ``keyword``: answers from words in the simulation's report, the lines its media's details box prints ("laminar",
  "LES", "steady", "isothermal", "cyclic", …), the way a label that restates an answer can be read.

The priors are learned from raw answers of another generated set (:data:`PRIOR_FILE`: before the generator balances
them, so they carry the generator's own bias), never from the set scored; ``-M prior=PATH`` learns them from another
copy (a SeeSim questions file, or a generated set's folder). Together with ``always-true``, ``always-false`` and
``random`` they make the panel the report shows beside the leaderboard.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mechbench.core.errors import BaselineInputError

PRIOR_FILE = Path(__file__).with_name("shortcut_prior.json")
"""The default prior: raw answers of a generated set with a seed no shipped set uses (see its ``source``)."""
_WORD = re.compile(r"[a-z]+")
_QUESTION = re.compile(r"Question: (.*) \(True/False\)")
STOP_WORDS = frozenset(
    (
        "a",
        "an",
        "the",
        "is",
        "are",
        "be",
        "by",
        "of",
        "in",
        "to",
        "this",
        "for",
        "any",
        "or",
        "and",
        "does",
        "do",
        "can",
        "could",
        "would",
        "there",
        "it",
    )
)

# Regime words a report may state, and whether a report line with them says yes (+1) or no (-1) to a question
# naming the first group. Found by reading the published and the generated reports' settings lines.
KEYWORDS: tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    # (words in the question, report words meaning yes, report words meaning no)
    (("laminar",), ("laminar",), ("les", "smagorinsky", "turbulen", "k-epsilon", "k-omega", "sst")),
    (("turbulent",), ("les", "smagorinsky", "turbulen", "k-epsilon", "k-omega", "sst"), ("laminar",)),
    (("steady",), ("steady",), ("transient",)),
    (("transient",), ("transient",), ("steady",)),
    (("convection", "buoyancy"), ("boussinesq", "buoyancy", "natural convection"), ("isothermal", "gravity off")),
    (("thermal",), ("thermal stress", "temperature change", "heated"), ("isothermal", "no temperature", "none")),
    (("fatigue",), ("cyclic", "cycles"), ("applied once",)),
    (("plastic", "plastically", "nonlinear"), ("plastic", "nonlinear"), ("linear elastic",)),
    (("elastic", "elastically"), ("linear elastic",), ("plastic",)),
    (("symmetric", "symmetrically"), ("symmetric",), ("asymmetric",)),
)
NEGATING = ("neglected", "negligible")
"""A question asking whether something can be neglected is answered the other way round."""


def _require(prompt: str) -> str:
    found = _QUESTION.search(prompt)
    if found is None:
        raise BaselineInputError("this baseline answers SeeSim's True/False questions only")
    return found.group(1)


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


def learn_prior(source: Path) -> dict[str, Any]:
    """Answer counts per question id and per question word, from a SeeSim questions file or a generated set's folder
    (whose ``generated.json`` also holds the answers balanced out)."""
    source = Path(source)
    questions: dict[str, list[int]] = {}
    words: dict[str, list[int]] = {}
    if (source / "generated.json").is_file():
        manifest = json.loads((source / "generated.json").read_text(encoding="utf-8"))
        qa = json.loads((source / "benchmark" / "qa-benchmark-with-qids.json").read_text(encoding="utf-8"))
        answers = [
            (qid, value)
            for entry in manifest["files"].values()
            for qid, value in [*entry["answers"].items(), *entry.get("balanced_out", {}).items()]
        ]
        described = (
            f"{source.name}: generator {manifest['generator'].get('version')}, seed {manifest['generator']['seed']}"
        )
    else:
        qa = json.loads(source.read_text(encoding="utf-8"))
        answers = [
            (qid, value)
            for domain in ("structural", "fluid")
            for entry in qa[domain]["files"].values()
            for qid, value in entry["answers"].items()
        ]
        described = source.name
    text = {q["qid"]: q["question"] for domain in ("structural", "fluid") for q in qa[domain]["questions"]}
    for qid, value in answers:
        questions.setdefault(qid, [0, 0])[0 if value else 1] += 1
        for word in set(_words(text.get(qid, ""))):
            words.setdefault(word, [0, 0])[0 if value else 1] += 1
    return {"source": described, "questions": questions, "words": words}


@functools.cache
def _prior(path: str) -> dict[str, Any]:
    source = Path(path)
    if source.suffix == ".json" and source.name != "qa-benchmark-with-qids.json":
        return json.loads(source.read_text(encoding="utf-8"))
    return learn_prior(source)


def prior(context: Mapping[str, Any]) -> dict[str, Any]:
    """The prior a run names (``-M prior=PATH``), else the shipped one."""
    return _prior(str(context.get("prior") or PRIOR_FILE))


def _truth(value: bool) -> str:
    return "True" if value else "False"


def majority(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """The question's more common answer in the prior (True when it never saw the question, or on a tie)."""
    _require(prompt)
    context = context or {}
    true, false = prior(context)["questions"].get(str(context.get("seesim_qid")), [0, 0])
    return _truth(true >= false)


def text_only(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """A naive-Bayes vote of the question's words, learned from the prior (the question text alone, no media)."""
    question = _require(prompt)
    words = prior(context or {})["words"]
    score = 0.0
    for word in set(_words(question)):
        true, false = words.get(word, [0, 0])
        score += math.log((true + 1) / (false + 1))
    return _truth(score >= 0)


def keyword(prompt: str, seed: int = 0, context: Mapping[str, Any] | None = None) -> str:
    """True or False from regime words of the simulation's report (the details box's lines) that the question
    names; True when the report says nothing either way."""
    question = _require(prompt).lower()
    report_path = (context or {}).get("seesim_report")
    report = ""
    if report_path:
        try:
            report = Path(str(report_path)).read_text(encoding="utf-8", errors="replace").lower()
        except OSError:
            report = ""
    if not report:  # the text modality shows the report itself, before the question
        report = prompt.split("Question:", 1)[0].lower()
    report = " ".join(report.split())
    verdict = None
    for asked, yes, no in KEYWORDS:
        if any(word in _words(question) for word in asked):
            hits = sum(report.count(w) for w in yes) - sum(report.count(w) for w in no)
            verdict = None if hits == 0 else hits > 0
            break
    if verdict is None:
        return "True"
    if any(word in question for word in NEGATING):
        verdict = not verdict
    return _truth(verdict)
