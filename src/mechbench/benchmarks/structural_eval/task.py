"""The StructuralEval task (``inspect eval mechbench/structural_eval``): data, solver, scorer, provenance."""

from __future__ import annotations

from inspect_ai import task

from mechbench.benchmarks.structural_eval.dataset import data_files, load_tasks, official_copy, open_structural
from mechbench.benchmarks.structural_eval.inspect_parts import (
    structural_scorer,
    structural_solver,
    structural_tool_solver,
)
from mechbench.benchmarks.structural_eval.inspect_parts import to_dataset as structural_dataset
from mechbench.benchmarks.structural_eval.official_protocol import read_protocol
from mechbench.benchmarks.structural_eval.prompts import PromptStyle
from mechbench.benchmarks.structural_eval.scoring import DEFAULT_TOLERANCE, Scoring
from mechbench.benchmarks.structural_eval.structured import (
    LEADERBOARD_PARTIAL_CREDIT,
    LEADERBOARD_TEMPERATURES,
    PartialCredit,
    Protocol,
)
from mechbench.core.errors import UsageError
from mechbench.harness.adaptive import BUDGET, TARGET_SE
from mechbench.harness.arguments import renamed
from mechbench.harness.task import TaskParts, benchmark_task
from mechbench.harness.tools import DEFAULT_TOOL_BUDGET


