"""The trainers' API (``mechbench.training``): items of a generated benchmark at a level and seed, reproducible and
fresh per seed, and a reward in [0, 1] with its reason from the benchmark's own judge."""

from __future__ import annotations

import json

import pytest

from mechbench import training
from mechbench.benchmarks.hand_calc.prompts import target
from mechbench.core.errors import UsageError


def test_the_generated_benchmarks_offer_training_at_their_levels() -> None:
    offered = training.offered()
    assert offered["hand_calc"] == tuple(range(1, 11)) and offered["structural_eval"] == tuple(range(1, 11))
    assert offered["sphyr"] == (1, 2)


@pytest.mark.parametrize("presentation", ["text", "drawing"])
def test_hand_calc_items_are_reproducible_and_rewarded_by_the_scorers_reading(presentation: str) -> None:
    batch = training.items("hand_calc", 4, level=8, seed=3, presentation=presentation)
    again = training.items("hand_calc", 4, level=8, seed=3, presentation=presentation)
    fresh = training.items("hand_calc", 4, level=8, seed=4, presentation=presentation)
    assert [(i.prompt, i.images) for i in batch] == [(i.prompt, i.images) for i in again]
    assert [i.prompt for i in batch] != [i.prompt for i in fresh]
    assert all(i.level == 8 and len(i.images) == (presentation == "drawing") for i in batch)
    for item in batch:
        assert "truth" not in json.dumps(dict(item.metadata))  # the item as data, never its key
        right = training.score(item, target(item.key))
        assert right.value == 1.0 and "ok" in right.reason
        first = item.key.quantities[0]
        wrong = target(item.key).replace(f"{first.key} = {first.truth:.8g}", f"{first.key} = {3 * first.truth:.8g}", 1)
        partial = training.score(item, wrong)
        assert partial.value == pytest.approx(1 - 1 / len(item.key.quantities)) and "against" in partial.reason
        nothing = training.score(item, None)
        assert nothing.value == 0.0 and "no line" in nothing.reason


@pytest.mark.slow
def test_structural_eval_and_sphyr_rewards_are_their_judges() -> None:
    from mechbench.benchmarks.sphyr.prompts import render_grid
    from mechbench.benchmarks.sphyr.rl import Problem, reward

    (drawn,) = training.items("structural_eval", 1, level=7, seed=5)
    assert drawn.level == 7 and drawn.images[0].startswith(b"\x89PNG")
    assert training.score(drawn, "```json\n" + json.dumps(drawn.key) + "\n```").value == 1.0
    unreadable = training.score(drawn, "the left support takes 10 kN")
    assert unreadable.value == 0.0 and "JSON" in unreadable.reason

    (grid,) = training.items("sphyr", 1, level=1, seed=5, subject="full_easy")
    assert grid.metadata["subject"] == "full_easy" and len(grid.metadata["input_grid"]) == 10
    truth = render_grid(grid.key["ground_truth"])
    assert training.score(grid, truth).value == pytest.approx(1.0)
    empty = render_grid([["0" if t == "V" else t for t in row] for row in grid.key["input_grid"]])
    problem = Problem(grid.key["input_grid"], grid.key["ground_truth"], tuple(grid.key["load_direction"]))
    assert training.score(grid, empty).value == pytest.approx(reward(empty, problem))  # SPhyR's RL reward, unchanged


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: training.items("seesim", 2), "offers no training items; those that do:"),
        (lambda: training.items("hand_calc", 2, level=11), "levels are 1, 2, 3"),
        (lambda: training.items("hand_calc", 2, colour="red"), "training options: presentation="),
        (lambda: training.items("hand_calc", 0), "n must be 1 to 10000"),
        (lambda: training.items("structural_eval", 1, kinds=("arch",)), "kinds: a tuple of beam, frame, truss"),
    ],
)
def test_bad_requests_are_one_line_errors(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError, match=message):
        call()
