"""SeeSim as a mechbench plug-in: its task, report, baselines and demo."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.seesim.baselines import BASELINES, SHORTCUTS
from mechbench.benchmarks.seesim.protocol import MODALITIES
from mechbench.benchmarks.seesim.report import REPORT
from mechbench.benchmarks.seesim.task import seesim
from mechbench.registry import BenchmarkSpec, register

DEMO_MODELS = ("mechbench/always-true", "mechbench/always-false")
PANEL_MODELS = ("mechbench/random", "mechbench/majority", "mechbench/text-only", "mechbench/keyword")
"""The rest of the shortcut panel, run on the images."""


def demo(out: Path, eval_kwargs: Mapping[str, Any], step: Callable[[str], None]) -> list[Any]:
    """The bundled simulations as images, videos and text reports, always-True and always-False."""
    step("SeeSim: 12 generated simulations as image, video and text, baselines always-true and always-false")
    tasks = [seesim(modality=modality, data="bundled") for modality in MODALITIES]
    logs = inspect_eval(tasks, model=list(DEMO_MODELS), max_tasks=6, **eval_kwargs)
    step("SeeSim: the rest of the shortcut panel on the images: " + ", ".join(PANEL_MODELS))
    return logs + inspect_eval(seesim(data="bundled"), model=list(PANEL_MODELS), max_tasks=4, **eval_kwargs)


SPEC = register(
    BenchmarkSpec(
        name="seesim",
        title="SeeSim",
        task=seesim,
        report=REPORT,
        order=30,
        listing=Path(__file__).with_name("eval.yaml"),
        baselines=BASELINES,
        shortcuts=SHORTCUTS,
        demo=demo,
        demo_models=", ".join((*DEMO_MODELS, *PANEL_MODELS)),
    )
)
