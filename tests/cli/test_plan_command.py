"""``mechbench plan``: the spread taken from earlier runs, also where every cluster holds one sample; the worst case
with the reason no run could be used; a set too small for any difference said so, never as a difference above 1."""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log
from typer.testing import CliRunner

from mechbench.cli import app
from mechbench.core.power import WORST_ICC, estimate_spread
from tests import forked_command as forked

pytestmark = pytest.mark.slow


def _plan(*args: str) -> str:
    result = CliRunner().invoke(app, ["plan", *args])
    assert result.exit_code == 0, result.output
    return result.output


def _structural_runs(logs: Path, *args: str) -> Path:
    """``mechbench eval structural_eval`` on the bundled drawings with ``args``, its logs in ``logs``."""
    command = [sys.executable, "-m", "mechbench", "eval", "structural_eval", "-T", "data=bundled", *args]
    done = forked.run([*command, "--log-dir", str(logs)], capture_output=True, text=True, timeout=600, cwd=logs.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    return logs


@pytest.fixture(scope="module")
def structural_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two built-in models on 12 bundled StructuralEval drawings (one sample per drawing)."""
    logs = tmp_path_factory.mktemp("plan") / "logs"
    return _structural_runs(logs, "--limit", "12", "--model", "mechbench/random,mechbench/template")


def test_one_sample_per_cluster_gives_the_sd_of_the_differences_and_the_safe_icc() -> None:
    values = [0.0, 1.0, -1.0, 0.5, 0.0, 0.25]
    spread = estimate_spread(list(enumerate(values)), "pilot")
    assert spread is not None and spread.sd == pytest.approx(statistics.stdev(values)) and spread.icc == WORST_ICC
    assert estimate_spread([(k, 0.5) for k in range(6)], "pilot") is None  # no spread: nothing to plan on
    assert estimate_spread([(0, 1.0), (0, 0.0)], "pilot") is None  # one cluster


def test_runs_with_one_sample_per_drawing_give_the_plan_its_spread(structural_logs: Path) -> None:
    out = _plan("structural_eval", "-T", "data=bundled", "--limit", "12", "--from", str(structural_logs))
    assert "the worst case" not in out and f"2 earlier runs in {structural_logs} (1 pair:" in out
    assert "ICC cannot be measured and is taken as 1" in out
    scores = {}
    for path in structural_logs.glob("*.eval"):
        log = read_eval_log(str(path))
        scores[log.eval.model] = {s.id: next(iter(s.scores.values())).value for s in log.samples}
    a, b = scores.values()
    differences = [a[k] - b[k] for k in a]
    sd = re.search(r"SD ([0-9.]+), ICC 1 — 2 earlier runs", out)
    assert sd and float(sd.group(1)) == pytest.approx(statistics.stdev(differences), abs=0.005)


def test_a_folder_without_a_usable_run_falls_back_to_the_worst_case_and_says_why(
    structural_logs: Path, tmp_path: Path
) -> None:
    out = _plan("sphyr", "-T", "data=bundled", "--from", str(structural_logs))
    assert "SD 0.71, ICC 1 — the worst case" in out and f"({structural_logs} holds no run of sphyr on this data)" in out
    missing = CliRunner().invoke(app, ["plan", "seesim", "-T", "data=bundled", "--from", str(tmp_path / "nothing")])
    assert missing.exit_code == 2 and "--from takes a log folder" in missing.output
    log = next(structural_logs.glob("*.eval"))
    a_file = CliRunner().invoke(app, ["plan", "seesim", "-T", "data=bundled", "--from", str(log)])
    assert a_file.exit_code == 2 and f"is a file (its folder: {structural_logs})" in a_file.output


def test_one_run_with_epochs_is_taken_by_its_epoch_means(tmp_path: Path) -> None:
    """Epochs are averaged within a sample, as in a pair: two epochs of one drawing are not a cluster of two."""
    logs = _structural_runs(tmp_path / "logs", "--limit", "8", "--epochs", "2", "--model", "mechbench/template")
    out = _plan("structural_eval", "-T", "data=bundled", "--limit", "8", "--from", str(logs))
    assert "(one model's scores, two such models independent; one sample per cluster" in out, out


def test_a_set_too_small_for_any_difference_is_said_so() -> None:
    out = _plan("structural_eval", "-T", "data=bundled", "--limit", "4")
    assert "under this spread no difference up to 1 (the largest there is) is found 80 % of the time; 1 needs" in out
    assert all(float(x) <= 1 for x in re.findall(r"difference of ([0-9.]+)", out))
    assert "more samples per drawing" not in out  # one sample per drawing: there is no ICC to blame
    dry = CliRunner().invoke(
        app,
        ["eval", "structural_eval", "-T", "data=bundled", "--model", "mechbench/random", "--limit", "4", "--dry-run"],
    )
    assert dry.exit_code == 0 and "no difference up to 1 (the largest there is) is found 80 %" in dry.output


def test_a_folder_of_many_runs_is_planned_on_a_bounded_number_of_logs_and_pairs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 63: ``plan --from`` over 300 runs took 52 s and ``--dry-run`` beside 1,000 printed nothing in 120 s; the
    work was every log read in full and every pair measured. Counted here, not timed."""
    import inspect_ai.log

    from mechbench.cli import plan as plan_module
    from mechbench.cli.dry_run import estimate
    from tests.report.clones import base_run, write_clones

    # Bounds as small as the check needs (the work they bound is counted, whatever their size).
    monkeypatch.setattr(plan_module, "MAX_PLAN_LOGS", 6)
    monkeypatch.setattr(plan_module, "MAX_SPREAD_PAIRS", 10)
    logs = write_clones(base_run(tmp_path / "base"), plan_module.MAX_PLAN_LOGS + 3, tmp_path / "logs")
    full_reads, pairs = [0], [0]
    read, measure = inspect_ai.log.read_eval_log, plan_module.estimate_spread

    def reading(name: str, *args: object, **kwargs: object) -> object:
        full_reads[0] += not kwargs.get("header_only")
        return read(name, *args, **kwargs)  # type: ignore[arg-type]

    def measuring(*args: object) -> object:
        pairs[0] += 1
        return measure(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(inspect_ai.log, "read_eval_log", reading)
    monkeypatch.setattr(plan_module, "estimate_spread", measuring)
    out = _plan("seesim", "-T", "data=bundled", "-T", "modality=text", "--from", str(logs))
    assert full_reads[0] == plan_module.MAX_PLAN_LOGS and pairs[0] == plan_module.MAX_SPREAD_PAIRS
    rows = plan_module.MAX_PLAN_LOGS
    assert f"{rows} earlier runs in {logs} (from its newest {rows} logs on this data: a plan reads no more)" in out
    assert f"of {plan_module.MAX_SPREAD_PAIRS} drawn at random from the {rows * (rows - 1) // 2:,} there are" in out
    full_reads[0] = 0
    lines = estimate("seesim", ["-T", "data=bundled", "-T", "modality=text"], ["mechbench/random"], logs)
    assert full_reads[0] == plan_module.MAX_PLAN_LOGS and any("a plan reads no more" in line for line in lines)
