"""mechbench and Inspect commands for tests whose subject is the command, not the interpreter's start.

Every ``mechbench`` process starts by importing Inspect and every benchmark (up to 3 s of CPU) and ends by tearing
them down again (up to 1 s): most of what a usage error or a short run costs, and the suite runs about a hundred
(docs/speed.md). :func:`run`, a drop-in for ``subprocess.run``, runs ``python -m mechbench``, ``python -m
inspect_ai``, ``python -c "from mechbench.cli import main …"`` and the ``mechbench`` and ``inspect`` console scripts
in a child forked from an interpreter that has already imported every mechbench module and what commands import
later (a "zygote"). The child is its own process in its own process group: its own working folder, environment,
output streams (files, read back as ``capture_output=True, text=True`` decodes them; stderr starts with what the
zygote's imports printed, as a fresh start's would: nothing, in this suite, or the tests that count stderr lines would
fail) and exit code; it runs the module or script afresh, as ``python`` does, and ends as an interpreter's shutdown
ends that anyone can see (threads joined, ``atexit`` functions, streams flushed), without tearing every module down,
and it dies with its zygote. Its standard input is ``/dev/null``.

What a fork cannot give is a fresh start, so a call is forked only where the start would not differ:

- a zygote's interpreter and environment are the call's, but for variables read only while a command runs
  (:func:`_may_differ`: mechbench's, Inspect's, providers' keys and URLs, ``PATH``). This process's own start-up gets a
  zygote at its first call; another one (a virtual environment's interpreter, a test's ``HOME``) runs fresh twice and
  gets one at its third call, up to :data:`MAX_ZYGOTES` per worker;
- nobody else holds the zygote (a second thread's call runs fresh);
- the call asks for nothing else (``input``, ``preexec_fn`` …) and ``fresh`` is not set. Tests that compare two runs'
  bytes set it: every child shares the zygote's hash seed, which would hide an order that depends on it.

The tests whose subject is the start itself keep fresh interpreters (``test_no_code_from_the_current_folder``, the
thread-count and terminal-encoding tests).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import locale
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

_ZYGOTE = r"""
import atexit, json, os, signal, sys
started_with = dict(os.environ)
from mechbench import forget_current_folder
forget_current_folder()
import importlib, pkgutil, threading
import mechbench
from mechbench.registry import specs
specs()
# Every mechbench module, and what commands import when they first need it: Inspect's eval, its check for a notebook
# (IPython), numba, the report's scipy and matplotlib. Each child would otherwise import them again (~1 s of CPU).
for name in [m.name for m in pkgutil.walk_packages(mechbench.__path__, "mechbench.") if m.name != "mechbench.__main__"]:
    importlib.import_module(name)
for name in ("inspect_ai._cli.main", "inspect_ai._eval.eval", "inspect_ai.agent._acp.server",
             "inspect_ai.model._openai_responses", "numba", "scipy.stats", "matplotlib.backends.backend_agg",
             "PIL.Image", "markdown_it", "fastapi", "uvicorn"):
    importlib.import_module(name)
from inspect_ai._util.platform import running_in_notebook
running_in_notebook()
sys.stderr.flush()
added = {k: v for k, v in os.environ.items() if k not in started_with}  # a fresh start's imports set these too
threads = threading.active_count() == 1 and len(os.listdir("/proc/self/task")) == 1
sys.stdout.flush()
reply = os.dup(1)


def line() -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(0, 1)
        if not chunk:
            raise SystemExit(0)  # the test process has gone
        data += chunk
    return data


def _command(request: dict) -> int:
    # The request's command run as python runs it, ended as it ends (_ended).
    import runpy
    kind, target = request["kind"], request["target"]
    try:
        if kind == "module":  # python -m MODULE
            sys.argv = [target, *request["args"]]
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        elif kind == "script":  # a console script (mechbench, inspect): its folder first on sys.path
            sys.path.insert(0, os.path.dirname(target))
            sys.argv = [target, *request["args"]]
            runpy.run_path(target, run_name="__main__")
        else:  # python -c CODE, which keeps the current folder first on sys.path
            sys.path.insert(0, "")
            sys.argv = ["-c", *request["args"]]
            exec(compile(target, "<string>", "exec"), {"__name__": "__main__"})
        status = 0
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            status = stop.code or 0
        else:
            sys.stderr.write(f"{stop.code}\n")
            status = 1
    except BaseException as error:  # printed from the command's frame, not this one's
        shown = error.with_traceback(error.__traceback__.tb_next if error.__traceback__ else None)
        sys.excepthook(type(error), shown, shown.__traceback__)
        return _ended(1, interrupted=isinstance(error, KeyboardInterrupt))
    return _ended(status)


