"""Throughput of physics rescoring on 1 and 2 local workers and through Ray, and Ray's per-task overhead.

    python benchmarks/scale.py [--data ../shared/data/sphyr] [--subject full_easy]

Rescoring = the physics metrics (with a reference re-optimisation) of every sample of one subject,
answered with its own ground truth. Prints a table and an extrapolation to all 16 subjects × 1296
samples on a 64-core cluster, and writes JSON next to it.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from mechbench.benchmarks.sphyr.dataset import read_records
from mechbench.benchmarks.sphyr.optimum_cache import clear_memory
from mechbench.benchmarks.sphyr.rescore import physics_job
from mechbench.core.executor import RAY_RUNTIME_ENV, run_batch

REPO = Path(__file__).resolve().parent.parent
FULL_BENCHMARK = 16 * 1296


def _noop(x: int) -> int:
    return x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared/data/sphyr")
    parser.add_argument("--subject", default="full_easy")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks/results/scale.json")
    args = parser.parse_args()
    records = read_records(args.data / f"{args.subject}.jsonl")
    jobs = [(r.input_grid, r.ground_truth, r.ground_truth, (1.0, 0.0), "published") for r in records]
    import ray

    rows = []
    for label, settings in (
        ("local, 1 worker", {"workers": 1}),
        ("local, 2 workers", {"workers": 2}),
        ("ray (local instance), 2 workers", {"executor": "ray", "workers": 2}),
    ):
        # Every setting starts cold: a fresh disk cache (workers inherit the variable) and an empty memory.
        os.environ["MECHBENCH_CACHE"] = tempfile.mkdtemp(prefix="mechbench-scale-")
        clear_memory()
        if settings.get("executor") == "ray":
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env=RAY_RUNTIME_ENV)
            run_batch(physics_job, jobs[:2], executor="ray", chunk_size=1)  # start-up and worker imports untimed
        start = time.perf_counter()
        run_batch(physics_job, jobs, chunk_size=1, **settings)
        elapsed = time.perf_counter() - start
        rows.append({"setting": label, "samples": len(jobs), "seconds": elapsed, "samples_per_s": len(jobs) / elapsed})
    try:
        tasks = 200
        start = time.perf_counter()
        run_batch(_noop, list(range(tasks)), executor="ray", chunk_size=1)
        overhead = (time.perf_counter() - start) / tasks
    finally:
        ray.shutdown()
    per_sample = 1 / rows[0]["samples_per_s"]
    estimate_64 = FULL_BENCHMARK * (per_sample + overhead / 4) / 64  # chunks of 4 samples amortise the overhead
    print(f"{'setting':<34}{'samples':>8}{'seconds':>10}{'samples/s':>11}")
    for row in rows:
        print(f"{row['setting']:<34}{row['samples']:>8}{row['seconds']:>10.2f}{row['samples_per_s']:>11.2f}")
    print(f"\nRay per-task overhead: {overhead * 1e3:.1f} ms (one trivial task, already started instance)")
    print(
        f"one worker: {per_sample:.2f} s per sample; all {FULL_BENCHMARK} samples on 64 cores ≈ "
        f"{estimate_64 / 60:.1f} min (assuming linear scaling, which the 2-worker runs bound)"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({"rows": rows, "ray_task_overhead_s": overhead, "estimate_64_cores_s": estimate_64}, indent=1)
    )


if __name__ == "__main__":
    main()
