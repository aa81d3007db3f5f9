"""The shortcut panel of a benchmark run on one set: what its built-in models that never use the skill score there,
against the chance level (``mechbench validate <benchmark> --shortcuts``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mechbench import registry
from mechbench.core.errors import UsageError
from mechbench.harness.quiet import QUIET_EVAL


def run_shortcuts(
    name: str,
    task_args: dict[str, Any],
    log_dir: Path,
    *,
    limit: int | None = None,
    model_args: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Run every shortcut model of benchmark ``name`` on the task built from ``task_args`` (logs into ``log_dir``),
    and return the panel's rows: score with its 95 % interval, the chance level, whether it beats chance."""
    from inspect_ai import eval as inspect_eval

    from mechbench.harness.panel import panel_task
    from mechbench.report import build_report

    spec = registry.spec(name)
    if spec is None:
        raise UsageError(f"no registered benchmark {name!r}")
    if not spec.shortcuts:
        raise UsageError(f"{spec.title} declares no shortcut panel")
    models = [f"mechbench/{shortcut}" for shortcut in spec.shortcuts]
    # One run for the whole panel: each sample is answered by every shortcut model in turn.
    panel = panel_task(spec.task(**task_args), models, model_args)
    logs = inspect_eval(panel, model=models[0], log_dir=str(log_dir), limit=limit, **QUIET_EVAL)
    rows = build_report(log_dir, logs=logs).shortcut_panels.get(name, [])
    return [row for row in rows if row["model"] in models]


def panel_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The panel as console lines."""
    lines = []
    for row in rows:
        ci, chance = row["ci95"], row.get("chance")
        score = f"{row['value']:.3f}" + ("" if ci != ci else f" ± {ci:.3f}")
        against = "" if chance is None else f"  chance {chance:.3f}  {row['verdict']}"
        lines.append(f"  {row['model']:<24} {row['metric']} {score}  ({row['samples']} samples){against}")
    return lines
