"""The tool setting (-T tools=true): the loop, the budget, the records, the scripted agent, the OpenAI wire format,
and that no tool result carries the truth or the score."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageTool
from inspect_ai.tool import ToolError

from mechbench.benchmarks.sphyr.baselines import sphyr_solid
from mechbench.benchmarks.sphyr.tools import analysis
from mechbench.benchmarks.structural_eval.dataset import load_tasks
from mechbench.benchmarks.structural_eval.tools import solution_summary
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import sphyr, structural_eval

pytestmark = pytest.mark.slow  # whole Inspect runs, servers or simulations: left out of -m 'not slow'


def _run(task, model: str, tmp_path: Path, **kwargs):
    (log,) = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), **QUIET_EVAL, **kwargs)
    assert log.status == "success", log.error
    return log


def _tool_results(sample) -> list[ChatMessageTool]:
    return [m for m in sample.messages if isinstance(m, ChatMessageTool) and m.function != "submit"]


def test_structural_tool_demo_calls_each_tool_and_every_sample_is_scored(tmp_path: Path) -> None:
    log = _run(structural_eval(data="bundled", tools=True), "mechbench/tool-demo", tmp_path, limit=3)
    metrics = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
    assert metrics["tool_calls"] == 3 and metrics["submitted"] == 1 and "weighted_accuracy" in metrics
    for sample in log.samples:
        assert set(sample.scores) == {"structural_scorer", "tool_use"}
        record = sample.scores["tool_use"].metadata["tool_use"]
        assert record["tools"] == ["render_frame", "solve_frame"] and record["failed_calls"] == 0
        results = _tool_results(sample)
        assert "reactions" in results[0].text and results[0].error is None
        assert any(getattr(c, "image", None) for c in results[1].content)  # the drawing, as an image
        # Nothing of the truth or the verdict: not the truth's JSON, not the judge's words.
        task = next(t for t in load_tasks("bundled") if t.id == sample.id)
        for message in results:
            assert json.dumps(task.raw_model) not in message.text
            assert "expected" not in message.text and "correct" not in message.text.lower()


def test_sphyr_tool_demo_analyses_then_submits_and_the_judge_scores_the_submission(tmp_path: Path) -> None:
    log = _run(sphyr(data="bundled", subject="full_easy", tools=True), "mechbench/tool-demo", tmp_path, limit=3)
    for sample in log.samples:
        results = [json.loads(m.text) for m in _tool_results(sample)]
        assert len(results) == 2 and {"compliance", "carries_load", "volume_fraction"} <= set(results[0])
        assert sample.target not in "".join(m.text for m in _tool_results(sample))  # no ground truth
        value = sample.scores["sphyr_scorer"].value
        assert value["valid_output_grid"] == 1.0 and "topology_score" in value  # the usual judge, on the submission


def test_tool_results_depend_on_the_models_input_only() -> None:
    # The SPhyR tool is built from a sample's input grid and load direction alone: metadata without the ground
    # truth (or anything derived from it) is enough, so no result can carry it.
    from mechbench.benchmarks.sphyr.tools import tools as sphyr_tools

    grid = [["L", "0", "0"], ["V", "V", "V"], ["S", "S", "S"]]
    assert len(sphyr_tools({"input_grid": grid, "gravity": [1.0, 0.0]}, 8)) == 1
    found = analysis("L 1 0\n1 1 0\nS S S", grid, (1.0, 0.0))
    assert found["carries_load"] and set(found) == {
        "compliance",
        "carries_load",
        "volume_fraction",
        "unfilled_or_unreadable_cells",
        "highest_strain_energy_cells",
        "note",
    }
    text = solution_summary(json.dumps(load_tasks("bundled")[0].raw_model))
    assert json.loads(text)["reactions"] and "score" not in text


def test_hostile_and_wrong_tool_inputs_are_tool_errors() -> None:
    grid = [["L", "0"], ["S", "S"]]
    for bad in ("", "not a grid", "L 1\n1 1\n1 1", "{}" * 10):
        with pytest.raises(ToolError):
            analysis(bad, grid, (1.0, 0.0))
    for bad in ("", "{", '{"points": 5}', "[" * 100_000, '{"points": [], "links": [], "supports": [], "loads": []}'):
        with pytest.raises(ToolError):
            solution_summary(bad)


def _replay_conversations(tmp_path: Path, task, turns_of) -> Path:
    lines = [json.dumps({"id": s.id, "turns": turns_of(s.input[0].text)}) for s in list(task.dataset)[:2]]
    path = tmp_path / "conversations.jsonl"
    path.write_text("\n".join(lines))
    return path


def test_a_call_past_the_budget_is_a_tool_error_and_is_recorded(tmp_path: Path) -> None:
    task = sphyr(data="bundled", subject="full_easy", tools=True, tool_budget=1)

    def turns(prompt: str) -> list[dict]:  # a recording that ignores the budget: two analyses, then submit
        grid = sphyr_solid(prompt)
        call = {"tool": "analyse_grid", "arguments": {"grid": grid}}
        return [call, call, {"tool": "submit", "arguments": {"answer": grid}}]

    path = _replay_conversations(tmp_path, task, turns)
    log = _run(task, "mechbench/replay", tmp_path, limit=2, model_args={"file": str(path)})
    for sample in log.samples:
        first, second = _tool_results(sample)
        assert first.error is None and second.error is not None and "budget of 1 calls" in second.error.message
        record = sample.scores["tool_use"].metadata["tool_use"]
        assert record["calls"] == 2 and record["failed_calls"] == 1 and record["answer_after_failed_call"]
        assert record["answer_via"] == "submit" and sample.scores["sphyr_scorer"].value["valid_output_grid"] == 1.0


def test_once_the_budget_is_spent_the_model_is_asked_to_submit(tmp_path: Path) -> None:
    log = _run(structural_eval(data="bundled", tools=True, tool_budget=1), "mechbench/tool-demo", tmp_path, limit=1)
    (sample,) = log.samples
    record = sample.scores["tool_use"].metadata["tool_use"]
    assert record["calls"] == 1 and record["answer_via"] == "submit"  # told to submit, it did
    assert sample.scores["structural_scorer"].value is not None


def test_submit_takes_text_or_json_and_refuses_a_call_without_an_answer() -> None:
    from inspect_ai.tool import ToolCall

    from mechbench.harness.tools import _submitted

    def call(arguments: dict, parse_error: str | None = None) -> ToolCall:
        return ToolCall(id="1", function="submit", arguments=arguments, parse_error=parse_error)

    assert _submitted(call({"answer": "L 1"})) == ("L 1", None)
    assert _submitted(call({"answer": {"points": []}})) == ('{"points": []}', None)  # JSON, not a Python repr
    assert _submitted(call({}))[0] is None and _submitted(call({}, "bad JSON"))[0] is None


def test_the_report_compares_a_tool_run_with_the_same_models_other_setting_only() -> None:
    from mechbench.core.intervals import Observation, paired_difference
    from mechbench.report.build import settings_compared
    from mechbench.report.compare import compare_rows, row_key

    def row(model: str, setting: str, digest: str = "d") -> dict:
        base = {"benchmark": "sphyr", "model": model, "metric": "topology_score", "data": "x", "data_sha256": digest}
        return {**base, "setting": setting, "data": f"x {digest}"}

    def scores(shift: float) -> list[Observation]:
        return [Observation(k, k // 3, (k % 5) / 5 + shift) for k in range(30)]

    board = [
        row("m", "v2, default prompt, tools (budget 8), load by published convention"),
        row("m", "v2, default prompt, load by published convention"),
        row("m", "v2, few-shot prompt, load by published convention"),  # another protocol: not compared
        row("m", "v2, default prompt, load by published convention", digest="e"),  # other data
        row("other", "v2, default prompt, load by published convention"),  # another model
    ]
    observations = {row_key(r): scores(shift) for r, shift in zip(board, (0.2, 0.0, 0.1, -0.1, -0.4), strict=True)}
    for r in board:
        r["value"] = sum(o.value for o in observations[row_key(r)]) / 30
    labels = {row_key(r): f"{r['model']} {k}" for k, r in enumerate(board)}
    (compared,) = settings_compared(board, compare_rows(board, observations, labels))
    paired = paired_difference(observations[row_key(board[0])], observations[row_key(board[1])])
    assert paired is not None
    assert compared["difference"] == pytest.approx(0.2) and compared["ci95"] == pytest.approx(paired.half)
    assert compared["other_setting"] == board[1]["setting"]


def test_analyse_grid_takes_loads_and_supports_from_the_input_only() -> None:
    grid = [["L", "V", "V"], ["V", "V", "V"], ["S", "S", "S"]]
    written = analysis("L 1 S\n1 1 L\nS S S", grid, (1.0, 0.0))  # an S and an L written into free cells
    solid = analysis("L 1 1\n1 1 1\nS S S", grid, (1.0, 0.0))
    assert written == solid  # they are material, not new supports or loads


class _ToolCallingServer(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat-completions endpoint that first calls analyse_grid, then submits."""

    seen: ClassVar[list[dict]] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append(body)
        prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
        prompt = prompt if isinstance(prompt, str) else "".join(p.get("text", "") for p in prompt)
        grid = sphyr_solid(prompt)
        answered = any(m["role"] == "tool" for m in body["messages"])
        name, arguments = ("submit", {"answer": grid}) if answered else ("analyse_grid", {"grid": grid})
        call = {
            "id": f"call_{len(self.seen)}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        reply = {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {"role": "assistant", "content": None, "tool_calls": [call]},
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def test_the_tool_loop_through_inspects_openai_compatible_provider(tmp_path: Path, monkeypatch) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _ToolCallingServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("WIRE_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}/v1")
    monkeypatch.setenv("WIRE_API_KEY", "test")
    try:
        log = _run(sphyr(data="bundled", subject="full_easy", tools=True), "openai-api/wire/m", tmp_path, limit=2)
    finally:
        server.shutdown()
    offered = {t["function"]["name"] for t in _ToolCallingServer.seen[0]["tools"]}
    assert offered == {"analyse_grid", "submit"}
    for sample in log.samples:
        assert sample.scores["tool_use"].metadata["tool_use"]["calls"] == 1
        assert sample.scores["sphyr_scorer"].value["valid_output_grid"] == 1.0


def test_recorded_tool_conversations_replay_with_the_tools_run_again(tmp_path: Path) -> None:
    task = sphyr(data="bundled", subject="full_easy", tools=True)
    samples = list(task.dataset)[:2]
    lines = []
    for sample in samples:
        prompt = sample.input[0].text
        grid = sphyr_solid(prompt)
        turns = [
            {"tool": "analyse_grid", "arguments": {"grid": "not a grid"}},
            {"tool": "analyse_grid", "arguments": {"grid": grid}},
            {"tool": "submit", "arguments": {"answer": grid}},
        ]
        lines.append(json.dumps({"id": sample.id, "turns": turns}))
    (tmp_path / "conversations.jsonl").write_text("\n".join(lines))
    log = _run(task, "mechbench/replay", tmp_path, limit=2, model_args={"file": str(tmp_path / "conversations.jsonl")})
    for sample in log.samples:
        first, second = _tool_results(sample)
        assert first.error is not None and "must have the task's" in first.error.message  # run again, here
        assert json.loads(second.text)["carries_load"] is True
        record = sample.scores["tool_use"].metadata["tool_use"]
        assert record["calls"] == 2 and record["failed_calls"] == 1 and not record["answer_after_failed_call"]
        assert sample.scores["sphyr_scorer"].value["valid_output_grid"] == 1.0


def test_a_malformed_recorded_conversation_is_one_line(tmp_path: Path) -> None:
    from mechbench.providers.replay import ReplayBook, ReplayFileError

    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"id": "x", "turns": [{"reply": "ok"}, {"tool": 3}]}))
    with pytest.raises(ReplayFileError, match="turn 1 must be"):
        ReplayBook(path)


def test_a_failure_of_mechbenchs_own_tool_is_a_tool_error_not_the_samples_end() -> None:
    import anyio

    from mechbench.harness.tools import guarded

    async def broken() -> str:
        raise RecursionError("deep")

    async def main() -> None:
        with pytest.raises(ToolError, match=r"mechbench's solve_frame failed .*not your mistake"):
            await guarded("solve_frame", broken)

    anyio.run(main)
