"""``mechbench calibrate items``: ten replayed models of known ability on the bundled HandCalc items (shown as text),
one item whose key is planted wrong (only the weaker models are marked right on it): the abilities come out in order
and the planted item is named as discriminating the wrong way; the calibration is written where asked."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.hand_calc.items import read_items
from mechbench.benchmarks.hand_calc.prompts import target
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.sources.root import open_data
from mechbench.tasks import hand_calc
from tests import forked_command as forked

pytestmark = [pytest.mark.slow, pytest.mark.long]
MODELS = 10
PLANTED = 4


def _replies(folder: Path, skill: int) -> Path:
    """Model ``skill`` (0-9) answers item k right when the item's rank is below its skill, wrong otherwise; the
    planted item the other way round."""
    from mechbench.benchmarks.hand_calc.task import NO_PUBLISHER

    items = read_items(open_data("hand_calc", "bundled", NO_PUBLISHER))
    lines = []
    for k, item in enumerate(items):
        rank = (k * 7) % len(items) / len(items) * MODELS  # difficulties spread over the skills
        right = rank < skill + 0.5
        if k == PLANTED:
            right = not right
        lines.append({"id": f"{item.id}-text", "reply": target(item) if right else "I cannot solve this."})
    path = folder / f"model-{skill}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_abilities_come_out_in_order_and_a_planted_wrong_key_is_named(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    for skill in range(MODELS):
        inspect_eval(hand_calc(data="bundled", presentation="text"), model="mechbench/replay",
                     model_args={"file": str(_replies(tmp_path, skill))}, log_dir=str(logs), **QUIET_EVAL)  # fmt: skip
    out = tmp_path / "calibration.json"
    done = forked.run([sys.executable, "-m", "mechbench", "calibrate", "items", str(logs), "-o", str(out)],
                      capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    planted = f"hc-{PLANTED:04d}-text"
    wrong_way = done.stdout.split("discriminating the wrong way")[1].split("barely")[0]
    assert planted in wrong_way
    record = json.loads(out.read_text())
    assert record["negative"] == [planted] and record["benchmark"] == "hand_calc"
    abilities = record["responders"]
    ordered = sorted(abilities, key=abilities.__getitem__)
    assert [name.split("model-")[1].split(".")[0] for name in ordered] == [str(k) for k in range(MODELS)]

    # Stored beside the logs, the calibration gives every row on the set its ability in the report, beside accuracy;
    # a file there that is no calibration is named among what was left out.
    from mechbench.report import build_report, write_report

    (logs / "calibration-hand_calc.json").write_text(out.read_text())
    (logs / "calibration-broken.json").write_text("{not json")
    report = build_report(logs)
    rows = report.calibrated_abilities
    assert len(rows) == MODELS and all(r["items"] == len(record["items"]) for r in rows)
    by_skill = {int(r["model"].split("model-")[1].split(".")[0]): r for r in rows}
    thetas = [by_skill[k]["theta"] for k in range(MODELS)]  # skills answer alike in pairs: ties, never inversions
    assert thetas == sorted(thetas) and thetas[-1] - thetas[0] > 4
    assert all(r["low"] < r["theta"] < r["high"] for r in rows)
    assert any("calibration-broken.json: not a calibration" in line for line in report.skipped_logs)
    page = write_report(report, tmp_path / "report")["md"].read_text()
    assert "HandCalc: ability on the calibrated set" in page


def test_runs_of_different_sets_or_too_few_models_are_one_line(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    inspect_eval(hand_calc(data="bundled", presentation="text"), model="mechbench/zero", log_dir=str(logs),
                 **QUIET_EVAL)  # fmt: skip
    done = forked.run([sys.executable, "-m", "mechbench", "calibrate", "items", str(logs)], capture_output=True,
                      text=True, timeout=300)  # fmt: skip
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "at least 3 models" in lines[0], done.stderr
