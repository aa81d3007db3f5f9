"""Item response theory: the two-parameter logistic model, fitted on models' answers, and abilities measured on it.

P(right | θ, a, b) = 1 / (1 + exp(−a (θ − b))): θ a model's ability, b an item's difficulty (the ability that gets it
right half the time), a its discrimination (how sharply the chance rises there). A score between 0 and 1 (a share of
an item's quantities) counts as that share of a right answer.

**Fitting** (:func:`fit_2pl`): marginal maximum a posteriori by the Bock–Aitkin EM algorithm (the responders'
abilities integrated over a standard normal population on a quadrature grid, one Newton step per item and
iteration), with weak priors (a ~ N(1, 1), b ~ N(0, 3²)) that keep an item nobody got right finite; then each
responder's θ by EAP. Why not an IRT library: mechbench's calibration data are often a few models on many items,
with missing answers by design (adaptive runs, subsets); the Python libraries (girth, py-irt) either need complete
matrices or bring PyTorch/Pyro, for what is here forty lines of vectorised numpy that fit 10 models × 2,000 items in
a fraction of a second. ``a`` is not forced positive: an item whose right answers come from the
weaker models gets a negative discrimination, the sign of a wrong key or an unreadable item (:func:`flagged`).

**Abilities** (:func:`ability`): with the items' a and b known, the expected a posteriori θ on a grid, its posterior
standard deviation as the standard error, and the 95 % interval of the posterior: exact for any number of items, and
well defined for a model that got everything right (where the maximum-likelihood θ is infinite).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

PRIOR_THETA = (0.0, 1.0)
PRIOR_A = (1.0, 1.0)
PRIOR_B = (0.0, 3.0)
WEAK = 0.2
"""Discrimination below which an item tells models apart too little to be worth asking (on the fitted scale)."""
GRID = np.linspace(-6.0, 16.0, 881)
"""Abilities the posterior is evaluated on (the level-anchored scale runs about 0 to 12)."""


def probability(theta: np.ndarray | float, a: np.ndarray | float, b: np.ndarray | float) -> np.ndarray:
    """P(right) of the 2PL model (broadcast)."""
    return 1.0 / (1.0 + np.exp(-np.asarray(a) * (np.asarray(theta) - np.asarray(b))))


@dataclass(frozen=True)
class Calibration:
    """A fitted model: each item's (a, b), each responder's θ, and how the scale was anchored."""

    items: list[str]
    a: np.ndarray
    b: np.ndarray
    responders: list[str]
    theta: np.ndarray
    answered: np.ndarray
    """Answers per item (how much data its a and b rest on)."""
    anchor: str = "θ ~ N(0, 1) over the responders"
    extra: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """The calibration as JSON-ready data (stored beside a set)."""
        return {
            "model": "2PL",
            "anchor": self.anchor,
            "items": {
                i: {"a": round(float(a), 6), "b": round(float(b), 6), "answered": int(n)}
                for i, a, b, n in zip(self.items, self.a, self.b, self.answered, strict=True)
            },
            "responders": {r: round(float(t), 6) for r, t in zip(self.responders, self.theta, strict=True)},
            **self.extra,
        }


def _expected(x: np.ndarray, n: np.ndarray, right: np.ndarray) -> tuple[float, np.ndarray]:
    """Minus the items' expected log-posterior at (a, b) = x, given the expected answers ``n`` and rights ``right``
    per node and item, and its gradient."""
    (ma, sa), (mb, sb) = PRIOR_A, PRIOR_B
    count = n.shape[1]
    a, b = x[:count], x[count:]
    d = NODES[:, None] - b[None, :]
    z = a[None, :] * d
    wrong_cost = np.logaddexp(0.0, -z)  # −log P(right); −log P(wrong) is that plus z
    value = np.sum(n * wrong_cost + (n - right) * z)
    value += np.sum((a - ma) ** 2) / (2 * sa**2) + np.sum((b - mb) ** 2) / (2 * sb**2)
    residual = n * np.exp(-wrong_cost) - right  # d value / dz
    grad_a = np.sum(residual * d, axis=0) + (a - ma) / sa**2
    grad_b = -a * np.sum(residual, axis=0) + (b - mb) / sb**2
    return float(value), np.concatenate([grad_a, grad_b])


def _starting_discrimination(r: np.ndarray, asked: np.ndarray) -> np.ndarray:
    """Each item's starting a: ±1 by the sign of its correlation with the rest of the responders' scores (classical
    item analysis). Near a = 0 the likelihood cannot tell the sign, and EM started at +1 would settle an item whose
    right answers come from the weaker responders at a flat a ≈ 0 instead of a negative a."""
    answered = np.maximum(asked.sum(axis=1), 1)
    start = np.ones(r.shape[1])
    for k in range(r.shape[1]):
        mask = asked[:, k]
        if mask.sum() < 3:
            continue
        rest = (r[mask].sum(axis=1) - r[mask, k]) / np.maximum(answered[mask] - 1, 1)
        if np.std(rest) > 0 and np.std(r[mask, k]) > 0 and np.corrcoef(r[mask, k], rest)[0, 1] < 0:
            start[k] = -1.0
    return start


NODES = np.linspace(-5.0, 5.0, 31)
"""Quadrature abilities of the marginal fit (a standard normal population, a third of an SD apart)."""
TOLERANCE = 1e-4
"""The fit stops when no item's a or b moves by more than this in an EM iteration."""


