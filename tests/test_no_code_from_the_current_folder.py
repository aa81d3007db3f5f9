"""Nothing from the folder a user runs in is imported, and stopping ``mechbench eval`` stops all of its run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # whole Inspect runs in subprocesses

PLANTED = ("click", "yaml", "rich", "httpx", "numpy", "inspect_ai", "typer", "pydantic")
PLANTED_STDLIB = ("csv", "textwrap", "zipfile", "email")
"""Standard-library modules ``importlib.metadata`` reaches: ``python -m mechbench`` imports the package while the
current folder is still first on ``sys.path``."""


def _plant(folder: Path) -> Path:
    """Modules named like ones mechbench and Inspect import, each writing a marker if it is ever run."""
    marker = folder / "PLANTED_CODE_RAN"
    for name in PLANTED + PLANTED_STDLIB:
        (folder / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write({name!r} + '\\n')\n")
    return marker


@pytest.mark.parametrize("args", [["--version"], ["list"]])
def test_python_m_mechbench_imports_nothing_from_the_current_folder(tmp_path: Path, args: list[str]) -> None:
    marker = _plant(tmp_path)
    (tmp_path / "email").mkdir()
    (tmp_path / "email" / "__init__.py").write_text(f"open({str(marker)!r}, 'a').write('email package\\n')\n")
    done = subprocess.run([sys.executable, "-m", "mechbench", *args], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert not marker.exists(), f"planted code ran: {marker.read_text()}"


@pytest.mark.long
@pytest.mark.parametrize("entry", ["command", "module"])
def test_a_module_in_the_current_folder_is_never_imported(tmp_path: Path, entry: str) -> None:
    marker = _plant(tmp_path)
    start = (
        [str(Path(sys.executable).parent / "mechbench")] if entry == "command" else [sys.executable, "-m", "mechbench"]
    )
    task = ["eval", "structural_eval", "-T", "data=bundled", "-T", "oracle=true", "-T", "filter=beam_001"]
    done = subprocess.run(
        [*start, *task, "--model", "mockllm/model", "--log-dir", str(tmp_path / "logs"), "--display", "none"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "MECHBENCH_CACHE": str(tmp_path / "cache")},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert list((tmp_path / "logs").glob("*.eval")), "the evaluation ran"
    assert not marker.exists(), f"planted code ran: {marker.read_text()}"


def _without_control_switch() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "INSPECT_EVAL_CTL_SERVER"}


def test_stopping_mechbench_eval_stops_the_run_and_leaves_no_process(tmp_path: Path) -> None:
    command = [str(Path(sys.executable).parent / "mechbench"), "eval", "seesim", "-T", "data=bundled"]
    command += ["-T", "modality=video", "--model", "mechbench/always-true", "--log-dir", str(tmp_path / "logs")]
    run = subprocess.Popen(
        [*command, "--display", "none"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        # Inspect's control server on, as a user runs it (the suite turns it off): it handles SIGTERM too.
        env={**_without_control_switch(), "MECHBENCH_CACHE": str(tmp_path / "cache")},
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while not list((tmp_path / "logs").glob("*.eval")) and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)  # until Inspect has started the run (its log exists)
    assert run.poll() is None, "the run ended before it could be stopped"
    run.send_signal(signal.SIGTERM)
    try:
        run.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        pytest.fail("mechbench eval kept running after SIGTERM")
    for _ in range(300):  # nothing it started (a worker, a server) is left in its session
        left = subprocess.run(["pgrep", "-s", str(run.pid)], capture_output=True, text=True).stdout.split()
        if not left:
            break
        time.sleep(0.1)
    else:
        os.killpg(run.pid, signal.SIGKILL)
        pytest.fail(f"processes of the stopped run kept running: {left}")
