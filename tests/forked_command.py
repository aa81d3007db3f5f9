"""``python -m mechbench ARGS`` for tests whose subject is the command, not the interpreter's start.

Every ``mechbench`` process starts by importing Inspect and every benchmark: up to 3 s of CPU, most of what a usage
error or a short run costs, and the suite ran a hundred of them (docs/speed.md). :func:`run`, a drop-in for
``subprocess.run``, runs such a command in a child forked from an interpreter of this test process's environment
that has already imported them (a "zygote", one per xdist worker). The child is its own process in its own process
group: its own working folder, environment, output streams (files, read back as ``capture_output=True, text=True``
decodes them; stderr starts with what the zygote's imports printed, as a fresh start's would), exit code and
interpreter shutdown (``atexit``, flushing); it runs ``mechbench/__main__.py`` afresh, as ``python -m`` does. Its
standard input is ``/dev/null``.

What a fork cannot give is a fresh start, so a call is forked only where the start would not differ:

- its environment differs from the zygote's only in variables read while a command runs (:func:`_may_differ`:
  mechbench's, Inspect's, providers' keys and URLs, ``PATH``); anything else (``PYTHON*``, ``LANG``, the thread
  counts, ``HOME`` …) starts a fresh interpreter;
- nobody else holds the zygote (a second thread's call runs fresh);
- the call asks for nothing else (``input``, ``preexec_fn`` …) and ``fresh`` is not set. Tests that compare two runs'
  bytes set it: every child shares the zygote's hash seed, which would hide an order that depends on it.

The tests whose subject is the start itself keep fresh interpreters (``test_no_code_from_the_current_folder``, the
``inspect`` entry point, the thread-count and terminal-encoding tests, the template's virtual environment).
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
import json, os, sys
started_with = dict(os.environ)
from mechbench import forget_current_folder
forget_current_folder()
import mechbench.cli, mechbench.cli.inspect_run
from mechbench.registry import specs
specs()
import inspect_ai._cli.main, inspect_ai._eval.eval, inspect_ai.agent._acp.server, inspect_ai.model._openai_responses
import threading
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
        if request["code"] is None:  # python -m mechbench
            import runpy
            sys.argv = ["mechbench", *request["args"]]
            runpy.run_module("mechbench", run_name="__main__", alter_sys=True)  # its SystemExit ends this child
        else:  # python -c CODE, which keeps the current folder first on sys.path
            sys.path.insert(0, "")
            sys.argv = ["-c", *request["args"]]
            exec(compile(request["code"], "<string>", "exec"), {"__name__": "__main__"})
        raise SystemExit(0)
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
    """One pre-imported interpreter, started with this process's environment at the first call."""

    def __init__(self) -> None:
        self.env = dict(os.environ)
        self.lock = threading.Lock()
        self.served = 0
        # The zygote's stderr, open to read and write: it reads back what its start printed. Open while it lives.
        self.printed = tempfile.TemporaryFile()  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-c", _ZYGOTE],
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
        self, command: list[str], code: str | None, args: list[str], env: dict[str, str], cwd: str, timeout: float
    ) -> subprocess.CompletedProcess:
        assert self.process.stdin is not None
        with tempfile.TemporaryDirectory() as folder:
            out, err = Path(folder) / "stdout", Path(folder) / "stderr"
            request = {"code": code, "args": args, "env": env, "cwd": cwd, "stdout": str(out), "stderr": str(err)}
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
                self._line(60)  # its status, so that the next call reads its own
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


_zygote: _Zygote | None = None
_starting = threading.Lock()


def _split(command: list[str]) -> tuple[str | None, list[str]] | None:
    """(the ``-c`` code or None for ``-m mechbench``, the arguments) of a mechbench command; None for another."""
    head = [str(part) for part in command[:3]]
    if len(head) < 3 or head[0] != sys.executable:
        return None
    if head[1:] == ["-m", "mechbench"]:
        return None, [str(part) for part in command[3:]]
    if head[1] == "-c" and head[2].startswith("from mechbench.cli import main"):
        return head[2], [str(part) for part in command[3:]]
    return None


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
    """``subprocess.run`` for the suite: a captured, decoded ``python -m mechbench …`` (or ``python -c "from
    mechbench.cli import main; main()" …``) runs in a forked child of a pre-imported interpreter where that starts as
    a fresh one would (see the module's docstring), unless ``fresh``; anything else goes to ``subprocess.run``."""
    global _zygote
    split = _split(command)
    if fresh or split is None or not (capture_output and text) or other:
        return subprocess.run(command, capture_output=capture_output, text=text, env=env, cwd=cwd, timeout=timeout,
                              **other)  # type: ignore[call-overload]  # fmt: skip
    code, args = split
    environment = dict(os.environ if env is None else env)
    folder = Path(cwd or os.getcwd()).resolve()
    if not folder.is_dir():
        raise FileNotFoundError(2, "No such file or directory", str(cwd))
    with _starting:
        if _zygote is None and os.environ.get("MECHBENCH_TEST_FORK", "1") != "0" and sys.platform == "linux":
            _zygote = _Zygote()
    zygote = _zygote
    if zygote is not None and zygote.serves(environment) and zygote.lock.acquire(blocking=False):
        try:
            return zygote.run(command, code, args, environment, str(folder), 3600 if timeout is None else timeout)
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
