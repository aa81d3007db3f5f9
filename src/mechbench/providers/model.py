"""The ``mechbench`` Inspect model provider: ``--model mechbench/<baseline>``.

Baselines answer without a language model (see :mod:`mechbench.providers.baselines`). Token usage
is reported as an estimate (4 characters per token) so that logs and reports stay complete offline;
Inspect's own token counting would need a tokenizer download.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageUser,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from mechbench.benchmarks.sphyr.prompts import grid_from_prompt, render_grid
from mechbench.benchmarks.sphyr.retrieval import corpus_truths, retrieve
from mechbench.errors import UsageError
from mechbench.providers.baselines import BASELINES, BaselineInputError
from mechbench.providers.replay import REPLAY_EXHAUSTED, ReplayBook
from mechbench.run_guard import guard_run

CHARS_PER_TOKEN = 4


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


RETRIEVAL = {"retrieval": True, "retrieval-lookup": False}
"""Nearest-neighbour baselines and whether they skip perfect (self or twin) matches."""
ANSWERS: dict[str, frozenset[str]] = {
    "empty": frozenset({"sphyr"}),
    "solid": frozenset({"sphyr"}),
    "retrieval": frozenset({"sphyr"}),
    "retrieval-lookup": frozenset({"sphyr"}),
    "random": frozenset({"sphyr", "seesim"}),
    "always-true": frozenset({"seesim"}),
    "always-false": frozenset({"seesim"}),
}
"""The benchmarks each built-in baseline can answer (``replay`` answers whatever was recorded)."""


def _active_model() -> Any:
    try:  # Inspect's model of the evaluation being set up (not exported; absent → no check)
        from inspect_ai.model._model import active_model

        return active_model()
    except (ImportError, LookupError):
        return None


def check_builtin_model(benchmark: str) -> None:
    """Refuse, before any sample runs, a built-in baseline that cannot answer ``benchmark``'s prompts."""
    model = _active_model()
    api = getattr(model, "api", None)
    if not isinstance(api, MechbenchModel) or api.model_name not in ANSWERS:
        return
    if benchmark not in ANSWERS[api.model_name]:
        able = [f"mechbench/{n}" for n, answers in ANSWERS.items() if benchmark in answers] + ["mechbench/replay"]
        raise UsageError(
            f"mechbench/{api.model_name} answers {', '.join(sorted(ANSWERS[api.model_name]))} prompts only, not "
            f"{benchmark}; built-in models for {benchmark}: {', '.join(able)}"
        )


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
        corpus: str | None = None,
        **model_args: Any,
    ) -> None:
        guard_run()
        super().__init__(model_name, base_url, api_key, [], config)
        self.seed = int(seed)
        self.book: ReplayBook | None = None
        self.corpus = corpus
        if model_name == "replay":
            if not file:
                raise UsageError("mechbench/replay needs the recorded replies: -M file=replies.jsonl")
            self.book = ReplayBook(file)
        elif model_name in RETRIEVAL:
            self.answer = None
        elif model_name not in BASELINES:
            names = ", ".join(sorted([*BASELINES, *RETRIEVAL, "replay"]))
            raise UsageError(f"unknown mechbench model {model_name!r}; available: {names}")
        else:
            self.answer = BASELINES[model_name]

    def _retrieve(self, messages: list[ChatMessage], prompt: str) -> str:
        first = next((m for m in messages if isinstance(m, ChatMessageUser)), None)
        meta = (first.metadata or {}) if first is not None else {}
        corpus = self.corpus or meta.get("sphyr_corpus")
        if not corpus:
            raise BaselineInputError(
                f"mechbench/{self.model_name} searches the records of the SPhyR subject being asked; run it on "
                "mechbench/sphyr (not replayed samples) or name the records with -M corpus=SUBJECT.jsonl"
            )
        try:
            query = grid_from_prompt(prompt)
        except ValueError as error:
            raise BaselineInputError(f"this baseline answers SPhyR prompts only: {error}") from None
        truths = corpus_truths(corpus, int(meta.get("sphyr_rotation", 0)))
        return render_grid(retrieve(query, truths, skip_perfect=RETRIEVAL[self.model_name]))

    def max_connections(self) -> int:
        return 32

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        prompt = last_user_text(input)
        if self.book is not None:
            first = next((m for m in input if isinstance(m, ChatMessageUser)), None)
            sample_id = (first.metadata or {}).get("sample_id") if first is not None else None
            # Retry messages carry their attempt number (earlier turns are dropped from the conversation).
            last = next((m for m in reversed(input) if isinstance(m, ChatMessageUser)), None)
            attempt = int((last.metadata or {}).get("attempt", 0)) if last is not None else 0
            recorded = self.book.reply(sample_id, first.text if first is not None else prompt, attempt)
            if recorded is None:
                # Past the recorded attempts: nothing to replay. Say so instead of inventing an empty answer;
                # multi-attempt solvers stop there and keep the last recorded one.
                output = ModelOutput.from_content(model="mechbench/replay", content="")
                output.metadata = {REPLAY_EXHAUSTED: True}
                return output
            reply = recorded
        elif self.model_name in RETRIEVAL:
            reply = self._retrieve(input, prompt)
        else:
            reply = self.answer(prompt, self.seed)
        output = ModelOutput.from_content(model=f"mechbench/{self.model_name}", content=reply)
        output.usage = estimated_usage(prompt, reply)
        return output
