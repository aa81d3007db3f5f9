"""``mechbench demo``: runs offline on bundled data and writes its report."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mechbench.cli import app
from mechbench.examples import example_names, load_example
from mechbench.frame import solve

runner = CliRunner()


def test_demo_writes_results_drawings_and_report(tmp_path: Path) -> None:
    result = runner.invoke(app, ["demo", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    assert "report:" in result.stdout
    names = example_names()
    assert len(names) >= 3
    for name in names:
        written = json.loads((tmp_path / f"{name}.result.json").read_text())
        assert written["reactions"] == solve(load_example(name))["reactions"]
        assert (tmp_path / f"{name}.png").stat().st_size > 10_000
    assert all(name in (tmp_path / "README.md").read_text() for name in names)
