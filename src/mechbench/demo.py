"""``mechbench demo``: every benchmark end to end, offline, on data mechbench generated itself.

StructuralEval runs on the bundled generated tasks twice: with the ground truth as the answer (debug,
every task 1.0) and with a replay of deliberately flawed answers (one per diagnostic ladder step, so
the ladder shows). SPhyR runs all 16 subjects with the empty, solid and random baselines, physics on.
SeeSim runs its True/False baselines when an official copy is in the cache (it has no bundled data).
Logs go to ``OUT/logs``, the report to ``OUT/report``.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from pathlib import Path

from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.seesim.dataset import DEFAULT_SOURCE as SEESIM_SOURCE
from mechbench.data import bundled, cached_url
from mechbench.report import build_report, write_report
from mechbench.tasks import seesim, sphyr_suite, structural_eval


def _flawed(model: dict, step: str) -> dict:
    """The ground truth with one deliberate mistake of the kind a ladder step detects."""
    answer = copy.deepcopy(model)
    if step == "geometry":
        answer["points"][-1]["x"] += 1.0
    elif step == "supports":
        support = answer["supports"][0]
        support["kind"] = "fixed" if support["kind"] != "fixed" else "pin"
    elif step == "hinges":
        link = answer["links"][0]
        link["endA"] = "hinge" if link.get("endA", "rigid") == "rigid" else "rigid"
    elif step == "loads":
        load = answer["loads"][0]
        for key in ("value", "wStart", "wEnd"):
            if key in load:
                load[key] = 2 * load[key] + 5
    return answer


def _replies(path: Path) -> Path:
    data = bundled("structural_eval") / "data" / "raw_models"
    models = sorted(data.glob("*.json"))
    lines = []
    for k, model_path in enumerate(models):
        step = ("geometry", "supports", "hinges", "loads", "correct")[k % 5]
        model = json.loads(model_path.read_text())
        answer = model if step == "correct" else _flawed(model, step)
        lines.append(json.dumps({"id": model_path.stem, "reply": f"<json>{json.dumps(answer)}</json>"}))
    path.write_text("\n".join(lines))
    return path


def _official_seesim() -> str | None:
    """The official SeeSim copy if one is already in the cache (the demo never downloads)."""
    folder = cached_url(SEESIM_SOURCE)
    return str(folder) if folder is not None else None


def run_demo(out: Path, echo: Callable[[str], None] = print) -> Path:
    """Run every benchmark offline on mechbench's own data and write logs and a report into ``out``."""
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    common = {"log_dir": str(logs), "display": "none"}
    start = time.perf_counter()

    def step(message: str) -> None:
        echo(f"[{time.perf_counter() - start:5.1f} s] {message}")

    step("StructuralEval: 30 generated tasks, ground truth as the answer")
    inspect_eval(structural_eval(data="bundled", debug=True), model="mockllm/model", **common)
    step("StructuralEval: replayed answers with one deliberate mistake each (the diagnostic ladder)")
    replies = _replies(out / "flawed_replies.jsonl")
    inspect_eval(
        structural_eval(data="bundled", max_retries=0),
        model="mechbench/replay",
        model_args={"file": str(replies)},
        **common,
    )
    for baseline in ("empty", "solid", "random"):
        step(f"SPhyR: 16 subjects × 8 generated samples, baseline {baseline}, physics on")
        inspect_eval(sphyr_suite("all", data="bundled"), model=f"mechbench/{baseline}", max_tasks=4, **common)
    official = _official_seesim()
    if official:
        for baseline in ("always-true", "always-false"):
            step(f"SeeSim: text reports, baseline {baseline}")
            inspect_eval(seesim(modality="text", data=official), model=f"mechbench/{baseline}", **common)
    else:
        step("SeeSim: skipped (no official copy in the cache; mechbench ships no SeeSim data)")
    step("report")
    paths = write_report(build_report(logs), out / "report")
    step(f"done: {paths['html']}")
    return paths["html"]
