"""SPhyR as a mechbench plug-in: its task (and suite), report, baselines, published results as replies, demo."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.sphyr.baselines import BASELINES
from mechbench.benchmarks.sphyr.inspect_parts import CLUSTER
from mechbench.benchmarks.sphyr.replay import RESULTS_SUFFIX, published_completions
from mechbench.benchmarks.sphyr.report import REPORT
from mechbench.benchmarks.sphyr.task import sphyr, sphyr_suite
from mechbench.benchmarks.sphyr.tools import tool_script
from mechbench.benchmarks.sphyr.training import TRAINER
from mechbench.harness.panel import panel_task
from mechbench.registry import BenchmarkSpec, ReplayReader, register

DEMO_BASELINES = ("empty", "solid", "random", "retrieval")


def _published_results(path: Path) -> bool:
    return path.is_dir() or path.name.endswith(RESULTS_SUFFIX)


TOOL_DEMO_SUBJECTS = ("full_easy", "full_hard")
"""The subjects the demo's tool-setting comparison runs (a scripted agent: two subjects show the path)."""


def demo(out: Path, eval_kwargs: Mapping[str, Any], step: Callable[[str], None]) -> list[Any]:
    """Every subject of the bundled set answered by the empty, solid, random and retrieval baselines in one panel run
    (the report splits subjects by the samples' metadata), physics on; then the scripted tool agent with and without
    tools."""
    step(f"SPhyR: 16 subjects × 8 generated samples, baselines {', '.join(DEMO_BASELINES)}, physics on")
    models = [f"mechbench/{baseline}" for baseline in DEMO_BASELINES]
    logs: list[Any] = list(
        inspect_eval(panel_task(sphyr("all", data="bundled"), models), model=models[0], **eval_kwargs)
    )
    step(
        f"SPhyR, with and without tools ({', '.join(TOOL_DEMO_SUBJECTS)}): mechbench/tool-demo fills empty alone; "
        "with analyse_grid, the stiffer fill"
    )
    subjects = ",".join(TOOL_DEMO_SUBJECTS)
    tasks = [sphyr(subjects, data="bundled", tools=tools) for tools in (False, True)]
    logs += inspect_eval(tasks, model="mechbench/tool-demo", max_tasks=2, **eval_kwargs)
    return logs


SPEC = register(
    BenchmarkSpec(
        name="sphyr",
        title="SPhyR",
        sees="a masked topology-optimisation grid (text) → the completed grid",
        scored_by="every published cell and graph metric, and the physics judge",
        needs="text only",
        chance="none: compared with the published set",
        cluster=CLUSTER,
        task=sphyr,
        report=REPORT,
        oracle_metric="exact_match",
        order=20,
        listing=Path(__file__).with_name("eval.yaml"),
        baselines=BASELINES,
        shortcuts=("empty", "solid", "random", "retrieval"),
        replay_readers=(ReplayReader(_published_results, published_completions),),
        demo=demo,
        demo_models="mechbench/" + ", ".join(DEMO_BASELINES) + " and mechbench/tool-demo with and without tools",
        exports={"sphyr_suite": sphyr_suite},
        tools=("analyse_grid",),
        tool_script=tool_script,
        trainer=TRAINER,
    )
)
