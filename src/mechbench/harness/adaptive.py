"""Adaptive runs of a generated benchmark (``-T adaptive=true``): each next item generated at the level where the
model's ability is estimated to be, until the ability's standard error reaches ``target_se`` or the budget of items
is spent.

The scale is anchored to the generator's levels: an item of level L has difficulty b = L, so an ability of 7 means
"solves level-7 items half the time". Every item shares the discrimination :data:`DISCRIMINATION` per level (the
generator's difficulty model; ``mechbench calibrate items`` measures it from runs). An item scores a share in
[0, 1] (HandCalc: of its quantities; StructuralEval: its ladder credit). After each item the ability is the
posterior mean under the 2PL model (prior N(:data:`PRIOR`)), and the next item is drawn at the level closest to it,
where an item's information a² P (1 − P) peaks. Items are generated fresh from the session's seed, step and level
(the same for every model that answers alike), so a generator never runs out of hard items.

A benchmark supplies its items as :class:`AdaptiveItems`; this module owns the rule, the solver, the scorer and
the report's ability rows and tables (the same for every benchmark).
"""

from __future__ import annotations

import copy
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import anyio
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from mechbench.core.irt import Ability, Posterior, ability
from mechbench.harness.reliability import generate_checked, in_judge_thread
from mechbench.registry import Column, Rows, Table

DISCRIMINATION = 1.0
"""a of every generated item on the level scale (per level): the generators' difficulty model until calibrated."""
PRIOR = (5.0, 3.0)
"""Mean and SD of the ability's prior, on the level scale (wide: the built-in models sit near 0, the best past 10)."""
SESSION_KEY = "adaptive"
"""Where a session's items and its ability are kept in the sample's store."""
ABILITY_METRIC = "ability (level scale)"
"""The headline of an adaptive run: never pooled with the accuracies of fixed sets."""
TARGET_SE = 0.3
"""The standard error (level scale) a session stops at by default (``-T target_se=``)."""
BUDGET = 30
"""The most items a session asks by default (``-T budget=``)."""
LIMITS = "adaptive runs take 0 < target_se < 5, 1 <= budget <= 200 and 1 <= sessions <= 100"


@dataclass(frozen=True)
class AdaptiveItems:
    """A benchmark's items for adaptive runs: ``make(stream, step, level)`` a fresh item, ``message(item)`` what the
    model is shown, ``reply(item)`` a correct reply (the oracle's), ``share(reply, item)`` what a reply earns in
    [0, 1] (blocking work: it runs in a judge thread within ``reading_budget`` seconds), ``describe(item)`` what the
    log keeps of it (id, family, kind)."""

    levels: tuple[int, ...]
    make: Callable[[int, int, int], Any]
    message: Callable[[Any], ChatMessageUser]
    reply: Callable[[Any], str]
    share: Callable[[str, Any], float]
    describe: Callable[[Any], dict[str, Any]]
    reading_budget: float = 30.0


def check_limits(target_se: float, budget: int, sessions: int) -> str | None:
    """Why these settings are refused (None when they are fine)."""
    return None if 0 < target_se < 5 and 1 <= budget <= 200 and 1 <= sessions <= 100 else LIMITS


@dataclass(frozen=True)
class AdaptiveRun:
    """What an adaptive run of a benchmark asks for: its items, its sessions and its stopping rule, and the words
    its log and report name it by."""

    benchmark: str
    title: str
    items: AdaptiveItems
    sessions: int
    seed: int
    budget: int
    target_se: float
    shown: str
    """How its items are shown, in a few words (``text``, ``prompt standard``)."""
    asked: str = "items"
    """What one item is called (``items``, ``drawings``)."""


def adaptive_parts(run: AdaptiveRun, max_tokens: int, data: str, settings: dict[str, Any]) -> Any:
    """The task parts of an adaptive run (:class:`~mechbench.harness.task.TaskParts`); settings it cannot honour
    are one usage error."""
    from mechbench.core.errors import UsageError
    from mechbench.harness.task import TaskParts

    refused = check_limits(run.target_se, run.budget, run.sessions)
    if refused:
        raise UsageError(refused)
    return TaskParts(
        dataset=sessions_dataset(run.benchmark, run.title, run.sessions, run.seed),
        scorer=adaptive_scorer(),
        solver=adaptive_solver(run.items, run.budget, run.target_se),
        oracle_solver=adaptive_solver(run.items, run.budget, run.target_se, oracle=True),
        data=data,
        setting=f"adaptive ({run.shown}, target SE {run.target_se:g}, at most {run.budget} {run.asked})",
        answer_calls=run.budget,
        max_tokens=max_tokens,
        settings={
            **settings,
            "adaptive": True,
            "target_se": run.target_se,
            "budget": run.budget,
            "generated_during_run": {"seed": run.seed, "adaptive": True},
        },
    )


