"""Every benchmark run through Inspect's OpenAI-compatible provider against a server that misbehaves on schedule.

Each run is compared with a fault-free run against the same scripted answers: every sample must finish with the
same score, the retries and their causes must be in the log, and retries must stop.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log

from mechbench.harness.quiet import QUIET_EVAL
from mechbench.harness.run_limits import ATTEMPT_TIMEOUT, EVAL_DEFAULTS, MAX_RETRIES, TIMEOUT
from mechbench.tasks import sphyr, structural_eval
from tests import forked_command as forked
from tests.fault_server import FAULTS, FaultServer, message_images, message_text

# Whole Inspect runs, servers or simulations (left out of -m 'not slow'), in the long tier:
# every API fault through the command line, with Inspect's retry back-off.
pytestmark = [pytest.mark.slow, pytest.mark.long]

MECHBENCH = [sys.executable, "-c", "from mechbench.cli import main; main()"]
FAKE_KEY = "sk-mechbench-FAKE-KEY-7f3a9c1e5b"
MODEL = "openai-api/fault/test-model"

# Every fault once, then two in a row, then a clean conversation; conversations take the rows in arrival order.
# The echo faults (a server repeating the API key) are tested in test_secrets.py; 401/400 are not retried.
TRANSIENT = tuple(f for f in FAULTS if not f.startswith("echo_"))
SCHEDULE: list[tuple[str, ...]] = [(f,) for f in TRANSIENT] + [("http_503", "rate_limit"), ("drop", "not_json"), ()]


@pytest.fixture(autouse=True)
def _fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAULT_API_KEY", FAKE_KEY)


def run(task: Task, server: FaultServer, log_dir: Path, **options: Any) -> EvalLog:
    """One eval with mechbench's eval defaults, the SDK's own retries off (as ``mechbench eval`` does for OpenAI
    SDK providers) and short timeouts so that a stall costs seconds."""
    settings: dict[str, Any] = {
        **EVAL_DEFAULTS,
        "attempt_timeout": 2,
        "max_retries": 4,
        "model_args": {"max_retries": 0},
        **options,
    }
    return inspect_eval(task, model=MODEL, model_base_url=server.url, log_dir=str(log_dir), **QUIET_EVAL, **settings)[0]


def sample_scores(log: EvalLog) -> dict[str, Any]:
    assert log.samples is not None
    return {str(s.id): {name: score.value for name, score in (s.scores or {}).items()} for s in log.samples}


def log_text(log: EvalLog) -> str:
    """Every logger message and info event of every sample, one per line."""
    lines = []
    for sample in log.samples or []:
        for event in sample.events:
            if event.event == "logger":
                lines.append(event.message.message)
            elif event.event == "info":
                lines.append(json.dumps(event.data))
            elif event.event == "model" and event.error:
                lines.append(event.error)
    return "\n".join(lines)


FAULT_RETRIES = 4
"""``--max-retries`` of :func:`run_cli`: enough for every transient fault of :data:`SCHEDULE`."""
CLI_ATTEMPT_TIMEOUT = 10
"""``--attempt-timeout`` of :func:`run_cli`, s: a reply the server sent at once still arrives within it on a busy or
slow 2-core machine (at 2 s, a starved client timed out on good replies and the counts below drifted)."""
STALL_SECONDS = CLI_ATTEMPT_TIMEOUT + 5
"""How long the server's ``stall`` fault holds a reply: past the attempt timeout, so the client gives up on it."""


