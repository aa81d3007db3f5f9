"""The ``mechbench`` Inspect model provider: ``--model mechbench/<baseline>``.

The baselines are the benchmarks' own (each benchmark's spec lists them, see :mod:`mechbench.registry`); this
module only adapts them to Inspect and replays recorded replies. Token usage is reported as an estimate (4
characters per token) so that logs and reports stay complete offline; Inspect's own token counting would need a
tokenizer download.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolFunction, ToolInfo

from mechbench import registry
from mechbench.core.errors import UsageError
from mechbench.harness.guard import guard_run
from mechbench.harness.replies import REPLAY_EXHAUSTED
from mechbench.providers.replay import ReplayBook

CHARS_PER_TOKEN = 4
REPLAY, TOOL_DEMO = registry.REPLAY, registry.TOOL_DEMO


def estimated_usage(prompt: str, reply: str) -> ModelUsage:
    """Token usage estimated from text length (documented as an estimate)."""
    input_tokens = max(1, len(prompt) // CHARS_PER_TOKEN)
    output_tokens = max(1, len(reply) // CHARS_PER_TOKEN)
    return ModelUsage(input_tokens=input_tokens, output_tokens=output_tokens, total_tokens=input_tokens + output_tokens)


def last_user_text(messages: list[ChatMessage]) -> str:
    """Text of the last user message (what a baseline reads its task from)."""
    for message in reversed(messages):
        if isinstance(message, ChatMessageUser):
            return message.text
    return ""


def _first_user(messages: list[ChatMessage]) -> ChatMessageUser | None:
    return next((m for m in messages if isinstance(m, ChatMessageUser)), None)


def active_sample_id() -> str | None:
    """Inspect's id of the sample being answered (what ``inspect view`` shows); None outside a sample."""
    try:  # Inspect's record of the running sample (not exported; absent → match by prompt)
        from inspect_ai.log._samples import sample_active
    except ImportError:
        return None
    active = sample_active()
    sample_id = getattr(getattr(active, "sample", None), "id", None)
    return None if sample_id is None else str(sample_id)


