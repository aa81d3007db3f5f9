"""The 2PL item response model (``mechbench.core.irt``) on simulated responders of known parameters: difficulties and
discriminations recovered, a planted wrong key flagged by its negative discrimination, abilities with intervals that
hold the truth."""

from __future__ import annotations

import numpy as np
import pytest

from mechbench.core.irt import ability, fit_2pl, flagged, information, probability

RESPONDERS, ITEMS = 500, 60
"""The size the docs recommend for calibrating a set (docs/statistics.md): 500 responders, or answers, per item."""


def _simulated(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    theta = rng.normal(0.0, 1.0, RESPONDERS)
    a = rng.uniform(0.6, 2.0, ITEMS)
    b = rng.normal(0.0, 1.2, ITEMS)
    right = (rng.random((RESPONDERS, ITEMS)) < probability(theta[:, None], a, b)).astype(float)
    return right, theta, a, b


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_difficulties_and_discriminations_are_recovered_and_a_wrong_key_is_flagged(seed: int) -> None:
    right, theta, a, b = _simulated(seed)
    right[:, 7] = 1 - right[:, 7]  # a wrong key: the weaker responders are the ones marked right
    right[::3, 11] = np.nan  # answers missing by design are left out, not counted wrong
    fitted = fit_2pl(right)
    kept = [k for k in range(ITEMS) if k != 7]
    assert np.corrcoef(fitted.b[kept], b[kept])[0, 1] >= 0.95
    assert np.corrcoef(fitted.a[kept], a[kept])[0, 1] >= 0.9
    assert np.corrcoef(fitted.theta, theta)[0, 1] >= 0.9
    flat, negative = flagged(fitted)
    assert negative == ["7"] and "7" not in flat
    assert fitted.answered[11] == len(range(1, RESPONDERS, 3)) + len(range(2, RESPONDERS, 3))


def test_an_ability_interval_holds_the_truth_as_often_as_it_says() -> None:
    rng = np.random.default_rng(5)
    a, b = np.full(40, 1.5), np.linspace(-3, 3, 40)
    held = 0
    draws = 600
    for _ in range(draws):
        true = rng.normal(0.0, 1.0)
        answers = (rng.random(40) < probability(true, a, b)).astype(float)
        found = ability(list(answers), list(a), list(b), prior=(0.0, 1.0))
        held += found.low <= true <= found.high
    assert 0.93 <= held / draws <= 0.97


def test_a_perfect_responder_has_a_finite_ability_and_information_peaks_at_the_difficulty() -> None:
    found = ability([1.0] * 10, [1.0] * 10, [0.0] * 10)
    assert np.isfinite(found.theta) and found.theta > 1 and found.high > found.theta > found.low
    assert information(2.0, 1.3, 2.0) > information(3.0, 1.3, 2.0) > 0
