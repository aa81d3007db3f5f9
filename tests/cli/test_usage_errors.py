"""Usual mistakes, through `inspect eval` and `mechbench eval`: one line naming the bad value, exit 2, no traceback."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests import forked_command as forked

pytestmark = pytest.mark.slow  # whole Inspect runs, servers or simulations: left out of -m 'not slow'

MISTAKES = {
    "unknown subject": (["mechbench/sphyr", "-T", "subject=full_medium", "-T", "data=bundled"], "mechbench/solid", [],
                        "unknown SPhyR subject full_medium; one of: all"),
    "missing data folder": (["mechbench/sphyr", "-T", "data=/nonexistent/folder"], "mechbench/solid", [],
                            "'/nonexistent/folder' is neither an existing folder"),
    "unknown prompt": (["mechbench/structural_eval", "-T", "prompt=fancy", "-T", "data=bundled", "-T", "debug=true"],
                       "mechbench/solid", [], "prompt must be one of standard, reasoning, strict, got 'fancy'"),
    "unknown prompt style": (["mechbench/seesim", "-T", "modality=smell", "-T", "data=bundled"],
                             "mechbench/always-true", [], "modality must be one of image, video, text, got 'smell'"),
    "replay without file": (["mechbench/sphyr", "-T", "data=bundled"], "mechbench/replay", [],
                            "mechbench/replay needs the recorded replies: -M file=replies.jsonl"),
    "baseline for another benchmark": (["mechbench/structural_eval", "-T", "data=bundled"], "mechbench/always-true",
                                       [], "mechbench/always-true answers seesim prompts only, not structural_eval"),
    "unknown SPhyR version": (["mechbench/sphyr", "-T", "data=bundled", "-T", "version=v3"], "mechbench/solid", [],
                              "unknown SPhyR version 'v3'; one of: v1, v2, v2-20"),
}  # fmt: skip


def _inspect_bin() -> str:
    return str(Path(sys.executable).parent / "inspect")


@pytest.mark.parametrize("entry", ["inspect", "mechbench"])
@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_a_mistake_is_one_line_and_exit_2(mistake: str, entry: str, tmp_path: Path) -> None:
    task_args, model, extra, message = MISTAKES[mistake]
    if entry == "inspect":
        command = [_inspect_bin(), "eval", *task_args, "--model", model, *extra]
    else:
        command = [sys.executable, "-m", "mechbench", "eval", task_args[0].removeprefix("mechbench/"), *task_args[1:]]
        command += ["--model", model, *extra]
    env = {**os.environ, "MECHBENCH_CACHE": str(tmp_path / "cache")}
    env.pop("MECHBENCH_TRACEBACK", None)
    done = forked.run(
        [*command, "--log-dir", str(tmp_path / "logs"), "--display", "none"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    errors = [line for line in done.stderr.splitlines() if line.strip() and not line.startswith("+ inspect ")]
    assert done.returncode == 2, done.stderr[-2000:]
    assert len(errors) == 1 and errors[0].startswith("error: ") and message in errors[0], done.stderr[-2000:]
    assert "Traceback" not in done.stderr + done.stdout


def test_mechbench_eval_refuses_an_unknown_task_argument(tmp_path: Path) -> None:
    done = forked.run(
        [sys.executable, "-m", "mechbench", "eval", "sphyr", "-T", "subjekt=full_easy", "--model", "mechbench/solid"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    import inspect

    from mechbench.tasks import sphyr

    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: sphyr has no task argument 'subjekt' (did you mean subject?); its arguments: "
        + ", ".join(inspect.signature(sphyr).parameters)
    ]


def test_inside_python_the_error_stays_an_exception() -> None:
    from mechbench.core.errors import UsageError
    from mechbench.tasks import sphyr

    with pytest.raises(UsageError, match="prompt_style must be one of"):
        sphyr(data="bundled", prompt_style="fancy")
