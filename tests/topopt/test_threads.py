"""The one-BLAS-thread limit is held while any physics judge runs, in any thread, and restored after the last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from mechbench.core import threads


class _Recorder:
    """Stands in for threadpoolctl's controller: records limits set and restored."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def limit(self, limits: int):
        self.events.append(f"limit {limits}")
        recorder = self

        class _Limiter:
            def restore_original_limits(self) -> None:
                recorder.events.append("restore")

        return _Limiter()


def test_a_judge_finishing_in_one_thread_does_not_unlimit_another(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = _Recorder()
    monkeypatch.setattr(threads, "_controller", recorder)
    monkeypatch.setattr(threads, "_modules_seen", len(sys.modules))
    entered, release = threading.Event(), threading.Event()

    def long_judge() -> None:
        with threads.one_blas_thread():
            entered.set()
            release.wait(10)
            recorder.events.append("long judge done")

    worker = threading.Thread(target=long_judge)
    worker.start()
    assert entered.wait(10)
    threads.single_threaded(lambda: None)()  # a short judge enters and leaves while the long one runs
    assert recorder.events == ["limit 1"]  # still limited: the long judge is inside
    release.set()
    worker.join()
    assert recorder.events == ["limit 1", "long judge done", "restore"]
    assert threads._active == 0


LATE_BLAS = """
import json
from threadpoolctl import threadpool_info
from mechbench.core import threads
with threads.one_blas_thread():  # the limit's first use, before scipy is imported
    pass
import scipy.linalg  # scipy's own OpenBLAS, loaded only now
with threads.one_blas_thread():
    print(json.dumps([(i["filepath"], i["num_threads"]) for i in threadpool_info()]))
"""


def test_a_blas_loaded_after_the_first_judge_is_limited_too() -> None:
    """scipy loads its own OpenBLAS beside numpy's; a limit built before that import left it at full width, and its
    threads spun on a busy machine (the SPhyR judge used six times its CPU time beside two CPU-bound processes)."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "2"}
    done = subprocess.run([sys.executable, "-c", LATE_BLAS], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    pools = json.loads(done.stdout)
    assert pools and all(threads_in_pool == 1 for _, threads_in_pool in pools), pools


FIRST_IMPORT = """
import json
import mechbench
import numpy, scipy.linalg
from threadpoolctl import threadpool_info
print(json.dumps([i["num_threads"] for i in threadpool_info() if i["internal_api"] == "openblas"]))
"""


@pytest.mark.parametrize(("given", "expected"), [(None, 1), ("2", 2)])
def test_a_process_that_imports_mechbench_first_starts_blas_with_one_thread(given: str | None, expected: int) -> None:
    """Limiting a started OpenBLAS pool is not enough: two judges calling it at once spun on a busy machine (the SPhyR
    judge used 61 s of CPU for 4.4 s of work beside two CPU-bound processes). A user's own setting is kept."""
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    done = subprocess.run([sys.executable, "-c", FIRST_IMPORT], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    pools = json.loads(done.stdout)
    assert pools and all(n == min(expected, os.cpu_count() or 1) for n in pools), pools
