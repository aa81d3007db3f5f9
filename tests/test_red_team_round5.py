"""Red team, round 5: a resumed log runs no code it names and sends no key where it chose; a ``.env`` does not pair
its address with the user's key; a log that inflates past what it declares is refused unread."""

from __future__ import annotations

import json
import os
import struct
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, write_eval_log

from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import seesim
from tests import forked_command as forked
from tests.fault_server import FaultServer
from tests.test_api_faults import FAKE_KEY

pytestmark = pytest.mark.slow  # mechbench commands in child processes

MODEL = "openai-api/fault/test-model"


@pytest.fixture(scope="module")
def base_log(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    """A finished run of a registered task (SeeSim's oracle: no model is asked), to plant fields in."""
    (log,) = inspect_eval(
        seesim(data="bundled", modality="text", oracle=True),
        model="mechbench/random",
        log_dir=str(tmp_path_factory.mktemp("logs")),
        limit=1,
        **QUIET_EVAL,
    )
    return log


def _planted(log: EvalLog, folder: Path, **fields: Any) -> Path:
    """``log`` as a failed run of ``MODEL`` with ``fields`` of its spec (``config.NAME`` for the eval config) set."""
    log = log.model_copy(deep=True)
    log.status, log.samples, log.eval.model = "error", [], MODEL
    log.eval.task_args_passed = {"data": "bundled", "modality": "text"}  # resumed, the model is asked
    for name, value in fields.items():
        owner = log.eval.config if name.startswith("config.") else log.eval
        setattr(owner, name.removeprefix("config."), value)
    path = folder / f"planted-{len(list(folder.glob('planted-*')))}.eval"
    write_eval_log(log, str(path))
    return path


def _mechbench(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[int, list[str]]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("FAULT_")}
    done = forked.run([sys.executable, "-m", "mechbench", *args], capture_output=True, text=True, cwd=cwd,
                      timeout=300, env={**environ, "INSPECT_LOG_DIR": str(cwd / "logs"), **(env or {})})  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.returncode, [line for line in done.stderr.splitlines() if line.strip()]


def test_a_log_naming_a_solver_file_is_not_resumed_and_runs_nothing(base_log: EvalLog, tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    (tmp_path / "evil.py").write_text(
        f"from pathlib import Path\nPath({str(marker)!r}).write_text('ran')\n"
        "from inspect_ai.solver import solver\n\n@solver\ndef evil():\n    async def solve(state, generate):\n"
        "        return state\n    return solve\n"
    )
    planted = _planted(base_log, tmp_path, solver="evil.py@evil")
    code, lines = _mechbench(["eval-retry", str(planted)], tmp_path, {"FAULT_API_KEY": FAKE_KEY})
    assert code == 2 and len(lines) == 1 and "'evil.py@evil'" in lines[0] and "registered solvers" in lines[0]
    assert not marker.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("model_roles", {"grader": {"model": "openai-api/fault/other"}}),
        ("sandbox", {"type": "local", "config": None}),
        ("config.approval", {"approvers": [{"name": "evil.py@approve", "tools": "*", "params": {}}]}),
        ("config.acp_server", "0.0.0.0:4444"),
        ("config.notification", "apprise.yaml"),
    ],
)
def test_a_log_with_settings_mechbench_never_uses_is_not_resumed(
    base_log: EvalLog, tmp_path: Path, field: str, value: Any
) -> None:
    planted = _planted(base_log, tmp_path, **{field: value})
    code, lines = _mechbench(["eval-retry", str(planted)], tmp_path, {"FAULT_API_KEY": FAKE_KEY})
    assert code == 2 and len(lines) == 1 and f"({field.removeprefix('config.')})" in lines[0], lines


def test_a_resumed_run_sends_the_key_only_where_the_environment_says(base_log: EvalLog, tmp_path: Path) -> None:
    with FaultServer(lambda messages: "answer: true") as chosen:
        planted = _planted(base_log, tmp_path, model_base_url=chosen.url)
        key = {"FAULT_API_KEY": FAKE_KEY}
        code, lines = _mechbench(["eval-retry", str(planted)], tmp_path, key)
        assert code == 2 and len(lines) == 1 and f"sends {MODEL}'s requests to {chosen.url}" in lines[0], lines
        assert "--trust-log-endpoint" in lines[0] and "FAULT_BASE_URL" in lines[0]
        elsewhere = {**key, "FAULT_BASE_URL": "http://127.0.0.1:9/v1"}
        code, lines = _mechbench(["eval-retry", str(planted)], tmp_path, elsewhere)
        assert code == 2 and "your environment names http://127.0.0.1:9/v1 (from FAULT_BASE_URL)" in lines[0]
        args = _planted(base_log, tmp_path, model_args={"http_client": {"base_url": chosen.url}})
        code, lines = _mechbench(["eval-retry", str(args)], tmp_path, {**key, "FAULT_BASE_URL": chosen.url})
        assert code == 2 and "http_client.base_url=" + chosen.url in lines[0], lines
        assert chosen.log.served == []  # no request, with a key or without, reached the address the log chose

        code, lines = _mechbench(["eval-retry", str(planted), "--trust-log-endpoint"], tmp_path, key)
        assert f"endpoint: {chosen.url} (from the log, --trust-log-endpoint)" in lines, lines
        assert chosen.log.served  # trusted, it is asked
        code, lines = _mechbench(["eval-retry", str(planted)], tmp_path, {**key, "FAULT_BASE_URL": chosen.url})
        assert f"endpoint: {chosen.url} (from the log and FAULT_BASE_URL)" in lines, lines