def _ended(status: int, interrupted: bool = False) -> int:
    # What an interpreter's shutdown does that anyone can see, in its order: wait for the threads, run the atexit
    # functions (logging, weakref.finalize, multiprocessing's joins), flush the streams. Not the teardown of every
    # module and object after it: with all of Inspect and mechbench loaded that takes a second, and nothing shows.
    threading._shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            status = status or 120  # as the interpreter reports a failed flush
    if interrupted:  # an uncaught Ctrl-C ends a Python process by the signal, after its traceback
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return status & 0xFF


# What the start and the imports printed (stderr is a file the test opened): each child's stderr starts with it,
# as a fresh start's would.
os.lseek(2, 0, os.SEEK_SET)
noise = b"".join(iter(lambda: os.read(2, 65536), b""))
os.write(reply, (json.dumps({"ready": threads, "why": "" if threads else "threads before fork"}) + "\n").encode())
while True:
    request = json.loads(line())
    pid = os.fork()
    if pid == 0:
        os.close(reply)
        os.setpgid(0, 0)
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: it dies with its zygote
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        for key, value in added.items():
            os.environ.setdefault(key, value)
        for fd, path, flags in ((0, os.devnull, os.O_RDONLY),
                                (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            opened = os.open(path, flags, 0o600)
            os.dup2(opened, fd)
            os.close(opened)
        os.write(2, noise)  # what a fresh start prints while it imports, before anything else
        os._exit(_command(request))
    try:
        os.setpgid(pid, pid)  # also here: the test may signal the group before the child has made it
    except (PermissionError, ProcessLookupError):
        pass  # the child has already made it, or has already ended
    os.write(reply, (json.dumps({"pid": pid}) + "\n").encode())
    _, status = os.waitpid(pid, 0)
    os.write(reply, (json.dumps({"status": os.waitstatus_to_exitcode(status)}) + "\n").encode())
"""

MAY_DIFFER_PREFIXES = ("MECHBENCH_", "INSPECT_", "FAULT_", "LOCAL_", "OPENAI_", "ANTHROPIC_", "HF_", "PYTEST_")
MAY_DIFFER_SUFFIXES = ("_API_KEY", "_BASE_URL")
MAY_DIFFER = ("PATH", "CI", "COLUMNS")


def _may_differ(name: str) -> bool:
    """Whether variable ``name`` is only read while a command runs (never while Python or a library it imports
    starts), so that a forked child with another value behaves as a fresh interpreter would."""
    return name.startswith(MAY_DIFFER_PREFIXES) or name.endswith(MAY_DIFFER_SUFFIXES) or name in MAY_DIFFER


class ZygoteGone(RuntimeError):
    """The pre-imported interpreter ended while serving a call."""


class _Zygote:
    """One pre-imported ``interpreter``, started with environment ``env`` (default: this process's)."""

    def __init__(self, interpreter: str = sys.executable, env: dict[str, str] | None = None) -> None:
        self.env = dict(os.environ if env is None else env)
        self.lock = threading.Lock()
        self.served = 0
        # The zygote's stderr, open to read and write: it reads back what its start printed. Open while it lives.
        self.printed = tempfile.TemporaryFile()  # noqa: SIM115
        self.process = subprocess.Popen(
            [interpreter, "-c", _ZYGOTE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.printed,
            env=self.env,
        )
        atexit.register(self.close)
        try:
            hello = self._line(600)
        except ZygoteGone as gone:
            hello = {"ready": False, "ended": str(gone)}
        if hello is None:
            hello = {"ready": False, "ended": "no word within 600 s"}
        self.ready = bool(hello and hello["ready"])
        self.why_not = "" if self.ready else f"the zygote is not used: {hello}"

    def _line(self, timeout: float) -> dict | None:
        """The zygote's next message; None after ``timeout`` seconds; :class:`ZygoteGone` if it has ended."""
        stream = self.process.stdout
        assert stream is not None
        data = b""
        while not data.endswith(b"\n"):
            if not select.select([stream], [], [], timeout)[0]:
                return None
            chunk = os.read(stream.fileno(), 1)
            if not chunk:
                self.printed.seek(0)
                said = self.printed.read()[-2000:].decode(errors="replace")
                raise ZygoteGone(f"the zygote ended (exit {self.process.wait()}): {said}")
            data += chunk
        return json.loads(data)

    def serves(self, env: dict[str, str]) -> bool:
        """Whether a child of this zygote starts as a fresh interpreter with ``env`` would."""
        differ = {k for k in {*env, *self.env} if env.get(k) != self.env.get(k)}
        return self.ready and self.process.poll() is None and all(_may_differ(k) for k in differ)

    def run(
        self, command: list[str], kind: str, target: str, args: list[str], env: dict[str, str], cwd: str,
        timeout: float,
    ) -> subprocess.CompletedProcess:  # fmt: skip
        """``command`` (``kind`` ``module``, ``script`` or ``code``, ``target`` its module, script path or code) in
        a forked child with ``args``, ``env`` and folder ``cwd``, killed after ``timeout`` seconds."""
        assert self.process.stdin is not None
        with tempfile.TemporaryDirectory() as folder:
            out, err = Path(folder) / "stdout", Path(folder) / "stderr"
            request = {"kind": kind, "target": target, "args": args, "env": env, "cwd": cwd, "stdout": str(out),
                       "stderr": str(err)}  # fmt: skip
            self.served += 1
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
            started = self._line(60)
            if started is None:
                self.close()
                raise ZygoteGone("the zygote did not fork within 60 s")
            try:
                finished = self._line(timeout)
            except BaseException:  # interrupted (Ctrl-C, a test's own timeout): as subprocess.run, kill the child
                self._kill(started["pid"])
                self.close()
                raise
            if finished is None:
                self._kill(started["pid"])
                if self._line(60) is None:  # its status, so that the next call reads its own; else none is served
                    self.close()
                raise subprocess.TimeoutExpired(command, timeout, _text(out), _text(err))
            return subprocess.CompletedProcess(command, finished["status"], _text(out), _text(err))

    @staticmethod
    def _kill(pid: int) -> None:
        with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
            os.killpg(pid, signal.SIGKILL)  # the command and whatever it started (its pools)

    def close(self) -> None:
        self.ready = False
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.printed.close()


def _text(path: Path) -> str:
    """A stream's bytes as ``subprocess.run(..., text=True)`` decodes them."""
    data = path.read_bytes() if path.exists() else b""
    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


_zygotes: dict[tuple, _Zygote] = {}
_seen: dict[tuple, int] = {}
_starting = threading.Lock()
MAX_ZYGOTES = 3
"""Zygotes one worker keeps at most: this process's own, and two of other start-ups."""
FRESH_BEFORE_ZYGOTE = 2
"""Calls of another start-up that run fresh before it gets a zygote: starting one costs more than a fresh call."""
SCRIPTS = {"mechbench": "mechbench.cli", "inspect": "inspect_ai._cli.main"}
"""The console scripts served, by the module their ``main`` comes from."""


def served() -> int:
    """How many calls this process's zygotes have served."""
    return sum(zygote.served for zygote in list(_zygotes.values()))


def _interpreter(path: str) -> str | None:
    """The Python interpreter a console script ``path`` of :data:`SCRIPTS` runs under (from its first line), or None
    for another program."""
    script = Path(path)
    if script.name not in SCRIPTS or not script.is_file():
        return None
    with contextlib.suppress(OSError, UnicodeDecodeError):
        head = script.read_text(encoding="utf-8")[:2000]
        first = head.splitlines()[0] if head else ""
        interpreter = first[2:].strip()
        named = Path(interpreter)  # pip's own path to a Python, not /usr/bin/env or its /bin/sh wrapper
        python = first.startswith("#!") and named.name.startswith("python") and named.is_file()
        if python and f"from {SCRIPTS[script.name]} import main" in head:
            return _same_python(interpreter)
    return None


def _same_python(interpreter: str) -> str:
    """``interpreter``, or this process's when it is another name of the same one (``python3.11`` beside
    ``python``), so that both share a zygote."""
    path = Path(interpreter)
    mine = Path(sys.executable)
    if path.parent == mine.parent and path.name.startswith("python") and path.resolve() == mine.resolve():
        return sys.executable
    return interpreter


def _split(command: list[str]) -> tuple[str, str, str, list[str]] | None:
    """(interpreter, kind, target, arguments) of a command a zygote can serve: ``python -m mechbench``, ``python -m
    inspect_ai``, ``python -c "from mechbench.cli import main …"`` or the ``mechbench`` and ``inspect`` console
    scripts, under any Python that can import mechbench; None for anything else."""
    parts = [str(part) for part in command]
    script = _interpreter(parts[0]) if parts else None
    if script is not None:
        return script, "script", parts[0], parts[1:]
    if len(parts) < 3 or Path(parts[0]).name not in ("python", "python3", Path(sys.executable).name):
        return None
    if parts[1] == "-m" and parts[2] in ("mechbench", "inspect_ai"):
        return _same_python(parts[0]), "module", parts[2], parts[3:]
    if parts[1] == "-c" and parts[2].startswith("from mechbench.cli import main"):
        return _same_python(parts[0]), "code", parts[2], parts[3:]
    return None


def _start_key(interpreter: str, env: dict[str, str]) -> tuple:
    """What a fresh start of ``interpreter`` with ``env`` depends on: the interpreter and every variable but those
    read only while a command runs."""
    return interpreter, tuple(sorted((k, v) for k, v in env.items() if not _may_differ(k)))


def _zygote_for(interpreter: str, env: dict[str, str]) -> _Zygote | None:
    """A ready zygote whose children start as ``interpreter`` with ``env`` would, or None. This process's own start
    gets one at its first call; another start-up after :data:`FRESH_BEFORE_ZYGOTE` fresh calls."""
    key = _start_key(interpreter, env)
    with _starting:
        zygote = _zygotes.get(key)
        if zygote is None:
            if os.environ.get("MECHBENCH_TEST_FORK", "1") == "0" or sys.platform != "linux":
                return None
            own = key == _start_key(sys.executable, dict(os.environ))
            if not own and _seen.get(key, 0) < FRESH_BEFORE_ZYGOTE:
                _seen[key] = _seen.get(key, 0) + 1
                return None
            if len(_zygotes) >= MAX_ZYGOTES:
                return None
            try:
                zygote = _zygotes[key] = _Zygote(interpreter, env)
            except OSError:  # no such interpreter: the command, run fresh, says so as it would
                return None
    return zygote if zygote.serves(env) else None


def close_others() -> None:
    """Close the zygotes of other start-ups than this process's (a test module's virtual environment, done with)."""
    own = _start_key(sys.executable, dict(os.environ))
    with _starting:
        for key in [key for key in _zygotes if key != own]:
            _zygotes.pop(key).close()


def run(
    command: list[str],
    *,
    capture_output: bool = False,
    text: bool = False,
    env: dict[str, str] | None = None,
    cwd: str | Path | None = None,
    timeout: float | None = None,
    fresh: bool = False,
    **other: object,
) -> subprocess.CompletedProcess:
    """``subprocess.run`` for the suite: a captured, decoded mechbench or Inspect command (see :func:`_split`) runs
    in a forked child of a pre-imported interpreter where that starts as a fresh one would (see the module's
    docstring), unless ``fresh``; anything else goes to ``subprocess.run``."""
    split = _split(command)
    if fresh or split is None or not (capture_output and text) or other:
        return subprocess.run(command, capture_output=capture_output, text=text, env=env, cwd=cwd, timeout=timeout,
                              **other)  # type: ignore[call-overload]  # fmt: skip
    interpreter, kind, target, args = split
    environment = dict(os.environ if env is None else env)
    folder = Path(cwd or os.getcwd()).resolve()
    if not folder.is_dir():
        raise FileNotFoundError(2, "No such file or directory", str(cwd))
    zygote = _zygote_for(interpreter, environment)
    if zygote is not None and zygote.lock.acquire(blocking=False):
        try:
            limit = 3600 if timeout is None else timeout
            return zygote.run(command, kind, target, args, environment, str(folder), limit)
        finally:
            zygote.lock.release()
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)


def mechbench(
    *args: str, extra_env: dict[str, str] | None = None, fresh: bool = False, timeout: float = 600
) -> subprocess.CompletedProcess:
    """``python -m mechbench ARGS``, captured and decoded, in this process's environment plus ``extra_env``
    (through :func:`run`)."""
    command = [sys.executable, "-m", "mechbench", *args]
    env = {**os.environ, **(extra_env or {})}
    return run(command, capture_output=True, text=True, env=env, timeout=timeout, fresh=fresh)