@task
@benchmark_task("structural_eval")
def structural_eval(
    data: str | None = None,
    prompt_style: PromptStyle = "standard",
    max_retries: int = 2,
    filter: str | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    scoring: Scoring = "strict",
    oracle: bool = False,
    max_tokens: int = 8192,
    protocol: Protocol = "mechbench",
    temperature_first: float | None = None,
    temperature_retry: float | None = None,
    partial_credit: PartialCredit | None = None,
    structured: bool = False,
    revision: str | None = None,
    prompt: PromptStyle | None = None,
    debug: bool | None = None,
    tools: bool = False,
    tool_budget: int = DEFAULT_TOOL_BUDGET,
    adaptive: bool = False,
    target_se: float = TARGET_SE,
    budget: int = BUDGET,
    sessions: int = 1,
    seed: int = 1,
) -> TaskParts:
    """StructuralEval: read a drawing, write the structure as FrameCalc JSON; the solver decides.

    Args:
        data: folder in the official layout (``data/raw_models``, ``data/ground_truth_meta``,
            ``data/images``), an archive URL, ``bundled``, or a Hugging Face dataset id (default: the
            official repository at a pinned revision).
        prompt_style: ``standard``, ``reasoning`` or ``strict``.
        max_retries: extra attempts after a wrong answer, each with one feedback message.
        filter: keep tasks whose id contains this (e.g. ``beam``).
        tolerance: relative tolerance of the reaction comparison (absolute floor 1e-3).
        scoring: ``strict`` (reactions per support and component, and max |M|) or ``legacy``.
        oracle: answer with the ground-truth model, call no model (every task must score 1.0).
        max_tokens: generation limit.
        protocol: ``mechbench`` (mechbench's prompts and feedback) or ``official`` (the maintainers' runner:
            its prompt as the system message, its instruction, feedback and retry wording, read at run time
            from the official copy; temperatures and partial credit of the leaderboard's release).
        temperature_first: temperature of the first attempt (official default 0.1; mechbench: the provider's).
        temperature_retry: temperature of the retries (official default 0.4).
        partial_credit: ``last`` (the leaderboard release: partial credit only from the last attempt) or
            ``best`` (the best attempt; mechbench's default).
        structured: ask for JSON-schema output (providers that support it) with the FrameCalc schema.
        revision: commit, tag or branch of the official repository (default: the pinned one).
        prompt: the old name of ``prompt_style`` (still read, with a deprecation message).
        debug: the old name of ``oracle`` (still read, with a deprecation message).
        tools: the tool setting: the model may call ``solve_frame`` and ``render_frame`` on its own JSON before it
            submits one answer (mechbench protocol; no feedback rounds).
        tool_budget: tool calls per sample in the tool setting.
        adaptive: measure ability instead of accuracy: each next drawing generated at the level where the model's
            ability is estimated to be, one answer each, until the ability's standard error is ``target_se`` or
            ``budget`` drawings are asked (``mechbench.harness.adaptive``); the score is the ability on the level
            scale.
        target_se: the standard error an adaptive session stops at.
        budget: the most drawings an adaptive session asks.
        sessions: adaptive sessions, each with its own drawings.
        seed: the generator's seed of adaptive sessions.
    """
    prompt_style = renamed("prompt", "prompt_style", prompt, prompt_style, "standard")
    oracle = renamed("debug", "oracle", debug, oracle, False)
    credit = partial_credit or (LEADERBOARD_PARTIAL_CREDIT if protocol == "official" else "best")
    if tools and (protocol == "official" or structured):
        raise UsageError("tools=true runs mechbench's protocol in free text (not protocol=official or structured)")
    if max_retries < 0 or not 0 < tolerance < 1:
        raise UsageError("max_retries must be >= 0 and tolerance between 0 and 1")
    if adaptive:
        return _adaptive_parts(prompt_style, max_tokens, target_se, budget, sessions, seed, data, protocol, tools)
    root = open_structural(data, revision)
    tasks = load_tasks(root, filter=filter)
    official = read_protocol(official_copy(root)) if protocol == "official" else None
    first, retry = LEADERBOARD_TEMPERATURES if official else (None, None)
    first = temperature_first if temperature_first is not None else first
    retry = temperature_retry if temperature_retry is not None else retry
    temperatures = (first, retry if retry is not None else first) if first is not None else None
    solver_args = {"tolerance": tolerance, "scoring": scoring, "official": official, "structured": structured}
    return TaskParts(
        dataset=structural_dataset(tasks, prompt_style, official),  # type: ignore[arg-type]
        solver=structural_solver(max_retries=max_retries, temperatures=temperatures, **solver_args),  # type: ignore[arg-type]
        oracle_solver=structural_solver(max_retries=max_retries, debug=True, **solver_args),  # type: ignore[arg-type]
        tool_solver=lambda budget: structural_tool_solver(budget, tolerance=tolerance, scoring=scoring),  # type: ignore[arg-type]
        scorer=structural_scorer(partial_credit=credit),  # type: ignore[arg-type]
        data=root,
        files=data_files(root),
        setting="single answer" if max_retries == 0 else "feedback rounds",
        answer_calls=1 + max_retries,
        max_tokens=max_tokens,
        oracle=oracle,
        settings={
            "prompt_style": prompt_style,
            "scoring": scoring,
            "tolerance": tolerance,
            "protocol": protocol,
            "partial_credit": credit,
            "temperatures": list(temperatures) if temperatures else None,
            "structured": structured,
            "official_texts": official.sources if official else None,
            "official_runner_temperatures": list(official.runner_temperatures or ()) if official else None,
        },
    )


def _adaptive_parts(
    style: PromptStyle, max_tokens: int, target_se: float, budget: int, sessions: int, seed: int,
    data: str | None, protocol: str, tools: bool,
) -> TaskParts:  # fmt: skip
    """Adaptive sessions of drawings generated during the run (mechbench's protocol, one answer each)."""
    from mechbench.harness.adaptive import AdaptiveRun, adaptive_parts

    from .adaptive import adaptive_items

    if data is not None or protocol != "mechbench" or tools:
        raise UsageError("adaptive=true generates its drawings (no data=), in mechbench's protocol, without tools")
    run = AdaptiveRun("structural_eval", "StructuralEval", adaptive_items(style), sessions, seed, budget, target_se,
                      shown=f"prompt {style}", asked="drawings")  # fmt: skip
    settings = {"prompt_style": style, "scoring": "strict", "tolerance": DEFAULT_TOLERANCE, "protocol": "mechbench"}
    return adaptive_parts(run, max_tokens, f"generated on the fly by mechbench (seed {seed})", settings)
