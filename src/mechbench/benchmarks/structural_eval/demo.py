"""StructuralEval's part of ``mechbench demo``: the bundled tasks answered by the ground truth, then a replay of
answers that each carry one planted mistake (the tasks take the ladder's steps in turn; each mistake is solved
and judged when the replay file is written, and kept only if it lands on its step, so every one changes what the
solver finds).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.structural_eval.check import check_reply
from mechbench.benchmarks.structural_eval.dataset import StructuralTask, load_tasks
from mechbench.benchmarks.structural_eval.report import LADDER_STEPS
from mechbench.benchmarks.structural_eval.scoring import DEFAULT_TOLERANCE
from mechbench.benchmarks.structural_eval.task import structural_eval
from mechbench.frame import FrameModel
from mechbench.harness.panel import panel_task

TOOL_DEMO_TASKS = 10
"""Tasks the scripted tool agent runs (it shows the tool path; each drawing it asks for costs a render)."""
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


def first_mistake(model: dict, step: str) -> dict | None:
    """The truth with the first mistake of the kind ``step`` detects, seen by the physics or not (None when the
    model has nothing of that kind to get wrong)."""
    return next(_mistakes(model, step), None)


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


def run(out: Path, eval_kwargs: Mapping[str, Any], step: Callable[[str], None]) -> list[Any]:
    """The ground truth, then the planted mistakes replayed; returns the logs."""
    step("StructuralEval: 30 generated tasks, the ground truth as the answer (no model called)")
    logs = inspect_eval(structural_eval(data="bundled", oracle=True), model="mockllm/model", **eval_kwargs)
    replies = out / "flawed_replies.jsonl"
    intended = flawed_replies(replies)
    counts = {s: list(intended.values()).count(s) for s in LADDER_STEPS}
    step(
        "StructuralEval: replayed answers, each with one mistake the solver sees ("
        + ", ".join(f"{n} {s}" for s, n in counts.items())
        + ")"
    )
    logs += inspect_eval(
        structural_eval(data="bundled", max_retries=0),
        model="mechbench/replay",
        model_args={"file": str(replies)},
        **eval_kwargs,
    )
    step("StructuralEval: the shortcut panel, mechbench/random and mechbench/template (they ignore the drawing)")
    panel = ["mechbench/random", "mechbench/template"]
    logs += inspect_eval(
        panel_task(structural_eval(data="bundled", max_retries=0), panel), model=panel[0], **eval_kwargs
    )
    step(
        f"StructuralEval, with and without tools, on {TOOL_DEMO_TASKS} tasks: mechbench/tool-demo answers its planted "
        "mistake alone; with tools it solves and draws it, then submits the correction (a scripted agent: it "
        "measures nothing)"
    )
    answers = {"file": str(tool_answers(replies, out / "tool_answers.jsonl"))}
    logs += inspect_eval(
        [structural_eval(data="bundled", max_retries=0), structural_eval(data="bundled", tools=True)],
        model="mechbench/tool-demo",
        model_args=answers,
        limit=TOOL_DEMO_TASKS,
        **eval_kwargs,
    )
    return logs


def tool_answers(flawed: Path, path: Path) -> Path:
    """The tool demo's recorded answers: each task's planted mistake (tried with the tools) and then its truth
    (submitted). A scripted agent: it exercises the tool path, it measures nothing."""
    truths = {t.id: t.raw_model for t in load_tasks("bundled")}
    lines = []
    for line in flawed.read_text().splitlines():
        record = json.loads(line)
        truth = f"<json>{json.dumps(truths[record['id']])}</json>"
        lines.append(json.dumps({"id": record["id"], "replies": [record["reply"], truth]}))
    path.write_text("\n".join(lines))
    return path