def run_cli(task_args: list[str], server: FaultServer, log_dir: Path) -> EvalLog:
    """One eval through ``mechbench eval`` in its own process, as a user runs it (Inspect fixes its transcript
    log level at the first eval of a process, so in-process runs after other tests would not log retries)."""
    options = [
        "--attempt-timeout",
        str(CLI_ATTEMPT_TIMEOUT),
        "--max-retries",
        str(FAULT_RETRIES),
        "--log-dir",
        str(log_dir),
        "--display",
        "none",
    ]
    ran = forked.run(
        [*MECHBENCH, "eval", *task_args, "--model", MODEL, "--model-base-url", server.url, *options],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    (log_file,) = log_dir.glob("*.eval")
    log = read_eval_log(str(log_file))
    # Neither may be on unless asked for: a cached malformed reply would be replayed instead of retried.
    assert log.plan.config.cache is None and log.plan.config.batch is None, "inspect eval turned on cache/batch"
    return log


def assert_survives_faults(task_args: list[str], answer: Any, tmp_path: Path) -> None:
    with FaultServer(answer) as clean_server:
        clean = run_cli(task_args, clean_server, tmp_path / "clean")
    with FaultServer(answer, SCHEDULE, stall_seconds=STALL_SECONDS) as server:
        faulty = run_cli(task_args, server, tmp_path / "faulty")
    assert clean.status == "success" and faulty.status == "success", faulty.error
    assert all(s.error is None for s in faulty.samples or [])
    assert sample_scores(faulty) == sample_scores(clean)
    # Every fault was injected, and every conversation of the fault-free run was answered, none more often than
    # the retries allow. (Not exactly as often: should an answer the server sent arrive after the attempt timeout,
    # the client rightly asks again.)
    assert set(server.log.injected()) == set(TRANSIENT)
    answered, expected = server.log.answered(), clean_server.log.answered()
    assert answered.keys() == expected.keys()
    assert all(expected[key] <= answered[key] <= expected[key] + FAULT_RETRIES for key in expected), answered
    assert all(s.authorization == f"Bearer {FAKE_KEY}" for s in server.log.served)
    text = log_text(faulty)
    for cause in ("RateLimitError 429", "InternalServerError 500", "502", "503", "AttemptTimeoutError",
                  "APIConnectionError"):  # fmt: skip
        assert cause in text, f"retry cause {cause!r} not in the log"
    # A malformed 200 reply is retried by mechbench, which logs why, unless the client had already given up on that
    # attempt (a reply read after the attempt timeout): then it shows as one more attempt timeout than the stalls the
    # server injected.
    timeouts = sum(line.startswith("AttemptTimeoutError") for line in text.splitlines())  # one model event each
    extra_timeouts = timeouts - server.log.injected().count("stall")
    missing = [cause for cause in ("could not be decoded", "no choices") if cause not in text]
    assert len(missing) <= max(0, extra_timeouts), f"retry causes {missing} not in the log"
    assert FAKE_KEY not in text


def sphyr_answer(messages: list[dict[str, Any]]) -> str:
    """Fill every masked cell with material; junk for one sample in three, so invalid answers are compared too."""
    text = message_text(messages[-1])
    rows = [line for line in text.splitlines() if re.fullmatch(r"[01LSV]( [01LSV])+", line)]
    if int(hashlib.sha256(text.encode()).hexdigest(), 16) % 3 == 0:
        return "I would need more information."
    return "\n".join(r.replace("V", "1") for r in rows)


def test_sphyr_survives_every_api_fault(tmp_path: Path) -> None:
    task = ["sphyr", "-T", "subject=all", "-T", "data=bundled", "-T", "samples=1", "-T", "physics=false"]
    assert_survives_faults(task, sphyr_answer, tmp_path)


def structural_answers() -> dict[str, str]:
    """Drawing (as base64) -> reply: the true model for half of the tasks, prose (no JSON) for the rest."""
    task = structural_eval(data="bundled", filter="beam")
    replies = {}
    for i, sample in enumerate(task.dataset):
        image = sample.input[0].content[0].image  # type: ignore[index, union-attr]
        encoded = base64.b64encode(Path(image).read_bytes()).decode()
        model = sample.metadata["task"]["raw_model"]  # type: ignore[index]
        replies[encoded] = json.dumps(model) if i % 2 == 0 else "The beam carries the load to both supports."
    return replies


def test_structural_eval_survives_every_api_fault(tmp_path: Path) -> None:
    replies = structural_answers()

    def answer(messages: list[dict[str, Any]]) -> str:
        image = message_images(messages[0])[0]
        return replies[image.split(",", 1)[1]]

    assert_survives_faults(["structural_eval", "-T", "data=bundled", "-T", "filter=beam"], answer, tmp_path)


def seesim_answer(messages: list[dict[str, Any]]) -> str:
    text = message_text(messages[-1])
    return ("True", "False", "Maybe, it depends")[int(hashlib.sha256(text.encode()).hexdigest(), 16) % 3]


def _enough_files(seesim_data: Path, calls_per_question: int) -> str:
    """The structural simulations with the most questions, until every row of the schedule meets a conversation."""
    key = json.loads((seesim_data / "benchmark" / "qa-benchmark-with-qids.json").read_text())
    files = key["structural"]["files"]
    chosen: list[str] = []
    for name in sorted(files, key=lambda name: (-len(files[name]["answers"]), name)):
        if calls_per_question * sum(len(files[c]["answers"]) for c in chosen) >= len(SCHEDULE):
            break
        chosen.append(name)
    assert calls_per_question * sum(len(files[c]["answers"]) for c in chosen) >= len(SCHEDULE)
    return ",".join(chosen)


def test_seesim_survives_every_api_fault(tmp_path: Path, seesim_data: Path) -> None:
    files = _enough_files(seesim_data, 1)
    task = ["seesim", "-T", "modality=text", "-T", f"files={files}", "-T", f"data={seesim_data}"]
    assert_survives_faults(task, seesim_answer, tmp_path)


def test_a_server_that_never_recovers_ends_in_bounded_retries(tmp_path: Path) -> None:
    """No loop forever: with every request failing, each model call gives up after max_retries, the sample errors
    (it can be retried later) and the run ends."""
    with FaultServer(sphyr_answer, [("http_503",) * 1000]) as server:
        log = run(
            sphyr(subject="full_easy", data="bundled", samples="2", physics=False),
            server,
            tmp_path,
            max_retries=1,
            retry_on_error=0,
            fail_on_error=False,
        )
    assert log.samples and all(s.error is not None for s in log.samples)
    per_conversation = [s.attempt for s in server.log.served]
    assert max(per_conversation) == 2  # first try + max_retries


def test_tasks_bound_retries_and_time_by_default() -> None:
    for task in (sphyr(data="bundled", samples="1", physics=False), structural_eval(data="bundled")):
        assert (task.config.max_retries, task.config.attempt_timeout, task.config.timeout) == (
            MAX_RETRIES,
            ATTEMPT_TIMEOUT,
            TIMEOUT,
        )


def test_replies_that_stay_malformed_end_as_a_zero_score_with_the_cause_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mechbench.harness.reliability

    monkeypatch.setattr(mechbench.harness.reliability, "MALFORMED_BACKOFF", 0.05)
    tries = mechbench.harness.reliability.MALFORMED_RETRIES + 1
    with FaultServer(sphyr_answer, [("empty_choice",) * 50, ("not_json",) * 50]) as server:
        log = run(sphyr(subject="full_easy", data="bundled", samples="2", physics=False), server, tmp_path)
    assert log.status == "success" and log.samples
    for sample in log.samples:
        assert sample.error is None
        score = sample.scores["sphyr_scorer"]  # type: ignore[index]
        assert score.value["valid_output_grid"] == 0.0  # type: ignore[index]
    assert log_text(log).count('"mechbench_retry": "gave up"') == 2
    assert sorted(s.attempt for s in server.log.served)[-1] == tries


def test_seesim_video_frames_survive_every_api_fault(tmp_path: Path, seesim_data: Path) -> None:
    """Video as sampled frames: each frame is its own model call (the majority vote decides)."""
    files = _enough_files(seesim_data, 2)  # two frames, two calls per question
    task = ["seesim", "-T", "modality=video", "-T", f"files={files}", "-T", "max_frames=2"]
    assert_survives_faults([*task, "-T", f"data={seesim_data}"], seesim_answer, tmp_path)


def test_with_response_caching_on_a_malformed_reply_is_asked_again_not_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mechbench.harness.reliability

    monkeypatch.setattr(mechbench.harness.reliability, "MALFORMED_BACKOFF", 0.05)
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))
    with FaultServer(sphyr_answer, [("empty_choice",), ("not_json",)]) as server:
        log = run(sphyr(subject="full_easy", data="bundled", samples="2", physics=False), server, tmp_path, cache=True)
    assert sorted(server.log.injected()) == ["empty_choice", "not_json"]
    assert set(server.log.answered().values()) == {1}  # both conversations were asked again and answered
    with FaultServer(sphyr_answer) as clean_server:
        clean = run(sphyr(subject="full_easy", data="bundled", samples="2", physics=False), clean_server, tmp_path)
    assert sample_scores(log) == sample_scores(clean)
