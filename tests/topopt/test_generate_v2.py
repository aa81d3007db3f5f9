"""mechbench's v2-style generator: upstream's drawing rules, and the load direction stored and used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mechbench.benchmarks.sphyr.generated_set import write_sphyr
from mechbench.benchmarks.sphyr.physics_scoring import physics_score
from mechbench.tasks import sphyr


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("v2")
    write_sphyr(out, 5, seed=11, version="v2", workers=1)
    return out


def _records(folder: Path, subject: str) -> list[dict]:
    return [json.loads(line) for line in (folder / f"{subject}.jsonl").read_text().splitlines()]


def test_records_follow_the_v2_rules(generated: Path, tmp_path: Path) -> None:
    easy, hard = _records(generated, "full_easy"), _records(generated, "full_hard")
    for e, h in zip(easy, hard, strict=True):
        assert tuple(e["load_direction"]) in {(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)}
        assert sum(t in ("1", "L", "S") for row in e["ground_truth"] for t in row) == 30  # 30 % of 100 cells
        assert all(t in ("L", "S") or t[1] == "." for row in h["ground_truth"] for t in row)
        # Masks never cover L or S; full masks every other cell.
        assert all((i == "V") != (t in ("L", "S")) for ri, rt in zip(e["input_grid"], e["ground_truth"], strict=True)
                   for i, t in zip(ri, rt, strict=True))  # fmt: skip
    for kind, count in (("1_random_cell_easy", 1), ("10_random_cell_hard", 10)):
        assert all(sum(t == "V" for row in r["input_grid"] for t in row) == count for r in _records(generated, kind))
    again = tmp_path / "again"
    write_sphyr(again, 5, seed=11, version="v2", subjects=["full_easy"], workers=1)
    assert (again / "full_easy.jsonl").read_bytes() == (generated / "full_easy.jsonl").read_bytes()


def test_the_stored_direction_is_the_one_the_truth_was_optimised_for(generated: Path) -> None:
    records = _records(generated, "full_easy")
    sideways = next(r for r in records if r["load_direction"][1] != 0)
    truth = sideways["ground_truth"]
    own = physics_score(sideways["input_grid"], truth, truth, tuple(sideways["load_direction"]))
    assert own.load_carrying and own.structural_efficiency > 0.95  # the truth is (near) optimal for its own load
    task = sphyr(data=str(generated), subject="full_easy", physics=False)
    by_index = {s.metadata["index"]: s for s in task.dataset}
    assert by_index[sideways["index"]].metadata["gravity"] == [float(v) for v in sideways["load_direction"]]
    assert "per record" in task.metadata["gravity"]
    turned = sphyr(data=str(generated), subject="full_easy", physics=False, rotation=2)
    flipped = [-float(v) + 0.0 for v in sideways["load_direction"]]
    assert {s.metadata["index"]: s for s in turned.dataset}[sideways["index"]].metadata["gravity"] == flipped


def test_the_cli_refuses_an_unknown_version(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from mechbench.cli import app

    result = CliRunner().invoke(app, ["generate", "sphyr", "-o", str(tmp_path), "--version", "v3"])
    assert result.exit_code == 2 and "--version" in result.output and "v2-20" in result.output
    result = CliRunner().invoke(app, ["generate", "sphyr", "-o", str(tmp_path), "--size", "12x12"])
    assert result.exit_code == 2 and "--size applies to --version v1 only" in result.output


def test_generate_writes_what_eval_reads_by_default(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from mechbench.cli import app

    result = CliRunner().invoke(app, ["generate", "sphyr", "-o", str(tmp_path), "--n", "1", "--subjects", "full_easy"])
    assert result.exit_code == 0, result.output
    (record,) = [json.loads(line) for line in (tmp_path / "full_easy.jsonl").read_text().splitlines()]
    assert len(record["ground_truth"]) == 10 and "load_direction" in record
    task = sphyr(data=str(tmp_path), subject="full_easy", physics=False)  # eval's default version, v2
    assert "per record" in task.metadata["gravity"]
