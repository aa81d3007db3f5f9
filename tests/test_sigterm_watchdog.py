"""SIGTERM ends a run within seconds even when its interpreter is held, with every finished sample in the log
(``mechbench.core.termination``); a SIGTERM to a forked worker never ends the run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from mechbench.core.termination import SIGTERM_GRACE

ITEMS = Path(__file__).parents[1] / "src/mechbench/benchmarks/hand_calc/bundled/items.jsonl"

HELD = """
import signal, sys
from mechbench.core.termination import install_sigterm_watchdog
assert install_sigterm_watchdog()
signal.signal(signal.SIGTERM, lambda *_: None)  # cooperative, as uvicorn's: asks a loop that never runs to stop
print("ready", flush=True)
while True:
    pass
"""

FORKED = """
import os, signal, sys, time
from mechbench.core.termination import install_sigterm_watchdog
assert install_sigterm_watchdog()
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
child = os.fork()
if child == 0:
    signal.signal(signal.SIGTERM, lambda *_: None)  # a worker that outlives its SIGTERM
    time.sleep(30)
    os._exit(0)
os.kill(child, signal.SIGTERM)
time.sleep(%(wait)s)
os.kill(child, signal.SIGKILL)
print("alive", flush=True)
"""


def _ended_after_sigterm(process: subprocess.Popen[str]) -> float:
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    start = time.monotonic()
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)
    return time.monotonic() - start


def test_a_held_interpreter_ends_after_the_grace_and_says_why() -> None:
    process = subprocess.Popen([sys.executable, "-c", HELD], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    took = _ended_after_sigterm(process)
    assert process.returncode == -signal.SIGKILL  # the watchdog's kill, not the handler, ended it
    assert took >= SIGTERM_GRACE * 0.9  # the grace was given first
    assert "still busy" in process.stderr.read()


def test_a_sigterm_to_a_forked_worker_does_not_end_the_run() -> None:
    wait = SIGTERM_GRACE + 1.5
    done = subprocess.run([sys.executable, "-c", FORKED % {"wait": wait}], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "alive", done.stderr


FREEZE = """
import os, pathlib
import anyio
import mechbench.benchmarks.hand_calc.task as task

class Later(Exception):
    pass

async def in_this_thread(fn, timeout):
    try:
        return fn()
    except Later:
        await anyio.sleep(1)  # the other samples finish and are written
        pathlib.Path(os.environ["HELD_MARK"]).touch()
        while True:  # then the interpreter is held, as a reply's unit once made pint compute a tower of powers
            pass

judge = task.judge

def freezing(reply, quantities):
    if "FREEZE" in reply:
        raise Later
    return judge(reply, quantities)

task.in_judge_thread, task.judge = in_this_thread, freezing
"""


@pytest.mark.long
@pytest.mark.slow
def test_sigterm_ends_a_held_run_within_seconds_and_keeps_every_finished_sample(tmp_path: Path) -> None:
    items = [json.loads(line) for line in ITEMS.read_text().splitlines()[:10]]
    replies = [
        {"id": f"{i['id']}-text", "reply": "\n".join(f"{q['key']} = {q['truth']} {q['unit']}" for q in i["quantities"])}
        for i in items[:9]
    ] + [{"id": f"{items[9]['id']}-text", "reply": "FREEZE"}]
    (tmp_path / "replies.jsonl").write_text("".join(json.dumps(r) + "\n" for r in replies))
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(FREEZE)
    held = tmp_path / "held"
    # Inspect's control server on, as a user has it: its uvicorn catches SIGTERM in Python (the suite turns it off)
    env = {**os.environ, "PYTHONPATH": str(hook), "HELD_MARK": str(held), "INSPECT_EVAL_CTL_SERVER": "true"}
    command = [sys.executable, "-m", "mechbench", "eval", "hand_calc", "-T", "data=bundled", "-T",
               "presentation=text", "--model", "mechbench/replay", "-M", f"file={tmp_path / 'replies.jsonl'}",
               "--limit", "10", "--log-dir", str(tmp_path / "logs")]  # fmt: skip
    process = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)  # fmt: skip
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and process.poll() is None and not held.exists():
        time.sleep(0.1)
    assert process.poll() is None, process.stderr.read() if process.stderr else ""
    start = time.monotonic()
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=120)
    took = time.monotonic() - start
    (log_file,) = (tmp_path / "logs").glob("*.eval")
    log = read_eval_log(str(log_file))
    assert log.status == "started" and len(log.samples or []) == 9  # every finished sample kept
    assert all(s.scores and next(iter(s.scores.values())).value == 1.0 for s in log.samples or [])
    assert "still busy" in (process.stderr.read() if process.stderr else ""), (process.returncode, took)
    assert took < SIGTERM_GRACE + 10, took  # within seconds (generous for a busy machine)
