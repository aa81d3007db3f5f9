"""``mechbench generate structural --like``: fresh drawings composed like the published set's, their levels given by
the rule that reproduces the published labels, trusses pin-jointed, and a calibration that sees no difference."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from mechbench.benchmarks.structural_eval.calibrate import calibrate
from mechbench.benchmarks.structural_eval.dataset import heuristic_difficulty, load_tasks
from mechbench.benchmarks.structural_eval.like_official import recipe_of, recipes_digest, set_digest, structure_like
from mechbench.frame import FrameModel, solve
from mechbench.frame.determinacy import moment_releases, static_indeterminacy
from mechbench.frame.varied import BUILDERS, Composition
from tests import forked_command as forked


def _run(*args: str, env: dict[str, str] | None = None, fresh: bool = False) -> subprocess.CompletedProcess:
    # Two sets compared byte for byte come from fresh interpreters (their own hash seeds).
    return forked.mechbench(*args, extra_env=env, fresh=fresh)


def _generate(out: Path, like: Path, n: int, seed: int, *extra: str, env: dict[str, str] | None = None) -> None:
    done = _run("generate", "structural", "--like", str(like), "--n", str(n), "--seed", str(seed), "-o", str(out),
                *extra, env=env, fresh=env is not None)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]


def _composition(tasks: list) -> Counter:
    return Counter(recipe_of(task) for task in tasks)


def test_the_level_rule_reproduces_every_published_label(published_structural: Path) -> None:
    tasks = load_tasks(published_structural)
    labelled = [t for t in tasks if t.difficulty_source == "metadata"]
    assert len(labelled) >= 13
    for task in labelled:
        assert heuristic_difficulty(FrameModel.parse(task.raw_model), task.category) == task.difficulty, task.id


def test_a_set_like_the_published_one(published_structural: Path, tmp_path: Path) -> None:
    """Two rounds of every published recipe: the same composition, fresh geometry, and no difference detected."""
    published = load_tasks(published_structural)
    _generate(tmp_path, published_structural, 2 * len(published), 8317)
    fresh = load_tasks(tmp_path)
    assert _composition(fresh) == Counter({recipe: 2 * k for recipe, k in _composition(published).items()})
    assert all(t.difficulty_source == "metadata" for t in fresh)
    drawn = {json.dumps(t.raw_model, sort_keys=True) for t in fresh}
    assert not drawn & {json.dumps(t.raw_model, sort_keys=True) for t in published}
    report = calibrate(fresh, published, ("fresh", "published"))
    assert not any(row["differs"] for row in report["features"])
    assert all(row["agrees"] for row in report["panel"])
    manifest = json.loads((tmp_path / "like.json").read_text())
    assert manifest["recipes_sha256"] == recipes_digest([recipe_of(t) for t in published])
    assert manifest["files_sha256"] == set_digest(tmp_path / "data")


def test_fresh_trusses_are_pin_jointed_and_loaded_at_joints(structural_data: Path, tmp_path: Path) -> None:
    _generate(tmp_path, structural_data, 30, 4)
    trusses = [t for t in load_tasks(tmp_path) if t.category == "truss"]
    assert trusses
    for task in trusses:
        model = FrameModel.parse(task.raw_model)
        assert all(link.endA == link.endB == "hinge" for link in model.links)
        assert all(load.kind == "pointLoad" and load.at.type == "point" for load in model.loads)
        assert static_indeterminacy(model, pin_jointed=True) == 0


def test_same_seed_same_bytes_whatever_the_workers_and_threads(structural_data: Path, tmp_path: Path) -> None:
    """Two processes with different worker and thread counts (what differs between two machines' runs of a
    release; the release test below cuts one), over a round of every recipe of the set drawn like."""
    rounds = len(load_tasks(structural_data))
    _generate(tmp_path / "one", structural_data, rounds, 9, "--workers", "1", env={"OMP_NUM_THREADS": "1"})
    _generate(tmp_path / "two", structural_data, rounds, 9, "--workers", "2", env={"OMP_NUM_THREADS": "2"})
    _generate(tmp_path / "other", structural_data, rounds, 10)
    one, two = (json.loads((tmp_path / d / "like.json").read_text()) for d in ("one", "two"))
    assert one == two
    other = json.loads((tmp_path / "other" / "like.json").read_text())
    assert other["files_sha256"] != one["files_sha256"] and other["recipes_sha256"] == one["recipes_sha256"]


@pytest.mark.parametrize(
    "args, message",
    [
        (("--difficulty", "3"), "--like takes kinds and levels from the published set"),
        (("--kinds", "beam"), "--like takes kinds and levels from the published set"),
    ],
)
def test_like_refuses_what_it_decides_itself(structural_data: Path, tmp_path: Path, args: tuple, message: str) -> None:
    done = _run("generate", "structural", "--like", str(structural_data), *args, "-o", str(tmp_path / "out"))
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_like_a_set_that_cannot_be_had_is_one_line(tmp_path: Path) -> None:
    done = _run("generate", "structural", "--like", str(tmp_path / "missing"), "-o", str(tmp_path / "out"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "the published set could not be had" in done.stderr and len(done.stderr.strip().splitlines()) == 1


COMPOSITIONS = [
    Composition("beam", 3, ("fixed", "roller"), 1, 1, 1, 0),
    Composition("beam", 4, ("pin", "roller", "roller"), 1, 0, 2, 1),
    Composition("frame", 4, ("fixed", "fixed", "slider"), 1, 2, 0, 0),
    Composition("frame", 8, ("pin", "pin", "roller", "roller"), 7, 0, 2, 0),
    Composition("frame", 14, ("pin", "pin", "slider", "slider"), 8, 1, 4, 0),
]


@pytest.mark.parametrize("composition", COMPOSITIONS, ids=lambda c: f"{c.kind}-{c.members}")
def test_a_drawn_structure_has_its_composition(composition: Composition) -> None:
    level = heuristic_difficulty(FrameModel.parse(_any(composition)), composition.kind)
    for seed in range(5):
        model = FrameModel.parse(structure_like((composition, level), random.Random(seed)))
        assert len(model.links) == composition.members
        assert tuple(sorted(s.kind for s in model.supports)) == composition.supports
        assert moment_releases(model) == composition.releases
        kinds = Counter(load.kind for load in model.loads)
        assert (kinds["pointLoad"], kinds["distributedLoad"], kinds["bendingMoment"]) == (
            composition.point_loads, composition.distributed_loads, composition.moments)  # fmt: skip
        solve(model.model_dump(), diagrams=False)  # stable


def _any(composition: Composition) -> dict:
    rng = random.Random(0)
    for _ in range(1000):
        if (raw := BUILDERS[composition.kind](rng, composition)) is not None:
            return raw
    raise AssertionError(f"the builder never meets {composition}")


TRUSSES = [
    (8, ("pin", "roller", "roller"), 0),
    (13, ("pin", "roller"), 0),
    (22, ("pin", "pin"), 0),
    (21, ("pin", "roller"), 0),
    (17, ("pin", "pin", "roller"), 1),
    (15, ("pin", "roller", "roller", "roller"), 1),
    (11, ("fixed", "roller"), 1),
]
"""(members, supports, how near): the published trusses' sizes, met exactly, and others."""


