"""Fresh SPhyR sets written in the official record format (``mechbench generate sphyr``).

The optimisations run through :func:`mechbench.core.executor.run_batch` (a local process pool or a Ray cluster);
every sample has its own random stream derived from the seed, so the bytes written do not depend on the executor.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

from mechbench.benchmarks.sphyr.generate import generate_sphyr
from mechbench.benchmarks.sphyr.generate_v2 import generate_sphyr_v2
from mechbench.benchmarks.sphyr.versions import GRID_SIZES
from mechbench.core.executor import run_batch


def write_sphyr(
    out: Path,
    n: int,
    seed: int,
    rows: int = 10,
    cols: int = 10,
    subjects: list[str] | None = None,
    version: str | None = None,
    excluded: list[dict] | None = None,
    **executor: Any,
) -> list[str]:
    """``<subject>.jsonl`` files in the official SPhyR format; returns the subjects written.

    ``version`` ``v2`` / ``v2-20``: samples drawn as upstream's v2 (10×10 / 20×20), each record with its
    ``load_direction``, none near an ``excluded`` sample; otherwise mechbench's v1-style generator at
    ``rows``×``cols``.
    """
    out.mkdir(parents=True, exist_ok=True)
    if version in ("v2", "v2-20"):
        size = GRID_SIZES[version]  # type: ignore[index]
        data = generate_sphyr_v2(n, seed, size, subjects, run=partial(_map, executor), excluded=excluded)
    else:
        data = generate_sphyr(n, seed, rows, cols, subjects, run=partial(_map, executor))
    for subject, records in data.items():
        (out / f"{subject}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return list(data)


def write_optima(out: Path, subjects: list[str]) -> Path:
    """``out/optima.json``: the reference optimum the physics judge asks for on each record of ``subjects`` (under the
    record's own load direction, as the task judges it by default), so that a run needs neither the optimiser's
    compilation nor its work (:func:`~mechbench.benchmarks.sphyr.optimum_cache.ship`)."""
    from mechbench.benchmarks.sphyr import optimum_cache
    from mechbench.benchmarks.sphyr.dataset import read_records
    from mechbench.benchmarks.sphyr.grid import DOWN
    from mechbench.benchmarks.sphyr.physics_scoring import physics_score

    with optimum_cache.recording() as found:
        for subject in subjects:
            for record in read_records(out / f"{subject}.jsonl"):
                gravity = tuple(record.load_direction or DOWN)
                physics_score(record.input_grid, record.ground_truth, record.ground_truth, gravity)  # type: ignore[arg-type]
    return optimum_cache.ship(found, out)


def _map(executor: dict[str, Any], fn: Any, jobs: list) -> list:
    return run_batch(fn, jobs, **executor)
