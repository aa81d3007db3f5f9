"""``mechbench demo``: every benchmark offline on its bundled set, logs and one report. Generic over the registry:
each benchmark's own content of the demo is tested in ``tests/benchmarks/<name>/test_demo.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mechbench import registry
from mechbench.cli import app
from mechbench.cli import demo as demo_module

pytestmark = pytest.mark.slow  # whole Inspect runs: left out of -m 'not slow'

DEMOS = [entry.name for entry in registry.specs() if entry.demo is not None]


@pytest.mark.parametrize("name", DEMOS)
def test_the_demo_runs_each_benchmark_offline_with_its_shortcut_panel_in_the_report(
    demo_run: tuple[Path, str], name: str
) -> None:
    out, printed = demo_run
    entry = registry.spec(name)
    assert entry is not None
    assert printed.startswith("data: mechbench's own generated sets") and "no network, no API key" in printed
    assert f"{entry.title}: {entry.demo_models}" in printed  # the models it runs, said before it runs them
    assert f"] {entry.title}" in printed and "report:" in printed  # its steps, timed
    report = json.loads((out / "report" / "report.json").read_text())
    runs = [r for r in report["runs"] if r["benchmark"] == name]
    assert runs and all(r["data"] == "mechbench's bundled generated set" and r["status"] == "success" for r in runs)
    board = [r for r in report["leaderboard"] if r["benchmark"] == name and not r.get("reference")]
    assert board and all(0.0 <= r["value"] <= 1.0 and r["samples"] > 0 for r in board)
    assert {r["model"] for r in board} == {r["model"] for r in runs}  # every run has its row
    # The benchmark's whole shortcut panel is in the report, and on a generated set none beats chance.
    panel = report["shortcut_panels"][name]
    assert {row["model"] for row in panel} == {f"mechbench/{model}" for model in entry.shortcuts}
    assert not any(row["beats_chance"] for row in panel)
    markdown = (out / "report" / "report.md").read_text()
    assert f"## Leaderboard: {entry.title}" in markdown
    assert f"{entry.title}: what a model scores without the skill (the shortcut panel)" in markdown
    assert f"<h2>{entry.title}</h2>" in (out / "report" / "report.html").read_text()


def test_the_demo_takes_only_registered_benchmarks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(app, ["demo", "-o", str(tmp_path), "--only", "no_such_benchmark"])
    assert result.exit_code == 2 and "--only takes registered benchmarks" in result.stderr
    # The aliases `mechbench list` names, as `mechbench eval` takes them; --output as `mechbench report` takes it.
    aliased = [(alias, entry.name) for entry in registry.specs() for alias in entry.aliases]
    assert aliased, "no benchmark has an alias"
    called = []
    monkeypatch.setattr(demo_module, "run_demo", lambda out, echo, only: called.append((out, only)) or out / "r.html")
    given = ",".join(alias for alias, _ in aliased)
    result = CliRunner().invoke(app, ["demo", "--output", str(tmp_path / "out"), "--only", given])
    assert result.exit_code == 0, result.output
    assert called == [(tmp_path / "out", [name for _, name in aliased])]
    assert not (tmp_path / "logs").exists()  # refused before anything ran
