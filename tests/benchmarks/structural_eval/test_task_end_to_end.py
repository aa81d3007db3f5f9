"""StructuralEval through Inspect: debug answers, replayed wrong answers, retries with feedback, downloads."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import structural_eval
from tests.benchmarks.structural_eval.test_scoring import _mutate


def _run(tmp_path: Path, model: str = "mockllm/model", model_args: dict | None = None, **task_args):
    (log,) = inspect_eval(
        structural_eval(**task_args),
        model=model,
        model_args=model_args or {},
        log_dir=str(tmp_path / "logs"),
        **QUIET_EVAL,
    )
    assert log.status == "success", log.error
    return log


def _metrics(log) -> dict[str, float]:
    return {name: m.value for s in log.results.scores for name, m in s.metrics.items()}


def test_debug_answers_score_one_on_every_task(structural_data: Path, tmp_path: Path) -> None:
    log = _run(tmp_path, data=str(structural_data), debug=True)
    assert log.results.total_samples == len(list((structural_data / "raw_models").glob("*.json"))) == 30
    assert all(s.scores["structural_scorer"].value == 1.0 for s in log.samples)
    metrics = _metrics(log)
    assert metrics["weighted_accuracy"] == 1.0 and metrics["exact_success"] == 1.0
    assert {"beam", "frame", "truss"} <= set(metrics)
    assert {s.metadata["image_source"] for s in log.samples} == {"official"}  # every drawing is the copy's own


def _replay(tmp_path: Path, records: list[dict]) -> str:
    path = tmp_path / "replies.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records))
    return str(path)


@pytest.mark.parametrize(("step", "ratio"), [("geometry", 0.0), ("supports", 0.25), ("hinges", 0.5), ("loads", 0.75)])
def test_replayed_wrong_answers_reach_their_ladder_step(
    structural_data: Path, tmp_path: Path, step: str, ratio: float
) -> None:
    truth = json.loads((structural_data / "raw_models" / "frame_001.json").read_text())
    file = _replay(tmp_path, [{"id": "frame_001", "reply": f"<json>{json.dumps(_mutate(truth, step))}</json>"}])
    log = _run(
        tmp_path, "mechbench/replay", {"file": file}, data=str(structural_data), filter="frame_001", max_retries=0
    )
    (sample,) = log.samples
    score = sample.scores["structural_scorer"]
    assert score.value == ratio and score.metadata["step"] == step
    assert _metrics(log)["weighted_accuracy"] == ratio


def test_retry_after_feedback_keeps_only_the_latest_failed_turn(structural_data: Path, tmp_path: Path) -> None:
    truth = (structural_data / "raw_models" / "beam_003.json").read_text()
    file = _replay(tmp_path, [{"id": "beam_003", "replies": ["I am not sure.", '{"points": 3}', truth]}])
    log = _run(tmp_path, "mechbench/replay", {"file": file}, data=str(structural_data), filter="beam_003")
    (sample,) = log.samples
    score = sample.scores["structural_scorer"]
    assert score.value == 1.0
    assert [a["outcome"] for a in score.metadata["attempts"]] == ["unparsable", "invalid_model", "correct"]
    assert score.explanation.startswith("attempt 3 of 3: correct")
    roles = [m.role for m in sample.messages]
    assert roles == ["user", "assistant", "user", "assistant"]  # the first failed turn was dropped
    assert "The JSON model is not valid" in sample.messages[2].text
    assert _metrics(log)["unparsable_replies"] == pytest.approx(1 / 3)


def test_malformed_replies_lose_nothing(structural_data: Path, tmp_path: Path) -> None:
    file = _replay(
        tmp_path, [{"id": f"beam_00{i}", "replies": ["", "{{{{", "```json\n[1, 2]\n```"]} for i in range(1, 10)]
    )
    log = _run(tmp_path, "mechbench/replay", {"file": file}, data=str(structural_data), filter="beam_00")
    assert len(log.samples) == 9
    for sample in log.samples:
        score = sample.scores["structural_scorer"]
        assert score.value == 0.0 and len(score.metadata["attempts"]) == 3
        assert all(a["outcome"] in ("unparsable", "invalid_model") for a in score.metadata["attempts"])


def test_download_from_a_local_http_server(structural_data: Path, http_server, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    root, base = http_server
    with zipfile.ZipFile(root / "structural-eval.zip", "w") as zf:
        for folder in ("raw_models", "ground_truth_meta"):
            for path in (structural_data / folder).glob("*.json"):
                if folder == "raw_models" or path.stem != "beam_002":  # one task without its solution
                    zf.write(path, f"structural-eval-benchmark/data/{folder}/{path.name}")
    log = _run(tmp_path, data=f"{base}/structural-eval.zip", filter="beam_00", debug=True)
    assert len(log.samples) == 9 and all(s.scores["structural_scorer"].value == 1.0 for s in log.samples)
    assert {s.metadata["truth_source"] for s in log.samples} == {"published", "solver"}


def test_replay_with_default_retries_scores_the_recorded_answer(structural_data: Path, tmp_path: Path) -> None:
    """One recorded (wrong) answer and the default 2 retries: no empty answers are invented for the retries."""
    truth = json.loads((structural_data / "raw_models" / "beam_001.json").read_text())
    wrong = json.dumps({**truth, "points": [{**p, "x": p["x"] * 2} for p in truth["points"]]})
    file = _replay(tmp_path, [{"id": "beam_001", "reply": wrong}])
    log = _run(tmp_path, "mechbench/replay", {"file": file}, data=str(structural_data), filter="beam_001")
    (sample,) = log.samples
    score = sample.scores["structural_scorer"]
    assert len(score.metadata["attempts"]) == 1 and score.metadata["attempts"][0]["outcome"] == "wrong"
    assert [m.role for m in sample.messages] == ["user", "assistant"] and sample.messages[-1].text == wrong
    assert _metrics(log)["unparsable_replies"] == 0.0
