"""BeamDeflection as a mechbench plug-in: everything the report, the built-in models, the demo and the command line
need, registered from this folder."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval

from mechbench.registry import BenchmarkSpec, register

from .baselines import BASELINES
from .items import CLUSTER
from .report import REPORT
from .task import beam_deflection

DEMO_MODELS = ("mechbench/random", "mechbench/zero")


def demo(out: Path, eval_kwargs: Mapping[str, Any], step: Callable[[str], None]) -> list[Any]:
    """The bundled beams, answered by the oracle, random and zero."""
    step("BeamDeflection: the bundled beams, the oracle and baselines random and zero")
    runs = inspect_eval(beam_deflection(data="bundled"), model=list(DEMO_MODELS), **eval_kwargs)
    return [*runs, *inspect_eval(beam_deflection(data="bundled", oracle=True), model="mockllm/model", **eval_kwargs)]


SPEC = register(
    BenchmarkSpec(
        name="beam_deflection",
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
        shortcuts=("random", "zero"),
        demo=demo,
        demo_models=", ".join(("the ground truth (oracle)", *DEMO_MODELS)),
    )
)
