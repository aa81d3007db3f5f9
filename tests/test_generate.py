"""Generators: determinism, stability and drawability, oracle runs, physics of generated SPhyR tasks."""

from __future__ import annotations

import filecmp
import json
import random
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from typer.testing import CliRunner

from mechbench.benchmarks.sphyr.dataset import SUBJECTS, read_records
from mechbench.benchmarks.sphyr.generate import mask
from mechbench.benchmarks.sphyr.physics_scoring import physics_score
from mechbench.cli import app
from mechbench.frame import FrameModel, solve
from mechbench.frame.generate import generate_structure
from mechbench.frame.render import render
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.sources.resolve import bundled
from mechbench.tasks import structural_eval

runner = CliRunner()


def _same_tree(a: Path, b: Path) -> bool:
    comparison = filecmp.dircmp(a, b)
    if comparison.left_only or comparison.right_only or comparison.diff_files or comparison.funny_files:
        return False
    return all(_same_tree(a / d, b / d) for d in comparison.common_dirs)


@pytest.mark.slow
def test_same_seed_same_bytes(tmp_path: Path) -> None:
    for kind, extra in (("structural", ["--n", "6"]), ("sphyr", ["--n", "2"])):
        for name in ("a", "b"):
            result = runner.invoke(
                app, ["generate", kind, "-o", str(tmp_path / f"{kind}-{name}"), "--seed", "5", *extra]
            )
            assert result.exit_code == 0, result.stderr
        assert _same_tree(tmp_path / f"{kind}-a", tmp_path / f"{kind}-b")
    other = tmp_path / "other"
    runner.invoke(app, ["generate", "structural", "-o", str(other), "--seed", "6", "--n", "6"])
    assert not _same_tree(tmp_path / "structural-a", other)


@pytest.mark.parametrize("difficulty", [1, 2, 3, 4, 5])
def test_generated_structures_are_stable_and_drawable(difficulty: int) -> None:
    rng = random.Random(difficulty)
    for _ in range(8):
        kind, model = generate_structure(rng, difficulty)
        parsed = FrameModel.parse(model)
        result = solve(parsed)
        assert all(abs(r["value"]) < 1e6 for r in result["reactions"])
        # Round, readable numbers: coordinates on a half-metre grid, loads multiples of 1.
        assert all((2 * p.x).is_integer() and (2 * p.y).is_integer() for p in parsed.points)
        assert len(render(model)) > 10_000
        assert kind in ("beam", "frame", "truss")


def test_oracle_scores_one_on_generated_tasks(tmp_path: Path) -> None:
    runner.invoke(app, ["generate", "structural", "-o", str(tmp_path / "gen"), "--n", "10", "--seed", "9"])
    (log,) = inspect_eval(
        structural_eval(data=str(tmp_path / "gen"), debug=True),
        model="mockllm/model",
        log_dir=str(tmp_path / "logs"),
        **QUIET_EVAL,
    )
    assert log.status == "success" and len(log.samples) == 10
    assert all(s.scores["structural_scorer"].value == 1.0 for s in log.samples)
    assert {s.metadata["image_source"] for s in log.samples} == {"official"}
    assert {s.metadata["difficulty"] for s in log.samples} == {1, 2, 3, 4, 5}


def test_masks_follow_the_published_rules() -> None:
    truth = [["L"] * 3 + ["0"] * 7] + [["0"] * 10 for _ in range(8)] + [["S"] * 4 + ["0"] * 6]
    rng = random.Random(0)
    full = mask(truth, "full", rng)
    assert all(row == ["V"] * 10 for row in full[1:9]) and full[0] == truth[0] and full[9] == truth[9]
    rows = mask(truth, "3_random_row", rng)
    masked_rows = [r for r, row in enumerate(rows) if row == ["V"] * 10]
    assert len(masked_rows) == 3 and all(1 <= r <= 8 for r in masked_rows)
    columns = mask(truth, "1_random_column", rng)
    assert sum(all(row[c] == "V" for row in columns) for c in range(10)) == 1
    cells = mask(truth, "5_random_cell", rng)
    assert 1 <= sum(t == "V" for row in cells for t in row) <= 5


def test_bundled_sphyr_set_physics(sphyr_data: Path) -> None:
    folder = bundled("sphyr")
    assert sorted(p.stem for p in folder.glob("*.jsonl")) == sorted(SUBJECTS)
    for subject in ("full_easy", "full_hard"):
        for record in read_records(folder / f"{subject}.jsonl")[:3]:
            truth = physics_score(record.input_grid, record.ground_truth, record.ground_truth)
            empty = [
                [("0.0" if subject.endswith("hard") else "0") if t == "V" else t for t in row]
                for row in record.input_grid
            ]
            assert physics_score(record.input_grid, record.ground_truth, empty).topology_score < truth.topology_score
            assert truth.topology_score > 0.5  # the truth is near the optimiser's own design
            assert truth.load_carrying
    easy = read_records(folder / "full_easy.jsonl")
    hard = read_records(folder / "full_hard.jsonl")
    for e, h in zip(easy, hard, strict=True):  # easy = hard with every non-zero set to 1
        assert e.ground_truth == [
            [t if t in ("L", "S") else ("1" if float(t) > 0 else "0") for t in row] for row in h.ground_truth
        ]


def test_bundled_structural_set_is_small_and_complete() -> None:
    data = bundled("structural_eval") / "data"
    ids = sorted(p.stem for p in (data / "raw_models").glob("*.json"))
    assert len(ids) == 30
    for task_id in ids:
        assert (data / "images" / f"{task_id}.png").is_file()
        meta = json.loads((data / "ground_truth_meta" / f"{task_id}.json").read_text())
        assert meta["solution"]["maxMoment"]["overall"] >= 0 and 1 <= meta["difficulty"] <= 5
    assert sum(p.stat().st_size for p in data.rglob("*") if p.is_file()) < 3_000_000


def test_an_unreachable_official_source_is_an_error_never_a_substitution(tmp_path: Path) -> None:
    from mechbench.core.errors import DataSourceError
    from mechbench.sources.download import cached_url
    from mechbench.sources.resolve import resolve_or_official

    unreachable = "http://127.0.0.1:9/official.zip"  # nothing listens on the discard port
    with pytest.raises(DataSourceError, match=r"official sphyr data could not be fetched .*use -T data=bundled"):
        resolve_or_official(None, unreachable, "sphyr", hub_paths=None)
    assert resolve_or_official("bundled", unreachable, "structural_eval", hub_paths=None) == bundled("structural_eval")
    assert cached_url(unreachable, tmp_path) is None  # looking in the cache never downloads
    with pytest.raises(DataSourceError, match=r"'bundld' is neither .* dataset id \(did you mean bundled\?\)"):
        resolve_or_official("bundld", unreachable, "sphyr", hub_paths=None)
    with pytest.raises(DataSourceError, match=r"dataset id$"):  # no hint where nothing is close
        resolve_or_official(str(tmp_path / "nothing"), unreachable, "sphyr", hub_paths=None)
