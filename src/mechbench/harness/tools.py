"""The tool setting (``-T tools=true``): the model may call a benchmark's physics tools before it submits.

The loop is Inspect's own tool calling (``Model.generate(tools=…)`` and ``execute_tools``), so every provider
that supports tool calls works unchanged. The model ends by calling ``submit(answer)``; that answer becomes the
sample's completion and is scored by the benchmark's usual judge, so the setting compares row by row with the
single-answer one. A reply without a tool call is taken as the final answer too.

Every tool call is counted against the sample's budget (``-T tool_budget=N``); a call past it is answered with a
tool error telling the model to submit. Tool inputs are bounded like replies. What happened is kept in the
sample store and scored by :func:`tool_use` (mean tool calls, and each sample's calls, tools, failures).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from inspect_ai.model import ChatMessageTool, ChatMessageUser, Model, execute_tools, get_model
from inspect_ai.scorer import Metric, SampleScore, Score, Target, metric, scorer
from inspect_ai.solver import TaskState
from inspect_ai.tool import Tool, ToolCall, ToolCallError, ToolDef, ToolError, ToolFunction, tool
from inspect_ai.util import store

from mechbench.core.budget import within_budget
from mechbench.harness.reliability import in_judge_thread, instrument_error, model_generate_checked

T = TypeVar("T")

DEFAULT_TOOL_BUDGET = 8
"""Tool calls one sample may make (``submit`` not counted)."""
MAX_TOOL_BUDGET = 100
"""The largest budget a run may set (each call is a model turn)."""
MAX_TOOL_INPUT_CHARS = 200_000
"""Characters of one tool argument (a FrameCalc model or a grid takes a few thousand)."""
SUBMIT = "submit"
RECORD_KEY = "mechbench_tool_use"
CALLS_KEY = "mechbench_tool_calls"


INSTRUMENT = "mechbench's "
"""How a tool error caused by mechbench's own instrument begins (the model's input was not at fault)."""
TOOL_WORK_BUDGET = 30.0
"""Seconds the work of one tool call may take: the work checks it and stops itself (a 20×20 analysis or a drawing
at the drawing limits takes a few seconds)."""
TOOL_TIMEOUT = 60.0
"""Seconds one tool call's work may take, from the moment a worker slot is free, before it is abandoned: a backstop
behind :data:`TOOL_WORK_BUDGET`."""


def spend(name: str, budget: int, argument: str) -> None:
    """Count one call of tool ``name`` against the sample's budget; a call past it, or an oversized argument, is
    a tool error the model reads (never a failure of the sample)."""
    used = store().get(CALLS_KEY, 0) + 1
    store().set(CALLS_KEY, used)
    if used > budget:
        raise ToolError(f"the tool budget of {budget} calls is used up: call {SUBMIT}(answer) with your final answer")
    if len(argument) > MAX_TOOL_INPUT_CHARS:
        raise ToolError(f"{name}: the input has {len(argument)} characters, more than {MAX_TOOL_INPUT_CHARS}")


async def guarded(name: str, work: Callable[[], Awaitable[T]]) -> T:
    """Run one tool's work; a failure of mechbench's own instrument (anything but a :class:`ToolError` about the
    input) reaches the model as a tool error that says so, the call is given back to its budget, and the sample
    goes on."""
    try:
        return await work()
    except ToolError:
        raise
    except Exception as error:
        store().set(CALLS_KEY, store().get(CALLS_KEY, 1) - 1)
        raise ToolError(
            f"{INSTRUMENT}{name} failed on this input ({instrument_error(error)}); not your mistake"
        ) from None


async def in_worker(name: str, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` for tool ``name`` in a worker thread (one per core), inside :data:`TOOL_WORK_BUDGET` and
    :func:`guarded`: work past its budget stops and reaches the model as mechbench's own failure."""
    work = functools.partial(within_budget, TOOL_WORK_BUDGET, f"the {name} work", fn, *args)
    return await guarded(name, lambda: in_judge_thread(work, TOOL_TIMEOUT))


@tool(name=SUBMIT)
def submit_tool() -> Tool:
    async def execute(answer: str) -> str:
        """Submit your final answer; it is scored and the conversation ends.

        Args:
            answer: the final answer, written exactly as the task asks for it.
        """
        return "submitted"

    return execute


def instructions(budget: int, tools: Sequence[str]) -> str:
    """The note added after the task's prompt in the tool setting."""
    return (
        f"You may call these tools before you answer: {', '.join(tools)}; at most {budget} calls in all. They "
        f"check your own work; none of them knows the answer. When you are done, call {SUBMIT}(answer) with your "
        "final answer, written exactly as the task asks for it."
    )


