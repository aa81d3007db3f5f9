"""The intervals and comparisons treat correlated questions as correlated (mechbench.core.intervals,
mechbench.core.power): coverage on clustered data, the paired test's error rates, and the power plan keeps its word."""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest

from mechbench import registry
from mechbench.benchmarks.seesim.protocol import QUESTION_TEMPLATE
from mechbench.core.intervals import Observation, clustered_interval, holm, paired_difference, rank_intervals
from mechbench.core.power import Design, estimate_spread, power

TRUE_MEAN = 0.5
DRAWS = 1000
SEESIM_PUBLISHED = (20,) * 12
"""The published SeeSim set: twelve simulations, twenty questions each."""
SEESIM_GENERATED = (13, 8, 10, 6, 7, 5, 4, 8, 6, 5, 3, 5)
"""A generated SeeSim set like the bundled one: 80 questions about 12 simulations of unequal size."""
SPHYR = (16,) * 20
"""SPhyR: 20 layouts, each masked 16 ways (the subjects)."""


def _draw(rng: np.random.Generator, sizes: tuple[int, ...], icc: float) -> list[Observation]:
    """Right/wrong answers whose rate varies between clusters (beta-binomial): the intra-cluster correlation is
    ``icc`` exactly, the mean rate :data:`TRUE_MEAN`."""
    spread = 1 / icc - 1
    out = []
    for cluster, size in enumerate(sizes):
        rate = rng.beta(TRUE_MEAN * spread, (1 - TRUE_MEAN) * spread)
        out += [Observation((cluster, k), cluster, float(y)) for k, y in enumerate(rng.random(size) < rate)]
    return out


@pytest.mark.parametrize("sizes", [SEESIM_PUBLISHED, SEESIM_GENERATED, SPHYR], ids=["seesim", "generated", "sphyr"])
@pytest.mark.parametrize("icc", [0.05, 0.2, 0.5])
def test_the_clustered_interval_covers_the_true_mean_95_times_in_100(sizes: tuple[int, ...], icc: float) -> None:
    rng = np.random.default_rng(2026)
    clustered = naive = 0
    for _ in range(DRAWS):
        found = clustered_interval(_draw(rng, sizes, icc))
        clustered += abs(found.mean - TRUE_MEAN) <= found.half
        naive += abs(found.mean - TRUE_MEAN) <= found.naive_half
    shown = (
        f"ICC {icc}, {len(sizes)} clusters: clustered {clustered / DRAWS:.3f}, as if independent {naive / DRAWS:.3f}"
    )
    print(shown)
    assert 0.93 <= clustered / DRAWS <= 0.97, shown
    if icc >= 0.2:
        assert naive / DRAWS < 0.90, shown  # what reports printed before: far too narrow


def test_epochs_are_averaged_within_a_sample_and_their_spread_is_told_apart() -> None:
    rng = np.random.default_rng(3)
    items = [(k, k // 4, float(rng.random() < 0.5)) for k in range(40)]
    # Three epochs of each item: the same answer twice, flipped once in a third of the items.
    observations = [
        Observation(k, cluster, abs(value - (epoch == 2 and k % 3 == 0)), epoch=epoch + 1)
        for k, cluster, value in items
        for epoch in range(3)
    ]
    found = clustered_interval(observations)
    assert found.samples == 40 and found.clusters == 10 and found.epochs == 3
    assert found.mean == pytest.approx(
        np.mean([np.mean([o.value for o in observations if o.sample == k]) for k in range(40)])
    )
    assert found.run_to_run is not None and 0 < found.run_to_run < 1
    single = clustered_interval([o for o in observations if o.epoch == 1])
    assert single.run_to_run is None  # one epoch: nothing to tell apart


(COIN,) = [b for b in registry.baselines()["random"] if b.benchmark == "seesim"]
"""SeeSim's built-in random model (``mechbench/random``; ``-M seed=N`` draws another)."""


def _coin(model_seed: int, prompt: str) -> bool:
    return COIN.answer(prompt, model_seed, {}).strip().startswith("True")


def _questions(sizes: tuple[int, ...]) -> list[tuple[str, int, bool]]:
    """(prompt, cluster, key) of a set with these cluster sizes; keys balanced by a hash, prompts distinct."""
    out = []
    for cluster, size in enumerate(sizes):
        for k in range(size):
            prompt = QUESTION_TEMPLATE.format(question=f"Is quantity {k} of simulation {cluster} above its limit?")
            out.append((prompt, cluster, hashlib.sha256(prompt.encode()).digest()[0] % 2 == 0))
    return out


def _run(questions: list, seed: int, planted: float = 0.0) -> list[Observation]:
    """The random model's answers scored; with ``planted`` > 0, the key given instead on that share of questions
    (chosen by the seed): an expected accuracy ``planted / 2`` higher."""
    out = []
    for prompt, cluster, key in questions:
        answer = _coin(seed, prompt)
        if (
            planted
            and int.from_bytes(hashlib.sha256(f"plant{seed}{prompt}".encode()).digest()[:4], "big") < planted * 2**32
        ):
            answer = key
        out.append(Observation(prompt, cluster, float(answer == key)))
    return out


def test_two_models_alike_up_to_noise_are_told_apart_about_5_times_in_100() -> None:
    questions = _questions(SEESIM_GENERATED)
    draws = 1000
    told = sum(
        paired_difference(_run(questions, 2 * k), _run(questions, 2 * k + 1)).p_value < 0.05 for k in range(draws)
    )
    assert 0.03 <= told / draws <= 0.07, told / draws


def test_a_planted_difference_is_found_as_often_as_the_plan_predicts() -> None:
    sizes = (8,) * 150  # a larger generated set: 1,200 questions about 150 simulations
    questions = _questions(sizes)
    design = Design(sizes)
    # The plan's spread from a pilot pair (what `mechbench plan --from` reads from earlier runs).
    pilot_a, pilot_b = _run(questions, 10_001, planted=0.1), _run(questions, 10_002)
    spread = estimate_spread([(a.cluster, a.value - b.value) for a, b in zip(pilot_a, pilot_b, strict=True)], "pilot")
    assert spread is not None
    predicted = power(design, spread, 0.05)
    draws = 300
    found = 0
    for k in range(draws):
        difference = paired_difference(_run(questions, 2 * k, planted=0.1), _run(questions, 2 * k + 1))
        found += difference.p_value < 0.05 and difference.mean > 0
    assert 0.3 < predicted < 0.9, predicted  # a test of the prediction, not of a certainty
    assert abs(found / draws - predicted) <= 0.10, (found / draws, predicted)


def test_holm_and_rank_intervals() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    ranks = rank_intervals(["a", "b", "c"], {("a", "c")})
    assert ranks == {"a": (1, 2), "b": (1, 3), "c": (2, 3)}
    # Too few shared clusters: not compared.
    few = [Observation(k, k % 3, 1.0) for k in range(30)]
    assert paired_difference(few, few) is None


def test_the_design_effect_is_what_the_clusters_make_it() -> None:
    # Right on every question of half the simulations, wrong on the other half: the interval is as wide as twelve
    # observations make it, whatever the question count.
    sizes = SEESIM_PUBLISHED
    observations = [Observation((c, k), c, float(c % 2)) for c, size in enumerate(sizes) for k in range(size)]
    found = clustered_interval(observations)
    assert found.mean == 0.5 and found.clusters == 12
    per_cluster = clustered_interval([Observation(c, c, float(c % 2)) for c in range(12)])
    assert found.half == pytest.approx(per_cluster.half, rel=0.05)
    assert found.half / found.naive_half > 2.5 and math.isfinite(found.design_effect)
