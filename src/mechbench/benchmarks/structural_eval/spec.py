"""StructuralEval as a mechbench plug-in: its task, report, listing and demo."""

from __future__ import annotations

from pathlib import Path

from mechbench.benchmarks.structural_eval import demo
from mechbench.benchmarks.structural_eval.baselines import BASELINES
from mechbench.benchmarks.structural_eval.inspect_parts import CLUSTER
from mechbench.benchmarks.structural_eval.report import REPORT
from mechbench.benchmarks.structural_eval.task import structural_eval
from mechbench.benchmarks.structural_eval.tools import tool_script
from mechbench.benchmarks.structural_eval.training import TRAINER
from mechbench.registry import BenchmarkSpec, register

SPEC = register(
    BenchmarkSpec(
        name="structural_eval",
        title="StructuralEval",
        sees="a drawing of a beam, frame or truss → FrameCalc JSON",
        scored_by=(
            "mechbench's frame solver: reactions and moments against the truth; diagnostic ladder, "
            "difficulty-weighted accuracy"
        ),
        needs="images",
        chance="none: compared with the published set",
        cluster=CLUSTER,
        task=structural_eval,
        report=REPORT,
        baselines=BASELINES,
        shortcuts=("random", "template"),
        oracle_metric="weighted_accuracy",
        order=10,
        listing=Path(__file__).with_name("eval.yaml"),
        demo=demo.run,
        demo_models="the ground truth (oracle), mechbench/replay of planted mistakes and mechbench/tool-demo",
        tools=("solve_frame", "render_frame"),
        tool_script=tool_script,
        aliases=("structural", "structuraleval", "structural-eval"),
        trainer=TRAINER,
    )
)
