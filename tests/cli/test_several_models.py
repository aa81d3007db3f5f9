"""``mechbench eval <task> --model a,b`` runs every model in one go, and their report is one leaderboard."""

from __future__ import annotations

import sys
from pathlib import Path

from mechbench.report import build_report
from tests import forked_command as forked


def test_two_models_in_one_command_make_one_leaderboard_with_a_row_each(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    command = [sys.executable, "-m", "mechbench", "eval", "seesim", "-T", "data=bundled", "-T", "modality=text"]
    command += ["--model", "mechbench/always-true,mechbench/always-false", "--limit", "6", "--log-dir", str(logs)]
    done = forked.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [r for r in build_report(logs).leaderboard if r["benchmark"] == "seesim"]
    assert sorted(r["model"] for r in rows) == ["mechbench/always-false", "mechbench/always-true"]
    assert all(r["samples"] == 6 for r in rows)
    assert sum(r["value"] for r in rows) == 1.0  # every question is True or False: the two split it
