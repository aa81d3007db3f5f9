"""The published validation of the physics scoring, as a command (``mechbench validate sphyr``).

For each sample: the topology score of the dataset answer, of the answer with 2 and with 10 randomly
flipped masked cells, of the masked cells filled solid, and left empty. Averaged, these must come out
strictly ordered answer > 2 flipped > 10 flipped > empty (published on 20 full_easy samples: 0.933,
0.804, 0.476, 0.285 solid, 0.000 empty).
"""

from __future__ import annotations

import random
from collections import Counter

from mechbench.benchmarks.sphyr.dataset import GridRecord
from mechbench.benchmarks.sphyr.grid import DOWN
from mechbench.benchmarks.sphyr.load_direction import LoadDirection, find, mean_over_directions
from mechbench.benchmarks.sphyr.physics_scoring import Reference, physics_score

VARIANTS = ("answer", "2 flipped", "10 flipped", "solid", "empty")


def _flip(token: str, hard: bool) -> str:
    value = float(token)
    flipped = 1.0 - value if not hard else (0.0 if value > 0.5 else 1.0)
    return f"{flipped:.1f}" if hard else str(int(flipped))


def variants(record: GridRecord, rng: random.Random, hard: bool) -> dict[str, list[list[str]]]:
    """The five answers of the validation for one record."""
    truth = record.ground_truth
    masked = [(r, c) for r, row in enumerate(record.input_grid) for c, t in enumerate(row) if t == "V"]
    masked = [(r, c) for r, c in masked if truth[r][c] not in ("L", "S")]
    out = {"answer": [list(row) for row in truth]}
    for count in (2, 10):
        grid = [list(row) for row in truth]
        for r, c in rng.sample(masked, min(count, len(masked))):
            grid[r][c] = _flip(grid[r][c], hard)
        out[f"{count} flipped"] = grid
    # "Filled solid": every cell solid (so its material efficiency is the answer's volume fraction);
    # "left empty": every masked cell empty.
    out["solid"] = [[t if t in ("L", "S") else ("1.0" if hard else "1") for t in row] for row in truth]
    grid = [list(row) for row in truth]
    for r, c in masked:
        grid[r][c] = "0.0" if hard else "0"
    out["empty"] = grid
    return out


def validate(
    records: list[GridRecord],
    hard: bool = False,
    seed: int = 0,
    reference: Reference = "published",
    load_direction: LoadDirection = "published",
) -> dict:
    """Mean topology score (and material efficiency) per variant, with the per-sample numbers.

    ``load_direction``: each record under the published convention (down, or the direction it stores), or under
    the load its truth was optimised for (:mod:`.load_direction`; each row says how it was found).
    """
    rng = random.Random(seed)
    rows = []
    statuses: Counter[str] = Counter()
    for record in records:
        row: dict = {"index": record.index}
        stored = record.load_direction is not None
        finding = find(record.ground_truth, tuple(record.load_direction or DOWN), load_direction, stored)  # type: ignore[arg-type]
        statuses[finding.status] += 1
        row["load_direction"] = finding.record()
        for name, grid in variants(record, rng, hard).items():
            score = mean_over_directions(
                [
                    physics_score(record.input_grid, record.ground_truth, grid, gravity=g, reference=reference)
                    for g in finding.directions
                ]
            )
            row[name] = score.metrics()["topology_score_best" if reference == "best" else "topology_score"]
            row[f"{name} material_efficiency"] = score.material_efficiency
            row[f"{name} volume_fraction"] = score.volume_fraction
            row[f"{name} optimal_not_beaten"] = (score.optimal_compliance or 0.0) <= (
                score.ground_truth_compliance or float("inf")
            ) * (1 + 1e-9)
        rows.append(row)
    means = {name: sum(r[name] for r in rows) / len(rows) for name in VARIANTS}
    ordered = means["answer"] > means["2 flipped"] > means["10 flipped"] > means["empty"]
    return {
        "samples": len(rows),
        "load_direction": load_direction,
        "directions": dict(statuses),
        "means": means,
        "strictly_ordered": ordered,
        "records": rows,
    }