def test_a_dotenv_address_is_not_paired_with_a_key_from_the_environment(tmp_path: Path) -> None:
    with FaultServer(lambda messages: "answer: true") as chosen:
        (tmp_path / ".env").write_text(f"FAULT_BASE_URL={chosen.url}\n")
        run = ["eval", "seesim", "-T", "data=bundled", "-T", "modality=text", "--model", MODEL, "--limit", "1"]
        code, lines = _mechbench(run, tmp_path, {"FAULT_API_KEY": FAKE_KEY})
        assert code == 2 and len(lines) == 1, lines
        assert f"sets FAULT_BASE_URL={chosen.url} with FAULT_API_KEY from your environment" in lines[0]
        assert chosen.log.served == []
        (tmp_path / ".env").write_text(f"FAULT_BASE_URL={chosen.url}\nFAULT_API_KEY={FAKE_KEY}\n")  # its own key
        code, lines = _mechbench(run, tmp_path)
        assert code == 0 and chosen.log.served, lines


def zstd_bomb(path: Path, inflated: int, declared: int = 1000, member: str = "header.json") -> Path:
    """A ``.eval`` whose zstd ``member`` declares ``declared`` bytes and inflates to ``inflated``."""
    import zstandard

    data = zstandard.ZstdCompressor(level=19).compress(b" " * inflated)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo(member), data)
    raw = bytearray(path.read_bytes())
    local, central = raw.index(b"PK\x03\x04"), raw.index(b"PK\x01\x02")
    for offset, size_at in ((local + 8, local + 22), (central + 10, central + 24)):
        struct.pack_into("<H", raw, offset, 93)  # zstd
        struct.pack_into("<I", raw, size_at, declared)
    path.write_bytes(bytes(raw))
    return path


def test_a_log_that_inflates_past_its_declared_sizes_is_refused_unread(tmp_path: Path) -> None:
    from mechbench.core.log_archive import inflation_problem

    logs = tmp_path / "logs"
    logs.mkdir()
    bomb = zstd_bomb(logs / "2026-11-28T00-00-00-00-00_seesim_bomb.eval", 256 * 1024**2)
    assert bomb.stat().st_size < 64 * 1024  # 256 MB from a few KB: zstd's ratio
    assert "inflates past the 1000 bytes its directory declares" in (inflation_problem(bomb, 10**9) or "")
    # The memory ceiling (1 GiB) is the assertion that nothing inflated the member whole.
    from tests.test_red_team_round4 import _bounded

    report = _bounded(["report", str(logs), "-o", str(tmp_path / "report")], tmp_path)
    assert report.returncode != 0 and "decompression bomb" in report.stderr and bomb.name in report.stderr
    retry = _bounded(["eval-retry", str(bomb)], tmp_path)
    assert retry.returncode == 2 and "decompression bomb" in retry.stderr
    plan = _bounded(["plan", "seesim", "-T", "data=bundled", "--from", str(logs)], tmp_path)
    assert "Traceback" not in plan.stderr and "JSONDecodeError" not in plan.stderr + plan.stdout
    dry = _bounded(["eval", "seesim", "-T", "data=bundled", "--model", "mechbench/random", "--dry-run",
                    "--log-dir", str(logs)], tmp_path)  # fmt: skip
    assert dry.returncode == 0 and "JSONDecodeError" not in dry.stderr + dry.stdout, dry.stderr[-2000:]


def test_a_well_formed_log_is_measured_and_read(base_log: EvalLog, tmp_path: Path) -> None:
    from mechbench.core.log_archive import inflation_problem

    path = tmp_path / "fine.eval"
    write_eval_log(base_log, str(path))
    assert inflation_problem(path, 10**9) is None
    assert "inflates past the 100 bytes" in (inflation_problem(path, 100) or "") or "declares" in (
        inflation_problem(path, 100) or ""
    )
    assert json.loads(zipfile.ZipFile(path).read("header.json"))["status"] == "success"
