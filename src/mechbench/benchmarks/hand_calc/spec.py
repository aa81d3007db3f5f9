"""HandCalc as a mechbench plug-in: its task, report, built-in models, demo, tool and listing, registered from this
folder."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval

from mechbench.harness.panel import panel_task
from mechbench.registry import BenchmarkSpec, register
from mechbench.sources.root import open_data

from .baselines import BASELINES, SHORTCUTS
from .items import read_items
from .prompts import target
from .protocol import BENCHMARK, CLUSTER
from .report import REPORT
from .task import NO_PUBLISHER, hand_calc
from .tools import tool_script
from .training import TRAINER

PLANTED_EVERY = 3
"""The demo's replayed reader misreads every third item's drawing (its text replies are right)."""


def planted_replies(path: Path) -> Path:
    """The demo's reply file: every text answer right, every third item's drawing answered with its first quantity
    doubled (a misread dimension): a planted perception gap, replayed by sample id."""
    items = read_items(open_data(BENCHMARK, "bundled", NO_PUBLISHER))
    lines = []
    for k, item in enumerate(items):
        lines.append({"id": f"{item.id}-text", "reply": target(item)})
        drawn = target(item)
        if k % PLANTED_EVERY == 0:
            first = item.quantities[0]
            drawn = drawn.replace(f"{first.key} = {first.truth:.8g}", f"{first.key} = {2 * first.truth:.8g}", 1)
        lines.append({"id": f"{item.id}-drawing", "reply": drawn})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def demo(out: Path, eval_kwargs: Mapping[str, Any], step: Callable[[str], None]) -> list[Any]:
    """The bundled items as drawings and as text: the shortcut panel in one run, the oracle, and a replayed reader
    with planted drawing errors (the report's drawing–text table)."""
    panel = [f"mechbench/{name}" for name in SHORTCUTS]
    step(f"HandCalc: the bundled items as drawings and text, the shortcut panel {', '.join(panel)}")
    logs = inspect_eval(panel_task(hand_calc(data="bundled"), panel), model=panel[0], **eval_kwargs)
    logs += inspect_eval(hand_calc(data="bundled", oracle=True), model="mockllm/model", **eval_kwargs)
    replies = planted_replies(out / "hand_calc-replies.jsonl")
    logs += inspect_eval(hand_calc(data="bundled"), model="mechbench/replay", model_args={"file": str(replies)},
                         **eval_kwargs)  # fmt: skip
    return logs


SPEC = register(
    BenchmarkSpec(
        name=BENCHMARK,
        title="HandCalc",
        sees="a beam, truss, bar, column or stress element as a drawing or as text → 1–3 numbers with units",
        scored_by="mechbench's frame solver and closed forms: each quantity within 1 % (units converted); "
        "difficulty-weighted accuracy, drawing against text paired",
        needs="images (`-T presentation=text`: none)",
        chance="none: numbers, not choices (the shortcut panel scores near 0)",
        cluster=CLUSTER,
        task=hand_calc,
        report=REPORT,
        baselines=BASELINES,
        shortcuts=SHORTCUTS,
        oracle_metric="mean",
        order=50,
        listing=Path(__file__).with_name("eval.yaml"),
        demo=demo,
        demo_models="the shortcut panel, the ground truth (oracle) and mechbench/replay of planted drawing misreadings",
        tools=("solve_frame",),
        tool_script=tool_script,
        aliases=("hand-calc", "handcalc"),
        trainer=TRAINER,
    )
)
