"""SPhyR's cell-level metrics as plain functions (the published definitions of upstream's evaluation code).

Per sample: validity (with the reason when invalid), exact match (string comparison), the seed's
``score`` and ``normalized_score``, the newer ``difference_ratio``, ``relative_difference_ratio``
(exact decimal arithmetic), ``penalized_difference_ratio`` and ``difficulty_score``. With the
``current`` parser an invalid grid scores 0 (False) on every metric; the ``legacy`` parser compares
whatever rows and cells line up, as the paper-era scorer did.
"""

from __future__ import annotations

import sys
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal, DivisionByZero, InvalidOperation, localcontext

from pydantic import BaseModel

from mechbench.benchmarks.sphyr import graph_metrics
from mechbench.benchmarks.sphyr.parse import Parser, parse_reply
from mechbench.benchmarks.sphyr.prompts import Grid

STRUCTURAL = ("L", "S")  # load and support cells: solid, never numbers
MARKERS = ("L", "S", "V")
# Extra cost of a mismatch involving an L/S/V cell in the penalised ratio.
MARKER_PENALTY = 3
GRAPH_METRIC_NAMES = (
    "load_support_connected",
    "load_support_connected_force_directional",
    "isolated_clusters_count",
    "force_path_cost_average_efficiency_ratio",
    "difficulty_weighted_difference_ratio",
    "difficulty_weighted_relative_difference_ratio",
)
"""The graph metrics of the newer published scorer, computed on a valid grid only (else False / 0)."""
HEADLINE_METRICS = ("topology_score", "exact_match")
"""The headline: topology score where physics ran, else exact match (the report's, and first on the console)."""
METRIC_NAMES = (
    "valid_output_grid",
    "exact_match",
    "score",
    "normalized_score",
    "difference_ratio",
    "relative_difference_ratio",
    "penalized_difference_ratio",
    "difficulty_score",
    *GRAPH_METRIC_NAMES,
)


class GridScore(BaseModel):
    """Every metric of one sample, the grid read from the reply, and why it is invalid (if it is)."""

    valid_output_grid: bool
    exact_match: bool
    score: float
    normalized_score: float
    difference_ratio: float
    relative_difference_ratio: float
    penalized_difference_ratio: float
    difficulty_score: float
    differing_cells: int
    masked_cells: int
    parsed_grid: list[list[str]]
    invalid_reason: str | None = None
    load_support_connected: bool = False
    load_support_connected_force_directional: bool | float = False
    """A mean over two load axes where the truth cannot tell them apart (``load_direction="recovered"``)."""
    isolated_clusters_count: int = 0
    force_path_cost_average_efficiency_ratio: float = 0.0
    difficulty_weighted_difference_ratio: float = 0.0
    difficulty_weighted_relative_difference_ratio: float = 0.0

    def metrics(self) -> dict[str, float]:
        """The metric values as floats (booleans as 0/1), keyed by their published names."""
        return {name: float(getattr(self, name)) for name in METRIC_NAMES}


def _number(token: str) -> Decimal | None:
    try:
        value = Decimal(token)
    except (InvalidOperation, ValueError):
        return None
    return value if value.is_finite() else None


def validity_problem(output: Grid, truth: Grid) -> str | None:
    """Why ``output`` is not a valid completion of ``truth`` (None when it is)."""
    if not output:
        return "no grid found in the reply"
    if len(output) != len(truth):
        return f"wrong row count: {len(output)} rows, expected {len(truth)}"
    for r, (row, true_row) in enumerate(zip(output, truth, strict=True)):
        if len(row) != len(true_row):
            return f"row {r} has {len(row)} cells, expected {len(true_row)}"
    for r, row in enumerate(output):
        for c, token in enumerate(row):
            if token in STRUCTURAL:
                continue
            value = _number(token)
            if value is None:
                return f"unparsable token {token!r} at ({r}, {c})"
            if not Decimal(0) <= value <= Decimal(1):
                return f"value {token} out of range [0, 1] at ({r}, {c})"
    return None


def difficulty_score(input_grid: Grid, truth: Grid) -> float:
    """Mean difficulty weight of the masked cells.

    Weight 1 if the cell's numeric 8-neighbours in the truth are all 0 or all 1 and agree with the
    cell's true value, 2 if uniform but disagreeing, 3 if mixed; a masked cell with no numeric
    neighbour counts in the denominator with weight 0.
    """
    weights = []
    rows, cols = len(truth), len(truth[0]) if truth else 0
    for r, row in enumerate(input_grid):
        for c, token in enumerate(row):
            if token != "V":
                continue
            values = set()
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < rows and 0 <= cc < cols:
                        value = _number(truth[rr][cc])
                        if value is not None:
                            values.add(value)
            if not values:
                weights.append(0)
                continue
            own = _number(truth[r][c])
            if values in ({Decimal(0)}, {Decimal(1)}):
                weights.append(1 if own is not None and own == next(iter(values)) else 2)
            else:
                weights.append(3)
    return sum(weights) / len(weights) if weights else 0.0


