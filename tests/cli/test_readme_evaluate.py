"""The README's "Evaluate your model" block, run verbatim against a local OpenAI-compatible server; and
``mechbench eval``'s one-line errors for the mistakes a newcomer makes first."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from tests import forked_command as forked
from tests.conftest import REPO_ROOT
from tests.fault_server import FaultServer

pytestmark = pytest.mark.slow  # whole Inspect runs, servers or simulations: left out of -m 'not slow'

MARK = "<!-- tested: tests/cli/test_readme_evaluate.py"


def readme_block() -> list[str]:
    """The command lines of the fenced block that follows the README's test mark."""
    text = (REPO_ROOT / "README.md").read_text()
    block = re.search(re.escape(MARK) + r".*?-->\n```bash\n(.*?)```", text, re.S)
    assert block is not None, "the README lost its tested 'Evaluate your model' block"
    return [line.split("  #")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def _answer(messages: list[dict]) -> str:
    return "A"  # a fixed reply: every benchmark parses it (or scores it as no answer) and goes on


def _mechbench(args: list[str], env: dict[str, str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    return forked.run(
        [sys.executable, "-m", "mechbench", *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.long
def test_the_readme_block_evaluates_a_local_server_on_every_benchmark(tmp_path: Path) -> None:
    lines = readme_block()
    exported = shlex.split(lines[0])
    assert exported[0] == "export"
    env = {**os.environ, "MECHBENCH_CACHE": str(tmp_path / "cache")}
    env.update(dict(item.split("=", 1) for item in exported[1:]))
    with FaultServer(_answer) as server:
        env["LOCAL_BASE_URL"] = server.url  # the one change: where the test's server listens
        ran = set()
        for line in lines[1:]:
            args = shlex.split(line)
            assert args[0] == "mechbench", line
            done = _mechbench(args[1:], env, tmp_path)
            assert done.returncode == 0, f"{line}\n{done.stderr[-3000:]}"
            if args[1] == "eval":
                ran.add(args[2])
        served = list(server.log.served)
    assert ran == {"structural_eval", "seesim", "openseesime", "sphyr"}
    logs = [read_eval_log(str(p)) for p in sorted((tmp_path / "logs").glob("*.eval"))]
    assert sorted(log.eval.task.split("/")[-1] for log in logs) == sorted(ran)
    for log in logs:
        assert log.status == "success" and len(log.samples) == 5, log.eval.task
        assert all(sample.scores for sample in log.samples)  # every sample scored
    assert len(served) >= 20  # the server answered every benchmark's samples
    report = json.loads((tmp_path / "mechbench-report" / "report.json").read_text())
    assert set(report["benchmarks"]) >= ran


def test_newcomers_mistakes_are_one_line_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from typer.testing import CliRunner

    from mechbench.cli import app

    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    missing = [] if importlib.util.find_spec("anthropic") else [(["sphyr", "--model", "anthropic/x"], "pip install")]
    for args, words in (
        *missing,
        (["sphyr", "--model", "random"], "mechbench/random"),
        (["sphyr", "--model", "gpt-4o"], "openai/gpt-4o"),
        (["sphyr", "-T", "data=bundled", "--model", "mechbench/random", "--limit", "ten"], "--limit"),
        (["sphyr", "-T", "data=bundled", "--model", "mechbench/random", "--limit", "-3"], "--limit"),
        (["structurl", "--model", "mechbench/random"], "structural_eval"),
        (["sphyr", "--model", "mechbench/randomx"], "mechbench/random,"),
        (["sphyr"], "--model"),
    ):  # refused before Inspect starts: in process, as the command line runs them
        done = CliRunner().invoke(app, ["eval", *args])
        assert done.exit_code == 2, (args, done.stderr[-2000:])
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error:") and words in lines[0], (args, done.stderr)
    # And through the installed command, once: one line, exit 2, no traceback.
    done = _mechbench(["eval", "sphyr", "--model", "gpt-4o"], {**os.environ}, tmp_path, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.long
def test_structural_is_structural_eval_and_limit_zero_warns(tmp_path: Path) -> None:
    env = {**os.environ, "MECHBENCH_CACHE": str(tmp_path / "cache")}
    done = _mechbench(
        [
            "eval",
            "structural",
            "-T",
            "data=bundled",
            "-T",
            "oracle=true",
            "--model",
            "mechbench/random",
            "--limit",
            "1",
        ],
        env,
        tmp_path,
    )
    assert done.returncode == 0 and "mechbench/structural_eval" in done.stderr, done.stderr[-2000:]
    done = _mechbench(
        ["eval", "sphyr", "-T", "data=bundled", "--model", "mechbench/random", "--limit", "0"], env, tmp_path
    )
    assert "warning: --limit 0 runs no samples" in done.stderr


def test_an_unreachable_api_fails_fast_and_a_failed_run_exits_non_zero(tmp_path: Path) -> None:
    import socket

    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    env = {**os.environ, "MECHBENCH_CACHE": str(tmp_path / "cache"), "FAULT_API_KEY": "test-key"}
    env["FAULT_BASE_URL"] = f"http://127.0.0.1:{port}/v1"
    started = time.monotonic()
    done = _mechbench(
        ["eval", "sphyr", "-T", "data=bundled", "--model", "openai-api/fault/m", "--limit", "2"], env, tmp_path
    )
    assert time.monotonic() - started < 120  # Inspect's retries would go on for many minutes; a slow start is not that
    assert done.returncode == 2 and f"cannot reach 127.0.0.1:{port}" in done.stderr, done.stderr
    # A server that refuses the key: Inspect ends the task in error (and exits 0); mechbench eval exits 1.
    with FaultServer(_answer, [("echo_401",) * 50] * 10) as server:
        env["FAULT_BASE_URL"] = server.url
        done = _mechbench(
            [
                "eval",
                "sphyr",
                "-T",
                "data=bundled",
                "--model",
                "openai-api/fault/m",
                "--limit",
                "2",
                "--log-dir",
                "logs",
            ],
            env,
            tmp_path,
        )
    assert done.returncode == 1, done.stderr[-3000:]
    assert "retries:" in done.stderr and "error: the run ended in error" in done.stderr
    assert "mechbench eval-retry" in done.stderr
