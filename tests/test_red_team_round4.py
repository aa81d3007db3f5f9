"""Red team, round 4: a log that names code is not resumed, and no reply pattern costs more than linear time."""

from __future__ import annotations

import contextlib
import math
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
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.harness.replies import split_reply
from mechbench.tasks import seesim
from tests import forked_command as forked


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
        **QUIET_EVAL,
    )
    log.eval.task, log.eval.task_file, log.eval.task_registry_name = "evil", str(evil), "evil"
    planted = tmp_path / "planted.eval"
    write_eval_log(log, str(planted))
    done = forked.run(
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
    """CPU time of a reply at the cap over one at a tenth of it: the best of five each, measured in turn. The time is
    this thread's own CPU time, not the wall clock: a busy machine preempts the thread (a wall-clock ratio of 51.8
    was measured beside two CPU-bound processes), but the work it does is the same."""
    texts = {size: (unit * (size // len(unit) + 1))[:size] for size in (cap, cap // 10)}
    best = dict.fromkeys(texts, math.inf)
    for _ in range(5):
        for size, text in texts.items():
            start = time.thread_time()
            with contextlib.suppress(ReplyFormatError):
                parse(text)
            best[size] = min(best[size], time.thread_time() - start)
    return best[cap] / max(best[cap // 10], 1e-6)


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
    # A complexity, not a speed: linear gives 10 (measured 9.9-10.1 on an idle machine), quadratic 100. Both sizes are
    # timed in turn under the same load, best of five, and the margin (40) absorbs a busy or slow machine.
    assert _slowest_ratio(parse, unit, cap) < 40, name


CEILING = 1024**3
"""Address space the subprocess checks run under: a refusal that first read the input whole would not fit."""
SECONDS = 120


def _bounded(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``mechbench ARGS`` in a child held under :data:`CEILING` bytes of memory and :data:`SECONDS` seconds."""
    import resource

    def ceiling() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (CEILING, CEILING))

    done = forked.run(
        [sys.executable, "-m", "mechbench", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        preexec_fn=ceiling,
        timeout=SECONDS,  # a refusal that read the input whole would run past it (subprocess raises)
        env=None if env is None else {**os.environ, **env},
    )
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    return done


def _one_error(done: subprocess.CompletedProcess[str]) -> str:
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode != 0 and len(errors) == 1, done.stderr[-2000:]
    return errors[0]


@pytest.mark.long
@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "/dev/urandom"])
def test_a_pipe_or_device_as_replay_or_score_file_is_one_line(special: str, tmp_path: Path) -> None:
    path = Path(special)
    if special == "fifo":
        path = tmp_path / "replies.jsonl"
        os.mkfifo(path)  # nobody ever writes: reading it would block forever
    replay = ["eval", "sphyr", "-T", "data=bundled", "--model", "mechbench/replay", "-M", f"file={path}"]
    line = _one_error(_bounded([*replay, "--limit", "1", "--log-dir", str(tmp_path / "logs")], tmp_path))
    assert "not a regular file" in line
    answer = tmp_path / "answer.json"
    answer.write_text("{}")
    line = _one_error(_bounded(["score", "structural", "--truth", str(path), "--answer", str(answer)], tmp_path))
    assert "not a regular file" in line


def test_the_replay_record_cap_is_enforced_in_one_line(tmp_path: Path) -> None:
    import json

    from mechbench.core.limits import MAX_RECORDS_PER_FILE

    replies = tmp_path / "replies.jsonl"
    replies.write_text(
        "".join(json.dumps({"id": f"s{i}", "reply": "1"}) + "\n" for i in range(MAX_RECORDS_PER_FILE + 1))
    )
    replay = ["eval", "sphyr", "-T", "data=bundled", "--model", "mechbench/replay", "-M", f"file={replies}"]
    line = _one_error(_bounded([*replay, "--limit", "1", "--log-dir", str(tmp_path / "logs")], tmp_path))
    assert f"{MAX_RECORDS_PER_FILE + 1} records, more than the {MAX_RECORDS_PER_FILE}" in line


def test_an_inflating_log_is_left_out_of_the_report_unread(tmp_path: Path) -> None:
    import zipfile

    from mechbench.report.build import MAX_LOG_BYTES

    logs = tmp_path / "logs"
    logs.mkdir()
    bomb = logs / "2026-11-26T00-00-00-00-00_sphyr_bomb.eval"
    block = b" " * 1024**2
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive, archive.open("header.json", "w") as member:
        for _ in range(MAX_LOG_BYTES // len(block) + 1):
            member.write(block)
    assert bomb.stat().st_size < MAX_LOG_BYTES // 100  # it inflates a hundredfold
    line = _one_error(_bounded(["report", str(logs), "-o", str(tmp_path / "report")], tmp_path))
    assert "once inflated, more than the" in line and bomb.name in line


def test_an_endpoint_a_dotenv_file_sets_is_named_before_the_run_and_logged(tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log

    (tmp_path / ".env").write_text(
        "HF_ENDPOINT=http://127.0.0.1:9\nPLANTED_BASE_URL=http://someone:secret@127.0.0.1:9/v1\n"
    )
    run = ["eval", "sphyr", "-T", "data=bundled", "-T", "physics=false", "--model", "mechbench/empty", "--limit", "1"]
    done = forked.run(  # a whole run: no memory ceiling (numba's threads reserve address space)
        [sys.executable, "-m", "mechbench", *run, "--log-dir", str(tmp_path / "logs")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (line,) = [line for line in done.stderr.splitlines() if line.startswith("endpoints:")]
    assert f"from {tmp_path / '.env'}: HF_ENDPOINT=http://127.0.0.1:9" in line
    assert "PLANTED_BASE_URL=http://127.0.0.1:9/v1" in line and "secret" not in done.stderr
    (log,) = (tmp_path / "logs").glob("*.eval")
    recorded = read_eval_log(str(log), header_only=True).eval.metadata["endpoints"]
    assert recorded["HF_ENDPOINT"] == "http://127.0.0.1:9" and "secret" not in str(recorded)


def _chain(links: int) -> str:
    import json

    points = [{"id": f"P{i}", "x": float(i), "y": 0.0} for i in range(links + 1)]
    members = [{"id": f"L{i}", "a": f"P{i}", "b": f"P{i + 1}"} for i in range(links)]
    supports = [
        {"id": "S1", "at": {"id": "P0", "type": "point"}, "kind": "pin"},
        {"id": "S2", "at": {"id": f"P{links}", "type": "point"}, "kind": "roller"},
    ]
    return json.dumps({"points": points, "links": members, "supports": supports, "loads": []})


def test_a_drawing_past_its_limit_is_refused_at_once_and_the_solver_still_takes_the_model(monkeypatch) -> None:
    from mechbench.benchmarks.structural_eval.tools import drawing
    from mechbench.core.errors import ModelTooLargeError
    from mechbench.frame import render, solve
    from mechbench.frame.render import MAX_DRAWN_LINKS, MAX_DRAWN_POINTS

    def no_drawing(*args: object, **kwargs: object) -> None:
        raise AssertionError("the drawing was started: the limit must refuse it before any drawing work")

    monkeypatch.setattr(render, "_Drawing", no_drawing)  # "at once": checked by what runs, not by a clock
    model = _chain(max(MAX_DRAWN_LINKS, MAX_DRAWN_POINTS) + 5)
    with pytest.raises(ModelTooLargeError, match="mechbench draws at most"):
        drawing(model)
    import json

    assert solve(json.loads(model), diagrams=False)["reactions"]  # the limit is the drawing's, not the solver's


def test_a_grid_past_the_physics_judges_limit_is_an_instrument_limit_at_once(monkeypatch) -> None:
    from mechbench.benchmarks.sphyr import physics_scoring
    from mechbench.benchmarks.sphyr.physics_scoring import MAX_JUDGED_SIDE, JudgeLimitError, physics_score

    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("the judge solved: the limit must refuse the grid before any solve")

    monkeypatch.setattr(physics_scoring, "_fixed_solves", no_solve)  # "at once": checked by what runs
    monkeypatch.setattr(physics_scoring, "solve", no_solve)
    side = MAX_JUDGED_SIDE + 1
    truth = [["1"] * side for _ in range(side)]
    truth[0][side // 2], truth[-1][0], truth[-1][-1] = "L", "S", "S"
    masked = [["V" if (r + c) % 5 == 0 and t == "1" else t for c, t in enumerate(row)] for r, row in enumerate(truth)]
    with pytest.raises(JudgeLimitError, match="physics judge takes"):
        physics_score(masked, truth, truth)


def test_a_log_folder_that_is_a_file_is_one_line_before_the_run(tmp_path: Path) -> None:
    blocker = tmp_path / "logs"
    blocker.write_text("not a folder")
    run = ["eval", "sphyr", "-T", "data=bundled", "--model", "mechbench/empty", "--limit", "1"]
    for folder in (blocker, blocker / "inner"):
        line = _one_error(_bounded([*run, "--log-dir", str(folder)], tmp_path))
        assert f"{blocker} is a file, not a folder" in line


def test_a_huge_reply_line_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    from mechbench.providers.replay import MAX_REPLAY_LINE_CHARS

    replies = tmp_path / "replies.jsonl"
    with replies.open("w") as handle:  # one record of 24 MB: parsed whole, it would take several hundred MB
        handle.write('{"id": "full_easy-0", "reply": "')
        for _ in range(3 * MAX_REPLAY_LINE_CHARS // 1024**2):
            handle.write("0 " * (1024**2 // 2))
        handle.write('"}\n')
    replay = ["eval", "sphyr", "-T", "data=bundled", "--model", "mechbench/replay", "-M", f"file={replies}"]
    line = _one_error(_bounded([*replay, "--limit", "1", "--log-dir", str(tmp_path / "logs")], tmp_path))
    assert f"line 1: {replies.stat().st_size - 1} characters, more than the {MAX_REPLAY_LINE_CHARS}" in line


def test_a_log_left_unfinished_by_a_full_disk_ends_the_run_in_error(tmp_path: Path) -> None:
    """What a full disk leaves (measured on a 200 KiB tmpfs): Inspect exits 0 with a log still marked started."""
    from mechbench.cli.eval_argv import failed_runs, log_state

    started = log_state(tmp_path / "logs")  # none yet
    (log,) = inspect_eval(
        seesim(data="bundled", modality="text", oracle=True),
        model="mockllm/model",
        log_dir=str(tmp_path / "done"),
        limit=1,
        **QUIET_EVAL,
    )
    log.status = "started"
    cut_short = tmp_path / "logs" / "2026-11-26T00-00-00-00-00_seesim_cut.eval"
    write_eval_log(log, str(cut_short))
    ((path, message),) = failed_runs(tmp_path / "logs", started)
    assert path == cut_short and "stopped before its log was finished" in message
    assert failed_runs(tmp_path / "done", started) == []  # a finished run is not flagged
    # The next run, started within the same second: the log was there before it, so it is not this run's (an
    # eval-retry right after its eval once reported the eval's failure as its own).
    assert failed_runs(tmp_path / "logs", log_state(tmp_path / "logs")) == []


def test_an_old_unfinished_log_in_a_folder_named_by_a_dotenv_file_is_not_this_runs(tmp_path: Path) -> None:
    """Inspect reads ``.env`` (which may name the log folder, as its docs suggest) before it runs; the folder is
    looked at before and after the run by one full path, so an old log there is not taken for this run's."""
    (log,) = inspect_eval(seesim(data="bundled", modality="text", oracle=True), model="mockllm/model",
                          log_dir=str(tmp_path / "first"), limit=1, **QUIET_EVAL)  # fmt: skip
    log.status = "started"
    write_eval_log(log, str(tmp_path / "logs" / "2026-11-26T00-00-00-00-00_seesim_old.eval"))
    (tmp_path / ".env").write_text("INSPECT_LOG_DIR=logs\n")
    env = {k: v for k, v in os.environ.items() if k != "INSPECT_LOG_DIR"}
    command = [sys.executable, "-m", "mechbench", "eval", "seesim", "-T", "data=bundled", "-T", "modality=text",
               "--model", "mechbench/always-true", "--limit", "1", "--display", "none"]  # fmt: skip
    done = forked.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0 and "ended in error" not in done.stderr, done.stderr[-2000:]
    assert len(list((tmp_path / "logs").glob("*.eval"))) == 2  # the run wrote its log beside the old one


def test_a_cache_that_cannot_be_written_is_one_line_naming_the_path(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    run = ["eval", "openseesime", "-T", "data=bundled", "--model", "mechbench/random", "--limit", "1"]
    done = _bounded([*run, "--log-dir", str(tmp_path / "logs")], tmp_path, {"MECHBENCH_CACHE": str(blocker / "c")})
    line = _one_error(done)
    assert line.startswith(f"error: {blocker}/c/") and "Not a directory" in line and "$MECHBENCH_CACHE" in line


def test_a_full_disk_anywhere_in_inspects_exception_group_is_one_line() -> None:
    """What a full cache disk raised inside Inspect's task group (measured on a 64 KiB tmpfs: pyarrow's
    ``OSError: [Errno 28]``, wrapped twice, 270 lines of traceback before)."""
    import errno

    from mechbench.harness.usage import file_system_line, find_file_system_error

    full = OSError(errno.ENOSPC, "No space left on device", "/cache/openseesime/shard.parquet")
    try:
        try:
            raise full
        except OSError as inner:
            raise RuntimeError("task failed") from inner
    except RuntimeError as outer:
        group = ExceptionGroup("unhandled errors in a TaskGroup", [outer])
    found = find_file_system_error(group)
    assert found is full
    assert file_system_line(found).startswith("error: /cache/openseesime/shard.parquet: No space left on device")
    assert find_file_system_error(ExceptionGroup("g", [ValueError("x"), OSError(errno.ECONNRESET, "reset")])) is None


def test_an_ascii_terminal_and_a_lone_surrogate_in_a_reply_print_no_traceback(tmp_path: Path) -> None:
    """Inspect's summary wrote '…' to an ASCII terminal and ended the run in three UnicodeEncodeError tracebacks."""
    import json

    replies = tmp_path / "replies.jsonl"
    replies.write_text(json.dumps({"id": "full_easy-0", "reply": "0 1 \ud800 V\n<think>\udfff</think>"}) + "\n")
    run = ["eval", "sphyr", "-T", "data=bundled", "--model", "mechbench/replay", "-M", f"file={replies}"]
    done = _bounded(
        [*run, "--limit", "1", "--log-dir", str(tmp_path / "logs")],
        tmp_path,
        {"PYTHONIOENCODING": "ascii", "LC_ALL": "C"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "\\u2026" in done.stdout + done.stderr  # written as an escape, not raised


def test_every_tool_turn_is_sent_with_the_tasks_output_cap(tmp_path: Path) -> None:
    """A provider's tool argument is bounded before Inspect reads it: each turn asks for at most max_tokens."""
    import json

    conversation = tmp_path / "conversation.jsonl"
    turns = [{"tool": "analyse_grid", "arguments": {"grid": "0 1"}}, {"tool": "submit", "arguments": {"answer": "0"}}]
    conversation.write_text(json.dumps({"id": "full_easy-0", "turns": turns}) + "\n")
    from mechbench.tasks import sphyr

    (log,) = inspect_eval(
        sphyr(data="bundled", tools=True, max_tokens=3000),
        model="mechbench/replay",
        model_args={"file": str(conversation)},
        log_dir=str(tmp_path / "logs"),
        limit=1,
        **QUIET_EVAL,
    )
    calls = [event for event in log.samples[0].events if event.event == "model"]
    assert len(calls) == 2 and all(event.config.max_tokens == 3000 for event in calls)


def test_a_log_folder_on_a_full_or_read_only_disk_is_refused_before_the_run(tmp_path: Path, monkeypatch) -> None:
    """Root passes os.access on a read-only folder, and a full disk takes an empty file: only a write shows them."""
    import errno

    from mechbench.cli import eval_checks
    from mechbench.core.errors import UsageError

    eval_checks.check_log_dir(tmp_path / "fine")
    assert list((tmp_path / "fine").iterdir()) == []  # the probe is gone
    for code in (errno.ENOSPC, errno.EROFS):

        def refuse(descriptor: int, data: bytes, code: int = code) -> int:
            raise OSError(code, os.strerror(code))

        monkeypatch.setattr(eval_checks.os, "write", refuse)
        with pytest.raises(UsageError, match=f"cannot write there \\({os.strerror(code)}\\)"):
            eval_checks.check_log_dir(tmp_path / "logs")
        assert list((tmp_path / "logs").iterdir()) == []
