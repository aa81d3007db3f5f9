"""Batch physics work on a local process pool or a Ray cluster, through one code path.

Work is split into chunks; a chunk is the unit that is retried when a worker is lost (Ray retries a
task whose worker died; the local pool re-submits a chunk whose process died). Results come back in
input order, so the output does not depend on which executor ran it.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import socket
import sys
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar
from urllib.parse import urlsplit

from mechbench.core.errors import MechbenchError

T = TypeVar("T")
R = TypeVar("R")
EXECUTORS = ("local", "ray")
CHUNK_RETRIES = 3
RAY_CONNECT_SECONDS = 5.0
"""How long a Ray cluster's address has to accept a connection before it is refused (Ray's own client waits for
minutes on an address where nothing listens)."""
RAY_CLIENT_PORT = 10001
"""Ray Client's port, the default of a ``ray://HOST`` address."""
RAY_GCS_PORT = 6379
"""The head node's port, the default of a bare ``HOST`` address."""


class ExecutorError(MechbenchError):
    """The executor cannot run (Ray missing, cluster unreachable, a chunk failing every retry)."""


def _run_chunk(fn: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    return [fn(item) for item in chunk]


# Each worker is one core's worth of work: BLAS threads on top would oversubscribe the machine (measured
# here: 2 workers with default BLAS threading ran 3× slower than 1). Workers start from a fresh interpreter
# (a fork server this module started with these variables, or spawn), never a fork of the caller, so that these
# variables take effect before numpy loads.
_SINGLE_THREAD_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
RAY_RUNTIME_ENV = {"env_vars": _SINGLE_THREAD_ENV}


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def check_ray_address(address: str, timeout: float = RAY_CONNECT_SECONDS) -> None:
    """Refuse a Ray address where nothing accepts a connection within ``timeout`` seconds (``auto`` and ``local``,
    which Ray resolves itself, pass as they are)."""
    if address in ("auto", "local"):
        return
    client = address.startswith("ray://")
    rest = address[len("ray://") :] if client else address
    try:
        parts = urlsplit(f"//{rest}")
        host, port, path = parts.hostname, parts.port, parts.path
    except ValueError:  # a port that is not a number, or out of range
        host, port, path = None, None, ""
    if not host or path not in ("", "/"):
        raise ExecutorError(f"--ray-address must be HOST:PORT, ray://HOST:PORT or auto, got {address!r}")
    port = port or (RAY_CLIENT_PORT if client else RAY_GCS_PORT)
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as error:
        if isinstance(error, TimeoutError):
            reason = f"no answer within {timeout:g} s"
        else:
            reason = (error.strerror or str(error) or type(error).__name__).lower()
        raise ExecutorError(
            f"no Ray cluster answers at {address} ({reason}): start one with 'ray start --head', or drop "
            "--ray-address for a local Ray instance"
        ) from None


def _chunks(items: Sequence[T], chunk_size: int) -> list[list[T]]:
    return [list(items[i : i + chunk_size]) for i in range(0, len(items), chunk_size)]


def run_batch(
    fn: Callable[[T], R],
    items: Sequence[T],
    *,
    executor: str = "local",
    workers: int | None = None,
    ray_address: str | None = None,
    chunk_size: int = 4,
    progress: Callable[[int, int], None] | None = None,
) -> list[R]:
    """``[fn(item) for item in items]`` computed in parallel; ``fn`` must be a picklable top-level function."""
    if executor not in EXECUTORS:
        raise ExecutorError(f"executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    chunks = _chunks(items, max(1, chunk_size))
    if not chunks:
        return []
    if executor == "ray":
        results = _run_ray(fn, chunks, workers, ray_address, progress)
    else:
        results = _run_local(fn, chunks, workers, progress)
    return [r for chunk in results for r in chunk]


_SERVER_OURS = False
"""Whether this module started the process's fork server (in the pools' one-BLAS-thread environment)."""


def _pool_context(fn: Callable) -> Any:
    """Where the local pool's workers come from: on Linux, forked from a fork server that this module started, in the
    one-BLAS-thread environment, with ``fn``'s module imported once (it lives as long as this process, so later pools
    start without importing again); elsewhere, or when something else started the fork server, spawned."""
    global _SERVER_OURS
    spawn = multiprocessing.get_context("spawn")
    if not sys.platform.startswith("linux") or "forkserver" not in multiprocessing.get_all_start_methods():
        return spawn  # macOS keeps spawn: forking after its system libraries load is unsafe there
    from multiprocessing import forkserver

    started = getattr(getattr(forkserver, "_forkserver", None), "_forkserver_pid", None) is not None
    if started and not _SERVER_OURS:
        return spawn
    context = multiprocessing.get_context("forkserver")
    if not started:
        module = getattr(fn, "__module__", None)
        context.set_forkserver_preload([__name__, *([module] if isinstance(module, str) else [])])
        _SERVER_OURS = True
    return context


def _take_environment(environ: dict[str, str]) -> None:
    """A worker's environment: the caller's at the time of its pool (a fork server keeps the one it started with)."""
    os.environ.clear()
    os.environ.update(environ)


def _run_local(fn: Callable, chunks: list[list], workers: int | None, progress: Callable | None) -> list[list]:
    workers = workers or usable_cores()
    if workers == 1:
        out = []
        for k, chunk in enumerate(chunks):
            out.append(_run_chunk(fn, chunk))
            if progress:
                progress(k + 1, len(chunks))
        return out
    results: dict[int, list] = {}
    pending = list(range(len(chunks)))
    for attempt in range(CHUNK_RETRIES + 1):
        try:
            saved = {key: os.environ.get(key) for key in _SINGLE_THREAD_ENV}
            os.environ.update(_SINGLE_THREAD_ENV)
            try:
                context = _pool_context(fn)
                with concurrent.futures.ProcessPoolExecutor(
                    max_workers=workers,
                    mp_context=context,
                    initializer=_take_environment,
                    initargs=(dict(os.environ),),
                ) as pool:
                    futures = {pool.submit(_run_chunk, fn, chunks[k]): k for k in pending}
                    for future in concurrent.futures.as_completed(futures):
                        results[futures[future]] = future.result()
                        if progress:
                            progress(len(results), len(chunks))
            finally:
                for key, value in saved.items():
                    if value is None:
                        os.environ.pop(key, None)
                    else:
                        os.environ[key] = value
            break
        except BrokenProcessPool:
            # A worker died: only the chunks without a result run again.
            pending = [k for k in range(len(chunks)) if k not in results]
            if attempt == CHUNK_RETRIES:
                raise ExecutorError(f"{len(pending)} chunks failed after {CHUNK_RETRIES} retries") from None
    return [results[k] for k in range(len(chunks))]


def _run_ray(
    fn: Callable, chunks: list[list], workers: int | None, address: str | None, progress: Callable | None
) -> list[list]:
    try:
        import ray
    except ImportError:
        raise ExecutorError("--executor ray needs Ray: pip install 'mechbench[ray]'") from None
    started = False
    if not ray.is_initialized():
        if address:
            check_ray_address(address)
        try:
            options = {"include_dashboard": False, "log_to_driver": False, "runtime_env": RAY_RUNTIME_ENV}
            if address:
                ray.init(address=address, **options)
            else:
                ray.init(num_cpus=workers or usable_cores(), **options)
        except Exception as error:
            raise ExecutorError(f"cannot start or join Ray ({address or 'local'}): {error}") from None
        started = True
    try:
        remote = ray.remote(max_retries=CHUNK_RETRIES, retry_exceptions=False)(_run_chunk)
        fn_ref = ray.put(fn)
        refs = [remote.remote(fn_ref, chunk) for chunk in chunks]
        done: dict[Any, list] = {}
        remaining = list(refs)
        while remaining:
            ready, remaining = ray.wait(remaining, num_returns=1)
            for ref in ready:
                done[ref] = ray.get(ref)
            if progress:
                progress(len(done), len(refs))
        return [done[ref] for ref in refs]
    finally:
        if started and not address:
            ray.shutdown()
