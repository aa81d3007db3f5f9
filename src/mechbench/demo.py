"""``mechbench demo``: every benchmark end to end, offline, on data mechbench generated itself.

StructuralEval runs on the bundled generated tasks twice: with the ground truth as the answer (debug,
every task 1.0) and with a replay of deliberately flawed answers (the tasks take the ladder steps in turn;
each planted mistake is solved and judged when the replay file is written, and kept only if it lands on its
step, so every one changes what the solver finds). SPhyR runs all 16 subjects with the empty, solid and random
baselines, physics on.
SeeSim runs the always-True and always-False baselines on the bundled generated simulations, as images, videos
and text reports.
Logs go to ``OUT/logs``, the report to ``OUT/report``.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.structural_eval.check import check_reply
from mechbench.benchmarks.structural_eval.dataset import StructuralTask, load_tasks
from mechbench.benchmarks.structural_eval.scoring import DEFAULT_TOLERANCE
from mechbench.frame import FrameModel
from mechbench.report import build_report, write_report
from mechbench.tasks import seesim, sphyr_suite, structural_eval

LADDER_STEPS = ("geometry", "supports", "hinges", "loads", "correct")
OTHER_KIND = {"fixed": "pin", "pin": "roller", "roller": "pin"}


def _mistakes(model: dict, step: str) -> Iterator[dict]:
    """Candidate answers with one mistake of the kind ``step`` detects, in order of preference."""
    if step == "geometry":
        for k in reversed(range(len(model["points"]))):
            answer = copy.deepcopy(model)
            answer["points"][k]["x"] += 1.0
            yield answer
    elif step == "supports":
        for k, support in enumerate(model["supports"]):
            answer = copy.deepcopy(model)
            answer["supports"][k]["kind"] = OTHER_KIND.get(support["kind"], "fixed")
            yield answer
    elif step == "hinges":
        for k in range(len(model["links"])):
            for end in ("endA", "endB"):
                answer = copy.deepcopy(model)
                link = answer["links"][k]
                link[end] = "hinge" if link.get(end, "rigid") == "rigid" else "rigid"
                yield answer
    elif step == "loads":
        for k in range(len(model["loads"])):
            answer = copy.deepcopy(model)
            for key in ("value", "wStart", "wEnd"):
                if key in answer["loads"][k]:
                    answer["loads"][k][key] = 2 * answer["loads"][k][key] + 5
            yield answer


def planted_mistake(task: StructuralTask, step: str) -> dict | None:
    """The truth with one mistake that the solver sees and that lands on ladder ``step`` (checked), or None.

    A mistake the physics cannot see (a hinge where the moment is zero anyway) would score 1.0 and teach
    nothing, so each candidate is solved and judged before it is kept.
    """
    truth_model = FrameModel.parse(task.raw_model)
    for answer in _mistakes(task.raw_model, step):
        verdict = check_reply(
            f"<json>{json.dumps(answer)}</json>",
            truth_model,
            task.response(),
            tolerance=DEFAULT_TOLERANCE,
            scoring="strict",
        )
        if verdict.outcome == "wrong" and verdict.step == step:
            return answer
    return None


def flawed_replies(path: Path) -> dict[str, str]:
    """Write the demo's replay file: the tasks in turn get a mistake for each ladder step, or none.

    Returns ``{task id: intended step}``; a task where no mistake of its turn lands on that step gets the next
    step's, so every planted mistake is one the solver sees.
    """
    tasks = load_tasks("bundled")
    lines, intended = [], {}
    for k, task in enumerate(tasks):
        answer, step = None, "correct"
        for offset in range(len(LADDER_STEPS) - 1):
            candidate = LADDER_STEPS[(k + offset) % len(LADDER_STEPS)]
            if candidate == "correct":
                break
            answer = planted_mistake(task, candidate)
            if answer is not None:
                step = candidate
                break
        intended[task.id] = step
        reply = task.raw_model if answer is None else answer
        lines.append(json.dumps({"id": task.id, "reply": f"<json>{json.dumps(reply)}</json>"}))
    path.write_text("\n".join(lines))
    return intended


def run_demo(out: Path, echo: Callable[[str], None] = print) -> Path:
    """Run every benchmark offline on mechbench's own data and write logs and a report into ``out``."""
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    common = {"log_dir": str(logs), "display": "none"}
    start = time.perf_counter()

    def step(message: str) -> None:
        echo(f"[{time.perf_counter() - start:5.1f} s] {message}")

    echo(
        "data: mechbench's own generated set, bundled with the package (src/mechbench/bundled, see GENERATED.md); "
        "no official benchmark data, no network, no API key"
    )
    echo(
        "models: the ground truth (StructuralEval debug), mechbench/replay of planted mistakes, "
        "mechbench/empty, solid, random (SPhyR), mechbench/always-true, always-false (SeeSim)"
    )

    def scored(logs_done: list) -> str:
        samples = sum(log.results.completed_samples if log.results else 0 for log in logs_done)
        return f"  {samples} samples scored"

    step("StructuralEval: 30 generated tasks, the ground truth as the answer (no model called)")
    echo(scored(inspect_eval(structural_eval(data="bundled", debug=True), model="mockllm/model", **common)))
    replies = out / "flawed_replies.jsonl"
    intended = flawed_replies(replies)
    counts = {s: list(intended.values()).count(s) for s in LADDER_STEPS}
    step(
        "StructuralEval: replayed answers, each with one mistake the solver sees ("
        + ", ".join(f"{n} {s}" for s, n in counts.items())
        + ")"
    )
    done = inspect_eval(
        structural_eval(data="bundled", max_retries=0),
        model="mechbench/replay",
        model_args={"file": str(replies)},
        **common,
    )
    echo(scored(done))
    for baseline in ("empty", "solid", "random"):
        step(f"SPhyR: 16 subjects × 8 generated samples, baseline {baseline}, physics on")
        done = inspect_eval(sphyr_suite("all", data="bundled"), model=f"mechbench/{baseline}", max_tasks=4, **common)
        echo(scored(done))
    step("SeeSim: 12 generated simulations as image, video and text, baselines always-true and always-false")
    done = inspect_eval(
        [seesim(modality=modality, data="bundled") for modality in ("image", "video", "text")],
        model=["mechbench/always-true", "mechbench/always-false"],
        max_tasks=6,
        **common,
    )
    echo(scored(done))
    step("report")
    paths = write_report(build_report(logs), out / "report")
    step(f"done: {paths['html']}")
    return paths["html"]
