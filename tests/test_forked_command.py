"""The suite's forked ``python -m mechbench``: what a test gets back is what a fresh interpreter gives, and a call a
fork cannot serve faithfully starts a fresh one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import forked_command as forked

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the zygote forks on Linux only")

MISTAKE = ["eval", "sphyr", "-T", "subjekt=full_easy", "--model", "mechbench/solid"]


def _served() -> int:
    return forked.served()


def test_a_forked_command_gives_what_a_fresh_interpreter_gives(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "mechbench", *MISTAKE]
    fresh = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    before = _served()
    done = forked.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    why = [zygote.why_not for zygote in forked._zygotes.values()]
    assert _served() == before + 1, why or "no zygote"  # it was forked
    assert (done.returncode, done.stdout, done.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert done.returncode == 2 and done.stderr.startswith("error: sphyr has no task argument 'subjekt'")


def test_the_child_has_its_own_folder_environment_and_exit(tmp_path: Path) -> None:
    mechbench = [sys.executable, "-m", "mechbench"]
    made = forked.run([*mechbench, "generate", "sphyr", "--n", "1", "--seed", "3", "-o", "rel"], capture_output=True,
                      text=True, cwd=tmp_path, timeout=300)  # fmt: skip
    assert made.returncode == 0 and (tmp_path / "rel" / "full_easy.jsonl").is_file(), made.stderr[-2000:]
    assert Path.cwd() != tmp_path  # the test process stayed where it was
    env = {**os.environ, "INSPECT_EVAL_MODEL": "mechbench/always-true"}  # the model, from the environment only
    done = forked.run([*mechbench, "eval", "structural_eval", "-T", "data=bundled"], capture_output=True, text=True,
                      env=env, timeout=300)  # fmt: skip
    assert done.returncode == 2 and "always-true answers seesim prompts only" in done.stderr, done.stderr[-2000:]
    assert "INSPECT_EVAL_MODEL" not in os.environ


def test_a_start_variable_that_differs_starts_a_fresh_interpreter(tmp_path: Path) -> None:
    forked.run([sys.executable, "-m", "mechbench", *MISTAKE], capture_output=True, text=True, cwd=tmp_path)
    before = _served()
    for variable in ("OMP_NUM_THREADS", "PYTHONIOENCODING", "NUMBA_CPU_NAME", "HOME", "SOMETHING_ELSE"):
        env = {**os.environ, variable: "ascii" if variable == "PYTHONIOENCODING" else str(tmp_path)}
        done = forked.run([sys.executable, "-m", "mechbench", *MISTAKE], capture_output=True, text=True, env=env)
        assert done.returncode == 2
    done = forked.run([sys.executable, "-m", "mechbench", *MISTAKE], capture_output=True, text=True, fresh=True)
    assert done.returncode == 2 and _served() == before
    other = forked.run([sys.executable, "-c", "print('not mechbench')"], capture_output=True, text=True)
    assert other.stdout == "not mechbench\n" and _served() == before


def test_a_command_past_its_timeout_is_killed_and_raises(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "mechbench", "generate", "sphyr", "--n", "400", "--seed", "3", "-o", "big"]
    with pytest.raises(subprocess.TimeoutExpired):
        forked.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=0.5)
    again = forked.run([sys.executable, "-m", "mechbench", *MISTAKE], capture_output=True, text=True)
    assert again.returncode == 2  # the zygote serves the next call


def test_what_the_imports_print_starts_every_childs_stderr_as_in_a_fresh_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.stderr.write('a note printed at start-up\\n')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    zygote = forked._Zygote()  # a zygote of its own, started with the noisy start-up
    try:
        assert zygote.ready, zygote.why_not
        command = [sys.executable, "-m", "mechbench", *MISTAKE]
        env = dict(os.environ)
        done = zygote.run(command, "module", "mechbench", MISTAKE, env, str(tmp_path), 300)
        fresh = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
        assert done.stderr.startswith("a note printed at start-up\nerror: ")
        assert (done.returncode, done.stderr) == (fresh.returncode, fresh.stderr)
    finally:
        zygote.close()


def test_the_console_scripts_and_inspect_ai_fork_as_they_start_fresh(tmp_path: Path) -> None:
    bin_folder = Path(sys.executable).parent
    mistake = ["eval", "mechbench/sphyr", "-T", "data=bundled", "-T", "version=v3", "--model", "mechbench/solid",
               "--log-dir", "logs", "--display", "none"]  # fmt: skip
    for command in (
        [str(bin_folder / "inspect"), *mistake],
        [sys.executable, "-m", "inspect_ai", *mistake],
        [str(bin_folder / "mechbench"), *MISTAKE],
    ):
        fresh = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
        before = _served()
        done = forked.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert _served() == before + 1, command  # it was forked
        assert (done.returncode, done.stdout, done.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
        assert done.returncode == 2 and "error: " in done.stderr


def test_a_start_up_seen_again_gets_a_zygote_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "_zygotes", {})  # this test's own, whatever other tests of this worker started
    monkeypatch.setattr(forked, "_seen", {})
    try:
        _a_start_up_seen_again(tmp_path)
    finally:
        for zygote in forked._zygotes.values():
            zygote.close()


def _a_start_up_seen_again(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path)}
    command = [sys.executable, "-m", "mechbench", *MISTAKE]
    results = []
    for _ in range(forked.FRESH_BEFORE_ZYGOTE):
        before = _served()
        results.append(forked.run(command, capture_output=True, text=True, env=env))
        assert _served() == before  # fresh
    done = forked.run(command, capture_output=True, text=True, env=env)
    assert _served() == before + 1
    zygote = forked._zygotes[forked._start_key(sys.executable, env)]
    assert zygote.env["HOME"] == str(tmp_path) and zygote.served == 1
    assert {(r.returncode, r.stdout, r.stderr) for r in [*results, done]} == {(done.returncode, "", done.stderr)}


def test_the_child_ends_as_an_interpreter_ends(tmp_path: Path) -> None:
    """Threads joined, then the atexit functions, streams flushed, the exit code or the traceback: as a fresh
    interpreter does (the child skips only the teardown of every module)."""
    code = (
        "from mechbench.cli import main\n"
        "import atexit, sys, threading, time\n"
        "def late():\n"
        "    time.sleep(0.3)\n"
        "    print('thread done', flush=True)\n"
        "threading.Thread(target=late).start()\n"
        "atexit.register(lambda: print('atexit ran'))\n"
        "sys.stdout.write('unflushed ')\n"
        "{end}\n"
    )
    ends = ("raise SystemExit(3)", "sys.exit(-2)", "sys.exit('a message')", "raise ValueError('a bug')",
            "raise KeyboardInterrupt", "pass")  # fmt: skip
    for end in ends:
        command = [sys.executable, "-c", code.format(end=end)]
        fresh = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
        before = _served()
        done = forked.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert _served() == before + 1
        assert (done.returncode, done.stdout, done.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr), end
        assert done.stdout == "unflushed thread done\natexit ran\n"
