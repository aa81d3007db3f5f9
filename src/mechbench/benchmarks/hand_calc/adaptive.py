"""Adaptive HandCalc (``-T adaptive=true``): each next item generated at the level where the model's ability is
estimated to be, until the ability's standard error reaches ``target_se`` or the budget of items is spent.

The scale is anchored to the levels: an item of level L has difficulty b = L, so an ability of 7 means "solves
level-7 items half the time". All items share the discrimination :data:`DISCRIMINATION` per level (the generator's
difficulty model; ``mechbench calibrate items`` measures it from runs). An item scores the share of its quantities
right. After each item the ability is the posterior mean under the 2PL model (:func:`mechbench.core.irt.ability`,
prior N(:data:`PRIOR`)), and the next item is drawn at the level closest to it, which is where an item tells most
(its information a² P (1 − P) peaks at b = θ). Items are generated fresh from the session's seed, step and level
(the same for every model), so a generator never runs out of hard items.
"""

from __future__ import annotations

import base64
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from mechbench.core.irt import Ability, Posterior, ability
from mechbench.harness.reliability import generate_checked, in_judge_thread

from .answers import judge
from .generated_set import make_item
from .prompts import prompt, target
from .protocol import ABILITY_METRIC, LEVELS, READING_BUDGET

DISCRIMINATION = 1.0
"""a of every generated item on the level scale (per level): the generator's difficulty model until calibrated."""
PRIOR = (5.0, 3.0)
"""Mean and SD of the ability's prior, on the level scale (wide: the built-in models sit near 0, the best past 10)."""
SESSION_KEY = "adaptive"
"""Where a session's items and its ability are kept in the sample's store."""


def next_level(estimate: float) -> int:
    """The level whose items tell most about an ability of ``estimate``: the nearest level (b = level)."""
    return int(min(max(round(estimate), min(LEVELS)), max(LEVELS)))


def posterior() -> Posterior:
    """A session's running estimate, before any answer (the prior on the level scale)."""
    return Posterior(PRIOR)


def record(running: Posterior, level: int, share: float) -> Ability:
    """Take an answer to an item of ``level`` (its share right) and return the ability after it."""
    running.add(share, DISCRIMINATION, float(level))
    return running.summary()


def estimate(answers: list[tuple[int, float]]) -> Ability:
    """The ability after ``answers`` (level, share right), on the level scale."""
    return ability(
        [share for _, share in answers],
        [DISCRIMINATION] * len(answers),
        [float(level) for level, _ in answers],
        prior=PRIOR,
    )


def sessions_dataset(sessions: int, seed: int) -> MemoryDataset:
    """One sample per adaptive session (each its own seed stream)."""
    return MemoryDataset(
        [
            Sample(
                id=f"adaptive-{k}",
                input=f"Adaptive HandCalc session {k} (seed {seed})",
                target="",
                metadata={"session": k, "seed": seed, "item": f"adaptive-{k}", "level": None},
            )
            for k in range(sessions)
        ],
        name="hand_calc-adaptive",
    )


def item_message(item: Any, presentation: str) -> ChatMessageUser:
    """An item as the model reads it: the prompt (and the drawing), with what the built-in models may read."""
    from .drawing import drawing

    text = prompt(item, presentation)
    metadata = {"inputs": item.inputs, "asked": [(q.key, q.unit, q.kind) for q in item.quantities]}
    if presentation == "drawing":
        image = "data:image/png;base64," + base64.b64encode(drawing(item)).decode()
        return ChatMessageUser(content=[ContentImage(image=image), ContentText(text=text)], metadata=metadata)
    return ChatMessageUser(content=text, metadata=metadata)


@solver
def adaptive_solver(budget: int, target_se: float, presentation: str, oracle: bool = False) -> Solver:
    """Ask fresh items at the estimated ability until its standard error is ``target_se`` or ``budget`` items are
    asked; ``oracle`` answers each item with its truth (no model)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        seed, session = int(state.metadata["seed"]), int(state.metadata["session"])
        running = posterior()
        asked: list[dict[str, Any]] = []
        found = running.summary()
        for step in range(budget):
            level = next_level(found.theta)
            item = make_item(seed * 1000 + session, step, level)
            if oracle:
                reply = target(item)
            else:
                state.messages = [item_message(item, presentation)]
                state = await generate_checked(state, generate)
                reply = state.output.completion
            verdicts = await in_judge_thread(lambda r=reply, i=item: judge(r, i.quantities), READING_BUDGET)
            share = sum(v.correct for v in verdicts) / len(verdicts)
            found = record(running, level, share)
            asked.append({"step": step, "level": level, "family": item.family, "item": item.id, "share": share,
                          "theta": found.theta, "se": found.se})  # fmt: skip
            if found.se <= target_se:
                break
        state.store.set(SESSION_KEY, {"items": asked, "theta": found.theta, "se": found.se, "low": found.low,
                                      "high": found.high})  # fmt: skip
        return state

    return solve


@scorer(metrics=[mean()])
def adaptive_scorer() -> Scorer:
    """A session's score: its ability on the level scale, with the standard error, the 95 % interval and every item
    asked in the metadata."""

    async def score(state: TaskState, target: Target) -> Score:
        session = state.store.get(SESSION_KEY)
        if not session or not session["items"]:
            return Score(value=float("nan"), explanation="no item was asked", metadata={"items": []})
        return Score(
            value=session["theta"],
            answer=f"{session['theta']:.2f}",
            explanation=(
                f"ability {session['theta']:.2f} on the level scale (95 % interval {session['low']:.2f} to "
                f"{session['high']:.2f}, SE {session['se']:.2f}) after {len(session['items'])} items"
            ),
            metadata={**session, "metric": ABILITY_METRIC},
        )

    return score
