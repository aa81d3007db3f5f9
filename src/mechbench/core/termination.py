"""SIGTERM ends a mechbench process within seconds, whatever its main thread is doing.

Inspect serves its control channel with uvicorn, which catches SIGTERM in Python: the handler only asks the event
loop to stop, and the process dies when the loop next runs. A main thread held by a long computation (a reply's
unit once made pint compute a tower of powers) never lets it run, and the process ignored SIGTERM for minutes.

A Python handler cannot help, since it runs only when the main thread does. What runs at once is CPython's own C
signal handler, which writes the signal's number to the *wakeup fd*. mechbench points that fd at a pipe read by a
tiny watchdog process: on a SIGTERM byte it waits :data:`SIGTERM_GRACE` seconds for the process to end by itself
(it does within milliseconds when the loop is free: uvicorn re-raises the signal to its default action), then
kills it, saying so on stderr. Each finished sample is already in the log (mechbench runs write samples as they
finish), so nothing finished is lost; ``mechbench eval-retry`` resumes the rest.

The watchdog exits with its parent (end of file on the pipe, or a new parent pid). Forked children reset the fd,
so a SIGTERM sent to a worker process is never taken for one sent to the run.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading

SIGTERM_GRACE = 3.0
"""Seconds a process has after SIGTERM to end by itself before the watchdog kills it."""

_WATCHDOG = """
import os, select, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
fd, parent, grace = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
while os.getppid() == parent:
    if not select.select([fd], [], [], 1.0)[0]:
        continue
    data = os.read(fd, 512)
    if not data:
        break
    if signal.SIGTERM in data:
        end = time.monotonic() + grace
        while os.getppid() == parent and time.monotonic() < end:
            time.sleep(0.05)
        if os.getppid() == parent:
            line = "mechbench: still busy %g s after SIGTERM: stopped (finished samples are in the log)\\n" % grace
            os.write(2, line.encode())
            os.kill(parent, signal.SIGKILL)
        break
"""

_installed_in: int | None = None
_pipe_write: int | None = None
_watchdog: subprocess.Popen[bytes] | None = None
_fork_hook = False
_mask: set[signal.Signals] | None = None


def _block_for_fork() -> None:
    """Before a fork: hold SIGTERM in the forking thread, so that the child cannot take one before it has let go of
    the watchdog's fd (a worker sent SIGTERM at once would otherwise be taken for the run)."""
    global _mask
    _mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})


def _unblock_in_parent() -> None:
    if _mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, _mask)


def _forget_in_child() -> None:
    """In a forked child: the watchdog belongs to the parent; a signal to the child must not reach it."""
    global _installed_in, _pipe_write, _watchdog
    if _pipe_write is not None:
        with contextlib.suppress(ValueError):  # forked from a thread Python does not count as the main one
            signal.set_wakeup_fd(-1)
        os.close(_pipe_write)
    _installed_in, _pipe_write, _watchdog = None, None, None
    _unblock_in_parent()


def install_sigterm_watchdog(grace: float = SIGTERM_GRACE) -> bool:
    """Make SIGTERM end this process within ``grace`` seconds (idempotent; see the module docs). Returns whether the
    watchdog watches this process: not when called off the main thread or when another wakeup fd is in use."""
    global _installed_in, _pipe_write, _watchdog, _fork_hook
    if _installed_in == os.getpid():
        return True
    if threading.current_thread() is not threading.main_thread():
        return False
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    try:
        previous = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except ValueError:
        previous = None
    if previous != -1:  # someone else's wakeup fd (an event loop's signal handlers): leave it in place
        if previous is not None:
            signal.set_wakeup_fd(previous)
        os.close(read_end)
        os.close(write_end)
        return False
    try:
        watchdog = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _WATCHDOG, str(read_end), str(os.getpid()), repr(grace)],
            pass_fds=(read_end,),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
    except OSError:
        signal.set_wakeup_fd(-1)
        os.close(write_end)
        return False
    finally:
        os.close(read_end)
    if not _fork_hook:
        os.register_at_fork(before=_block_for_fork, after_in_parent=_unblock_in_parent, after_in_child=_forget_in_child)
        _fork_hook = True
    _installed_in, _pipe_write, _watchdog = os.getpid(), write_end, watchdog
    return True
