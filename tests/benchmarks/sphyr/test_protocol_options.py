"""Each SPhyR protocol option changes what it should: prompt styles, wording, few-shot, rotation, feedback rounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.sphyr.dataset import read_records
from mechbench.benchmarks.sphyr.feedback import feedback_lines
from mechbench.benchmarks.sphyr.grid import sample_grid
from mechbench.benchmarks.sphyr.physics_scoring import physics_score
from mechbench.benchmarks.sphyr.prompts import TEMPLATE, build_prompt, grid_from_prompt, render_grid
from mechbench.benchmarks.sphyr.rotation import rotate_direction, rotate_grid
from mechbench.benchmarks.sphyr.scoring import score_grid
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import sphyr


def _task(sphyr_v2_data: Path, **args):
    return sphyr(data=str(sphyr_v2_data), physics=False, samples="3", **args)


def test_styles_change_the_guidance_and_keep_the_grid(sphyr_v2_data: Path) -> None:
    default, enhanced, neutral = (
        _task(sphyr_v2_data, prompt_style=s).dataset[0].input[0].text
        for s in ("default", "physics_enhanced", "physics_neutral")
    )
    grid = sample_grid(_task(sphyr_v2_data).dataset[0].metadata, "input_grid")
    assert default == build_prompt(grid, "full_easy") and "{GRID}" in TEMPLATE  # the published prompt, unchanged
    assert "Physics to use:" in enhanced and "Important:" not in enhanced
    assert "'L' is a special marker" in neutral and "load" not in neutral.lower()
    for prompt in (default, enhanced, neutral):
        assert grid_from_prompt(prompt) == grid


def test_upstream_wording_is_read_at_run_time(sphyr_v2_data: Path, http_server, monkeypatch, tmp_path: Path) -> None:
    from mechbench.benchmarks.sphyr.versions import PROMPT_TEMPLATES_PATH, UPSTREAM_REPOSITORY, UPSTREAM_REVISION

    root, base = http_server
    file = root / UPSTREAM_REPOSITORY / UPSTREAM_REVISION / PROMPT_TEMPLATES_PATH
    file.parent.mkdir(parents=True)
    # A stand-in with upstream's names (the real texts are never copied into the repository).
    texts = {
        "PROMPT_TEMPLATE": "UP-DEFAULT {FILL_INSTRUCTION}\n\n{GRID}\n\nend",
        "FEW_SHOT_PROMPT_TEMPLATE": "UP-FEW {FILL_INSTRUCTION}\n\n{FEW_SHOT_EXAMPLES}\n\n{GRID}",
        "FEW_SHOT_EXAMPLES": "UP-EXAMPLE\n\n{EXAMPLE_GRID}\n\nUP-SOLVED\n\n{EXAMPLE_COMPLETED_GRID}",
        "PHYSICS_ENHANCED_PROMPT_TEMPLATE": "UP-ENHANCED {FILL_INSTRUCTION}\n\n{GRID}",
        "PHYSICS_NEUTRAL_PROMPT_TEMPLATE": "UP-NEUTRAL {FILL_INSTRUCTION}\n\n{GRID}",
    }
    file.write_text("\n".join(f"{k} = {json.dumps(v)}" for k, v in texts.items()))
    monkeypatch.setenv("MECHBENCH_GITHUB_RAW", base)
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    task = _task(sphyr_v2_data, wording="upstream", prompt_style="physics_neutral")
    assert task.dataset[0].input[0].text.startswith("UP-NEUTRAL 'V' cells with either")
    assert task.metadata["wording"] == "upstream"
    few = _task(sphyr_v2_data, wording="upstream", few_shot=2).dataset[0].input[0].text
    assert few.startswith("UP-FEW") and few.count("UP-EXAMPLE") == 2
    assert grid_from_prompt(few) == sample_grid(_task(sphyr_v2_data).dataset[0].metadata, "input_grid")


def test_few_shot_examples_are_solved_records_of_the_subject_never_the_sample(sphyr_v2_data: Path) -> None:
    records = read_records(sphyr_v2_data / "3_random_row_easy.jsonl")
    task = sphyr(data=str(sphyr_v2_data), subject="3_random_row_easy", physics=False, few_shot=3)
    truths = {render_grid(r.ground_truth) for r in records}
    for sample in task.dataset:
        prompt = sample.input[0].text
        assert prompt.count("Solved example") == 3 and sample.metadata["few_shot"] == 3
        head, _ = prompt.split("Below is the input grid with masked regions:")
        shown = [block for block in head.split("and its completed grid:\n\n")[1:]]
        assert all(block.split("\n\n")[0] in truths for block in shown)
        own = render_grid(sample_grid(sample.metadata, "input_grid"))
        assert own not in head  # the query itself is never an example
    again = sphyr(data=str(sphyr_v2_data), subject="3_random_row_easy", physics=False, few_shot=3)
    assert [s.input[0].text for s in again.dataset] == [s.input[0].text for s in task.dataset]  # seeded


def test_rotation_turns_grids_and_load_direction(sphyr_v2_data: Path, tmp_path: Path) -> None:
    grid = [["1", "2"], ["3", "4"]]
    assert rotate_grid(grid, 1) == [["3", "1"], ["4", "2"]] and rotate_grid(grid, 4) == grid
    assert [rotate_direction((1, 0), k) for k in range(4)] == [(1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 1.0)]
    plain, turned = _task(sphyr_v2_data), _task(sphyr_v2_data, rotation=1)
    for a, b in zip(plain.dataset, turned.dataset, strict=True):
        assert sample_grid(b.metadata, "input_grid") == rotate_grid(sample_grid(a.metadata, "input_grid"), 1)
        assert sample_grid(b.metadata, "ground_truth") == rotate_grid(sample_grid(a.metadata, "ground_truth"), 1)
        assert b.metadata["gravity"] == [0.0, -1.0] and grid_from_prompt(b.input[0].text) == sample_grid(
            b.metadata, "input_grid"
        )
    # Physics of a rotated sample with the rotated load equals the unrotated one: the rotation is consistent.
    (log,) = inspect_eval(
        sphyr(data=str(sphyr_v2_data), samples="2", rotation=1, subject="10_random_cell_easy"),
        model="mechbench/solid",
        log_dir=str(tmp_path),
        **QUIET_EVAL,
    )
    records = read_records(sphyr_v2_data / "10_random_cell_easy.jsonl")
    for sample, record in zip(log.samples, records, strict=False):
        answer = [["1" if t == "V" else t for t in row] for row in record.input_grid]
        unrotated = physics_score(record.input_grid, record.ground_truth, answer)
        value = next(iter(sample.scores.values())).value
        assert value["topology_score"] == pytest.approx(unrotated.topology_score, rel=1e-6)
        wrong_way = physics_score(
            sample_grid(sample.metadata, "input_grid"),
            sample_grid(sample.metadata, "ground_truth"),
            rotate_grid(answer, 1),
        )
        assert wrong_way.compliance != pytest.approx(unrotated.compliance, rel=1e-3)  # gravity really turned


def _replies(sphyr_v2_data: Path, tmp_path: Path, samples: int) -> tuple[Path, list[list[str]]]:
    """Three attempts per sample: all empty, all solid, the truth."""
    records = read_records(sphyr_v2_data / "full_easy.jsonl")[:samples]
    lines, answers = [], []
    for r in records:
        fills = [[[f if t == "V" else t for t in row] for row in r.input_grid] for f in ("0", "1")]
        replies = [render_grid(fills[0]), render_grid(fills[1]), render_grid(r.ground_truth)]
        answers.append(replies)
        lines.append(json.dumps({"id": f"full_easy-{r.index}", "replies": replies}))
    path = tmp_path / "replies.jsonl"
    path.write_text("\n".join(lines))
    return path, answers


@pytest.mark.parametrize("feedback", [True, False])
def test_feedback_rounds_score_every_round(sphyr_v2_data: Path, tmp_path: Path, feedback: bool) -> None:
    path, answers = _replies(sphyr_v2_data, tmp_path, 2)
    (log,) = inspect_eval(
        sphyr(data=str(sphyr_v2_data), samples="2", feedback_rounds=2, feedback=feedback),
        model="mechbench/replay",
        model_args={"file": str(path)},
        log_dir=str(tmp_path / "logs"),
        **QUIET_EVAL,
    )
    assert log.status == "success"
    names = {s.name for s in log.results.scores}
    assert {"topology_score_round_0", "topology_score_round_2", "topology_score_best_round"} <= names
    for sample, replies in zip(log.samples, answers, strict=True):
        meta = sample.metadata
        value = next(iter(sample.scores.values())).value
        for k, reply in enumerate(replies):
            grid = score_grid(sample_grid(meta, "input_grid"), sample_grid(meta, "ground_truth"), reply).parsed_grid
            expected = physics_score(
                sample_grid(meta, "input_grid"), sample_grid(meta, "ground_truth"), grid
            ).topology_score
            assert value[f"topology_score_round_{k}"] == pytest.approx(expected, rel=1e-9)
        assert value["topology_score"] == value["topology_score_round_2"]  # the headline is the last answer
        user = [m.text for m in sample.messages if m.role == "user"]
        if feedback:
            assert len(user) == 3 and "simulated as a linear elastic structure" in user[1]
            assert "did NOT carry the load" in user[1]  # the all-empty first answer
            assert replies[0] in user[1] and render_grid(sample_grid(meta, "input_grid")) in user[1]
            assert "MORE material" in user[2]  # the all-solid second answer
        else:  # the control: a fresh conversation with the original prompt each time
            assert len(user) == 1 and user[0] == sample.input[0].text


def test_feedback_never_names_cells(sphyr_v2_data: Path) -> None:
    record = read_records(sphyr_v2_data / "full_easy.jsonl")[0]
    answer = [["1" if t == "V" else t for t in row] for row in record.input_grid]
    cells = score_grid(record.input_grid, record.ground_truth, render_grid(answer))
    lines = feedback_lines(cells, physics_score(record.input_grid, record.ground_truth, answer))
    text = "\n".join(lines)
    assert "carried the load" in text and "Stiffness compared with the best design" in text
    assert "row" not in text.lower() and "column" not in text.lower() and "cell" not in text.lower()


def test_rounds_past_the_recorded_replies_keep_the_last_recorded_answer(sphyr_v2_data: Path, tmp_path: Path) -> None:
    path, answers = _replies(sphyr_v2_data, tmp_path, 1)
    (log,) = inspect_eval(
        sphyr(data=str(sphyr_v2_data), samples="1", feedback_rounds=5),
        model="mechbench/replay",
        model_args={"file": str(path)},
        log_dir=str(tmp_path / "logs"),
        **QUIET_EVAL,
    )
    (sample,) = log.samples
    assert sample.output.completion == answers[0][-1]  # the truth, recorded third: no empty answer invented
    assert [r["round"] for r in sample.metadata["sphyr_rounds"]] == [0, 1, 2]
    assert next(iter(sample.scores.values())).value["exact_match"] == 1.0
