"""Scores that measure the skill: every shortcut of a benchmark's panel is at chance on mechbench's generated sets,
nonsense is decided by a fallback the log and report show (and by nothing under the strict parser), and the
keyword reader really reads the labels it would exploit."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench import registry
from mechbench.benchmarks.openseesime.generated_set import RANGE_CHOICES, VALUE_RANGE, rows
from mechbench.benchmarks.seesim.protocol import QUESTION_TEMPLATE
from mechbench.benchmarks.seesim.shortcuts import keyword
from mechbench.conformance.shortcuts import run_shortcuts
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.report import build_report
from mechbench.report.build import COIN
from mechbench.sources.resolve import bundled
from mechbench.tasks import seesim

NONSENSE = "The answer is 42."


def within_chance(panel: list[dict]) -> None:
    assert panel
    for row in panel:
        assert row["chance"] is not None and not row["beats_chance"], row
        # The coin is one draw whose expectation is chance on any set: only a far-off draw (3 SE) is suspicious.
        errors = 3 if row["model"] == COIN else 2
        assert abs(row["value"] - row["chance"]) <= errors * row["ci95"] / 1.96 + 1e-9, row
    assert all(row["verdict"] != "BEATS CHANCE (by more than 2 SE)" for row in panel)


def test_every_question_of_the_bundled_sets_is_balanced() -> None:
    qa = json.loads((bundled("seesim") / "benchmark" / "qa-benchmark-with-qids.json").read_text())
    for domain in ("structural", "fluid"):
        counts: dict[str, Counter] = {}
        for entry in qa[domain]["files"].values():
            for qid, answer in entry["answers"].items():
                counts.setdefault(qid, Counter())[answer] += 1
        assert counts and all(c[True] == c[False] for c in counts.values()), counts
        for row_set in [rows(bundled("seesim"), domain)]:
            by_type = Counter((r["question_type"], r["correct_choice_idx"]) for r in row_set)
            for kind in {k for k, _ in by_type}:
                places = [by_type[(kind, k)] for k in range(RANGE_CHOICES if kind == VALUE_RANGE else 2)]
                assert len(set(places)) == 1, (kind, places)  # the correct choice as often in every place


@pytest.mark.parametrize("name", ["seesim", "openseesime"])
def test_the_shortcut_panel_is_at_chance_on_the_bundled_sets(name: str, tmp_path: Path) -> None:
    entry = registry.spec(name)
    assert entry is not None and len(entry.shortcuts) >= 4
    panel = run_shortcuts(name, {"data": "bundled"}, tmp_path)
    assert {r["model"] for r in panel} == {f"mechbench/{s}" for s in entry.shortcuts}
    within_chance(panel)


def test_nonsense_is_decided_by_a_fallback_the_log_and_report_show_and_strict_reads_nothing(tmp_path: Path) -> None:
    task = seesim(data="bundled", modality="text")
    replies = tmp_path / "nonsense.jsonl"
    replies.write_text("".join(json.dumps({"id": s.id, "reply": NONSENSE}) + "\n" for s in task.dataset))
    truths = [s.target == "True" for s in task.dataset]
    (published,) = inspect_eval(
        task, model="mechbench/replay", model_args={"file": str(replies)}, log_dir=str(tmp_path), **QUIET_EVAL
    )
    metrics = {k: v.value for s in published.results.scores for k, v in s.metrics.items()}
    assert metrics["fallback"] == 1.0  # every answer decided by rule 3 ("starts with t")
    assert metrics["accuracy"] == pytest.approx(sum(truths) / len(truths))  # read as True throughout
    strict = seesim(data="bundled", modality="text", parser="strict")
    (log,) = inspect_eval(
        strict, model="mechbench/replay", model_args={"file": str(replies)}, log_dir=str(tmp_path), **QUIET_EVAL
    )
    metrics = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    assert metrics["accuracy"] == 0.0 and metrics["unparsable"] == len(task.dataset) and metrics["fallback"] == 0.0
    rows_ = {r["setting"]: r for r in build_report(tmp_path).leaderboard}
    assert {round(r["repaired"], 6) for r in rows_.values()} == {1.0, 0.0}
    assert {round(r["unreadable"], 6) for r in rows_.values()} == {0.0, 1.0}


@pytest.mark.parametrize(
    ("question", "report", "answer"),
    [
        ("Is this flow laminar?", "Viscous model   laminar", "True"),
        ("Is this flow laminar?", "Viscous model   LES, Smagorinsky", "False"),
        ("Is this flow turbulent?", "Viscous model   LES, Smagorinsky", "True"),
        ("Is the flow steady?", "Analysis type   steady (iterations)", "True"),
        ("Can buoyancy be neglected in this flow?", "Energy equation   off (isothermal)", "True"),
        ("Does natural convection matter in this flow?", "Energy equation   off (isothermal)", "False"),
        ("Can fatigue be neglected for this part?", "fully reversed cyclic load (many cycles)", "False"),
    ],
)
def test_the_keyword_reader_reads_the_labels_that_restate_an_answer(
    question: str, report: str, answer: str, tmp_path: Path
) -> None:
    path = tmp_path / "report.txt"
    path.write_text(report)
    assert keyword(QUESTION_TEMPLATE.format(question=question), 0, {"seesim_report": str(path)}) == answer
