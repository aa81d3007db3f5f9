"""Fresh SPhyR sets drawn like the published ones: the equivalence report, monthly releases with the same bytes on
every machine, kept away from the published items, and written as a Hugging Face datasets folder."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mechbench.benchmarks.sphyr.calibrate import PANEL, calibrate, read_set, subject_paths
from mechbench.benchmarks.sphyr.generate_v2 import near, published_item
from mechbench.benchmarks.sphyr.release import release_seed
from mechbench.harness.calibration import holm
from mechbench.harness.quiet import QUIET_EVAL
from tests import forked_command as forked

ITEMS = 20
"""Items compared per set: the published records every CI copy holds (0-19 of each subject)."""


def _mechbench(*args: str, env: dict[str, str] | None = None, fresh: bool = False) -> subprocess.CompletedProcess[str]:
    # Two sets compared byte for byte come from fresh interpreters (their own hash seeds).
    done = forked.mechbench(*args, extra_env=env, fresh=fresh)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


@pytest.fixture(scope="module")
def fresh_v2(published_sphyr_v2: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A --like v2 set on a seed no other test or document uses, kept away from the published items."""
    out = tmp_path_factory.mktemp("fresh_v2")
    _mechbench("generate", "sphyr", "--like", "v2", "--n", str(ITEMS), "--seed", "60611", "--workers", "1",
               "--against", str(published_sphyr_v2), "-o", str(out), env=_threads("1"), fresh=True)  # fmt: skip
    return out


def _threads(count: str) -> dict[str, str]:
    return {"NUMBA_NUM_THREADS": count, "OMP_NUM_THREADS": count, "OPENBLAS_NUM_THREADS": count}


@pytest.mark.long
def test_a_fresh_like_v2_set_is_shown_equivalent_to_the_published_one(fresh_v2: Path, published_sphyr_v2: Path):
    report = calibrate(
        read_set(subject_paths(fresh_v2), "fresh", ITEMS),
        read_set(subject_paths(published_sphyr_v2), "published", ITEMS),
    )
    assert [r["feature"] for r in report["features"] if r["differs"]] == []
    assert [r["solver"] for r in report["panel"] if not r["agrees"]] == []
    assert [r["solver"] for r in report["panel"]] == list(PANEL) and report["no_difference_detected"]
    constant = {r["feature"] for r in report["features"] if not r["varies"]}  # fixed mask counts: not in Holm's family
    assert "masked cells (1_random_cell_easy)" in constant and "load cells" not in constant
    scores = {r["solver"]: r["published"] for r in report["panel"]}  # the panel is graded: more skill, more score
    assert scores["random"] < scores["optimiser, 1 iteration"] < scores["optimiser, 10 iterations"]
    assert scores["truth, 20% of masked cells wrong"] < scores["truth, 5% of masked cells wrong"] < 1