@pytest.mark.parametrize("members, supports, near", TRUSSES)
def test_a_drawn_truss_is_determinate_and_of_its_size(members: int, supports: tuple, near: int) -> None:
    """The published sizes exactly; others within a member (panels come in steps of four members)."""
    composition = Composition("truss", members, tuple(sorted(supports)), 0, 2, 0, 0)
    level = 3 + (members > 15) + (members > 20)
    for seed in range(5):
        model = FrameModel.parse(structure_like((composition, level), random.Random(seed)))
        assert abs(len(model.links) - members) <= near
        assert tuple(sorted(s.kind for s in model.supports)) == composition.supports
        assert static_indeterminacy(model, pin_jointed=True) == 0


def test_a_set_whose_recipe_cannot_be_drawn_is_refused_naming_the_task(tmp_path: Path) -> None:
    """A propped cantilever of one member hinged at its fixed end: no frame of one member has a hinge inside a
    joint, so no fresh task can have its composition."""
    published = tmp_path / "published"
    (published / "raw_models").mkdir(parents=True)
    model = {"points": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 4, "y": 0}],
             "links": [{"id": "L1", "a": "A", "b": "B", "endA": "rigid", "endB": "hinge"}],
             "supports": [{"id": "S1", "at": {"type": "point", "id": "A"}, "kind": "fixed"},
                          {"id": "S2", "at": {"type": "point", "id": "B"}, "kind": "fixed"}],
             "loads": [{"id": "F", "kind": "pointLoad", "at": {"type": "link", "id": "L1"}, "value": 10,
                        "angleDeg": 270, "angleMode": "world", "flip": 1, "offsetMode": "m", "offset": 2}]}  # fmt: skip
    (published / "raw_models" / "frame_001.json").write_text(json.dumps(model))
    assert moment_releases(FrameModel.parse(model)) == 1  # all ends hinged at a joint a fixed support holds
    done = _run("generate", "structural", "--like", str(published), "--n", "2", "-o", str(tmp_path / "out"))
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode == 2 and len(errors) == 1 and "frame_001: no fresh frame of its composition" in errors[0]
    assert not (tmp_path / "out" / "like.json").exists()


