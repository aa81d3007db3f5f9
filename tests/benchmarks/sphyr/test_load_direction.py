"""SPhyR's load direction: upstream's convention, or each sample's own, recovered by re-running the optimiser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from typer.testing import CliRunner

from mechbench.benchmarks.sphyr import load_direction
from mechbench.benchmarks.sphyr.generated_set import write_sphyr
from mechbench.benchmarks.sphyr.grid import gravity_vector
from mechbench.benchmarks.sphyr.load_direction import AXES, find, mean_over_directions, recover_axes
from mechbench.benchmarks.sphyr.physics_scoring import PhysicsScore, physics_score
from mechbench.benchmarks.sphyr.rotation import rotate_grid
from mechbench.cli import app
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import sphyr
from tests.published import published_data

# Truth with loads on the top edge and supports on the left edge (rows 3-5): "toward the supports" is left/down.
TRUTH = [["0"] * 6 for _ in range(6)]
TRUTH[0][4] = "L"
for _row in (3, 4, 5):
    TRUTH[_row][0] = "S"


def _axis_of(direction: tuple[float, float]) -> str:
    unit = gravity_vector(direction)
    return next(
        code
        for code, axis in AXES.items()
        if abs(abs(sum(a * b for a, b in zip(unit, gravity_vector(axis), strict=True))) - 1) < 1e-9
    )


@pytest.fixture(scope="module")
def drawn_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mechbench's own v2 samples: each record stores the direction its truth was optimised for."""
    out = tmp_path_factory.mktemp("drawn")
    write_sphyr(out, 4, seed=23, version="v2", subjects=["full_easy", "full_hard"], workers=1)
    return out


@pytest.fixture(scope="module")
def drawn(drawn_folder: Path) -> list[dict]:
    return [json.loads(line) for name in ("full_easy", "full_hard") for line in (drawn_folder / f"{name}.jsonl").open()]