class MechbenchModel(ModelAPI):
    """Built-in models under the provider name ``mechbench``."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 - Inspect's ModelAPI signature
        seed: int = 0,
        file: str | None = None,
        **model_args: Any,
    ) -> None:
        guard_run()
        super().__init__(model_name, base_url, api_key, [], config)
        self.seed = int(seed)
        self.model_args = dict(model_args)
        self.book: ReplayBook | None = None
        self.baselines: list[registry.Baseline] = []
        self.mechbench_baseline: str | None = None
        """The baseline's name, read by :func:`mechbench.registry.check_builtin_model`."""
        if model_name == TOOL_DEMO:
            self.book = ReplayBook(file) if file else None  # recorded answers: the first tried, the last submitted
            self.mechbench_baseline = TOOL_DEMO
            return
        if model_name == REPLAY:
            if not file:
                raise UsageError("mechbench/replay needs the recorded replies: -M file=replies.jsonl")
            self.book = ReplayBook(file)
            return
        known = registry.baselines()
        if model_name not in known:
            names = ", ".join(sorted([*known, REPLAY]))
            raise UsageError(f"unknown mechbench model {model_name!r}; available: {names}")
        self.baselines = known[model_name]
        self.mechbench_baseline = model_name

    def max_connections(self) -> int:
        return 32

    def answer(self, messages: list[ChatMessage]) -> str:
        """The baseline's reply to a conversation: the baseline of the benchmark whose prompt this is."""
        prompt = last_user_text(messages)
        first = _first_user(messages)
        task = first.text if first is not None else prompt
        context = {
            **((first.metadata or {}) if first is not None else {}),
            "sample_id": active_sample_id(),
            **self.model_args,
        }
        chosen = next((b for b in self.baselines if b.accepts(prompt)), None)
        if chosen is None:  # a feedback turn: the task is in the first message
            chosen = next((b for b in self.baselines if b.accepts(task)), None)
            prompt = task
        if chosen is None:  # never another benchmark's answer: that would be scored as this model's
            served = " and ".join(b.benchmark for b in self.baselines)
            raise UsageError(
                f"mechbench/{self.model_name} answers {served} prompts and does not recognise this one "
                f"({task[:60]!r}…): run it on a {served} task (a benchmark's Baseline.accepts must be true for every "
                "prompt its task writes)"
            )
        return chosen.answer(prompt, self.seed, context)

    def _replay(self, messages: list[ChatMessage]) -> str | None:
        assert self.book is not None
        first = _first_user(messages)
        sample_id = active_sample_id()
        # Retry messages carry their attempt number (earlier turns are dropped from the conversation).
        last = next((m for m in reversed(messages) if isinstance(m, ChatMessageUser)), None)
        attempt = int((last.metadata or {}).get("attempt", 0)) if last is not None else 0
        return self.book.reply(sample_id, first.text if first is not None else last_user_text(messages), attempt)

    def _replay_turn(self, messages: list[ChatMessage]) -> ModelOutput:
        """The next turn of the sample's recorded tool conversation (its tools run again, here)."""
        assert self.book is not None
        first = _first_user(messages)
        sample_id = active_sample_id()
        index = sum(isinstance(m, ChatMessageAssistant) for m in messages)
        turn = self.book.turn(sample_id, first.text if first is not None else "", index)
        model = "mechbench/replay"
        if turn is None:  # the recording ends without submitting: nothing more to say
            output = ModelOutput.from_content(model=model, content="")
        elif "tool" in turn:
            output = ModelOutput.for_tool_call(model, turn["tool"], turn["arguments"], tool_call_id=f"call_{index}")
        else:
            output = ModelOutput.from_content(model=model, content=turn["reply"])
        output.usage = estimated_usage(last_user_text(messages), json.dumps(turn))
        return output

    def _tool_demo(
        self, messages: list[ChatMessage], tools: list[ToolInfo], choice: ToolChoice = "auto"
    ) -> ModelOutput:
        """The scripted agent's next step: its benchmark's next tool call; with no tools offered, the first
        answer it would have tried (so the same agent runs in the single-answer setting too)."""
        first = _first_user(messages)
        prompt = first.text if first is not None else ""
        offered = {t.name for t in tools}
        physics = offered - {"submit"}
        scripted = [s for s in registry.specs() if s.tool_script is not None]
        if physics:
            scripted = [s for s in scripted if set(s.tools) <= physics]
        else:  # no tools, or submit alone: a benchmark whose baselines read this prompt first, one without last
            scripted.sort(key=lambda s: not any(b.accepts(prompt) for b in s.baselines))
        if not scripted:
            raise UsageError("mechbench/tool-demo: no benchmark offers these tools")
        answers: list[str] = []
        if self.book is not None and first is not None:
            answers = self.book.replies(active_sample_id(), prompt)
        done = [c.function for m in messages if isinstance(m, ChatMessageAssistant) for c in (m.tool_calls or [])]
        results = [m.text for m in messages if isinstance(m, ChatMessageTool)]
        if isinstance(choice, ToolFunction) or (offered and not physics):  # told to submit: its plan's last step
            done = [*done, *["submit"] * 64]
        script = scripted[0].tool_script
        assert script is not None
        name, arguments = script(prompt, done, {"answers": answers, "results": results})
        model = f"mechbench/{TOOL_DEMO}"
        if not offered:
            reply = next(iter(arguments.values()))
            output = ModelOutput.from_content(model=model, content=reply)
        else:
            output = ModelOutput.for_tool_call(model, name, arguments, tool_call_id=f"call_{len(done)}")
        output.usage = estimated_usage(last_user_text(messages), str(arguments))
        return output

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        prompt = last_user_text(input)
        if self.model_name == TOOL_DEMO:
            return self._tool_demo(input, tools, tool_choice)
        if self.book is not None and tools:
            return self._replay_turn(input)
        if self.book is not None:
            reply = self._replay(input)
            if reply is None:
                # Past the recorded attempts: nothing to replay. Say so instead of inventing an empty answer;
                # multi-attempt solvers stop there and keep the last recorded one.
                output = ModelOutput.from_content(model="mechbench/replay", content="")
                output.metadata = {REPLAY_EXHAUSTED: True}
                return output
        else:
            reply = self.answer(input)
        output = ModelOutput.from_content(model=f"mechbench/{self.model_name}", content=reply)
        output.usage = estimated_usage(prompt, reply)
        return output
