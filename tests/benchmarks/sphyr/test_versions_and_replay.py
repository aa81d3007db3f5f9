"""SPhyR versions from the upstream repository (a local server stands in), and replay of published samples."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.sphyr.dataset import read_records
from mechbench.benchmarks.sphyr.grid import sample_grid
from mechbench.benchmarks.sphyr.physics_scoring import PHYSICS_NAMES
from mechbench.benchmarks.sphyr.scoring import METRIC_NAMES
from mechbench.benchmarks.sphyr.versions import DATA_FOLDERS, DEFAULT_VERSION, UPSTREAM_REPOSITORY, UPSTREAM_REVISION
from mechbench.core.errors import DataSourceError
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.sources.files import files_sha256
from mechbench.tasks import sphyr


@pytest.fixture
def upstream(
    sphyr_v2_data: Path, sphyr_v2_20_data: Path, http_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The upstream repository at the pinned commit, served raw from 127.0.0.1 (v2 and v2-20 subject files, here
    written by mechbench's v2 generator in upstream's record format)."""
    root, base = http_server
    repo = root / UPSTREAM_REPOSITORY / UPSTREAM_REVISION / "src/sphyr/dataset_creation/huggingface/2D"
    for version, folder in (("v2", sphyr_v2_data), ("v2-20", sphyr_v2_20_data)):
        target = repo / DATA_FOLDERS[version]
        target.mkdir(parents=True)
        for file in folder.glob("*.jsonl"):
            shutil.copy(file, target / file.name)
    monkeypatch.setenv("MECHBENCH_GITHUB_RAW", base)
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    return repo


def test_the_default_version_is_v2_from_the_pinned_upstream_commit(upstream: Path, sphyr_v2_data: Path) -> None:
    assert DEFAULT_VERSION == "v2"
    task = sphyr(subject="full_easy", samples="3", physics=False)
    assert len(task.dataset) == 3
    meta = task.metadata
    assert meta["version"] == "v2" and UPSTREAM_REVISION in meta["data_source"]
    assert meta["data_sha256"] == files_sha256([sphyr_v2_data / "full_easy.jsonl"])  # the bytes actually read
    first = sample_grid(task.dataset[0].metadata, "ground_truth")
    assert first == read_records(sphyr_v2_data / "full_easy.jsonl")[0].ground_truth
    assert "down the printed grid" in meta["gravity"] and "v2 convention" in meta["gravity"]


def test_v2_20_is_fetched_and_a_size_mismatch_is_refused(upstream: Path) -> None:
    task = sphyr(subject="3_random_row_hard", samples="2", physics=False, version="v2-20")
    assert all(len(sample_grid(s.metadata, "ground_truth")) == 20 for s in task.dataset)
    # A v2-20 folder upstream that holds 10×10 grids (a wrong file) is an error naming the right version.
    shutil.copy(upstream / "datasets_v2" / "full_easy.jsonl", upstream / "datasets_v2_20" / "full_easy.jsonl")
    with pytest.raises(DataSourceError, match=r"10×10, but SPhyR v2-20 has 20×20 grids; for 10×10 grids use"):
        sphyr(subject="full_easy", samples="2", physics=False, version="v2-20")


def test_an_unreachable_upstream_is_an_error_never_a_substitution(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MECHBENCH_GITHUB_RAW", "http://127.0.0.1:9")
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path))
    with pytest.raises(DataSourceError, match=r"official SPhyR v2 data could not be fetched.*-T data=bundled"):
        sphyr(subject="full_easy", physics=False)
    with pytest.raises(DataSourceError, match="unknown SPhyR version 'v3'; one of: v1, v2, v2-20"):
        sphyr(subject="full_easy", physics=False, version="v3")


def test_a_local_clone_gives_the_version_asked_for(
    sphyr_data: Path, sphyr_v2_data: Path, sphyr_v2_20_data: Path, tmp_path: Path
) -> None:
    clone = tmp_path / "SPhyR" / "src" / "sphyr" / "dataset_creation" / "huggingface" / "2D"
    folders = {"v1": sphyr_data, "v2": sphyr_v2_data, "v2-20": sphyr_v2_20_data}
    for version, folder in folders.items():
        (clone / DATA_FOLDERS[version]).mkdir(parents=True)
        shutil.copy(folder / "full_hard.jsonl", clone / DATA_FOLDERS[version] / "full_hard.jsonl")
    for version, size in (("v1", 10), ("v2", 10), ("v2-20", 20)):
        task = sphyr(subject="full_hard", data=str(tmp_path / "SPhyR"), samples="1", physics=False, version=version)
        expected = read_records(folders[version] / "full_hard.jsonl")
        assert sample_grid(task.dataset[0].metadata, "ground_truth") == expected[0].ground_truth
        assert len(expected[0].ground_truth) == size


def test_replaying_the_published_gpt41_column_gives_the_published_scores(published_sphyr: Path, tmp_path: Path) -> None:
    """Same prompts, same truths, the recorded completions: every published per-record value comes back."""
    folder = published_sphyr / "recorded_completions" / "gpt-4.1-2025-04-14"
    (log,) = inspect_eval(
        sphyr(subject="all", samples=f"replay:{folder}"),
        model="mechbench/replay",
        model_args={"file": str(folder)},
        log_dir=str(tmp_path),
        **QUIET_EVAL,
    )
    assert log.status == "success" and log.eval.task_args["samples"].startswith("replay:")
    published = {
        f"{f.name.removesuffix('_results.json')}-published-{i}": r
        for f in folder.glob("*_results.json")
        if "aggregated" not in f.name
        for i, r in enumerate(json.loads(f.read_text()))
    }
    assert len(log.samples) == len(published) >= 18
    for sample in log.samples:
        record = published[str(sample.id)]
        assert sample.messages[0].text == record["prompt"]  # the published prompt, verbatim
        assert sample.output.completion == record["completion"]  # the recorded answer, in the log
        value = next(iter(sample.scores.values())).value
        for name in (*METRIC_NAMES, *PHYSICS_NAMES):
            if name in ("score", "normalized_score") or record.get(name) is None:
                continue  # the seed's metrics are not in these files; None fields are averaged as 0
            assert value[name] == pytest.approx(float(record[name]), rel=1e-6, abs=1e-9), (sample.id, name)


def test_replay_needs_results_files(tmp_path: Path) -> None:
    with pytest.raises(DataSourceError, match=r"no <subject>_results\.json files"):
        sphyr(subject="all", samples=f"replay:{tmp_path}")
    with pytest.raises(ValueError, match="keep their published prompts"):
        sphyr(subject="all", samples=f"replay:{tmp_path}", rotation=1)
