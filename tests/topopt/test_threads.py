"""The one-BLAS-thread limit is held while any physics judge runs, in any thread, and restored after the last."""

from __future__ import annotations

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