def next_level(estimate: float, levels: Sequence[int] = tuple(range(1, 11))) -> int:
    """The level whose items tell most about an ability of ``estimate``: the nearest level (b = level)."""
    return int(min(max(round(estimate), min(levels)), max(levels)))


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


def sessions_dataset(benchmark: str, title: str, sessions: int, seed: int) -> MemoryDataset:
    """One sample per adaptive session (each its own seed stream)."""
    return MemoryDataset(
        [
            Sample(
                id=f"adaptive-{k}",
                input=f"Adaptive {title} session {k} (seed {seed})",
                target="",
                metadata={"session": k, "seed": seed, "item": f"adaptive-{k}", "level": None},
            )
            for k in range(sessions)
        ],
        name=f"{benchmark}-adaptive",
    )


PREPARER = ThreadPoolExecutor(1, thread_name_prefix="mechbench-adaptive-items")
"""The one thread items are prepared in, whichever session asks: a drawing is matplotlib's work, which is not made
for two threads drawing at once."""


def _prepare(items: AdaptiveItems, stream: int, step: int, level: int) -> Future:
    """Item ``step`` of ``stream`` at ``level`` and its message (the drawing made), being prepared."""

    def both() -> tuple[Any, ChatMessageUser]:
        item = items.make(stream, step, level)
        return item, items.message(item)

    return PREPARER.submit(both)


def reachable(running: Posterior, level: int, levels: Sequence[int]) -> list[int]:
    """The levels the next item can be at once an item of ``level`` is answered, whatever share it earns: the
    estimate rises with the share, so they lie between the levels after a wrong and after a right answer. Those two
    come first (an answer is most often all right or all wrong), then the levels between."""
    ends = []
    for share in (1.0, 0.0):
        trial = copy.deepcopy(running)
        trial.add(share, DISCRIMINATION, float(level))
        ends.append(next_level(trial.summary().theta, levels))
    between = [k for k in range(min(ends) + 1, max(ends)) if k not in ends]
    return list(dict.fromkeys(ends)) + between


@solver
def adaptive_solver(items: AdaptiveItems, budget: int, target_se: float, oracle: bool = False) -> Solver:
    """Ask fresh items at the estimated ability until its standard error is ``target_se`` or ``budget`` items are
    asked; ``oracle`` answers each item with its correct reply (no model).

    While the model answers, the items the answer can lead to (:func:`reachable`, one to three levels) are prepared
    in a thread, so that a drawing is not made between the answer and the next call: the same items as made after
    the answer (an item depends on its stream, step and level alone)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        seed, session = int(state.metadata["seed"]), int(state.metadata["session"])
        stream = seed * 1000 + session
        running = posterior()
        asked: list[dict[str, Any]] = []
        found = running.summary()
        ahead: dict[int, Future] = {}
        for step in range(budget):
            level = next_level(found.theta, items.levels)
            if oracle:
                item = items.make(stream, step, level)
                reply = items.reply(item)
            else:
                ready = ahead.pop(level, None) or _prepare(items, stream, step, level)
                _drop(ahead)
                item, message = await anyio.to_thread.run_sync(ready.result)
                if step + 1 < budget:
                    ahead = {k: _prepare(items, stream, step + 1, k) for k in reachable(running, level, items.levels)}
                state.messages = [message]
                state = await generate_checked(state, generate)
                reply = state.output.completion
            note: dict[str, str] = {}
            try:
                share = await in_judge_thread(lambda r=reply, i=item: items.share(r, i), items.reading_budget)
            except TimeoutError:  # the reply earns nothing, with the reason, and the session goes on
                share, note = 0.0, {"reason": f"reading ran past its {items.reading_budget:g} s budget"}
            found = record(running, level, share)
            asked.append({"step": step, "level": level, **items.describe(item), "share": share,
                          "theta": found.theta, "se": found.se, **note})  # fmt: skip
            if found.se <= target_se:
                break
        _drop(ahead)
        state.store.set(SESSION_KEY, {"items": asked, "theta": found.theta, "se": found.se, "low": found.low,
                                      "high": found.high})  # fmt: skip
        return state

    return solve


def _drop(ahead: dict[int, Future]) -> None:
    """Let go of items being prepared for levels the session does not go to (one already started ends on its own)."""
    for future in ahead.values():
        future.cancel()
    ahead.clear()


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


def is_session(sample: Any) -> bool:
    """The sample is an adaptive session (its score an ability, never an accuracy)."""
    return "session" in (sample.metadata or {})


def session_row(sample: Any, score: Any, model: str, setting: str) -> dict[str, Any] | None:
    """A session's ability as a report row (None when it asked nothing)."""
    found = score.metadata or {}
    if not found.get("items"):
        return None
    return {
        "model": model,
        "setting": setting,
        "session": sample.metadata["session"],
        **{key: found[key] for key in ("theta", "se", "low", "high")},
        "items": len(found["items"]),
    }


