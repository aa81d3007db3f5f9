"""The published SeeSim set's twelve simulations are its clusters: a model right on every question of half of them
gets the interval twelve observations give, not the one 240 independent questions would."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from scipy import stats

from mechbench.harness.quiet import QUIET_EVAL
from mechbench.report import build_report
from mechbench.tasks import seesim


def test_the_report_states_twelve_clusters_and_widens_the_interval_as_the_data_say(
    published_seesim: Path, tmp_path: Path
) -> None:
    task = seesim(data=str(published_seesim), modality="text")
    files = sorted({s.metadata["simulation"] for s in task.dataset})
    assert len(files) == 12
    right = set(files[::2])
    replies = tmp_path / "replies.jsonl"
    with replies.open("w") as out:
        for sample in task.dataset:
            truth = sample.target == "True"
            answer = truth if sample.metadata["simulation"] in right else not truth
            out.write(json.dumps({"id": sample.id, "reply": str(answer)}) + "\n")
    inspect_eval(task, model="mechbench/replay", model_args={"file": str(replies)}, log_dir=str(tmp_path / "logs"),
                 **QUIET_EVAL)  # fmt: skip
    (row,) = [r for r in build_report(tmp_path / "logs").leaderboard if r["model"] == "mechbench/replay"]
    assert row["clusters"] == 12 and row["cluster_unit"] == "simulation" and row["samples"] == len(task.dataset)
    # What the data give, computed here from the answers: each simulation's summed residual (CR2: inflated by its
    # share of the questions) against every question's.
    values: dict[str, list[float]] = defaultdict(list)
    for sample in task.dataset:
        values[sample.metadata["simulation"]].append(1.0 if sample.metadata["simulation"] in right else 0.0)
    n = sum(len(v) for v in values.values())
    mean = sum(sum(v) for v in values.values()) / n
    clustered = math.sqrt(sum(sum(x - mean for x in v) ** 2 / (1 - len(v) / n) for v in values.values())) / n
    independent = math.sqrt(n / (n - 1) * sum((x - mean) ** 2 for v in values.values() for x in v)) / n
    expected = stats.t.ppf(0.975, row["df"]) * clustered / (stats.norm.ppf(0.975) * independent)
    assert row["value"] == mean and row["ci95"] / row["naive_ci95"] == pytest.approx(expected, rel=1e-9)
    assert row["ci95"] / row["naive_ci95"] > 2.5  # 0.5 ± 0.06 for 240 independent questions; ± ~0.3 for twelve
