"""A run killed with SIGKILL half-way is resumed with ``mechbench eval-retry``: nothing lost, nothing asked twice."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from tests import forked_command as forked
from tests.fault_server import FaultServer
from tests.test_api_faults import FAKE_KEY, MECHBENCH, MODEL, sphyr_answer

pytestmark = pytest.mark.slow  # whole Inspect runs, servers or simulations: left out of -m 'not slow'

TASK_ARGS = ["-T", "data=bundled", "-T", "subject=all", "-T", "physics=false", "-T", "samples=2"]
TOTAL = 32  # 16 subjects x 2 samples


@pytest.mark.long
def test_sigkill_mid_run_then_eval_retry_finishes_every_sample_once(tmp_path: Path) -> None:
    env = {**os.environ, "FAULT_API_KEY": FAKE_KEY}
    logs = tmp_path / "logs"
    with FaultServer(sphyr_answer, delay_seconds=0.3) as server:
        common = ["--log-dir", str(logs), "--display", "none"]
        model = ["--model", MODEL, "--model-base-url", server.url, "--max-connections", "2"]
        run = subprocess.Popen(
            [*MECHBENCH, "eval", "sphyr", *TASK_ARGS, *model, *common],
            env=env,
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while len(server.log.answered()) < 12 and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert run.poll() is None, "the run ended before it could be killed"
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
        asked_before_kill = len(server.log.served)

        (killed_file,) = logs.glob("*.eval")
        killed = read_eval_log(str(killed_file))
        assert killed.status == "started"  # the process died without closing its log
        finished = {str(s.id): s for s in killed.samples or []}
        assert 0 < len(finished) < TOTAL, "the kill should land mid-run, after some samples were written"

        # The run named its server with --model-base-url: resuming it there is the user's explicit choice.
        resumed = forked.run([*MECHBENCH, "eval-retry", str(killed_file), "--trust-log-endpoint", *common], env=env,
                             capture_output=True, text=True, timeout=300)  # fmt: skip
        assert resumed.returncode == 0, resumed.stderr[-2000:]

    finished_prompts = {s.input if isinstance(s.input, str) else s.input[0].text for s in finished.values()}
    assert finished_prompts <= {s.text for s in server.log.served[:asked_before_kill]}  # the check below can bite
    asked_after_kill = {s.text for s in server.log.served[asked_before_kill:]}
    assert not asked_after_kill & finished_prompts, "a finished sample was asked again"

    (final_file,) = set(logs.glob("*.eval")) - {killed_file}
    final = read_eval_log(str(final_file))
    assert final.status == "success"
    ids = [str(s.id) for s in final.samples or []]
    assert len(ids) == len(set(ids)) == TOTAL
    for sample in final.samples or []:  # carried over untouched
        if str(sample.id) in finished:
            assert sample.scores == finished[str(sample.id)].scores