@pytest.fixture(scope="module")
def upstream_format(drawn_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same records as upstream writes them: no load direction."""
    out = tmp_path_factory.mktemp("upstream-format")
    for path in drawn_folder.glob("*.jsonl"):
        records = [json.loads(line) for line in path.read_text().splitlines()]
        (out / path.name).write_text(
            "".join(json.dumps({k: v for k, v in r.items() if k != "load_direction"}) + "\n" for r in records)
        )
    return out


def test_recovery_finds_the_axis_each_truth_was_drawn_with(drawn: list[dict]) -> None:
    for record in drawn:
        axes = recover_axes(record["ground_truth"])
        assert _axis_of(tuple(record["load_direction"])) in axes, record["index"]
        # The recovery works in the record's own frame: a turned truth is turned back first.
        turned = rotate_grid(record["ground_truth"], 1)
        finding = find(turned, (0.0, -1.0), "recovered", rotation=1)
        assert finding.status in ("recovered", "ambiguous")
        expected = gravity_vector(tuple(record["load_direction"]))
        expected_turned = (expected[1], -expected[0])
        assert any(_axis_of(d) == _axis_of(expected_turned) for d in finding.directions)
    # A truth the optimiser did not make is never given a guessed direction.
    broken = [list(row) for row in drawn[0]["ground_truth"]]
    r, c = next((r, c) for r, row in enumerate(broken) for c, t in enumerate(row) if t == "1")
    broken[r][c] = "0"
    assert recover_axes(broken) == ()
    assert find(broken, (1.0, 0.0), "recovered").record() == {
        "convention": "recovered",
        "direction": "not recovered",
        "axes": [],
        "scored_under": [[1.0, 0.0]],
    }


@pytest.mark.parametrize(
    ("axes", "status", "directions"),
    [
        (("V",), "recovered", [(1.0, 0.0)]),  # the published vector, sign included, where its axis fits
        (("H",), "recovered", [(0.0, -1.0)]),  # otherwise the sign toward the supports (left)
        (("V", "A"), "ambiguous", [(1.0, 0.0)]),  # two fit, one is the published axis: kept
        (("H", "D"), "ambiguous", [(0.0, -1.0), (1.0, 1.0)]),  # neither is: scored under both, mean reported
        ((), "not recovered", [(1.0, 0.0)]),
    ],
)
def test_the_rules_for_one_two_or_no_axes(monkeypatch, axes, status, directions) -> None:
    monkeypatch.setattr(load_direction, "cached_axes", lambda truth: axes)
    finding = find(TRUTH, (1.0, 0.0), "recovered")
    assert finding.status == status and list(finding.directions) == directions
    assert find(TRUTH, (1.0, 0.0), "published").directions == ((1.0, 0.0),)
    assert find(TRUTH, (0.0, 1.0), "recovered", stored=True).status == "stored"


def test_an_ambiguous_answer_gets_the_mean_over_both_axes() -> None:
    a = PhysicsScore(physically_valid=True, load_carrying=True, topology_score=0.8, compliance=2.0)
    b = PhysicsScore(physically_valid=True, load_carrying=False, topology_score=0.0, compliance=None)
    mean = mean_over_directions([a, b])
    assert mean.topology_score == pytest.approx(0.4) and mean.load_carrying == 0.5 and mean.compliance is None
    assert mean.metrics()["load_carrying"] == 0.5 and mean.physically_valid is True
    assert mean_over_directions([a]) is a


def test_the_task_judges_each_sample_under_the_load_it_was_drawn_with(
    drawn: list[dict], upstream_format: Path, tmp_path: Path
) -> None:
    """Upstream-format records: the recovered run scores the truth as the stored direction does."""
    logs = {}
    for convention in ("published", "recovered"):
        task = sphyr(
            data=str(upstream_format), subject="full_easy", version="v2", oracle=True, load_direction=convention
        )
        (logs[convention],) = inspect_eval(task, log_dir=str(tmp_path / convention), **QUIET_EVAL)
        assert logs[convention].status == "success"
        assert logs[convention].eval.metadata["load_direction"] == convention
    stored = {f"full_easy-{r['index']}": r for r in drawn[:4]}
    before = {s.id: s.scores["sphyr_scorer"] for s in logs["published"].samples}
    sideways = 0
    for sample in logs["recovered"].samples:
        score, record = sample.scores["sphyr_scorer"], stored[str(sample.id)]
        found = score.metadata["load_direction"]
        assert before[sample.id].metadata["load_direction"]["direction"] == "published"
        assert _axis_of(tuple(record["load_direction"])) in found["axes"], sample.id
        truth = record["ground_truth"]
        own = physics_score(record["input_grid"], truth, truth, tuple(record["load_direction"]))
        if found["direction"] == "recovered":
            assert score.value["topology_score"] == pytest.approx(own.topology_score, abs=1e-9)
        if found["scored_under"] != [[1.0, 0.0]]:
            sideways += 1
    assert sideways >= 1
    assert "recovered per sample" in logs["recovered"].eval.metadata["gravity"]
    from mechbench.report.build import build_report

    # The report keeps the two conventions apart and says which produced each row.
    settings = {r["setting"] for r in build_report(tmp_path).leaderboard if r["benchmark"] == "sphyr"}
    assert len(settings) == 2
    assert any("load recovered per sample" in s for s in settings)
    assert any("load by published convention" in s for s in settings)


def test_score_and_validate_take_the_choice(upstream_format: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    data = ["--data", str(upstream_format), "--version", "v2", "--samples", "3"]
    means = {}
    for convention in ("published", "recovered"):
        out = tmp_path / f"{convention}.json"
        result = runner.invoke(app, ["validate", "sphyr", *data, "--load-direction", convention, "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert f"load {convention}" in result.output
        report = json.loads(out.read_text())
        assert "not recovered" not in report["directions"]
        means[convention] = report["means"]["answer"]
    assert means["recovered"] > means["published"]
    records = [json.loads(line) for line in (upstream_format / "full_easy.jsonl").read_text().splitlines()[:3]]
    completions = tmp_path / "completions.jsonl"
    completions.write_text(
        "".join(
            json.dumps({**r, "completion": "\n".join(" ".join(row) for row in r["ground_truth"])}) + "\n"
            for r in records
        )
    )
    out = tmp_path / "scored.json"
    args = ["score", "sphyr", str(completions), "--physics", "--load-direction", "recovered", "--workers", "1"]
    result = runner.invoke(app, [*args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    scored = json.loads(out.read_text())
    assert scored["load_direction"] == "recovered"
    validated = json.loads((tmp_path / "recovered.json").read_text())["records"]
    for row, check in zip(scored["records"], validated, strict=True):
        assert row["load_direction"] == check["load_direction"]
        assert row["topology_score"] == pytest.approx(check["answer"], abs=1e-9)
    bad = runner.invoke(app, ["validate", "sphyr", *data, "--load-direction", "sideways"])
    assert bad.exit_code == 2 and "--load-direction" in bad.output


# The axes of the first published v2 and v2-20 samples under which the published optimiser reproduces the truth
# (upstream's v2 generator; "V/A": either reproduces it).
PUBLISHED_AXES = {
    "sphyr_v2": "D D H/A V D D V V D V/A D V V H D H V/A D A H",
    "sphyr_v2_20": "D H A H/D A V",
}


@pytest.mark.published
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PUBLISHED_AXES))
def test_the_published_samples_axes_are_recovered(name: str, tmp_path: Path) -> None:
    folder = published_data(name, tmp_path)
    expected = PUBLISHED_AXES[name].split()
    records = [json.loads(line) for line in (folder / "full_easy.jsonl").read_text().splitlines()][: len(expected)]
    found = ["/".join(recover_axes(r["ground_truth"])) for r in records]
    assert found == expected


@pytest.mark.published
@pytest.mark.slow
def test_under_the_recovered_load_the_v2_truths_score_like_v1s(tmp_path: Path) -> None:
    folder = published_data("sphyr_v2", tmp_path)
    runner = CliRunner()
    scores = {}
    for convention in ("published", "recovered"):
        out = tmp_path / f"{convention}.json"
        args = [
            "validate",
            "sphyr",
            "--data",
            str(folder),
            "--version",
            "v2",
            "--load-direction",
            convention,
            "-o",
            str(out),
        ]
        assert runner.invoke(app, args).exit_code == 0
        scores[convention] = json.loads(out.read_text())["means"]["answer"]
    assert scores["published"] == pytest.approx(0.724, abs=5e-4)  # the published convention, unchanged
    assert scores["recovered"] >= 0.90
