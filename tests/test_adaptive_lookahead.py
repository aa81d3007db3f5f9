"""An adaptive session prepares the items an answer can lead to while the model answers, and asks the same items it
would have made after the answer."""

from __future__ import annotations

import threading
from typing import Any

import anyio
from inspect_ai.model import ChatMessageUser, ModelName, ModelOutput
from inspect_ai.solver import TaskState

from mechbench.harness.adaptive import SESSION_KEY, AdaptiveItems, adaptive_solver, posterior, reachable

LEVELS = tuple(range(1, 11))


class Recorder:
    """Items whose message (the costly part, a drawing) says in which thread and before which answer it was made."""

    def __init__(self) -> None:
        self.prepared: list[tuple[int, int, str]] = []
        self.made_for: dict[int, threading.Event] = {}

    def make(self, stream: int, step: int, level: int) -> dict[str, int]:
        return {"stream": stream, "step": step, "level": level}

    def message(self, item: dict[str, int]) -> ChatMessageUser:
        self.prepared.append((item["step"], item["level"], threading.current_thread().name))
        self.made_for.setdefault(item["step"], threading.Event()).set()
        return ChatMessageUser(content=f"item {item['step']} at level {item['level']}", metadata=item)

    def items(self) -> AdaptiveItems:
        return AdaptiveItems(
            levels=LEVELS,
            make=self.make,
            message=self.message,
            reply=lambda item: "right" if item["level"] <= 6 else "wrong",
            share=lambda reply, item: 1.0 if reply == "right" else 0.0,
            describe=lambda item: {"item": f"{item['step']}@{item['level']}"},
        )


def _state() -> TaskState:
    return TaskState(ModelName("mockllm/model"), "s", 1, "", [], metadata={"seed": 3, "session": 0})


def _run(recorder: Recorder, oracle: bool, budget: int = 8) -> tuple[list[dict[str, Any]], list[bool]]:
    seen_in_time: list[bool] = []
    solve = adaptive_solver(recorder.items(), budget=budget, target_se=0.01, oracle=oracle)

    async def generate(state: TaskState, **_: Any) -> TaskState:
        item = state.messages[0].metadata
        step = item["step"]
        # The model "answers" only once the next step's items are being made: they are made during the call.
        if step + 1 < budget:
            made = recorder.made_for.setdefault(step + 1, threading.Event())
            seen_in_time.append(await anyio.to_thread.run_sync(made.wait, 10))
        state.output = ModelOutput.from_content("mockllm/model", "right" if item["level"] <= 6 else "wrong")
        return state

    async def main() -> TaskState:
        return await solve(_state(), generate)  # type: ignore[arg-type]

    state = anyio.run(main)
    return state.store.get(SESSION_KEY)["items"], seen_in_time


def test_the_next_items_are_made_while_the_model_answers_in_one_thread_and_are_those_made_after_it() -> None:
    recorder = Recorder()
    asked, in_time = _run(recorder, oracle=False)
    assert in_time and all(in_time)  # every next step's item was prepared during the call before it
    assert {thread for _, _, thread in recorder.prepared} == {"mechbench-adaptive-items_0"}
    oracle, _ = _run(Recorder(), oracle=True)
    assert [a["item"] for a in asked] == [a["item"] for a in oracle]
    assert [a["theta"] for a in asked] == [a["theta"] for a in oracle]
    # Each step's item was among those prepared for it: the levels between a wrong and a right answer.
    per_step: dict[int, set[int]] = {}
    for step, level, _ in recorder.prepared:
        per_step.setdefault(step, set()).add(level)
    for entry in asked:
        step, level = (int(v) for v in entry["item"].split("@"))
        assert level in per_step[step]
        assert per_step[step] == {level} or step > 0


def test_the_levels_reachable_lie_between_a_wrong_and_a_right_answer() -> None:
    running = posterior()
    after = reachable(running, 5, LEVELS)
    assert after[:2] == [7, 3] and sorted(after) == [3, 4, 5, 6, 7]  # a right and a wrong answer's levels first
    assert running.count == 0  # the running estimate is not touched
