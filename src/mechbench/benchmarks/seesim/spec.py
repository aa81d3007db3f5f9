"""SeeSim as a mechbench plug-in: its task, report, baselines and demo."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.seesim.baselines import BASELINES
from mechbench.benchmarks.seesim.protocol import MODALITIES
from mechbench.benchmarks.seesim.report import REPORT
from mechbench.benchmarks.seesim.task import seesim
from mechbench.registry import BenchmarkSpec, register

DEMO_MODELS = ("mechbench/always-true", "mechbench/always-false")


def demo(out: Path, eval_kwargs: Mapping[str, Any], step: Callable[[str], None]) -> list[Any]:
    """The bundled simulations as images, videos and text reports, always-True and always-False."""
    step("SeeSim: 12 generated simulations as image, video and text, baselines always-true and always-false")
    tasks = [seesim(modality=modality, data="bundled") for modality in MODALITIES]
    return inspect_eval(tasks, model=list(DEMO_MODELS), max_tasks=6, **eval_kwargs)


SPEC = register(
    BenchmarkSpec(
        name="seesim",
        title="SeeSim",
        task=seesim,
        report=REPORT,
        order=30,
        listing=Path(__file__).with_name("eval.yaml"),
        baselines=BASELINES,
        demo=demo,
        demo_models=", ".join(DEMO_MODELS),
    )
)
