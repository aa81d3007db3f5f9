"""StructuralEval data loading: official layout, rendered images, truth and difficulty sources."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mechbench.benchmarks.structural_eval.dataset import heuristic_difficulty, load_tasks
from mechbench.core.errors import DataSourceError, UsageError
from mechbench.frame import FrameModel


def test_a_copy_in_the_official_layout(structural_data: Path) -> None:
    tasks = load_tasks(structural_data)
    names = sorted(p.stem for p in (structural_data / "raw_models").glob("*.json"))
    assert [t.id for t in tasks] == names and len(tasks) == 30
    by_id = {t.id: t for t in tasks}
    for t in tasks:
        meta = json.loads((structural_data / "ground_truth_meta" / f"{t.id}.json").read_text())
        assert t.difficulty == meta["difficulty"] and t.difficulty_source == "metadata"
        assert t.truth_source == "published" and t.image_source == "official"
        assert Path(t.image).read_bytes() == (structural_data / "images" / f"{t.id}.png").read_bytes()
        assert t.response().max_moment == t.truth_max_moment
    assert by_id["truss_001"].category == "truss"


def test_the_published_copy_in_its_layout(published_structural: Path) -> None:
    tasks = load_tasks(published_structural)
    assert len(tasks) >= 20
    published = {t.id for t in tasks if t.truth_source == "published"}
    with_solution = {
        p.stem
        for p in (published_structural / "ground_truth_meta").glob("*.json")
        if "reactions" in json.loads(p.read_text()).get("solution", {})
    }
    assert published == with_solution and len(published) >= 13
    by_id = {t.id: t for t in tasks}
    assert by_id["beam_001"].difficulty == 2 and by_id["beam_001"].difficulty_source == "metadata"
    assert by_id["frame_010"].difficulty_source == "heuristic"
    for t in tasks:  # a copy without images (or a Git LFS pointer) is never sent as if it were the drawing
        assert Path(t.image).is_file() and t.image_source in ("official", "rendered")
        assert t.response().max_moment == t.truth_max_moment


def test_filter_and_official_images(structural_data: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(structural_data / "raw_models", data / "raw_models")
    shutil.copytree(structural_data / "ground_truth_meta", data / "ground_truth_meta")
    (data / "images").mkdir()
    shutil.copy(structural_data / "images" / "beam_001.png", data / "images" / "beam_001.png")
    tasks = load_tasks(tmp_path, filter="beam")
    assert [t.id for t in tasks] == [f"beam_{i:03d}" for i in range(1, 15)]
    assert tasks[0].image_source == "official" and tasks[1].image_source == "rendered"
    assert Path(tasks[1].image).read_bytes()[:4] == b"\x89PNG"  # drawn by mechbench's renderer, and said so
    with pytest.raises(UsageError, match="filter 'bridge' matches no task id"):  # the argument's mistake, named
        load_tasks(tmp_path, filter="bridge")


def test_broken_raw_model_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "raw_models").mkdir()
    (tmp_path / "raw_models" / "beam_009.json").write_text(json.dumps({"points": [], "links": "x"}))
    with pytest.raises(DataSourceError, match=r"raw model beam_009\.json is not a valid FrameCalc model"):
        load_tasks(tmp_path)
    with pytest.raises(DataSourceError, match="no raw_models folder"):
        load_tasks(tmp_path / "raw_models")


def test_heuristic_difficulty(structural_data: Path) -> None:
    simple = FrameModel.parse(json.loads((structural_data / "raw_models" / "beam_001.json").read_text()))
    big = FrameModel.parse(json.loads((structural_data / "raw_models" / "truss_001.json").read_text()))
    assert heuristic_difficulty(simple, "beam") == 1
    assert heuristic_difficulty(big, "truss") == 5
    assert 1 <= heuristic_difficulty(simple, "other") <= 5


def test_a_published_truths_largest_moment_is_the_true_peak(structural_data: Path) -> None:
    """The published files sample the moment diagram; the compared value is the peak, as for an answer."""
    from mechbench.benchmarks.structural_eval.scoring import response_of
    from mechbench.frame import FrameModel, solve

    for task in load_tasks(structural_data):
        if task.truth_source != "published":
            continue
        raw = task.raw_model
        peak = solve(raw, records=False)["maxMoment"]["overall"]
        assert task.truth_max_moment == peak
        meta = json.loads((structural_data / "ground_truth_meta" / f"{task.id}.json").read_text())
        sampled = response_of(FrameModel.parse(raw), meta["solution"]).max_moment
        assert sampled <= peak * (1 + 1e-8)  # never above the peak (stored to 9 digits); they may fall short
