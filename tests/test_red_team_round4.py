"""Red team, round 4: a log that names code is not resumed, and no reply pattern costs more than linear time."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import write_eval_log

from mechbench.benchmarks.openseesime.protocol import parse_choice
from mechbench.benchmarks.seesim.parse import MAX_REPLY_CHARS as SEESIM_CAP
from mechbench.benchmarks.seesim.parse import parse_answer
from mechbench.benchmarks.sphyr.parse import MAX_REPLY_CHARS as SPHYR_CAP
from mechbench.benchmarks.sphyr.parse import parse_reply
from mechbench.benchmarks.structural_eval.extract import MAX_REPLY_CHARS as STRUCTURAL_CAP
from mechbench.benchmarks.structural_eval.extract import ReplyFormatError, extract_model_json
from mechbench.harness.replies import split_reply
from mechbench.tasks import seesim


def test_eval_retry_refuses_a_log_that_names_a_file_and_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    evil = tmp_path / "evil.py"
    evil.write_text(
        f"from pathlib import Path\nPath({str(marker)!r}).write_text('ran')\n"
        "from inspect_ai import Task, task\n\n@task\ndef evil():\n    return Task(dataset=[])\n"
    )
    (log,) = inspect_eval(
        seesim(data="bundled", modality="text", oracle=True),
        model="mockllm/model",
        log_dir=str(tmp_path),
        limit=1,
        display="none",
    )
    log.eval.task, log.eval.task_file, log.eval.task_registry_name = "evil", str(evil), "evil"
    planted = tmp_path / "planted.eval"
    write_eval_log(log, str(planted))
    done = subprocess.run(
        [sys.executable, "-m", "mechbench", "eval-retry", str(planted)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        env={**os.environ, "INSPECT_LOG_DIR": str(tmp_path / "logs")},
    )
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(errors) == 1 and "resumes only mechbench's registered tasks" in errors[0]
    assert "evil.py" in errors[0] and not marker.exists()


def _slowest_ratio(parse: Callable[[str], object], unit: str, cap: int) -> float:
    """Time of a reply at the cap over one at a tenth of it (the best of three each: noise only slows)."""

    def best(size: int) -> float:
        text = (unit * (size // len(unit) + 1))[:size]
        times = []
        for _ in range(3):
            start = time.perf_counter()
            with contextlib.suppress(ReplyFormatError):
                parse(text)
            times.append(time.perf_counter() - start)
        return min(times)

    return best(cap) / max(best(cap // 10), 1e-6)


def _structural(text: str) -> object:
    return extract_model_json(split_reply(text).answer)


@pytest.mark.parametrize(
    ("name", "parse", "unit", "cap"),
    [
        ("reasoning tags", split_reply, "<think>", SPHYR_CAP),
        ("reasoning tags, closed", split_reply, "<think>x</think>", SPHYR_CAP),
        ("json tags", _structural, "<json>", STRUCTURAL_CAP),
        ("box markers", _structural, "<|begin_of_box|>{", STRUCTURAL_CAP),
        ("fences", _structural, "```json\n{", STRUCTURAL_CAP),
        ("grid lines", lambda t: parse_reply(t), "0 1 0 1 0 1 0 1 0 1\n", SPHYR_CAP),
        ("true/false", lambda t: parse_answer(split_reply(t).answer), "tf ", SEESIM_CAP),
        ("choices", lambda t: parse_choice(split_reply(t).answer, ["A", "B"]), "(A) ", SPHYR_CAP),
    ],
)
def test_a_reply_at_the_cap_parses_in_linear_time(
    name: str, parse: Callable[[str], object], unit: str, cap: int
) -> None:
    # Linear gives about 10 (less, with any fixed cost); quadratic 100.
    assert _slowest_ratio(parse, unit, cap) < 12, name