def _release(out: Path, env: dict[str, str], workers: str) -> subprocess.CompletedProcess:
    return forked.run(
        [sys.executable, "-m", "mechbench", "generate", "structural", "--like", "official", "--release", "2026-12",
         "--workers", workers, "-o", str(out)],
        capture_output=True, text=True, timeout=600, env=env,
    )  # fmt: skip


@pytest.mark.long
def test_a_release_takes_the_months_seed_and_a_source_that_cannot_be_had_is_one_line(
    http_server: tuple[Path, str], published_structural: Path, tmp_path: Path
) -> None:
    """The official set served from a local stand-in: the month's seed, 100 tasks, its digest (the same bytes
    whatever the workers and threads: ``test_same_seed_same_bytes_whatever_the_workers_and_threads``)."""
    from mechbench.benchmarks.structural_eval.dataset import OFFICIAL_REVISION
    from mechbench.harness.releases import month_seed
    from tests.test_official_sources import _zip_folder

    root, base = http_server
    archive = root / "H1W0XXX" / "structural-eval-benchmark" / "archive" / f"{OFFICIAL_REVISION}.zip"
    _zip_folder(published_structural, archive, f"structural-eval-benchmark-{OFFICIAL_REVISION}", "data/")
    env = {**os.environ, "MECHBENCH_GITHUB": base, "MECHBENCH_CACHE": str(tmp_path / "cache")}
    one = _release(tmp_path / "one", {**env, "OMP_NUM_THREADS": "2"}, "2")
    assert one.returncode == 0, one.stderr[-2000:]
    manifest = json.loads((tmp_path / "one" / "like.json").read_text())
    assert manifest["release"] == "2026-12" and manifest["n"] == 100
    assert manifest["seed"] == month_seed("structural_eval", "official", "2026-12")
    assert manifest["files_sha256"] == set_digest(tmp_path / "one" / "data")
    assert month_seed("structural_eval", "official", "2027-01") != manifest["seed"]
    closed = {**env, "MECHBENCH_GITHUB": "http://127.0.0.1:9", "MECHBENCH_CACHE": str(tmp_path / "empty")}
    refused = _release(tmp_path / "three", closed, "1")
    errors = [line for line in refused.stderr.splitlines() if line.startswith("error:")]
    assert refused.returncode == 2 and len(errors) == 1 and "--like DIR takes a local copy" in errors[0]
    assert "-T data" not in errors[0] and not (tmp_path / "three" / "like.json").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (("--release", "2026-12"), "add --like official"),
        (("--like", "official", "--release", "2026-12", "--n", "5"), "drop --n and --seed"),
        (("--like", "official", "--release", "12-2026"), "--release must name a month"),
    ],
)
def test_release_options_are_checked(tmp_path: Path, args: tuple, message: str) -> None:
    done = _run("generate", "structural", *args, "-o", str(tmp_path / "out"))
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
