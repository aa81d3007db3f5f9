"""The RL reward and environment: the reward is the judge's topology score, batched or not."""

from __future__ import annotations

from pathlib import Path

import pytest

from mechbench.benchmarks.sphyr.dataset import read_records
from mechbench.benchmarks.sphyr.physics_scoring import physics_score
from mechbench.benchmarks.sphyr.prompts import grid_from_prompt, render_grid
from mechbench.benchmarks.sphyr.rl import Problem, SPhyREnv, reward, topology_rewards


def _answers(records) -> list[str]:
    return [render_grid([["1" if t == "V" else t for t in row] for row in r.input_grid]) for r in records]


def test_batched_rewards_equal_the_judge(sphyr_v2_data: Path) -> None:
    records = read_records(sphyr_v2_data / "10_random_cell_easy.jsonl")[:6]
    problems = [Problem.from_record(r) for r in records]
    answers = _answers(records)
    answers[2] = "not a grid"
    rewards = topology_rewards(answers, problems, workers=2)
    assert rewards == topology_rewards(answers, problems, workers=1)
    assert rewards[2] == 0.0
    for i in (0, 1, 3):
        grid = [row.split() for row in answers[i].splitlines()]
        expected = physics_score(records[i].input_grid, records[i].ground_truth, grid).topology_score
        assert rewards[i] == pytest.approx(expected, rel=1e-12) and rewards[i] > 0
    with pytest.raises(ValueError, match="6 completions for 5 problems"):
        topology_rewards(answers, problems[:5])


def test_the_environment_scores_steps_and_gives_feedback_rounds(sphyr_data: Path) -> None:
    path = sphyr_data / "full_easy.jsonl"
    env = SPhyREnv.from_file(path, feedback_rounds=1, rotation=1)
    observation = env.reset(sample_index=3)
    record = read_records(path)[3]
    assert observation.subject == "full_easy" and observation.grid == grid_from_prompt(observation.prompt)
    assert observation.masked_cells == sum(t == "V" for row in record.input_grid for t in row)
    truth = render_grid(env.problem(3).ground_truth)
    first = env.step("no grid at all")
    assert first.reward == 0.0 and not first.done and "could not be read" in first.observation.prompt
    second = env.step(truth)
    assert second.done and second.reward == pytest.approx(reward(truth, env.problem(3))) and second.reward > 0.5
    assert second.metrics["exact_match"] is True
    with pytest.raises(RuntimeError, match="reset"):
        SPhyREnv.from_file(path).step(truth)
