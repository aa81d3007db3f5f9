"""``mechbench demo``: every benchmark offline on the bundled set, logs and a report."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mechbench.cli import app

runner = CliRunner()


def test_demo_runs_offline_and_writes_the_report(tmp_path: Path) -> None:
    result = runner.invoke(app, ["demo", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    assert "report:" in result.stdout and "StructuralEval" in result.stdout and "SPhyR" in result.stdout
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    weighted = {r["model"]: r["weighted_accuracy"] for r in report["structural"]}
    assert weighted["mockllm/model"] == 1.0 and 0 < weighted["mechbench/replay"] < 1
    steps = {step for by in report["structural_ladder"].values() for d in by.values() for step in d}
    assert {"geometry", "supports", "loads", "correct"} <= steps  # the ladder shows
    assert {r["subject"] for r in report["sphyr"]} and len(report["sphyr"]) == 48  # 16 subjects × 3 baselines
    assert all("topology_score" in r for r in report["sphyr"])
    assert (tmp_path / "report" / "report.html").stat().st_size > 50_000