@pytest.mark.long
def test_a_set_drawn_otherwise_is_caught_by_features_and_panel(published_sphyr_v2: Path, tmp_path: Path) -> None:
    """mechbench's v1-style generator draws other layouts and truths: the report says so, by feature and by solver,
    and the command exits 1."""
    _mechbench("generate", "sphyr", "--version", "v1", "--n", str(ITEMS), "--seed", "5", "-o", str(tmp_path))
    done = forked.run(
        [sys.executable, "-m", "mechbench", "calibrate", "sphyr", "--set", str(tmp_path), "--published",
         str(published_sphyr_v2), "--items", str(ITEMS), "--json", str(tmp_path / "report.json")],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 1 and f"differs at {ITEMS} items" in done.stderr and "**differs**" in done.stdout
    report = json.loads((tmp_path / "report.json").read_text())
    differing = {r["feature"] for r in report["features"] if r["differs"]}
    assert (
        "solid share of free cells (easy truth)" in differing and "hard truth has intermediate densities" in differing
    )
    assert not next(r for r in report["panel"] if r["solver"] == "all-empty")["agrees"]


def test_no_fresh_item_lies_near_a_published_one(fresh_v2: Path, published_sphyr_v2: Path) -> None:
    def items(folder: Path) -> list[dict]:
        return [published_item(json.loads(line)["ground_truth"]) for line in (folder / "full_easy.jsonl").open()]

    published, fresh = items(published_sphyr_v2), items(fresh_v2)
    assert fresh and published and not any(near(f, p) for f in fresh for p in published)
    manifest = json.loads((fresh_v2 / "release.json").read_text())
    assert {k: manifest["unseen"][k] for k in ("source", "items")} == {
        "source": str(published_sphyr_v2),
        "items": len(published),
    }


def test_a_set_is_the_same_bytes_in_two_processes_with_different_thread_and_worker_counts(
    fresh_v2: Path, published_sphyr_v2: Path, tmp_path: Path
) -> None:
    """What differs between two machines' runs of a release, on the fixture's set (one worker, one thread)."""
    _mechbench("generate", "sphyr", "--like", "v2", "--n", str(ITEMS), "--seed", "60611", "--workers", "2",
               "--against", str(published_sphyr_v2), "-o", str(tmp_path), env=_threads("2"), fresh=True)  # fmt: skip
    paths = sorted(fresh_v2.glob("*.jsonl"))
    assert len(paths) == 16 and all(p.read_bytes() == (tmp_path / p.name).read_bytes() for p in paths)
    assert json.loads((fresh_v2 / "release.json").read_text()) == json.loads((tmp_path / "release.json").read_text())


@pytest.mark.long
def test_a_release_takes_its_seed_from_its_month_and_its_digests_from_its_files(
    tmp_path: Path, published_sphyr_v2: Path
) -> None:
    _mechbench("generate", "sphyr", "--like", "v2", "--release", "2026-12", "--against", str(published_sphyr_v2),
               "--workers", "2", "-o", str(tmp_path), env=_threads("2"))  # fmt: skip
    manifest = json.loads((tmp_path / "release.json").read_text())
    assert manifest["seed"] == release_seed("v2", "2026-12") != release_seed("v2", "2027-01")
    assert manifest["items_per_subject"] == 100 and set(manifest["stack"]) >= {"numpy", "scipy", "numba"}
    paths = sorted(tmp_path.glob("*.jsonl"))
    assert [p.name for p in paths] == sorted(manifest["files"]) and len(paths) == 16
    for path in paths:
        assert manifest["files"][path.name] == hashlib.sha256(path.read_bytes()).hexdigest(), path.name


def test_a_release_is_written_as_a_datasets_folder_other_harnesses_load(fresh_v2: Path) -> None:
    import pyarrow.parquet as pq

    card = (fresh_v2 / "hf" / "README.md").read_text()
    assert card.count("- config_name: ") == 16 and "license: mit" in card and "seed 60611" in card
    table = pq.read_table(fresh_v2 / "hf" / "10_random_cell_hard" / "test-00000-of-00001.parquet").to_pylist()
    records = [json.loads(line) for line in (fresh_v2 / "10_random_cell_hard.jsonl").open()]
    assert table == [{k: r[k] for k in ("index", "input_grid", "ground_truth", "load_direction")} for r in records]


def test_release_names_and_holm_are_checked() -> None:
    from mechbench.core.errors import UsageError

    for bad in ("2026-13", "26-12", "latest"):
        with pytest.raises(UsageError, match="YYYY-MM"):
            release_seed("v2", bad)
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def test_the_report_names_the_release_a_score_was_measured_on_beside_other_sets(fresh_v2: Path, tmp_path: Path):
    from inspect_ai import eval as inspect_eval

    from mechbench.tasks import sphyr

    changed = tmp_path / "changed"
    changed.mkdir()
    for path in fresh_v2.glob("*.json*"):
        (changed / path.name).write_bytes(path.read_bytes())
    (changed / "full_easy.jsonl").write_text((fresh_v2 / "full_easy.jsonl").read_text().replace('"1"', '"0"', 1))
    for data in ("bundled", str(fresh_v2), str(changed)):
        (log,) = inspect_eval(
            sphyr(data=data, subject="full_easy", physics=False),
            model="mechbench/retrieval",
            log_dir=str(tmp_path / "logs"),
            limit=3,
            **QUIET_EVAL,
        )
        assert log.status == "success"
    _mechbench("report", str(tmp_path / "logs"), "-o", str(tmp_path / "report"))
    report = (tmp_path / "report" / "report.md").read_text()
    whole = json.loads((fresh_v2 / "release.json").read_text())["sha256"][:12]
    own = f"v2-like set, seed 60611 {whole}"
    labels = ("[bundled set]", f"[{own}]", f"[{own} (changed: full_easy.jsonl)]")
    for label in labels:
        assert f"mechbench/retrieval {label}" in report


def test_a_release_without_the_official_items_at_hand_is_refused_in_one_line(tmp_path: Path) -> None:
    """Its bytes depend on the items it is kept away from: drawn without them it would not be the release."""
    closed = "http://127.0.0.1:9"  # nothing listens: the official files cannot be had
    env = {**os.environ, "MECHBENCH_GITHUB": closed, "MECHBENCH_GITHUB_RAW": closed, "MECHBENCH_CACHE": str(tmp_path)}
    done = forked.run(
        [sys.executable, "-m", "mechbench", "generate", "sphyr", "--like", "v2", "--release", "2026-12",
         "-o", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode == 2 and len(errors) == 1 and "a release is drawn away from the official v2" in errors[0]
    assert "--against DIR" in errors[0] and not (tmp_path / "out" / "release.json").exists()


def _refused(*args: str) -> str:
    done = forked.run([sys.executable, "-m", "mechbench", *args], capture_output=True, text=True, timeout=300)
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode == 2 and len(errors) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    return errors[0]


def test_sets_and_options_that_would_mislead_are_refused_in_one_line(
    fresh_v2: Path, published_sphyr_v2: Path, published_sphyr_v2_20: Path, tmp_path: Path
) -> None:
    generate = ["generate", "sphyr", "-o", str(tmp_path / "out")]
    assert "nothing would be kept away" in _refused(*generate, "--like", "v2", "--against", str(published_sphyr_v2_20))
    assert "drop --against none" in _refused(*generate, "--like", "v2", "--release", "2026-12", "--against", "none")
    assert "drop --seed and --n" in _refused(*generate, "--like", "v2", "--release", "2026-12", "--n", "3")
    assert "need --like" in _refused(*generate, "--against", str(published_sphyr_v2))
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "full_easy.jsonl").write_text("{not json\n")
    assert "line 1: not a record" in _refused(*generate, "--like", "v2", "--against", str(broken))
    calibrate = ["calibrate", "sphyr", "--set", str(fresh_v2)]
    assert "grids of [20] cells a side" in _refused(*calibrate, "--published", str(published_sphyr_v2_20))
    bad = tmp_path / "bad"
    bad.mkdir()
    for path in fresh_v2.glob("*.jsonl"):
        (bad / path.name).write_text(path.read_text())
    (bad / "full_hard.jsonl").write_text((fresh_v2 / "full_hard.jsonl").read_text().replace('"0.0"', '"zero"', 1))
    assert "not a full_hard cell" in _refused("calibrate", "sphyr", "--set", str(bad), "--published", str(fresh_v2))


def test_a_release_evaluated_as_another_version_is_refused(fresh_v2: Path) -> None:
    from mechbench.core.errors import UsageError
    from mechbench.tasks import sphyr

    with pytest.raises(UsageError, match="drawn like v2: pass -T version=v2"):
        sphyr(data=str(fresh_v2), version="v2-20", subject="full_easy")


@pytest.mark.long
def test_the_card_is_updated_only_on_request_and_only_for_unchanged_files(
    fresh_v2: Path, published_sphyr_v2: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in fresh_v2.glob("*.json*"):
        (copy / path.name).write_bytes(path.read_bytes())
    before = (fresh_v2 / "hf" / "README.md").read_text()
    run = ["calibrate", "sphyr", "--set", str(copy), "--published", str(published_sphyr_v2), "--items", "6"]
    forked.run([sys.executable, "-m", "mechbench", *run], capture_output=True, text=True, timeout=300)
    assert not (copy / "hf").exists() and (fresh_v2 / "hf" / "README.md").read_text() == before
    forked.run([sys.executable, "-m", "mechbench", *run, "--update-card"], capture_output=True, text=True, timeout=300)
    assert "# Calibration:" in (copy / "hf" / "README.md").read_text()
    (copy / "full_easy.jsonl").write_text((copy / "full_easy.jsonl").read_text().replace('"1"', '"0"', 1))
    assert "full_easy.jsonl changed since release.json was written" in _refused(*run, "--update-card")


def _recorded(published_sphyr: Path) -> list[str]:
    from tests.published import RECORDED_SUBJECTS, RESULTS_MODEL

    folder = published_sphyr / "recorded_completions" / RESULTS_MODEL
    return [arg for s in RECORDED_SUBJECTS for arg in ("--replies", str(folder / f"{s}_results.json"))]


def test_recorded_replies_say_which_items_are_hard_and_what_each_set_predicts(
    fresh_v2: Path, published_sphyr_v2: Path, published_sphyr: Path, tmp_path: Path
) -> None:
    """The published GPT-4.1 replies, rescored: difficulty by feature, and the score they predict on both sets."""
    report_file = tmp_path / "report.json"
    done = _mechbench("calibrate", "sphyr", "--set", str(fresh_v2), "--published", str(published_sphyr_v2),
                      "--items", str(ITEMS), *_recorded(published_sphyr), "--json", str(report_file))  # fmt: skip
    replies = json.loads(report_file.read_text())["replies"]
    assert replies["records"] >= 18 and replies["source"] == "gpt-4.1-2025-04-14"
    assert replies["subjects"] == sorted(["1_random_cell_easy", "1_random_cell_hard", "full_easy", "full_hard"])
    rows = {r["feature"]: r for r in replies["difficulty"]}
    assert all(r["n"] == replies["records"] and -1 <= r["rho"] <= 1 for r in rows.values())
    assert rows["support cells"]["rho"] > 0.5  # more support cells, higher scores (the recorded replies' one signal)
    assert rows["masked cells"]["p"] > 0.5  # it only tells the subjects apart: shuffled within them, no evidence
    predicted = replies["predicted"]
    low, high = predicted["difference_interval"]
    assert low <= predicted["difference"] <= high and predicted["agrees"] == (low <= 0 <= high)
    assert "Recorded replies (gpt-4.1-2025-04-14" in done.stdout and "predicted score" in done.stdout


def test_replies_on_other_grids_are_refused(published_sphyr_v2_20: Path, published_sphyr: Path) -> None:
    done = forked.run(
        [sys.executable, "-m", "mechbench", "calibrate", "sphyr", "--like", "v2-20",
         "--set", str(published_sphyr_v2_20), "--published", str(published_sphyr_v2_20), *_recorded(published_sphyr)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 2 and "replies on other grids cannot speak for 20×20 items" in done.stderr
    assert "Traceback" not in done.stderr


def test_replies_written_for_a_test_show_their_difficulty(sphyr_data: Path, tmp_path: Path) -> None:
    """Replies right on items with many support cells and empty elsewhere: support cells make items easy, and items
    held out of the replies are predicted accordingly."""
    from mechbench.benchmarks.sphyr.calibrate import read_replies, record_features
    from mechbench.harness.calibration import difficulty_rows, predicted_scores

    rows = [json.loads(line) for line in (sphyr_data / "full_easy.jsonl").read_text().splitlines() if line.strip()]
    counts = [record_features(r["input_grid"], r["ground_truth"])["support cells"] for r in rows]
    cut = sorted(counts)[len(counts) // 2]
    right = "\n".join
    records = [{**r, "subject": "full_easy",
                "completion": right(" ".join(row) for row in r["ground_truth"]) if n >= cut else "nothing"}
               for r, n in zip(rows, counts, strict=True)]  # fmt: skip
    recorded, held_out = records[::2], records[1::2]
    path = tmp_path / "model" / "full_easy_results.json"
    path.parent.mkdir()
    path.write_text(json.dumps(recorded))
    replies = read_replies([path], 10)
    assert replies.scores["full_easy"] == [1.0 if n >= cut else 0.0 for n in counts[::2]]
    features = replies.features["full_easy"]
    table = {k: [f[k] for f in features] for k in features[0]}
    rho = {r["feature"]: r["rho"] for r in difficulty_rows(table, replies.scores["full_easy"], ["a"] * len(features))}
    assert rho["support cells"] > 0.5
    held = [record_features(r["input_grid"], r["ground_truth"]) for r in held_out]
    many = {k: [f[k] for f, n in zip(held, counts[1::2], strict=True) if n >= cut] for k in table}
    few = {k: [f[k] for f, n in zip(held, counts[1::2], strict=True) if n < cut] for k in table}
    assert predicted_scores(table, replies.scores["full_easy"], many).mean() > 0.6
    assert predicted_scores(table, replies.scores["full_easy"], few).mean() < 0.4
    with pytest.raises(Exception, match="cannot speak for 20×20 items"):
        read_replies([path], 20)
    broken = tmp_path / "broken" / "full_easy_results.json"
    broken.parent.mkdir()
    bad = {**recorded[0], "ground_truth": [["X"] * 10, *recorded[0]["ground_truth"][1:]]}
    broken.write_text(json.dumps([bad]))
    with pytest.raises(Exception, match=r"record 1: ground_truth holds 'X', not a full_easy cell"):
        read_replies([broken], 10)