def abilities(data: Rows) -> Rows:
    """Per model and setting of adaptive runs: the ability (the mean over sessions, its SE from the sessions'
    posteriors), its 95 % interval, and every pair of models compared: the difference with its 95 % interval and
    two-sided p (the sessions of two models are independent)."""
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in data.get("abilities", []):
        grouped[(row["model"], row["setting"])].append(row)
    out = []
    for (model, chosen), sessions in sorted(grouped.items()):
        theta = sum(r["theta"] for r in sessions) / len(sessions)
        se = math.sqrt(sum(r["se"] ** 2 for r in sessions)) / len(sessions)
        if len(sessions) == 1:  # one session: its posterior interval
            low, high = sessions[0]["low"], sessions[0]["high"]
        else:
            low, high = theta - 1.96 * se, theta + 1.96 * se
        out.append({"model": model, "setting": chosen, "theta": theta, "se": se, "low": low, "high": high,
                    "sessions": len(sessions), "items": sum(r["items"] for r in sessions)})  # fmt: skip
    pairs = []
    for i, first in enumerate(out):
        for second in out[i + 1 :]:
            if first["setting"] != second["setting"]:
                continue
            difference = first["theta"] - second["theta"]
            se = math.hypot(first["se"], second["se"])
            p = math.erfc(abs(difference) / se / math.sqrt(2)) if se > 0 else 0.0
            pairs.append({"a": first["model"], "b": second["model"], "setting": first["setting"],
                          "difference": difference, "ci95": 1.96 * se, "p": p})  # fmt: skip
    return {"ability": out, "ability_pairs": pairs}


def ability_tables(title: str, data: Rows) -> list[Table]:
    """The abilities of adaptive runs and their pairwise comparisons, where there are any."""
    out: list[Table] = []
    rows = [{**r, "shown": f"{r['theta']:.2f} ({r['low']:.2f} to {r['high']:.2f})"} for r in data.get("ability", [])]
    if rows:
        out.append((f"{title}: ability on the level scale (adaptive runs)", rows, [
            Column("model", "model"), Column("setting", "setting"),
            Column("shown", "ability (95 % interval): solves items of this level half the time"),
            Column("items", "items asked"), Column("sessions", "sessions")]))  # fmt: skip
    pairs = [{**p, "shown": f"{p['difference']:+.2f} ± {p['ci95']:.2f}", "p_shown": f"{p['p']:.3g}"}
             for p in data.get("ability_pairs", [])]  # fmt: skip
    if pairs:
        out.append((f"{title}: abilities compared (adaptive runs)", pairs, [
            Column("a", "model"), Column("b", "against"), Column("setting", "setting"),
            Column("shown", "difference (95 %)"), Column("p_shown", "p")]))  # fmt: skip
    return out


GLOSSARY = (
    ABILITY_METRIC,
    "an adaptive run's measure: the level whose items the model solves half the time (2PL model, items of level L at "
    "difficulty L), with its 95 % posterior interval; items generated at the current estimate until its standard "
    "error reaches the target",
)
