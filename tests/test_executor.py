"""One executor for batch physics work: local pool and a real local Ray instance give identical results."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mechbench.benchmarks.seesim.generated_set import write_seesim
from mechbench.benchmarks.sphyr.dataset import GridRecord, read_records
from mechbench.benchmarks.sphyr.generated_set import write_sphyr
from mechbench.benchmarks.sphyr.prompts import render_grid
from mechbench.benchmarks.sphyr.rescore import rescore
from mechbench.benchmarks.structural_eval.generated_set import write_structural
from mechbench.core.executor import ExecutorError, run_batch

pytestmark = pytest.mark.slow  # whole Inspect runs, servers or simulations: left out of -m 'not slow'


def _square(x: int) -> int:
    return x * x


def _die_once(job: tuple[str, int]) -> int:
    marker, value = job
    if value == 3 and not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(1)  # a lost worker, not an exception
    return value * 10


def test_local_pool_keeps_order_and_retries_a_lost_chunk(tmp_path: Path) -> None:
    assert run_batch(_square, list(range(20)), workers=2, chunk_size=3) == [x * x for x in range(20)]
    marker = str(tmp_path / "died")
    assert run_batch(_die_once, [(marker, v) for v in range(8)], workers=2, chunk_size=2) == [v * 10 for v in range(8)]
    assert Path(marker).exists()  # the worker really died once


def _worker_start(_: int) -> tuple[int, str | None, str | None]:
    return os.getppid(), os.environ.get("OPENBLAS_NUM_THREADS"), os.environ.get("MECHBENCH_POOL_MARK")


def test_later_pools_start_from_the_same_fork_server_with_one_blas_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers are not forks of the caller (its BLAS pool and threads stay behind) but children of one fork server
    that outlives a pool, so a second pool imports nothing again; each worker runs one BLAS thread even where the
    caller's environment asks for more."""
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    monkeypatch.setenv("MECHBENCH_POOL_MARK", "first")
    first = run_batch(_worker_start, list(range(4)), workers=2, chunk_size=1)
    monkeypatch.setenv("MECHBENCH_POOL_MARK", "second")  # a later pool's workers see the environment of its time
    second = run_batch(_worker_start, list(range(4)), workers=2, chunk_size=1)
    parents = {parent for parent, _, _ in first + second}
    assert len(parents) == 1 and os.getpid() not in parents
    assert {threads for _, threads, _ in first + second} == {"1"}
    assert {mark for _, _, mark in first} == {"first"} and {mark for _, _, mark in second} == {"second"}
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4"  # the caller's own setting is given back


def test_unknown_executor() -> None:
    with pytest.raises(ExecutorError, match="executor must be one of"):
        run_batch(_square, [1], executor="spark")


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _flip_first(record: GridRecord) -> list[list[str]]:
    grid = [list(row) for row in record.ground_truth]
    r, c = next((r, c) for r, row in enumerate(grid) for c, t in enumerate(row) if t in ("0", "1"))
    grid[r][c] = "1" if grid[r][c] == "0" else "0"
    return grid


@pytest.mark.long
def test_ray_gives_the_same_bytes_as_the_local_pool(tmp_path: Path, sphyr_data: Path) -> None:
    try:
        import ray
    except ImportError:
        pytest.fail("Ray is required for this test: scripts/test.sh installs mechbench[ray]", pytrace=False)
    from mechbench.core.executor import RAY_RUNTIME_ENV

    local, ray_out = tmp_path / "local", tmp_path / "ray"
    write_sphyr(local / "sphyr", 3, 11, workers=2)
    write_structural(local / "structural", 5, 11, diagrams=False, workers=2)
    # Seed 13's first flow is a channel flow (1.5 s of CPU; seed 11's, a cylinder wake, took 4.6): what is compared
    # here is bytes between executors, not the physics.
    write_seesim(local / "seesim", 1, 13, questions="mechbench", workers=2)
    # The first run starts Ray and stops what it started; the others join one running Ray (as on a cluster), which
    # they leave running (starting Ray four times took most of this test's minutes on a busy machine).
    write_sphyr(ray_out / "sphyr", 3, 11, executor="ray", workers=2)
    try:
        assert not ray.is_initialized()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env=RAY_RUNTIME_ENV)
        write_structural(ray_out / "structural", 5, 11, diagrams=False, executor="ray", workers=2)
        write_seesim(ray_out / "seesim", 1, 13, questions="mechbench", executor="ray", workers=2)
        assert _tree(local) == _tree(ray_out)
        records = [  # results-file records: the truth with its first free cell flipped as the completion
            {"input_grid": r.input_grid, "ground_truth": r.ground_truth, "completion": render_grid(_flip_first(r))}
            for r in read_records(sphyr_data / "full_easy.jsonl")[:5]
        ]
        judged = rescore(records, physics=True, workers=2)
        assert judged == rescore(records, physics=True, executor="ray", workers=2)
        assert ray.is_initialized()
    finally:
        ray.shutdown()


def test_ray_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # makes "import ray" fail
    with pytest.raises(ExecutorError, match=r"pip install 'mechbench\[ray\]'"):
        run_batch(_square, [1, 2], executor="ray")
