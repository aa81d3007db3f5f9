"""OpenSeeSimE as a mechbench plug-in: its task, report, listing and baselines."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.openseesime.baselines import BASELINES, SHORTCUTS
from mechbench.benchmarks.openseesime.generated_set import write_openseesime
from mechbench.benchmarks.openseesime.protocol import CLUSTER
from mechbench.benchmarks.openseesime.report import REPORT
from mechbench.benchmarks.openseesime.task import openseesime
from mechbench.harness.panel import panel_task
from mechbench.registry import BenchmarkSpec, register

DEMO_MODELS = ("mechbench/first-choice", "mechbench/last-choice", "mechbench/random", "mechbench/majority")


def demo(out: Path, eval_kwargs: Mapping[str, Any], step: Callable[[str], None]) -> list[Any]:
    """The bundled simulations asked as OpenSeeSimE questions, both domains, the shortcut panel in one run each."""
    step(
        "OpenSeeSimE: the SeeSim simulations as multiple-choice questions, the shortcut panel " + ", ".join(DEMO_MODELS)
    )
    tasks = [panel_task(openseesime(domain=domain, data="bundled"), DEMO_MODELS) for domain in ("structural", "fluid")]
    return inspect_eval(tasks, model=DEMO_MODELS[0], max_tasks=2, **eval_kwargs)


def derive(seesim_set: Path, out: Path) -> str:
    """OpenSeeSimE questions written from a generated SeeSim set (what ``mechbench generate seesim`` prints)."""
    asked = write_openseesime(seesim_set, out)
    return (
        f"{asked['structural']} structural and {asked['fluid']} fluid questions (-T data={out}/structural or .../fluid)"
    )


SPEC = register(
    BenchmarkSpec(
        name="openseesime",
        title="OpenSeeSimE",
        sees="a simulation (image or video) → one of several choices",
        scored_by="the published key; accuracy per question type",
        needs="images and video",
        chance="1 / choices",
        cluster=CLUSTER,
        task=openseesime,
        report=REPORT,
        order=40,
        listing=Path(__file__).with_name("eval.yaml"),
        baselines=BASELINES,
        shortcuts=SHORTCUTS,
        shortcut_prior="a generated SeeSim set or a prior file",
        demo=demo,
        demo_models=", ".join(DEMO_MODELS),
        derives_from="seesim",
        derive=derive,
    )
)
