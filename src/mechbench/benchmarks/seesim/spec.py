"""SeeSim as a mechbench plug-in: its task, report, baselines and demo."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.seesim.baselines import BASELINES, SHORTCUTS
from mechbench.benchmarks.seesim.protocol import CLUSTER, MODALITIES
from mechbench.benchmarks.seesim.report import REPORT
from mechbench.benchmarks.seesim.task import seesim
from mechbench.harness.panel import panel_task
from mechbench.registry import BenchmarkSpec, register

DEMO_MODELS = ("mechbench/always-true", "mechbench/always-false")
"""The models the demo runs on every modality (the whole shortcut panel runs on the images)."""


def demo(out: Path, eval_kwargs: Mapping[str, Any], step: Callable[[str], None]) -> list[Any]:
    """The bundled simulations as images with the whole shortcut panel, as videos and text reports with always-True
    and always-False; each a panel run (every sample answered by each model in turn)."""
    panel = [f"mechbench/{name}" for name in SHORTCUTS]
    step(f"SeeSim: 12 generated simulations as images, the shortcut panel {', '.join(panel)}")
    logs = inspect_eval(panel_task(seesim(data="bundled"), panel), model=panel[0], **eval_kwargs)
    step("SeeSim: the same simulations as videos and as text reports, always-true and always-false")
    for modality in [m for m in MODALITIES if m != "image"]:
        task = panel_task(seesim(modality=modality, data="bundled"), DEMO_MODELS)
        logs += inspect_eval(task, model=DEMO_MODELS[0], **eval_kwargs)
    return logs


SPEC = register(
    BenchmarkSpec(
        name="seesim",
        title="SeeSim",
        sees="a structural or fluid simulation (image, video or text report) → true/false",
        scored_by="the published answer key; accuracy by domain, consistency",
        needs="images or video (`-T modality=text`: none)",
        chance="1/2",
        cluster=CLUSTER,
        task=seesim,
        report=REPORT,
        order=30,
        listing=Path(__file__).with_name("eval.yaml"),
        baselines=BASELINES,
        shortcuts=SHORTCUTS,
        shortcut_prior="a SeeSim questions file or generated set",
        demo=demo,
        demo_models=", ".join(f"mechbench/{name}" for name in SHORTCUTS),
    )
)
