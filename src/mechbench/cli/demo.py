"""``mechbench demo``: every benchmark end to end, offline, on data mechbench generated itself.

Each benchmark's spec runs its own part (:attr:`mechbench.registry.BenchmarkSpec.demo`): StructuralEval with the
ground truth and with replayed planted mistakes, SPhyR's 16 subjects with the empty, solid and random baselines
(physics on), SeeSim's generated simulations as images, videos and text with always-True and always-False, and the same
simulations as OpenSeeSimE multiple-choice questions with first-choice and random.
Logs go to ``OUT/logs``, the report to ``OUT/report``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from mechbench import registry


def run_demo(out: Path, echo: Callable[[str], None] = print) -> Path:
    """Run every benchmark offline on mechbench's own data and write logs and a report into ``out``."""
    from mechbench.report import build_report, write_report  # Inspect loads only when the demo runs

    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    common = {"log_dir": str(logs), "display": "none"}
    start = time.perf_counter()

    def step(message: str) -> None:
        echo(f"[{time.perf_counter() - start:5.1f} s] {message}")

    parts = [entry for entry in registry.specs() if entry.demo is not None]
    echo(
        "data: mechbench's own generated set, bundled with the package (src/mechbench/bundled, see GENERATED.md); "
        "no official benchmark data, no network, no API key"
    )
    echo("models: " + "; ".join(f"{entry.title}: {entry.demo_models}" for entry in parts))
    left_out = [entry.title for entry in registry.specs() if entry.demo is None]
    if left_out:
        echo(f"not in the demo (no bundled set yet): {', '.join(left_out)}")
    for entry in parts:
        assert entry.demo is not None
        done = entry.demo(out, common, step)
        samples = sum(log.results.completed_samples if log.results else 0 for log in done)
        echo(f"  {samples} samples scored")
    step("report")
    paths = write_report(build_report(logs), out / "report")
    step(f"done: {paths['html']}")
    return paths["html"]


def register(app: typer.Typer) -> None:
    """Add ``demo`` to the command line."""
    app.command()(demo)


def demo(
    out: Annotated[Path, typer.Option("-o", "--out", help="Folder for results and drawings.")] = Path("mechbench-out"),
) -> None:
    """Run every benchmark offline (no network, no API key) on mechbench's own data; logs and report in OUT."""
    report = run_demo(out, echo=typer.echo)
    typer.echo(f"report: {report}")
    typer.echo(f"logs:   {out / 'logs'} (inspect view --log-dir {out / 'logs'})")