def fit_2pl(
    responses: np.ndarray,
    items: list[str] | None = None,
    responders: list[str] | None = None,
    iterations: int = 200,
) -> Calibration:
    """Fit the 2PL model to ``responses`` (responders × items; 1 right, 0 wrong, a share in between, NaN not
    asked) by marginal maximum a posteriori (Bock–Aitkin EM over a standard normal population on
    :data:`NODES`, weak priors on a and b), then each responder's θ by EAP."""
    from scipy.optimize import minimize

    r = np.asarray(responses, dtype=float)
    asked = ~np.isnan(r)
    r = np.where(asked, r, 0.0)
    count = r.shape[1]
    share = np.clip((r.sum(0) + 0.5) / (asked.sum(0) + 1.0), 0.02, 0.98)
    a = _starting_discrimination(r, asked)
    b = -np.log(share / (1 - share)) / a  # P(right) at θ = 0 is the item's share right, whichever the sign of a
    weight = np.exp(-(NODES**2) / 2)
    for _ in range(iterations):
        # E-step: each responder's posterior over the nodes, then the expected answers and rights per node and item
        z = a[None, :] * (NODES[:, None] - b[None, :])  # nodes × items
        log_right, log_wrong = -np.logaddexp(0.0, -z), -np.logaddexp(0.0, z)
        log_like = r @ log_right.T + (asked * (1 - r)) @ log_wrong.T  # responders × nodes
        post = np.exp(log_like - log_like.max(axis=1, keepdims=True)) * weight
        post /= post.sum(axis=1, keepdims=True)
        n = post.T @ asked  # nodes × items
        right = post.T @ r
        # M-step: every item's expected log-posterior in (a, b) maximised (separable: one L-BFGS run for all)
        done = minimize(_expected, np.concatenate([a, b]), args=(n, right), jac=True, method="L-BFGS-B",
                        options={"maxiter": 30})  # fmt: skip
        moved = np.abs(done.x - np.concatenate([a, b])).max(initial=0.0)
        a, b = done.x[:count], done.x[count:]
        if moved < TOLERANCE:
            break
    theta = np.array([
        ability(list(row[mask]), list(a[mask]), list(b[mask]), prior=PRIOR_THETA).theta
        for row, mask in zip(r, asked, strict=True)
    ])  # fmt: skip
    return Calibration(
        items=items or [str(k) for k in range(count)],
        a=a,
        b=b,
        responders=responders or [str(k) for k in range(r.shape[0])],
        theta=theta,
        answered=asked.sum(axis=0),
    )


def flagged(calibration: Calibration, weak: float = WEAK) -> tuple[list[str], list[str]]:
    """(items that barely discriminate, items with negative discrimination) of a calibration."""
    negative = [i for i, a in zip(calibration.items, calibration.a, strict=True) if a < 0]
    flat = [i for i, a in zip(calibration.items, calibration.a, strict=True) if 0 <= a < weak]
    return flat, negative


@dataclass(frozen=True)
class Ability:
    """An ability on a calibrated scale: the posterior mean, its standard error and 95 % interval, from how many
    items."""

    theta: float
    se: float
    low: float
    high: float
    items: int


def ability(responses: list[float], a: list[float], b: list[float], prior: tuple[float, float] = (0.0, 3.0)) -> Ability:
    """The expected a posteriori ability of one responder from its ``responses`` (1, 0 or a share) to items of
    known ``a`` and ``b``, with a normal ``prior`` (mean, SD) on the scale; the interval is the posterior's 2.5 % to
    97.5 %."""
    if not len(responses) == len(a) == len(b):
        raise ValueError("responses, a and b must be as long as each other")
    posterior = Posterior(prior)
    for r, ai, bi in zip(responses, a, b, strict=True):
        posterior.add(float(r), float(ai), float(bi))
    return posterior.summary()


def information(theta: float, a: float, b: float) -> float:
    """Fisher information of one item at ``theta``: a² P (1 − P)."""
    p = float(probability(theta, a, b))
    return a * a * p * (1 - p)


class Posterior:
    """An ability's posterior on :data:`GRID`, updated one answer at a time (an adaptive run's running estimate: the
    same result as :func:`ability` on all the answers, without recomputing them)."""

    def __init__(self, prior: tuple[float, float] = (0.0, 3.0)):
        self.log = -((GRID - prior[0]) ** 2) / (2 * prior[1] ** 2)
        self.count = 0

    def add(self, response: float, a: float, b: float) -> None:
        """Take one answer (1, 0 or a share) to an item of discrimination ``a`` and difficulty ``b``."""
        z = a * (GRID - b)
        self.log = self.log - (np.logaddexp(0.0, -z) + (1 - response) * z)
        self.count += 1

    def summary(self) -> Ability:
        """The posterior mean, its SD as the standard error, and the 95 % interval."""
        weights = np.exp(self.log - self.log.max())
        weights /= weights.sum()
        mean = float(weights @ GRID)
        sd = math.sqrt(max(float(weights @ (GRID - mean) ** 2), 0.0))
        cdf = np.cumsum(weights)
        return Ability(mean, sd, float(np.interp(0.025, cdf, GRID)), float(np.interp(0.975, cdf, GRID)), self.count)
