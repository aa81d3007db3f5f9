"""The HandCalc task (``inspect eval mechbench/hand_calc``): items as drawings, as text or both; each quantity
parsed with its unit and judged within the tolerance. The rest (guard, oracle, provenance, the tool setting's loop)
is :func:`mechbench.harness.task.benchmark_task`'s."""

from __future__ import annotations

from typing import Literal

from inspect_ai import task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState

from mechbench.core.errors import UsageError
from mechbench.harness.adaptive import BUDGET, TARGET_SE
from mechbench.harness.reliability import in_judge_thread
from mechbench.harness.task import TaskParts, benchmark_task
from mechbench.harness.tools import DEFAULT_TOOL_BUDGET
from mechbench.sources.root import DataRoot, Official, open_data

from .answers import judge
from .items import Item, Quantity, read_items
from .prompts import prompt, target
from .protocol import BENCHMARK, CLUSTER, DRAWINGS, ITEMS_FILE, PRESENTATIONS, READING_BUDGET
from .tools import tool_solver

Presentation = Literal["drawing", "text", "both"]
NO_PUBLISHER = Official("files", "mechbench/hand-calc", title="HandCalc (no published set: use data=bundled)")


@scorer(metrics=[mean(), stderr(cluster=CLUSTER.key)])
def hand_calc_scorer() -> Scorer:
    """An item's score: the share of its quantities within the tolerance (each quantity's verdict and reason kept)."""

    async def score(state: TaskState, target: Target) -> Score:
        quantities = [Quantity.model_validate(q) for q in state.metadata["quantities"]]
        reply = state.output.completion
        try:  # bounded before pint sees it; the budget is the backstop that keeps the run going whatever happens
            verdicts = await in_judge_thread(lambda: judge(reply, quantities), READING_BUDGET)
        except TimeoutError:
            why = f"reading the reply ran past its {READING_BUDGET:g} s budget and was abandoned"
            return Score(value=0.0, explanation=why, metadata={"correct": 0, "asked": len(quantities), "reasons": {}})
        right = sum(v.correct for v in verdicts)
        reasons = {v.key: v.reason for v in verdicts}
        return Score(
            value=right / len(verdicts),
            answer="; ".join(f"{v.key}={v.value:.4g}" if v.value is not None else f"{v.key}=?" for v in verdicts),
            explanation="; ".join(f"{k}: {r}" for k, r in reasons.items()),
            metadata={"correct": right, "asked": len(verdicts), "reasons": reasons},
        )

    return score


def _sample(item: Item, presentation: str, root: DataRoot) -> Sample:
    text = prompt(item, presentation)
    metadata = {"inputs": item.inputs, "asked": [(q.key, q.unit, q.kind) for q in item.quantities]}
    if presentation == "drawing":
        image = root.media(root.file(f"{DRAWINGS}/{item.id}.png"), "image")
        message = ChatMessageUser(content=[ContentImage(image=str(image)), ContentText(text=text)], metadata=metadata)
    else:
        message = ChatMessageUser(content=text, metadata=metadata)
    return Sample(
        id=f"{item.id}-{presentation}",
        input=[message],
        target=target(item),
        metadata={
            CLUSTER.key: item.id,
            "presentation": presentation,
            "family": item.family,
            "level": item.level,
            "quantities": [q.model_dump() for q in item.quantities],
        },
    )