def _record(messages: list[Any], budget: int, via: str | None) -> dict[str, Any]:
    results = [m for m in messages if isinstance(m, ChatMessageTool) and m.function != SUBMIT]
    ran = [m for m in results if not (m.error is not None and m.error.message == SKIPPED_MESSAGE)]
    instrument = [m.error is not None and m.error.message.startswith(INSTRUMENT) for m in ran]
    failed = [m.error is not None and not bad for m, bad in zip(ran, instrument, strict=True)]
    return {
        "calls": len(ran) - sum(instrument),
        "tools": sorted({m.function or "" for m in ran}),
        "failed_calls": sum(failed),
        "instrument_failures": sum(instrument),
        "answer_after_failed_call": bool(failed) and failed[-1],
        "answer_via": via,
        "submitted": via == SUBMIT,
        "budget": budget,
    }


SKIPPED_MESSAGE = "not run: the answer was submitted in the same turn"


def _submitted(call: ToolCall) -> tuple[str | None, str | None]:
    """(answer, None) from a submit call, or (None, the tool error to send back) when it carries no answer."""
    if call.parse_error:
        return None, f"the arguments could not be read ({call.parse_error}); call {SUBMIT} again"
    if "answer" not in call.arguments:
        return None, f"{SUBMIT} needs an answer: {SUBMIT}(answer)"
    value = call.arguments["answer"]
    return (value if isinstance(value, str) else json.dumps(value)), None


def tool_turns(budget: int) -> int:
    """The most model turns of one sample in the tool setting: one per tool call, a last one that may only submit,
    and one more for a reply that neither calls a tool nor submits."""
    return budget + 2


async def tool_loop(state: TaskState, tools: list[Tool], budget: int, model: Model | None = None) -> TaskState:
    """Let the model call ``tools`` (and ``submit``) until it submits, answers in plain text, or has had
    ``budget`` + 2 turns (the last one, and every turn once the budget is spent, may only submit); the answer
    becomes ``state.output.completion`` (empty when there is none: scored as no answer)."""
    model = model or get_model()
    offered = [*tools, submit_tool()]
    state.messages.append(ChatMessageUser(content=instructions(budget, [ToolDef(t).name for t in tools])))
    answer, via = None, None
    turns = tool_turns(budget)
    for turn in range(turns):
        spent = store().get(CALLS_KEY, 0) >= budget
        choice = ToolFunction(name=SUBMIT) if turn == turns - 1 or spent else "auto"
        output = await model_generate_checked(model, state.messages, tools=offered, tool_choice=choice)
        state.output = output
        if output.empty:  # no usable completion after the retries: no answer
            break
        state.messages.append(output.message)
        calls = output.message.tool_calls or []
        chosen = next((c for c in calls if c.function == SUBMIT), None)
        if chosen is not None:
            answer, problem = _submitted(chosen)
            for call in calls:
                if call is chosen:
                    content = "submitted" if problem is None else ""
                    error = None if problem is None else ToolCallError("parsing", problem)
                    state.messages.append(
                        ChatMessageTool(content=content, tool_call_id=call.id, function=SUBMIT, error=error)
                    )
                else:
                    state.messages.append(
                        ChatMessageTool(
                            content="",
                            tool_call_id=call.id,
                            function=call.function,
                            error=ToolCallError("unknown", SKIPPED_MESSAGE),
                        )
                    )
            if problem is None:
                via = SUBMIT
                break
            continue
        if not calls:
            answer, via = output.completion, "text"
            break
        result = await execute_tools(state.messages, tools)
        state.messages.extend(result.messages)
    state.output.completion = answer if via is not None and answer is not None else ""
    state.store.set(RECORD_KEY, _record(state.messages, budget, via))
    return state


@metric
def tool_metrics() -> Metric:
    """Mean tool calls per sample, and the share of samples whose answer came through ``submit``."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        records = [(s.score.metadata or {}).get("tool_use", {}) for s in scores]
        n = max(len(records), 1)
        return {
            "tool_calls": sum(r.get("calls", 0) for r in records) / n,
            "failed_tool_calls": sum(r.get("failed_calls", 0) for r in records) / n,
            "submitted": sum(bool(r.get("submitted")) for r in records) / n,
            "tool_instrument_failures": sum(r.get("instrument_failures", 0) for r in records) / n,
        }

    return compute


@scorer(metrics=[tool_metrics()])
def tool_use() -> Callable[..., Any]:
    """The sample's tool use (calls made, tools used, failures, whether it submitted); its value is the calls."""

    async def score(state: TaskState, target: Target) -> Score:
        record = state.store.get(RECORD_KEY, {})
        return Score(value=float(record.get("calls", 0)), metadata={"tool_use": record})

    return score
