"""``mechbench demo``: every benchmark end to end, offline, on data mechbench generated itself.

Each benchmark's spec runs its own part (:attr:`mechbench.registry.BenchmarkSpec.demo`): StructuralEval with the
ground truth and with replayed planted mistakes, SPhyR's 16 subjects with the empty, solid and random baselines
(physics on), SeeSim's generated simulations as images, videos and text with always-True and always-False, and the same
simulations as OpenSeeSimE multiple-choice questions with first-choice and random.
Logs go to ``OUT/logs``, the report to ``OUT/report``.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from mechbench import registry
from mechbench.harness.commands import fail


def run_demo(out: Path, echo: Callable[[str], None] = print, only: list[str] | None = None) -> Path:
    """Run every benchmark (or those named in ``only``) offline on mechbench's own data and write logs and a
    report into ``out``."""
    from mechbench.harness.panel import member_views
    from mechbench.harness.quiet import QUIET_EVAL
    from mechbench.report import build_report, write_report  # Inspect loads only when the demo runs

    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    common = {"log_dir": str(logs), **QUIET_EVAL}
    start = time.perf_counter()

    def step(message: str) -> None:
        echo(f"[{time.perf_counter() - start:5.1f} s] {message}")

    chosen = [entry for entry in registry.specs() if only is None or entry.name in only]
    parts = [entry for entry in chosen if entry.demo is not None]
    echo(
        "data: mechbench's own generated sets, bundled with the package (each benchmark's bundled/ folder, with its "
        "GENERATED.md); no official benchmark data, no network, no API key"
    )
    echo("models: " + "; ".join(f"{entry.title}: {entry.demo_models}" for entry in parts))
    left_out = [entry.title for entry in chosen if entry.demo is None]
    if left_out:
        echo(f"not in the demo (no bundled set yet): {', '.join(left_out)}")
    ran: list[Any] = []
    for entry in parts:
        assert entry.demo is not None
        done = entry.demo(out, common, step)
        answers = sum(view.results.completed_samples for log in done for view in member_views(log) if view.results)
        echo(f"  {answers} answers scored")
        ran += done
        gc.freeze()  # the logs kept for the report: later collections need not walk them again
    step("report")
    # The logs the runs returned, in the order they ran: what is in OUT/logs, not read back from it.
    paths = write_report(build_report(logs, logs=ran), out / "report")
    step(f"done: {paths['html']}")
    return paths["html"]


def register(app: typer.Typer) -> None:
    """Add ``demo`` to the command line."""
    app.command()(demo)


def demo(
    out: Annotated[Path, typer.Option("-o", "--out", "--output", help="Folder for results and drawings.")] = Path(
        "mechbench-out"
    ),
    only: Annotated[str | None, typer.Option(help="Comma list of benchmarks to run (default: all).")] = None,
) -> None:
    """Run every benchmark offline (no network, no API key) on mechbench's own data; logs and report in OUT."""
    from mechbench.cli.eval_checks import task_aliases

    aliases = task_aliases()  # what `mechbench list` names as "also:", as `mechbench eval` takes them
    given = [name.strip() for name in only.split(",") if name.strip()] if only is not None else None
    chosen = [aliases.get(name, name) for name in given] if given is not None else None
    known = [entry.name for entry in registry.specs()]
    unknown = [name for name in chosen or [] if name not in known]
    if unknown or chosen == []:
        fail(f"--only takes registered benchmarks ({', '.join(known)}), got {only!r}")
    report = run_demo(out, echo=typer.echo, only=chosen)
    typer.echo(f"report: {report}")
    typer.echo(f"logs:   {out / 'logs'} (inspect view --log-dir {out / 'logs'})")
