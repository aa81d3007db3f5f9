"""protocol=official: the maintainers' texts read from the official copy as data, their message layout,
temperatures and partial-credit rules, checked from the log of a replayed run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.structural_eval.official_protocol import read_protocol
from mechbench.core.errors import DataSourceError
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import structural_eval

# A runner in the shape of the maintainers' run_eval.py, with texts of our own (never executed by mechbench).
RUNNER = """
def diagnose_failure(solver, ai_json, gt_json):
    if not step_one():
        return 0.0, "FINDING-GEOMETRY-11"
    if not step_two():
        return 0.25, "FINDING-SUPPORTS-12"
    if step_three():
        return 0.75, "FINDING-LOADS-13"
    else:
        return 0.50, "FINDING-HINGES-14"


def main():
    base_messages = [
        {"role": "system", "content": system_prompt},
        {"role": "user", "content": [
            {"type": "text", "text": "USER-TEXT-21: read the picture."},
            {"type": "image_url", "image_url": {"url": image}},
        ]},
    ]
    for attempt in range(retries + 1):
        current_temp = 0.6 if attempt == 0 else 0.7
        if not json_str:
            error_feedback = "NO-JSON-31"
        else:
            try:
                if solver_error:
                    error_feedback = f"SOLVER-32 {solver_error} !"
                elif not solution:
                    error_feedback = "UNSTABLE-33"
                else:
                    error_feedback = f"DIAGNOSIS-34 {diag_feedback}"
                    error_feedback = "WRONG-35"
            except Exception as e:
                error_feedback = f"SYNTAX-36 {e}"
        retry_context = [
            {"role": "assistant", "content": response_text},
            {"role": "user", "content": f"WRAP-41 [{error_feedback}] FIX-42"},
        ]
