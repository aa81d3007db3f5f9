"""The BeamDeflection task (``inspect eval mechbench/beam_deflection``): only what is this benchmark's own; the
rest (guard, oracle, provenance, generation defaults) is :func:`mechbench.harness.task.benchmark_task`'s."""

from __future__ import annotations

from inspect_ai import task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser
from inspect_ai.scorer import Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState

from mechbench.harness.task import TaskParts, benchmark_task
from mechbench.sources.root import Official, open_data

from .items import ANSWER_MARK, BENCHMARK, CLUSTER, inputs, prompt, read_items, truth_mm
from .scoring import correct, read_number

NO_PUBLISHER = Official("files", f"mechbench/{BENCHMARK}", title="BeamDeflection (no published set: use data=bundled)")
"""Where a publisher's set would come from (``data=None``). A benchmark of generated items has none, and its default
is ``data=bundled``; the id is only named, never fetched from, unless ``data=None`` asks for it."""


@scorer(metrics=[accuracy(), stderr(cluster=CLUSTER.key)])
def deflection_scorer() -> Scorer:
    """Correct when the reply's number is within the tolerance of the solver's deflection."""

    async def score(state: TaskState, target: Target) -> Score:
        truth = float(state.metadata["truth_mm"])
        value = read_number(state.output.completion)
        if value is None:
            return Score(
                value=0,
                answer=None,
                explanation=f"no '{ANSWER_MARK} <number>' line",
                metadata={"reason": "unparsable"},
            )
        ok = correct(value, truth)
        why = f"{value:g} mm against {truth:.4g} mm"
        return Score(value=int(ok), answer=f"{value:g}", explanation=why, metadata={"reason": "ok" if ok else "wrong"})

    return score


@task
@benchmark_task(BENCHMARK)
def beam_deflection(data: str = "bundled", max_tokens: int = 4096, oracle: bool = False) -> TaskParts:
    """BeamDeflection: the midspan deflection of a simply supported beam.

    Args:
        data: ``bundled`` (the generated set in this folder) or a folder holding an ``items.jsonl``.
        max_tokens: generation limit.
        oracle: answer every item with its truth, call no model (the top of the scale).
    """
    root = open_data(BENCHMARK, data, NO_PUBLISHER)
    items = read_items(root)
    truths = {i.id: truth_mm(i) for i in items}
    samples = [
        Sample(
            id=i.id,
            # The prompt with the item as data: the built-in models read the message's metadata (baselines.py).
            input=[ChatMessageUser(content=prompt(i), metadata=inputs(i))],
            target=f"{ANSWER_MARK} {truths[i.id]:.6g}",
            metadata={"truth_mm": truths[i.id], CLUSTER.key: i.id},
        )
        for i in items
    ]
    return TaskParts(
        dataset=MemoryDataset(samples, name=BENCHMARK),
        scorer=deflection_scorer(),
        data=root,
        files=[root.find("items.jsonl")],
        max_tokens=max_tokens,
    )
