"""OpenSeeSimE as a mechbench plug-in: its task, report, listing and baselines."""

from __future__ import annotations

from pathlib import Path

from mechbench.benchmarks.openseesime.baselines import BASELINES
from mechbench.benchmarks.openseesime.report import REPORT
from mechbench.benchmarks.openseesime.task import openseesime
from mechbench.plugins import BenchmarkSpec, register

SPEC = register(
    BenchmarkSpec(
        name="openseesime",
        title="OpenSeeSimE",
        task=openseesime,
        report=REPORT,
        order=40,
        listing=Path(__file__).with_name("eval.yaml"),
        baselines=BASELINES,
    )
)
