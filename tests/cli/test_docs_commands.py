"""The offline commands the docs give — the tool setting's scripted agent (docs/tools.md) and replay of recorded
replies (docs/replay.md) — run verbatim from a copy of the docs, as a reader pastes them."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from tests import forked_command as forked
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow  # whole Inspect runs


def offline_commands(page: str) -> list[str]:
    """The ``mechbench eval`` commands of ``page``'s bash blocks that need no network (no 🌐, built-in models)."""
    text = (REPO_ROOT / page).read_text()
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for command in block.replace("\\\n", " ").splitlines():
            command = command.split("  #")[0].strip()
            if command.startswith("mechbench eval") and "--model mechbench/" in command and "🌐" not in command:
                commands.append(command)
    return commands


@pytest.mark.long
@pytest.mark.parametrize("page", ["docs/tools.md", "docs/replay.md"])
def test_the_offline_commands_of_the_docs_run_as_written(page: str, tmp_path: Path) -> None:
    commands = offline_commands(page)
    assert commands, f"{page} lost its offline example"
    for command in commands:
        args = [*shlex.split(command)[1:], "--log-dir", str(tmp_path / "logs")]
        done = forked.run(
            [sys.executable, "-m", "mechbench", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, f"{command}\n{done.stderr[-3000:]}"
    logs = sorted((tmp_path / "logs").glob("*.eval"))
    assert len(logs) == len(commands)
    for log in logs:
        header = read_eval_log(str(log))
        assert header.status == "success" and header.samples and all(s.error is None for s in header.samples)
        assert all(s.scores for s in header.samples)
