"""``scripts/fuzz.py``: it runs every target clean, and it does flag a reader that crashes, hangs or mumbles."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow  # whole Inspect runs, servers or simulations: left out of -m 'not slow'

SCRIPT = REPO_ROOT / "scripts" / "fuzz.py"


def load_script():
    spec = importlib.util.spec_from_file_location("mechbench_fuzz", SCRIPT)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules["mechbench_fuzz"] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@pytest.mark.long
def test_every_target_survives_a_short_fuzz_run(tmp_path: Path) -> None:
    cases = 60  # a smoke run of every target; the campaigns in docs/fuzzing.md run thousands
    ran = subprocess.run(
        [sys.executable, str(SCRIPT), "--cases", str(cases), "--seed", "7", "--failures", str(tmp_path / "f.json")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    rows = [line.split("|")[1:-1] for line in ran.stdout.splitlines() if line.startswith("| ") and "target" not in line]
    assert {r[0].strip() for r in rows} == {t.name for t in load_script().targets()}
    for name, count, result, error, failed, _slowest in rows:
        assert int(count) == cases and int(result) + int(error) == cases and int(failed) == 0, name


def test_the_runner_flags_crashes_hangs_and_empty_messages() -> None:
    fuzz = load_script()

    class Specific(Exception):
        pass

    def reader(case: str) -> str:
        if case == "crash":
            raise KeyError("x")
        if case == "hang":
            time.sleep(5)
        if case == "mumble":
            raise Specific("")
        if case == "refuse":
            raise Specific("no grid found")
        return case

    target = fuzz.Target("reader", reader, (Specific,), lambda rng: iter(["ok", "crash", "hang", "mumble", "refuse"]))
    fuzz.fuzz([target], cases=5, seed=0, time_limit=0.5)
    assert target.counts == {"cases": 5, "result": 1, "error": 1, "failed": 3}
    outcomes = sorted(outcome for outcome, _ in target.failures)
    assert outcomes[0] == "error without a message" and "no answer within 0.5 s" in outcomes
    assert any(o.startswith("unexpected KeyError") for o in outcomes)


def test_mutations_are_reproducible() -> None:
    fuzz = load_script()
    first = [fuzz.mutate_text(random.Random(3), "L 1 0\n1 1 0") for _ in range(1)]
    again = [fuzz.mutate_text(random.Random(3), "L 1 0\n1 1 0") for _ in range(1)]
    assert first == again
