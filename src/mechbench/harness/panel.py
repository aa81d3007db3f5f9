"""A panel of built-in models in one Inspect run: every sample is answered by each model in turn, through the
task's own solver, and each answer is scored by the task's own scorer under the model's name.

A shortcut panel (``mechbench validate --shortcuts``, the demo) asks the same samples of four to six built-in models.
As separate runs, Inspect's per-sample work (about 8 ms: events, logging, scoring bookkeeping) was paid once per
model and dominated the demo; in a panel it is paid once per sample. What each model is asked and how its answer is
scored do not change: its answers come from the same provider (``get_model("mechbench/<name>")``) through the same
solver chain (retries, frames, feedback rounds), in a state of its own.

The log is one run: its model is the first member, its task metadata lists the members under :data:`PANEL_KEY`
(model and the names its scores carry), and each sample holds one score per member, named after the model. The
report reads it as one run per member (:func:`member_views`), exactly as if each had run alone.
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Sequence
from typing import Any

from inspect_ai import Task, task_with
from inspect_ai._util.registry import registry_unqualified_name
from inspect_ai.model import ChatMessageAssistant, GenerateConfig, Model, ModelOutput, get_model
from inspect_ai.model._model import active_model_context_var
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.scorer._scorer import scorer_metrics
from inspect_ai.solver import Generate, Solver, TaskState, solver

from mechbench import registry
from mechbench.core.errors import UsageError

PANEL_KEY = "panel"
"""Task metadata of a panel run: one ``{"model": "mechbench/<name>", "scorers": {its score's name: the task's score
name}}`` per member."""
PREFIX = "mechbench/"

_MEMBERS: weakref.WeakKeyDictionary[TaskState, list[TaskState]] = weakref.WeakKeyDictionary()
"""Each running sample's member states, from the panel solver to the member scorers (and gone with the sample)."""


def _generate_with(model: Model) -> Generate:
    """Inspect's ``generate`` for one member: the same call the task makes of its own model, to ``model``."""

    async def generate(state: TaskState, tool_calls: str = "loop", cache: bool = False, **config: Any) -> TaskState:
        output = await model.generate(state.messages, config=GenerateConfig(**config), cache=cache)
        state.output = output
        state.messages.append(output.message)
        return state

    return generate  # type: ignore[return-value]


def _member_state(state: TaskState) -> TaskState:
    """A fresh state of the sample for one member: the prompt as the task set it up, nothing answered yet."""
    return TaskState(
        model=state.model,
        sample_id=state.sample_id,
        epoch=state.epoch,
        input=copy.deepcopy(state.input),
        messages=copy.deepcopy(state.messages),
        target=state.target,
        choices=[choice.value for choice in state.choices] or None,
        metadata=copy.deepcopy(state.metadata),
        store=copy.deepcopy(dict(state.store.items())),
        sample_uuid=state.uuid,
    )


@solver
def panel_solver(inner: Solver, models: list[str], model_args: dict[str, Any] | None = None) -> Solver:
    """Answer each sample with every model of ``models`` in turn, each through ``inner`` (the task's solver);
    ``model_args`` go to every model (as ``-M`` does)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        members = []
        for name in models:
            model = get_model(name, **(model_args or {}))
            # A solver that asks the active model itself (SeeSim's frames, one call per frame) asks the member too.
            token = active_model_context_var.set(model)
            try:
                member = await inner(_member_state(state), _generate_with(model))
            finally:
                active_model_context_var.reset(token)
            members.append(member)
        _MEMBERS[state] = members
        summary = "\n".join(f"{name}: {member.output.completion}" for name, member in zip(models, members, strict=True))
        state.output = ModelOutput.from_content(model="mechbench/panel", content=summary)
        state.messages.append(ChatMessageAssistant(content=summary, model="mechbench/panel"))
        return state

    return solve


def _member_scorer(inner: Scorer, index: int, name: str) -> Scorer:
    """The task's scorer ``inner``, scoring the answer of member ``index``, registered under ``name``."""

    @scorer(metrics=scorer_metrics(inner), name=name)
    def member() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score | None:
            members = _MEMBERS.get(state)
            if members is None:  # the panel solver did not finish this sample: nothing to score
                return None
            return await inner(members[index], target)

        return score

    return member()


def member_names(models: Sequence[str], scorers: Sequence[Scorer]) -> list[dict[str, Any]]:
    """The members of a panel as :data:`PANEL_KEY` records them: each model and its scores' names (the model's
    short name for a task with one scorer, ``<model>-<scorer>`` for several)."""
    out = []
    for model in models:
        short = model.removeprefix(PREFIX)
        names = {
            (short if len(scorers) == 1 else f"{short}-{registry_unqualified_name(s)}"): registry_unqualified_name(s)
            for s in scorers
        }
        out.append({"model": model, "scorers": names})
    return out


def panel_task(task: Task, models: Sequence[str], model_args: dict[str, Any] | None = None) -> Task:
    """``task`` (a benchmark's task in its single-answer setting) as one run of the built-in ``models``
    (``mechbench/<name>``, each able to answer the benchmark; ``model_args`` given to each); the task is changed in
    place and returned. Run it with ``model=models[0]``."""
    meta = dict(task.metadata or {})
    benchmark = str(meta.get("benchmark", ""))
    if not models or len(set(models)) != len(models):
        raise UsageError("a panel needs at least one model, each named once")
    if meta.get("setting") == "tools" or meta.get("oracle"):
        raise UsageError("a panel answers in the single-answer setting (no tools, no oracle)")
    known = registry.baselines()
    for model in models:
        serves = {b.benchmark for b in known.get(model.removeprefix(PREFIX), [])} if model.startswith(PREFIX) else set()
        if benchmark not in serves:
            raise UsageError(f"{model} is not a built-in model that answers {benchmark or 'this task'}")
    inner = list(task.scorer or [])
    members = member_names(models, inner)
    scorers = [
        _member_scorer(s, index, name)
        for index, member in enumerate(members)
        for s, name in zip(inner, member["scorers"], strict=True)
    ]
    return task_with(
        task,
        solver=panel_solver(task.solver, list(models), model_args),
        scorer=scorers,
        metadata={**meta, PANEL_KEY: members},
    )


def member_views(log: Any) -> list[Any]:
    """A panel run's log as one log per member, as if each model had run alone (its model, its scores under the
    task's own scorer names, its token usage); any other log as it is."""
    members = (log.eval.metadata or {}).get(PANEL_KEY) if log.eval else None
    if not members:
        return [log]
    views = []
    for member in members:
        names: dict[str, str] = member["scorers"]
        samples = [
            sample.model_copy(
                update={"scores": {names[k]: v for k, v in (sample.scores or {}).items() if k in names} or None}
            )
            for sample in log.samples or []
        ]
        results = log.results
        if results is not None:
            scores = [
                score.model_copy(update={"scorer": names[score.scorer], "name": names.get(score.name, score.name)})
                for score in results.scores
                if score.scorer in names
            ]
            results = results.model_copy(update={"scores": scores})
        usage = {k: v for k, v in (log.stats.model_usage or {}).items() if k == member["model"]}
        meta = {**log.eval.metadata, PANEL_KEY: None, "panel_member_of": [m["model"] for m in members]}
        views.append(
            log.model_copy(
                update={
                    "eval": log.eval.model_copy(update={"model": member["model"], "metadata": meta}),
                    "samples": samples,
                    "results": results,
                    "stats": log.stats.model_copy(update={"model_usage": usage}),
                }
            )
        )
    return views
