"""SPhyR as a reward for reinforcement learning, without Inspect: a batched reward function and an environment.

The reward is upstream's: the topology score of the completed grid (stiffness against the reference optimum at
the truth's material budget, discounted for material beyond it), 0 for a grid that cannot be read. The physics
is mechbench's published judge; each problem's reference optimum is computed once and cached (memory and
disk), so a training loop that revisits its samples pays only the answer's own solve.

    from mechbench.benchmarks.sphyr.rl import SPhyREnv, topology_rewards
    env = SPhyREnv.from_file("full_easy.jsonl", subject="full_easy")
    observation = env.reset()
    result = env.step(completion)          # result.reward, result.metrics, result.done
    rewards = topology_rewards(completions, [env.problem(i) for i in indices])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mechbench.benchmarks.sphyr.dataset import GridRecord, read_records
from mechbench.benchmarks.sphyr.feedback import feedback_lines
from mechbench.benchmarks.sphyr.grid import DOWN
from mechbench.benchmarks.sphyr.physics_scoring import PhysicsScore, physics_score
from mechbench.benchmarks.sphyr.prompts import MECHBENCH_WORDING, build_prompt, feedback_prompt, is_hard
from mechbench.benchmarks.sphyr.rotation import rotate_direction, rotate_grid
from mechbench.benchmarks.sphyr.scoring import GridScore, score_grid
from mechbench.harness.replies import split_reply

Grid = list[list[str]]
REWARD_METRIC = "topology_score"


@dataclass(frozen=True)
class Problem:
    """What a reward needs about one sample: the masked input, the truth and the load direction."""

    input_grid: Grid
    ground_truth: Grid
    gravity: tuple[float, float] = DOWN

    @classmethod
    def from_record(cls, record: GridRecord, rotation: int = 0) -> Problem:
        """A problem from a dataset record, turned ``rotation`` quarter turns (the load turning with it)."""
        return cls(
            rotate_grid(record.input_grid, rotation),
            rotate_grid(record.ground_truth, rotation),
            rotate_direction(tuple(record.load_direction or DOWN), rotation),  # type: ignore[arg-type]
        )


def judge(completion: str, problem: Problem) -> tuple[GridScore, PhysicsScore]:
    """Cell and graph metrics and the physics of one completion (physics defaults for an unreadable grid)."""
    answer = split_reply(completion).answer  # inline reasoning is never read as the answer
    cells = score_grid(problem.input_grid, problem.ground_truth, answer, gravity=problem.gravity)
    if not cells.valid_output_grid:
        return cells, PhysicsScore(default_reason="invalid grid")
    return cells, physics_score(problem.input_grid, problem.ground_truth, cells.parsed_grid, problem.gravity)


def reward(completion: str, problem: Problem) -> float:
    """The topology score of ``completion``; 0 when the grid cannot be read."""
    cells, physics = judge(completion, problem)
    return float(physics.topology_score) if cells.valid_output_grid else 0.0


def topology_rewards(completions: Sequence[str], problems: Sequence[Problem], workers: int = 1) -> list[float]:
    """Rewards of a batch, in order; BLAS limited to one thread, so a batch never oversubscribes the machine.

    ``workers`` > 1 runs the judges in threads. Measured (``benchmarks/sphyr_rewards.py``): with the reference
    optima cached, threads pay at 20×20 and not at 10×10, where parsing and sparse assembly hold the GIL.
    A cold problem (its reference optimum not yet computed) runs GIL-free kernels, where threads always pay.
    """
    if len(completions) != len(problems):
        raise ValueError(f"{len(completions)} completions for {len(problems)} problems")
    if workers == 1 or len(completions) < 2:
        return [reward(c, p) for c, p in zip(completions, problems, strict=True)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(reward, completions, problems))


@dataclass
class Observation:
    """What the agent sees: the prompt and the grid it asks about."""

    prompt: str
    grid: Grid
    subject: str
    sample_index: int
    rows: int
    cols: int
    cell_values: str
    masked_cells: int
    rotation: int
    attempt: int = 0


@dataclass
class StepResult:
    """The outcome of one answer: its reward, every metric, and the next observation when rounds remain."""

    reward: float
    done: bool
    metrics: dict[str, Any]
    observation: Observation | None = None


@dataclass
class SPhyREnv:
    """An episode per sample: ``reset`` shows a masked grid, ``step`` scores an answer.

    With ``feedback_rounds``, a step that leaves rounds open returns the physics feedback prompt as the next
    observation (``done`` False), as upstream's environment does.
    """

    records: list[GridRecord]
    subject: str
    rotation: int = 0
    feedback_rounds: int = 0
    seed: int = 0
    _rng: random.Random = field(init=False, repr=False)
    _current: int | None = field(default=None, init=False, repr=False)
    _attempt: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.records:
            raise ValueError("an environment needs at least one record")
        self._rng = random.Random(self.seed)

    @classmethod
    def from_file(cls, path: str | Path, subject: str | None = None, **options: Any) -> SPhyREnv:
        """An environment over the records of one subject file (its name gives the subject)."""
        path = Path(path)
        return cls(read_records(path), subject or path.stem, **options)

    def problem(self, index: int) -> Problem:
        """The problem of record ``index`` (position in the file), turned like the prompts."""
        return Problem.from_record(self.records[index], self.rotation)

    def _observation(self, prompt: str) -> Observation:
        index = self._current if self._current is not None else 0
        problem = self.problem(index)
        return Observation(
            prompt=prompt,
            grid=problem.input_grid,
            subject=self.subject,
            sample_index=index,
            rows=len(problem.input_grid),
            cols=len(problem.input_grid[0]),
            cell_values="density" if is_hard(self.subject) else "binary",
            masked_cells=sum(t == "V" for row in problem.input_grid for t in row),
            rotation=self.rotation % 4,
            attempt=self._attempt,
        )

    def reset(self, sample_index: int | None = None) -> Observation:
        """Start an episode on ``sample_index`` (default: a random record, seeded)."""
        self._current = self._rng.randrange(len(self.records)) if sample_index is None else sample_index
        if not 0 <= self._current < len(self.records):
            raise IndexError(f"sample_index {sample_index} outside 0..{len(self.records) - 1}")
        self._attempt = 0
        problem = self.problem(self._current)
        return self._observation(build_prompt(problem.input_grid, self.subject))

    def step(self, completion: str) -> StepResult:
        """Score ``completion``; the reward is its topology score (0 when unreadable)."""
        if self._current is None:
            raise RuntimeError("call reset() before step()")
        problem = self.problem(self._current)
        cells, physics = judge(completion, problem)
        value = float(physics.topology_score) if cells.valid_output_grid else 0.0
        metrics = {**cells.model_dump(exclude={"parsed_grid"}), **physics.fields()}
        self._attempt += 1
        if self._attempt <= self.feedback_rounds:
            text = feedback_prompt(
                feedback_lines(cells, physics), problem.input_grid, completion, self.subject, MECHBENCH_WORDING
            )
            return StepResult(value, False, metrics, self._observation(text))
        return StepResult(value, True, metrics)
