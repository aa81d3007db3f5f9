"""``python -m mechbench ARGS`` for tests whose subject is the command, not the interpreter's start.

Every ``mechbench`` process starts by importing Inspect and every benchmark: about 3 s of CPU, most of what a
usage error or a short run costs, and the suite ran a hundred of them (docs/speed.md). :func:`run` runs the
command in a child forked from an interpreter of this test process's environment that has already imported them (a
"zygote", one per xdist worker). The child is its own process: its own working folder, environment, standard
streams (files, read back like ``capture_output``), exit code and interpreter shutdown (``atexit``, flushing); it
runs ``mechbench/__main__.py`` afresh, as ``python -m`` does.

What a fork cannot give is a fresh start: a variable read while the interpreter starts or while numpy, numba or
OpenBLAS load (``PYTHON*``, ``LANG``/``LC_*``, ``OMP_*``, ``OPENBLAS_*``, ``MKL_*``, ``NUMBA_*``) keeps its value at
the zygote's start. A call that changes one of those, or that comes while another holds the zygote, starts a fresh
interpreter instead. So do the tests whose subject is the start itself (``test_no_code_from_the_current_folder``,
the thread-count and terminal-encoding tests, the ``inspect`` entry point, the template's own virtual environment).
"""

from __future__ import annotations

import atexit
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

START_VARIABLES = ("PYTHON", "LANG", "LC_", "OMP_", "OPENBLAS_", "MKL_", "NUMBA_", "TZ")
"""Prefixes of the variables an interpreter (or a library it imports) reads while it starts."""

_ZYGOTE = r"""
import json, os, sys
from mechbench import forget_current_folder
forget_current_folder()
import mechbench.cli, mechbench.cli.inspect_run
from mechbench.registry import specs
specs()
import inspect_ai._cli.main, inspect_ai._eval.eval, inspect_ai.agent._acp.server, inspect_ai.model._openai_responses
import threading
assert threading.active_count() == 1 and len(os.listdir("/proc/self/task")) == 1, "threads before fork"
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


os.write(reply, b"ready\n")
while True:
    request = json.loads(line())
    pid = os.fork()
    if pid == 0:
        os.close(reply)
        os.setpgid(0, 0)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        for fd, path, flags in ((0, os.devnull, os.O_RDONLY),
                                (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            opened = os.open(path, flags, 0o600)
            os.dup2(opened, fd)
            os.close(opened)
        if request["code"] is None:  # python -m mechbench
            import runpy
            sys.argv = ["mechbench", *request["args"]]
            runpy.run_module("mechbench", run_name="__main__", alter_sys=True)  # its SystemExit ends this child
        else:  # python -c CODE, which keeps the current folder first on sys.path
            sys.path.insert(0, "")
            sys.argv = ["-c", *request["args"]]
            exec(compile(request["code"], "<string>", "exec"), {"__name__": "__main__"})
        raise SystemExit(0)
    os.write(reply, (json.dumps({"pid": pid}) + "\n").encode())
    _, status = os.waitpid(pid, 0)
    os.write(reply, (json.dumps({"status": os.waitstatus_to_exitcode(status)}) + "\n").encode())
"""


class _Zygote:
    """One pre-imported interpreter, started with this process's environment at the first call."""

    def __init__(self) -> None:
        self.env = dict(os.environ)
        self.lock = threading.Lock()
        self.served = 0
        self.process = subprocess.Popen(
            [sys.executable, "-c", _ZYGOTE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=self.env
        )
        atexit.register(self.close)
        self.ready = self._line(600) == {"ready": True}

    def _line(self, timeout: float) -> dict | None:
        stream = self.process.stdout
        assert stream is not None
        data = b""
        while not data.endswith(b"\n"):
            if not select.select([stream], [], [], timeout)[0]:
                return None
            chunk = os.read(stream.fileno(), 1)
            if not chunk:
                return None
            data += chunk
        text = data.decode().strip()
        return {"ready": True} if text == "ready" else json.loads(text)

    def serves(self, env: dict[str, str]) -> bool:
        """Whether a child of this zygote starts as a fresh interpreter with ``env`` would."""
        keys = {k for k in {*env, *self.env} if k.startswith(START_VARIABLES)}
        return self.ready and self.process.poll() is None and all(env.get(k) == self.env.get(k) for k in keys)

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
            assert started is not None, "the zygote did not fork"
            finished = self._line(timeout)
            if finished is None:
                os.killpg(started["pid"], signal.SIGKILL)
                self._line(60)
                raise subprocess.TimeoutExpired(command, timeout, _text(out), _text(err))
            return subprocess.CompletedProcess(command, finished["status"], _text(out), _text(err))

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def _text(path: Path) -> str:
    """A stream's bytes as ``subprocess.run(..., text=True)`` decodes them."""
    data = path.read_bytes() if path.exists() else b""
    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


_zygote: _Zygote | None = None


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
    **other: object,
) -> subprocess.CompletedProcess:
    """``subprocess.run`` for the suite: a captured, decoded ``python -m mechbench …`` (or ``python -c "from
    mechbench.cli import main; main()" …``) runs in a forked child of a pre-imported interpreter where that starts as
    a fresh one would (see the module's docstring); anything else goes to ``subprocess.run`` unchanged."""
    global _zygote
    split = _split(command)
    if split is None or not (capture_output and text) or other:
        return subprocess.run(command, capture_output=capture_output, text=text, env=env, cwd=cwd, timeout=timeout,
                              **other)  # type: ignore[call-overload]  # fmt: skip
    code, args = split
    environment = dict(os.environ if env is None else env)
    folder = str(Path(cwd or os.getcwd()).resolve())
    if _zygote is None and os.environ.get("MECHBENCH_TEST_FORK", "1") != "0" and sys.platform == "linux":
        _zygote = _Zygote()
    if _zygote is not None and _zygote.serves(environment) and _zygote.lock.acquire(blocking=False):
        try:
            return _zygote.run(command, code, args, environment, folder, 3600 if timeout is None else timeout)
        finally:
            _zygote.lock.release()
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