@task
@benchmark_task(BENCHMARK)
def hand_calc(
    data: str = "bundled",
    presentation: Presentation = "both",
    family: str | None = None,
    max_tokens: int = 8192,
    oracle: bool = False,
    tools: bool = False,
    tool_budget: int = DEFAULT_TOOL_BUDGET,
    difficulty: int | None = None,
    n: int = 20,
    seed: int = 1,
    adaptive: bool = False,
    target_se: float = TARGET_SE,
    budget: int = BUDGET,
    sessions: int = 1,
) -> TaskParts:
    """HandCalc: engineering hand calculations (reactions, member forces, moments, deflections, axial bars, buckling,
    plane stress) with truths from mechbench's physics, each item as a drawing and as text.

    Args:
        data: ``bundled`` (the generated set in this folder) or a folder written by ``mechbench generate hand_calc``.
        presentation: ``drawing``, ``text`` or ``both`` (every item asked both ways; the report pairs them).
        family: keep only this family (``reactions``, ``truss``, ``moment``, ``deflection``, ``axial``,
            ``buckling``, ``stress``).
        max_tokens: generation limit.
        oracle: answer every item with its truth, call no model (the top of the scale).
        tools: the tool setting: the model may call ``solve_frame`` (mechbench's frame solver on a FrameCalc model
            it writes) before it submits one answer.
        tool_budget: tool calls per sample in the tool setting.
        difficulty: generate ``n`` fresh items of this level (1-10) from ``seed`` instead of reading ``data``.
        n: items generated with ``difficulty``.
        seed: the generator's seed (``difficulty`` and ``adaptive``).
        adaptive: measure ability instead of accuracy: each next item generated at the level where the model's
            ability is estimated to be, until its standard error is ``target_se`` or ``budget`` items are asked
            (``adaptive.py``); the score is the ability on the level scale.
        target_se: the standard error an adaptive session stops at.
        budget: the most items an adaptive session asks.
        sessions: adaptive sessions, each with its own items.
    """
    if adaptive or difficulty is not None:
        return _generated_parts(presentation, max_tokens, difficulty, n, seed, adaptive, target_se, budget, sessions)
    root = open_data(BENCHMARK, data, NO_PUBLISHER)
    items = read_items(root)
    families = sorted({i.family for i in items})
    if family is not None and family not in families:
        raise UsageError(f"family {family!r} is not one of {', '.join(families)} (the families of {data})")
    items = [i for i in items if family is None or i.family == family]
    shown = PRESENTATIONS if presentation == "both" else (presentation,)
    samples = [_sample(item, p, root) for item in items for p in shown]
    return TaskParts(
        dataset=MemoryDataset(samples, name=BENCHMARK),
        scorer=hand_calc_scorer(),
        tool_solver=tool_solver,
        data=root,
        files=[root.find(ITEMS_FILE)],
        max_tokens=max_tokens,
        settings={"presentation": presentation, "family": family},
    )


def _generated_parts(
    presentation: str, max_tokens: int, difficulty: int | None, n: int, seed: int, adaptive: bool, target_se: float,
    budget: int, sessions: int,
) -> TaskParts:  # fmt: skip
    """Items generated on the fly: ``n`` of one level, or adaptive sessions."""
    from mechbench.harness.adaptive import AdaptiveRun, adaptive_parts

    from .adaptive import adaptive_items
    from .generated_set import GENERATOR_VERSION, make_item
    from .protocol import LEVELS

    shown = PRESENTATIONS if presentation == "both" else (presentation,)
    source = f"generated on the fly by mechbench (seed {seed}, generator v{GENERATOR_VERSION})"
    if adaptive:
        if presentation == "both":
            raise UsageError("adaptive=true asks each item one way: presentation=text or presentation=drawing")
        run = AdaptiveRun(BENCHMARK, "HandCalc", adaptive_items(presentation), sessions, seed, budget, target_se,
                          shown=presentation)  # fmt: skip
        return adaptive_parts(run, max_tokens, source, {"presentation": presentation})
    if difficulty not in LEVELS:
        raise UsageError(f"difficulty must be a level {min(LEVELS)}-{max(LEVELS)}, got {difficulty!r}")
    if not 1 <= n <= 2000:
        raise UsageError(f"n must be between 1 and 2000, got {n}")
    items = [make_item(seed, k, difficulty) for k in range(n)]
    return TaskParts(
        dataset=MemoryDataset([_generated_sample(item, p) for item in items for p in shown], name=BENCHMARK),
        scorer=hand_calc_scorer(),
        tool_solver=tool_solver,
        data=f"{source}, level {difficulty}",
        max_tokens=max_tokens,
        settings={
            "presentation": presentation,
            "family": None,
            "difficulty": difficulty,
            "generated_during_run": {"seed": seed, "difficulty": difficulty, "n": n},
        },
    )


def _generated_sample(item: Item, presentation: str) -> Sample:
    from .adaptive import item_message

    return Sample(
        id=f"{item.id}-{presentation}",
        input=[item_message(item, presentation)],
        target=target(item),
        metadata={
            CLUSTER.key: item.id,
            "presentation": presentation,
            "family": item.family,
            "level": item.level,
            "quantities": [q.model_dump() for q in item.quantities],
        },
    )
