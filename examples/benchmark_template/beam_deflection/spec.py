"""BeamDeflection as a mechbench plug-in: everything the report, the built-in models, the demo and the command line
need, registered from this folder."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval

from mechbench.harness.panel import panel_task
from mechbench.registry import BenchmarkSpec, register

from .baselines import BASELINES, SHORTCUTS
from .items import BENCHMARK, CLUSTER
from .report import REPORT
from .task import beam_deflection

PANEL = tuple(f"mechbench/{name}" for name in SHORTCUTS)


def demo(out: Path, eval_kwargs: Mapping[str, Any], step: Callable[[str], None]) -> list[Any]:
    """The bundled beams: the shortcut panel in one run (each sample answered by every member in turn; the report
    shows one row per member), then the ground truth (the oracle: no model called)."""
    step(f"BeamDeflection: the bundled beams, the shortcut panel {', '.join(PANEL)}, and the oracle")
    runs = inspect_eval(panel_task(beam_deflection(data="bundled"), PANEL), model=PANEL[0], **eval_kwargs)
    return [*runs, *inspect_eval(beam_deflection(data="bundled", oracle=True), model="mockllm/model", **eval_kwargs)]


SPEC = register(
    BenchmarkSpec(
        name=BENCHMARK,
        title="BeamDeflection",
        sees="a simply supported beam in words → its midspan deflection",
        scored_by="mechbench's frame solver: within 2 % of the truth",
        needs="text only",
        chance="none: a number, not a choice",
        cluster=CLUSTER,
        task=beam_deflection,
        report=REPORT,
        order=90,
        listing=Path(__file__).with_name("eval.yaml"),
        baselines=BASELINES,
        shortcuts=SHORTCUTS,
        demo=demo,
        demo_models=", ".join(("the shortcut panel", *PANEL, "the ground truth (oracle)")),
    )
)
