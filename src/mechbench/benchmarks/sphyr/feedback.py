"""Multi-round physics feedback (upstream's feedback mode) and its control, fresh resampling.

After each answer the grid is simulated and the model is told only what upstream tells it: whether the load
was carried, its stiffness against the best design at the material budget, whether it used more or less
material than the budget, and how many isolated clusters it has; never which cells are wrong. Every round is
scored. ``feedback=False`` asks the same prompt afresh as many times (independent draws, the best-of-n control).
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from mechbench.benchmarks.sphyr.grid import sample_grid
from mechbench.benchmarks.sphyr.judge import finding_in_worker, physics_in_worker
from mechbench.benchmarks.sphyr.load_direction import LoadDirection, mean_over_directions
from mechbench.benchmarks.sphyr.physics_scoring import PhysicsScore, Reference
from mechbench.benchmarks.sphyr.prompts import MECHBENCH_WORDING, Wording, feedback_prompt
from mechbench.benchmarks.sphyr.scoring import GridScore, score_grid
from mechbench.harness.reliability import generate_checked, instrument_error
from mechbench.harness.replies import REPLAY_EXHAUSTED, split_reply

OVER_BUDGET = 1.05
UNDER_BUDGET = 0.95
"""Volume ratios beyond which the feedback says the material must come down / may go up (upstream's bands)."""
ROUND_FIELDS = ("topology_score", "load_carrying", "valid_output_grid")
"""What is reported per round (mean over samples)."""
ROUNDS_KEY = "sphyr_rounds"


def feedback_lines(cells: GridScore, physics: PhysicsScore | None) -> list[str]:
    """What the simulation tells the model about one answer (mechbench's wording of upstream's content)."""
    if not cells.valid_output_grid or physics is None or not physics.physically_valid:
        return ["- Your reply could not be read as a grid of the right size, so nothing could be simulated."]
    lines = [
        "- The structure carried the load."
        if physics.load_carrying
        else "- The structure did NOT carry the load: no path of material takes the force to a support."
    ]
    lines.append(
        f"- Stiffness compared with the best design for this material budget: "
        f"{100.0 * physics.structural_efficiency:.0f}% (100% matches it)."
    )
    ratio = physics.volume_ratio
    if ratio > OVER_BUDGET:
        lines.append(
            f"- It used {100.0 * (ratio - 1.0):.0f}% MORE material than the budget allows. Remove material that "
            "carries no load: you must come down to the budget."
        )
    elif ratio < UNDER_BUDGET:
        lines.append(
            f"- It used only {100.0 * ratio:.0f}% of the material budget; {100.0 * (1.0 - ratio):.0f}% is unspent. "
            "Material costs nothing until the budget is exceeded, so ADD material along the load path to stiffen it."
        )
    else:
        lines.append("- Its material use matched the budget.")
    if cells.isolated_clusters_count:
        lines.append(
            f"- {cells.isolated_clusters_count} cluster(s) of material touch no load and no support and carry nothing."
        )
    return lines


async def judge(
    metadata: dict[str, Any], reply: str, reference: Reference, load_direction: LoadDirection = "published"
) -> tuple[GridScore, PhysicsScore]:
    """Cell metrics and physics of ``reply`` (physics in a worker thread; an invalid grid gets the defaults)."""
    finding = await finding_in_worker(metadata, load_direction)
    answer = split_reply(reply).answer
    cells = mean_over_directions(
        [
            score_grid(sample_grid(metadata, "input_grid"), sample_grid(metadata, "ground_truth"), answer, gravity=g)
            for g in finding.directions
        ]
    )
    if not cells.valid_output_grid:
        return cells, PhysicsScore(reference=reference, default_reason="invalid grid")
    physics = mean_over_directions(
        [await physics_in_worker(metadata, cells.parsed_grid, g, reference) for g in finding.directions]
    )
    return cells, physics


JUDGE_FAILED_KEY = "mechbench_judge_failed"
"""Sample metadata naming why the physics judge failed between rounds: the sample is left unscored with it."""


def round_record(attempt: int, reply: str, cells: GridScore, physics: PhysicsScore) -> dict[str, Any]:
    """One round as stored in the sample's metadata."""
    return {
        "round": attempt,
        "topology_score": physics.topology_score,
        "structural_efficiency": physics.structural_efficiency,
        "material_efficiency": physics.material_efficiency,
        "volume_ratio": physics.volume_ratio,
        "load_carrying": physics.load_carrying,
        "valid_output_grid": cells.valid_output_grid,
        "completion": reply,
    }


@solver
def sphyr_rounds(
    rounds: int,
    feedback: bool = True,
    reference: str = "published",
    wording: Wording = MECHBENCH_WORDING,
    load_direction: LoadDirection = "published",
) -> Solver:
    """``rounds`` more attempts after the first: with physics feedback, or (``feedback=False``) fresh redraws."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        first = state.messages[0]
        history: list[dict[str, Any]] = []
        lines: list[str] = []
        reply = ""
        for attempt in range(rounds + 1):
            if attempt:
                base = {**(first.metadata or {}), "attempt": attempt}
                if feedback:
                    text = feedback_prompt(lines, sample_grid(meta, "input_grid"), reply, meta["subject"], wording)
                    state.messages.append(ChatMessageUser(content=text, metadata=base))
                else:  # the control: the same prompt, a fresh conversation, never the cached reply
                    state.messages = [first.model_copy(update={"metadata": base})]
            previous = state.output
            state = await generate_checked(state, generate, **({} if feedback or not attempt else {"cache": False}))
            if attempt and (state.output.metadata or {}).get(REPLAY_EXHAUSTED):
                state.output = previous  # past the recorded attempts: the last recorded answer stands, none invented
                break
            reply = state.output.completion
            try:
                cells, physics = await judge(meta, reply, reference, load_direction)  # type: ignore[arg-type]
            except Exception as error:  # mechbench's judge failed (a budget, a limit): no feedback can be given
                state.metadata[JUDGE_FAILED_KEY] = f"round {attempt}: {instrument_error(error)}"
                break
            history.append(round_record(attempt, reply, cells, physics))
            lines = feedback_lines(cells, physics)
        state.metadata[ROUNDS_KEY] = history
        state.metadata["feedback_rounds"] = rounds
        return state

    return solve


def round_metric_names(rounds: int) -> list[str]:
    """Names of the per-round metrics of a run with ``rounds`` extra attempts (round 0 is the first answer)."""
    return [f"{name}_round_{k}" for k in range(rounds + 1) for name in ROUND_FIELDS]


def round_values(history: list[dict[str, Any]], rounds: int) -> dict[str, float]:
    """The per-round values of one sample, and the best topology score over its rounds.

    A sample whose rounds stopped early (a replay past its recorded attempts) keeps its last answer, so the
    later rounds repeat that answer's values.
    """
    padded = [history[min(k, len(history) - 1)] for k in range(rounds + 1)] if history else []
    values = {f"{name}_round_{k}": float(r[name] or 0.0) for k, r in enumerate(padded) for name in ROUND_FIELDS}
    values["topology_score_best_round"] = max((float(r["topology_score"] or 0.0) for r in history), default=0.0)
    return values
