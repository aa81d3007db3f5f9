"""OpenSeeSimE's part of ``mechbench demo``: the bundled SeeSim simulations as multiple-choice questions, both
domains, the shortcut panel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mechbench.benchmarks.openseesime.baselines import SHORTCUTS

pytestmark = pytest.mark.slow


def test_the_demo_asks_both_domains_of_every_shortcut(demo_run: tuple[Path, str]) -> None:
    out, _ = demo_run
    report = json.loads((out / "report" / "report.json").read_text())
    runs = report["benchmarks"]["openseesime"]["runs"]
    models = {f"mechbench/{name}" for name in SHORTCUTS}
    assert {(r["model_name"], r["domain"]) for r in runs} == {(m, d) for m in models for d in ("structural", "fluid")}
    assert all(r["samples"] >= 18 and 0 < r["accuracy"] < 1 for r in runs)