def _pairs(output: Grid, truth: Grid) -> list[tuple[str, str]]:
    # zip() on purpose: with the legacy parser extra or missing rows and cells are ignored, as then.
    return [
        (a, b)
        for out_row, true_row in zip(output, truth, strict=False)
        for a, b in zip(out_row, true_row, strict=False)
    ]


# Exact decimals for any number a reply can write (``1e9999999`` overflows the default context's exponent
# range); precision as the default context, so ordinary one-decimal cells stay exact.
_WIDE = Context(Emax=MAX_EMAX, Emin=MIN_EMIN, traps=[InvalidOperation, DivisionByZero])


def _finite_float(value: Decimal) -> float:
    """A ratio as a float; an astronomically large one stays finite, so means over samples stay numbers."""
    return max(min(float(value), sys.float_info.max), -sys.float_info.max)


def _ratios(pairs: list[tuple[str, str]], truth: Grid) -> tuple[float, float, float]:
    with localcontext(_WIDE):
        return _wide_ratios(pairs, truth)


def _wide_ratios(pairs: list[tuple[str, str]], truth: Grid) -> tuple[float, float, float]:
    total = sum((v for row in truth for token in row if (v := _number(token)) is not None), Decimal(0))
    differing = relative = penalized = Decimal(0)
    for a, b in pairs:
        if a == b:
            continue
        differing += 1
        x, y = _number(a), _number(b)
        if x is not None and y is not None and a not in MARKERS and b not in MARKERS:
            relative += abs(x - y)
            penalized += abs(x - y)
        else:
            relative += 1
            penalized += MARKER_PENALTY
    if total == 0:  # an all-empty truth: only a perfect answer is right
        return tuple(1.0 if differing == 0 else 0.0 for _ in range(3))  # type: ignore[return-value]
    return (
        _finite_float(1 - differing / total),
        _finite_float(1 - relative / total),
        _finite_float(1 - penalized / total),
    )


def score_grid(
    input_grid: Grid,
    truth: Grid,
    reply: str | Grid,
    parser: Parser = "current",
    gravity: tuple[float, float] = (1.0, 0.0),
) -> GridScore:
    """Score a reply (text, or an already parsed grid) against the ground truth.

    ``gravity`` is the (row, col) load direction the directional graph metrics follow.
    """
    shape_problem = None
    if reply is None or isinstance(reply, str):
        output = parse_reply(reply or "", parser).grid
    elif isinstance(reply, list | tuple) and all(isinstance(r, list | tuple) for r in reply):
        output = [[str(cell) for cell in row] for row in reply]
    else:
        output, shape_problem = [], f"the answer is not a list of rows of cells (got {type(reply).__name__})"
    masked = sum(token == "V" for row in input_grid for token in row)
    difficulty = difficulty_score(input_grid, truth)
    problem = shape_problem or validity_problem(output, truth)
    if parser == "current" and problem is not None:
        return GridScore(
            valid_output_grid=False,
            exact_match=False,
            score=0.0,
            normalized_score=0.0,
            difference_ratio=0.0,
            relative_difference_ratio=0.0,
            penalized_difference_ratio=0.0,
            difficulty_score=difficulty,
            differing_cells=0,
            masked_cells=masked,
            parsed_grid=output,
            invalid_reason=problem,
        )
    pairs = _pairs(output, truth)
    differing = sum(a != b for a, b in pairs)
    exact = differing == 0 and (parser == "legacy" or problem is None)
    to_fill = sum(a != b for a, b in _pairs(input_grid, truth))
    if exact:
        seed = 1.0
    elif to_fill:
        seed = 1.0 - differing / to_fill
    else:
        seed = 0.0  # nothing was masked that differs, yet the answer changed cells
    difference, relative, penalized = (1.0, 1.0, 1.0) if exact else _ratios(pairs, truth)
    graph = {}
    if problem is None:
        graph = {
            "load_support_connected": graph_metrics.load_support_connected(output),
            "load_support_connected_force_directional": graph_metrics.load_support_connected_force_directional(
                output, gravity
            ),
            "isolated_clusters_count": graph_metrics.isolated_clusters_count(output),
            "force_path_cost_average_efficiency_ratio": graph_metrics.force_path_efficiency(output, truth, gravity),
        }
    return GridScore(
        valid_output_grid=problem is None,
        exact_match=exact,
        score=seed,
        normalized_score=max(seed, 0.0),
        difference_ratio=difference,
        relative_difference_ratio=relative,
        penalized_difference_ratio=penalized,
        difficulty_score=difficulty,
        differing_cells=differing,
        masked_cells=masked,
        parsed_grid=output,
        invalid_reason=problem,
        # Plain float products (the published arithmetic); an overflow to ±inf is clamped like the ratios.
        difficulty_weighted_difference_ratio=_finite_float(Decimal(difficulty * difference)),
        difficulty_weighted_relative_difference_ratio=_finite_float(Decimal(difficulty * relative)),
        **graph,
    )


def totals(scores: list[GridScore]) -> dict[str, float]:
    """The published aggregates: ``total_<metric>`` summed over the scored samples."""
    out = {f"total_{name}": float(sum(getattr(s, name) for s in scores)) for name in METRIC_NAMES}
    out["evaluated_samples"] = float(len(scores))
    return out
