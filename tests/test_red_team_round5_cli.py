"""Red team, round 5 (issue 63), the commands: a Ray address where nothing listens, task arguments that select
nothing, generate's --workers, --n and output folder, and outputs or priors that are pipes or devices. Each is one
``error:`` line within seconds, before any work."""

from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import match

from mechbench.core.errors import UsageError
from mechbench.core.executor import ExecutorError, check_ray_address, run_batch, usable_cores
from mechbench.core.limits import MAX_GENERATED_ITEMS, MAX_RECORDS_PER_FILE
from mechbench.harness.task import TaskParts, benchmark_task
from tests import forked_command as forked
from tests.benchmarks.structural_eval.models import overhanging_beam

GENERATORS = ("hand_calc", "structural", "sphyr", "seesim")
SECONDS = 60
"""A refusal takes well under a second; a hang is what this catches (the probes hung for minutes)."""


def _mechbench(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "mechbench", *args], capture_output=True, text=True, cwd=cwd, timeout=SECONDS
    )


def _one_error(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    """The one ``error:`` line of a refused command (exit ``code``, no traceback)."""
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode == code and len(errors) == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    return errors[0]


def _closed_port() -> int:
    """A local port nothing listens on: bound, then closed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# 9. A Ray address where nothing listens.


def test_a_ray_address_where_nothing_listens_is_one_line_before_any_work(tmp_path: Path) -> None:
    address = f"127.0.0.1:{_closed_port()}"
    out = tmp_path / "out"
    done = _mechbench("generate", "seesim", "-o", str(out), "--n", "2", "--questions", "mechbench",
                      "--executor", "ray", "--ray-address", address)  # fmt: skip
    line = _one_error(done)
    assert f"no Ray cluster answers at {address}" in line and "connection refused" in line
    assert not out.exists()  # refused before the folder, let alone a simulation


def test_the_executor_checks_the_address_before_handing_it_to_ray() -> None:
    pytest.importorskip("ray")
    address = f"127.0.0.1:{_closed_port()}"
    with pytest.raises(ExecutorError, match=f"no Ray cluster answers at {address}"):
        run_batch(abs, [1, 2], executor="ray", ray_address=address)
    with pytest.raises(ExecutorError, match="HOST:PORT"):
        check_ray_address("head:port")
    check_ray_address("auto")  # Ray finds that one itself: nothing to connect to here


@pytest.mark.parametrize("command", ["structural", "sphyr", "seesim"])
def test_a_ray_address_without_the_ray_executor_is_refused(command: str, tmp_path: Path) -> None:
    done = _mechbench("generate", command, "-o", str(tmp_path / "out"), "--ray-address", "127.0.0.1:6379")
    assert "add --executor ray" in _one_error(done)


# 10. Task arguments that select nothing.

FAMILY = [
    ["eval", "mechbench/hand_calc", "-T", "family=bogus", "--model", "mechbench/zero"],
    ["eval", "mechbench/hand_calc", "-T", "family=bogus", "--model", "mechbench/zero", "--dry-run"],
    ["plan", "mechbench/hand_calc", "-T", "family=bogus"],
    ["validate", "hand_calc", "--shortcuts", "-T", "family=bogus"],
]


@pytest.mark.parametrize("args", FAMILY, ids=["eval", "dry-run", "plan", "validate"])
def test_an_unknown_family_names_the_valid_ones_in_every_command(args: list[str], tmp_path: Path) -> None:
    logs = ["--log-dir", str(tmp_path / "logs")] if args[0] in ("eval", "validate") else []
    line = _one_error(_mechbench(*args, *logs, cwd=tmp_path))
    assert "family 'bogus' is not one of" in line
    assert all(family in line for family in ("reactions", "truss", "moment", "deflection"))


@pytest.mark.parametrize(
    "task, argument, words",
    [
        ("sphyr", "samples=0", "at least 1, got 0"),
        ("structural_eval", "filter=bogus", "filter 'bogus' matches no task id"),
    ],
)
def test_other_filters_that_select_nothing_are_usage_errors(task: str, argument: str, words: str) -> None:
    line = _one_error(_mechbench("plan", f"mechbench/{task}", "-T", "data=bundled", "-T", argument))
    assert words in line and "dry run (no network)" not in line  # a mistake in the argument, not missing data
    if task == "structural_eval":
        assert "beam_001" in line  # the ids it could have matched


def test_a_task_whose_arguments_select_no_samples_says_so_in_one_line() -> None:
    """Whatever a benchmark's own checks miss: an empty dataset is a usage error naming the arguments given, never
    Inspect's traceback about an empty dataset."""

    @benchmark_task("probe")
    def probe(kind: str = "all", max_tokens: int = 10) -> TaskParts:
        samples = [Sample(input="q", target="a", metadata={"kind": "beam"})]
        kept = [s for s in samples if kind in ("all", (s.metadata or {})["kind"])]
        return TaskParts(dataset=MemoryDataset(kept), scorer=match(), data="probe")

    assert len(probe().dataset) == 1
    with pytest.raises(UsageError, match=r"^probe: no samples with kind='bogus'$"):
        probe(kind="bogus", max_tokens=10)


# 12. --workers and --n.


@pytest.mark.parametrize("command", GENERATORS)
def test_workers_below_one_and_n_past_what_eval_reads_are_refused_by_every_generator(
    command: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert "--workers must be at least 1" in _one_error(
        _mechbench("generate", command, "-o", str(out), "--workers", "0")
    )
    assert MAX_GENERATED_ITEMS == MAX_RECORDS_PER_FILE  # the most eval reads from one data file
    past = str(MAX_RECORDS_PER_FILE + 1)
    line = _one_error(_mechbench("generate", command, "-o", str(out), "--n", past))
    assert f"and {MAX_RECORDS_PER_FILE}, got {past} (the most one eval reads)" in line
    assert not out.exists()


def test_more_workers_than_cores_are_said_and_lowered(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = _mechbench("generate", "hand_calc", "-o", str(out), "--n", "2", "--workers", "1000")
    assert done.returncode == 0, done.stderr[-2000:]
    cores = usable_cores()
    assert f"warning: --workers 1000 is more than the {cores} cores here; using {cores}" in done.stderr
    assert len((out / "items.jsonl").read_text().splitlines()) == 2


# 13. Outputs and priors that are pipes or devices, SeeSim's smallest set, a set written over another.


def test_verify_and_render_refuse_an_output_that_is_a_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "table.md"
    os.mkfifo(fifo)  # nobody ever reads: writing it would block forever
    assert "is a pipe or device, not a regular file" in _one_error(
        _mechbench("verify", "simulation", "--fast", "-o", str(fifo))
    )
    model = tmp_path / "beam.json"
    model.write_text(json.dumps(overhanging_beam()))
    assert "is a pipe or device" in _one_error(_mechbench("render", str(model), "-o", str(fifo)))


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_prior_that_is_a_pipe_or_device_or_that_no_panel_reads_is_refused(special: str, tmp_path: Path) -> None:
    prior = Path(special)
    if special == "fifo":
        prior = tmp_path / "prior.json"
        os.mkfifo(prior)
    logs = ["--log-dir", str(tmp_path / "logs")]
    line = _one_error(_mechbench("validate", "hand_calc", "--shortcuts", "--prior", str(prior), *logs))
    assert "hand_calc's shortcut models learn no prior" in line and "seesim" in line
    line = _one_error(_mechbench("validate", "seesim", "--shortcuts", "--prior", str(prior), *logs))
    assert "is a pipe or device, not a regular file or folder" in line


def test_seesim_refuses_a_set_too_small_to_balance_and_never_prints_nan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "one"
    line = _one_error(_mechbench("generate", "seesim", "-o", str(out), "--n", "1", "--questions", "mechbench"))
    assert "--n must be between 2 and" in line and "True as often as False" in line
    assert not out.exists()

    # Simulations that answer every question the same way leave nothing to ask: refused, not a share of nothing.
    from typer.testing import CliRunner

    from mechbench.benchmarks.seesim import generated_set
    from mechbench.cli import app

    empty = {"answers": 0, "true": 0, "always_true": math.nan, "always_false": math.nan, "questions": {}}
    monkeypatch.setattr(generated_set, "write_seesim", lambda *args, **kwargs: empty)
    result = CliRunner().invoke(app, ["generate", "seesim", "-o", str(tmp_path / "two"), "--n", "2", "--no-derived"])
    assert result.exit_code == 2 and "the set asks no question" in result.stderr
    assert "nan" not in result.stdout + result.stderr


@pytest.mark.parametrize("command", GENERATORS)
def test_generate_refuses_a_folder_that_holds_files_unless_overwrite(command: str, tmp_path: Path) -> None:
    out = tmp_path / "set"
    out.mkdir()
    (out / "items.jsonl").write_text("mine\n")
    line = _one_error(_mechbench("generate", command, "-o", str(out), "--n", "2"))
    assert "already holds files (items.jsonl)" in line and "--overwrite" in line
    assert (out / "items.jsonl").read_text() == "mine\n"


def test_overwrite_writes_over_a_set_and_an_empty_folder_needs_no_flag(tmp_path: Path) -> None:
    out = tmp_path / "set"
    out.mkdir()
    assert _mechbench("generate", "hand_calc", "-o", str(out), "--n", "2").returncode == 0  # empty: fine
    again = _mechbench("generate", "hand_calc", "-o", str(out), "--n", "3", "--seed", "2")
    assert "already holds files" in _one_error(again)
    done = _mechbench("generate", "hand_calc", "-o", str(out), "--n", "3", "--seed", "2", "--overwrite")
    assert done.returncode == 0, done.stderr[-2000:]
    assert len((out / "items.jsonl").read_text().splitlines()) == 3