"""
PROMPTS = '''
PROMPT_STANDARD = """SYSTEM-STANDARD-51"""
PROMPT_STRICT = "SYSTEM-STRICT-52"
PROMPT_REGISTRY = {"standard": PROMPT_STANDARD, "strict": PROMPT_STRICT, "reasoning": "SYSTEM-REASONING-53"}
'''


def _wrong_loads(truth: dict) -> str:
    """The truth with every load doubled: it solves, its loads are wrong (the ladder gives 0.75)."""
    loads = [{k: 2 * v if k in ("value", "wStart", "wEnd") else v for k, v in load.items()} for load in truth["loads"]]
    return json.dumps({**truth, "loads": loads})


@pytest.fixture
def official_copy(structural_data: Path, tmp_path: Path) -> Path:
    root = tmp_path / "structural-eval-benchmark"
    for folder in ("raw_models", "ground_truth_meta"):
        (root / "data" / folder).mkdir(parents=True)
        shutil.copy(structural_data / folder / "beam_001.json", root / "data" / folder / "beam_001.json")
    (root / "src").mkdir()
    (root / "src" / "prompts.py").write_text(PROMPTS)
    (root / "run_eval.py").write_text(RUNNER)
    return root


def _replayed(root: Path, tmp_path: Path, replies: list[str], **task_args):
    tmp_path.mkdir(parents=True, exist_ok=True)
    replay = tmp_path / "replies.jsonl"
    replay.write_text(json.dumps({"id": "beam_001", "replies": replies}))
    (log,) = inspect_eval(
        structural_eval(data=str(root), protocol="official", max_retries=len(replies) - 1, **task_args),
        model="mechbench/replay",
        model_args={"file": str(replay)},
        log_dir=str(tmp_path / "logs"),
        **QUIET_EVAL,
    )
    assert log.status == "success", log.error
    return log


def test_the_texts_are_read_from_the_copy(official_copy: Path) -> None:
    protocol = read_protocol(official_copy)
    assert protocol.system_prompts == {
        "standard": "SYSTEM-STANDARD-51",
        "strict": "SYSTEM-STRICT-52",
        "reasoning": "SYSTEM-REASONING-53",
    }
    assert protocol.user_text == "USER-TEXT-21: read the picture."
    assert protocol.findings == {
        "geometry": "FINDING-GEOMETRY-11",
        "supports": "FINDING-SUPPORTS-12",
        "loads": "FINDING-LOADS-13",
        "hinges": "FINDING-HINGES-14",
    }
    assert protocol.retry_message("wrong", "x", "hinges") == "WRAP-41 [DIAGNOSIS-34 FINDING-HINGES-14] FIX-42"
    assert (
        protocol.retry_message("unparsable", "the reply contains no JSON object", None) == "WRAP-41 [NO-JSON-31] FIX-42"
    )
    assert protocol.retry_message("invalid_model", "link L3: P9", None) == "WRAP-41 [SOLVER-32 link L3: P9 !] FIX-42"
    assert protocol.retry_message("unstable", "a mechanism", None) == "WRAP-41 [UNSTABLE-33] FIX-42"
    assert (
        protocol.retry_message("unparsable", "could not be read", None)
        == "WRAP-41 [SYNTAX-36 could not be read] FIX-42"
    )
    assert protocol.runner_temperatures == (0.6, 0.7)


def test_a_copy_without_the_texts_is_a_clear_error(official_copy: Path, tmp_path: Path) -> None:
    (official_copy / "run_eval.py").write_text(RUNNER.replace("def diagnose_failure", "def something_else"))
    with pytest.raises(DataSourceError, match=r"lacks what protocol=official needs: .*diagnostic finding geometry"):
        read_protocol(official_copy)
    (official_copy / "src" / "prompts.py").unlink()
    with pytest.raises(DataSourceError, match=r"has no src/prompts\.py"):
        read_protocol(official_copy)
    with pytest.raises(DataSourceError, match="bundled set has none"):
        structural_eval(data="bundled", protocol="official")


def test_an_official_run_sends_the_official_messages_at_the_official_temperatures(
    official_copy: Path, structural_data: Path, tmp_path: Path
) -> None:
    truth = json.loads((structural_data / "raw_models" / "beam_001.json").read_text())
    wrong = _wrong_loads(truth)
    log = _replayed(official_copy, tmp_path, [wrong, "I could not read the drawing."])
    (sample,) = log.samples
    system, user, first, retry, second = sample.messages
    assert system.role == "system" and system.text == "SYSTEM-STANDARD-51"
    assert user.role == "user" and [c.type for c in user.content] == ["text", "image"]
    assert user.content[0].text == "USER-TEXT-21: read the picture."
    assert first.role == "assistant" and first.text == wrong
    assert retry.role == "user" and retry.text == "WRAP-41 [DIAGNOSIS-34 FINDING-LOADS-13] FIX-42"
    assert second.role == "assistant" and second.text == "I could not read the drawing."
    temperatures = [e.config.temperature for e in sample.events if e.event == "model"]
    assert temperatures == [0.1, 0.4]  # the leaderboard release's
    score = sample.scores["structural_scorer"]
    # The leaderboard rule: partial credit only from the last attempt, which had no JSON: 0.
    assert score.value == 0.0 and score.metadata["partial_credit"] == "last"
    assert [a["outcome"] for a in score.metadata["attempts"]] == ["wrong", "unparsable"]
    assert log.eval.metadata["protocol"] == "official"
    assert set(log.eval.metadata["official_texts"]) == {"src/prompts.py", "run_eval.py"}


def test_the_best_attempt_rule_and_chosen_temperatures(
    official_copy: Path, structural_data: Path, tmp_path: Path
) -> None:
    truth = json.loads((structural_data / "raw_models" / "beam_001.json").read_text())
    wrong = _wrong_loads(truth)
    log = _replayed(
        official_copy,
        tmp_path,
        [wrong, "I could not read the drawing."],
        partial_credit="best",
        temperature_first=0.6,
        temperature_retry=0.7,
        prompt="strict",
    )
    (sample,) = log.samples
    assert sample.messages[0].text == "SYSTEM-STRICT-52"
    assert [e.config.temperature for e in sample.events if e.event == "model"] == [0.6, 0.7]
    assert sample.scores["structural_scorer"].value == 0.75  # the first attempt's ladder credit
    correct = _replayed(official_copy, tmp_path / "again", [wrong, json.dumps(truth)])
    assert correct.samples[0].scores["structural_scorer"].value == 1.0  # a correct retry wins under either rule


def test_structured_output_requests_the_framecalc_schema(
    structural_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fault_server import FaultServer

    truth = (structural_data / "raw_models" / "beam_001.json").read_text()
    monkeypatch.setenv("FAULT_API_KEY", "sk-test-structured-0001")
    with FaultServer(lambda messages: truth, []) as server:
        (log,) = inspect_eval(
            structural_eval(data=str(structural_data), filter="beam_001", structured=True),
            model="openai-api/fault/test-model",
            model_base_url=server.url,
            log_dir=str(tmp_path / "logs"),
            **QUIET_EVAL,
        )
        formats = [s.response_format for s in server.log.served]
    assert log.status == "success", log.error
    assert formats and all(f and f["type"] == "json_schema" for f in formats)
    schema = formats[0]["json_schema"]
    assert schema["name"] == "framecalc_model"
    assert {"points", "links", "supports", "loads"} <= set(schema["schema"]["properties"])
    score = log.samples[0].scores["structural_scorer"]
    assert score.value == 1.0 and score.metadata["attempts"][0]["path"] == "structured output"
