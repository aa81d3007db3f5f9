"""StructuralEval for trainers (:mod:`mechbench.training`): a fresh drawing at a level with the task's instruction,
and the reply's ladder credit from mechbench's frame solver (strict scoring, the published 5 % tolerance: every
correct idealisation scores full marks)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mechbench.core.errors import UsageError
from mechbench.frame import FrameModel
from mechbench.frame.generate import KINDS
from mechbench.frame.generate_deep import ALL_LEVELS
from mechbench.registry import Reward, Trainer, TrainingItem

from .check import check_reply
from .prompts import task_prompt
from .scoring import DEFAULT_TOLERANCE, solve_response

BENCHMARK = "structural_eval"
OPTIONS = "kinds: a tuple of beam, frame, truss (default all three)"


def items(n: int, level: int | None, seed: int, options: Mapping[str, Any]) -> list[TrainingItem]:
    """``n`` drawings of the set of ``seed`` at ``level`` (None: levels 1-5 in turn), each with its truth."""
    kinds = tuple(options.get("kinds", KINDS))
    if set(options) - {"kinds"} or not kinds or not set(kinds) <= set(KINDS):
        raise UsageError(f"StructuralEval's training options: {OPTIONS}; got {dict(options)}")
    from .generated_set import structural_task  # the generator and matplotlib load when items are made

    made = []
    for index in range(n):
        task = structural_task((seed, index, level, kinds, False))
        made.append(
            TrainingItem(
                benchmark=BENCHMARK,
                id=f"{BENCHMARK}-{seed}-{'mix' if level is None else f'L{level}'}-{index}",
                level=task["level"],
                prompt=task_prompt("standard"),
                images=(task["png"],),
                metadata={"kind": task["kind"]},
                key=task["model"],
            )
        )
    return made


def score(reply: str, item: TrainingItem) -> Reward:
    """The ladder credit of the reply's FrameCalc model against the drawing's (1 for full marks)."""
    truth = FrameModel.parse(item.key)
    verdict = check_reply(reply, truth, solve_response(truth), tolerance=DEFAULT_TOLERANCE, scoring="strict")
    if verdict.outcome == "instrument_failure":  # mechbench's own solver failed: never the model's fault
        raise RuntimeError(f"mechbench's solver failed on {item.id}: {verdict.explanation}")
    return Reward(float(verdict.ratio), verdict.explanation)


TRAINER = Trainer(levels=ALL_LEVELS, items=items, score=score, options_help=OPTIONS)
