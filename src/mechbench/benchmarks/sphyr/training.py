"""SPhyR for trainers (:mod:`mechbench.training`), in the same shape as every generated benchmark: fresh layouts at a
level (its versions are its difficulty axis: level 1 is v2's 10 × 10 grids, level 2 v2-20's 20 × 20), each asked
as its 16 subjects, and the reward of :mod:`mechbench.benchmarks.sphyr.rl` (the topology score against the reference
optimum; 0 for a grid that cannot be read). ``SPhyREnv`` stays the episode interface over a file of records."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from mechbench.core.errors import UsageError
from mechbench.registry import Reward, Trainer, TrainingItem

from .dataset import SUBJECTS
from .versions import GRID_SIZES

BENCHMARK = "sphyr"
LEVEL_VERSIONS = {1: "v2", 2: "v2-20"}
"""Each training level's SPhyR version (its grid size from :data:`GRID_SIZES`)."""
OPTIONS = f"subject: one of the 16 subjects ({SUBJECTS[0]} … {SUBJECTS[-1]}; default each in a seeded order)"


def items(n: int, level: int | None, seed: int, options: Mapping[str, Any]) -> list[TrainingItem]:
    """``n`` items: ``ceil(n / 16)`` fresh layouts of ``seed``, each asked as the 16 subjects in a seeded order (or
    only as ``subject``); level None is level 1."""
    subject = options.get("subject")
    if set(options) - {"subject"} or (subject is not None and subject not in SUBJECTS):
        raise UsageError(f"SPhyR's training options: {OPTIONS}; got {dict(options)}")
    from .generate_v2 import generate_sphyr_v2  # the reference optimiser loads when items are made
    from .prompts import build_prompt

    level = level or 1
    subjects = [subject] if subject else random.Random(f"sphyr-training:{seed}").sample(SUBJECTS, len(SUBJECTS))
    layouts = -(-n // len(subjects))
    size = GRID_SIZES[LEVEL_VERSIONS[level]]  # type: ignore[index]
    records = generate_sphyr_v2(layouts, seed, size, subjects=subjects)
    made = []
    for index in range(n):
        layout, name = divmod(index, len(subjects))
        record = records[subjects[name]][layout]
        made.append(
            TrainingItem(
                benchmark=BENCHMARK,
                id=f"{BENCHMARK}-{seed}-L{level}-{layout}-{subjects[name]}",
                level=level,
                prompt=build_prompt(record["input_grid"], subjects[name]),
                metadata={
                    "subject": subjects[name],
                    "input_grid": record["input_grid"],
                    "load_direction": record["load_direction"],
                },
                key=record,
            )
        )
    return made


def score(reply: str, item: TrainingItem) -> Reward:
    """The topology score of the completed grid (0 when it cannot be read), with the cell and physics verdict."""
    from .rl import Problem, judge

    record = item.key
    direction = tuple(record["load_direction"])
    problem = Problem(record["input_grid"], record["ground_truth"], direction)  # type: ignore[arg-type]
    cells, physics = judge(reply, problem)
    if not cells.valid_output_grid:
        return Reward(0.0, f"the grid could not be read: {cells.invalid_reason or 'invalid grid'}")
    value = float(physics.topology_score)
    why = physics.default_reason or ("carries the load" if physics.load_carrying else "does not carry the load")
    return Reward(min(max(value, 0.0), 1.0), f"topology score {value:.3f} ({why})")


TRAINER = Trainer(levels=tuple(LEVEL_VERSIONS), items=items, score=score, options_help=OPTIONS)
