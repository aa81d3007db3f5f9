"""SPhyR data: local folders, archives over HTTP (127.0.0.1), hub files, selection, bad files."""

from __future__ import annotations

import shutil
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pytest

from mechbench.benchmarks.sphyr.dataset import SUBJECTS, parse_subjects, read_records, select, subject_file
from mechbench.core.errors import DataSourceError, UsageError
from mechbench.sources.download import fetch_url
from mechbench.sources.resolve import resolve_source


def test_sixteen_subjects_read_from_a_folder(sphyr_data: Path) -> None:
    assert len(SUBJECTS) == 16
    for subject in SUBJECTS:
        records = read_records(subject_file(subject, sphyr_data))
        assert records, subject
        assert all(len(r.ground_truth) == 10 and len(r.ground_truth[0]) == 10 for r in records)


def test_subject_lists() -> None:
    assert parse_subjects("all") == list(SUBJECTS)
    assert parse_subjects("full_easy, 1_random_row_hard") == ["full_easy", "1_random_row_hard"]
    with pytest.raises(DataSourceError, match="unknown SPhyR subject nope"):
        parse_subjects("nope")


def test_selection(sphyr_data: Path) -> None:
    records = read_records(sphyr_data / "full_easy.jsonl")
    assert select(records, "all") == records
    assert select(records, 3) == records[:3]
    assert select(records, "5") == records[:5]
    paper = select(records, "paper")
    expected = np.random.default_rng(42).permutation(len(records))[: min(100, len(records))]
    assert [r.index for r in paper] == [records[i].index for i in expected]
    with pytest.raises(UsageError, match="samples must be"):
        select(records, "many")
    with pytest.raises(UsageError, match="at least 1, got 0"):  # an empty run is refused here, in one line
        select(records, 0)


def test_malformed_lines_name_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "full_easy.jsonl"
    bad.write_text('{"index": 0, "input_grid": [["V"]], "ground_truth": [["1"]]}\n{"index": 1}\n')
    with pytest.raises(DataSourceError, match=r"full_easy\.jsonl line 2: not a SPhyR record"):
        read_records(bad)
    bad.write_text("not json\n")
    with pytest.raises(DataSourceError, match="line 1"):
        read_records(bad)


def test_archive_download_over_local_http(sphyr_data: Path, http_server, tmp_path: Path) -> None:
    root, base = http_server
    with zipfile.ZipFile(root / "sphyr.zip", "w") as zf:
        for path in sphyr_data.glob("*.jsonl"):
            zf.write(path, f"SPhyR-main/datasets/{path.name}")
    cache = tmp_path / "cache"
    folder = fetch_url(f"{base}/sphyr.zip", cache)
    path = next(folder.rglob("full_hard.jsonl"))
    assert read_records(path) == read_records(sphyr_data / "full_hard.jsonl")
    # Downloaded once: the second call reads the cache even with the server gone.
    (root / "sphyr.zip").unlink()
    assert fetch_url(f"{base}/sphyr.zip", cache) == folder


def test_tar_archive_and_missing_url(sphyr_data: Path, http_server, tmp_path: Path) -> None:
    root, base = http_server
    with tarfile.open(root / "sphyr.tar.gz", "w:gz") as tf:
        tf.add(sphyr_data / "full_easy.jsonl", "data/full_easy.jsonl")
    folder = resolve_source(f"{base}/sphyr.tar.gz", hub_paths=[], cache=tmp_path / "c")
    assert (folder / "data" / "full_easy.jsonl").is_file()
    with pytest.raises(DataSourceError, match="HTTP 404"):
        fetch_url(f"{base}/missing.zip", tmp_path / "c")


def test_hub_dataset_files_over_local_http(sphyr_data: Path, http_server, tmp_path: Path) -> None:
    root, base = http_server
    served = root / "datasets" / "someone" / "SPhyR" / "resolve" / "main" / "datasets"
    served.mkdir(parents=True)
    shutil.copy(sphyr_data / "full_easy.jsonl", served / "full_easy.jsonl")
    folder = resolve_source(
        "someone/SPhyR", hub_paths=["datasets/full_easy.jsonl"], endpoint=base, cache=tmp_path / "cache"
    )
    assert read_records(folder / "datasets" / "full_easy.jsonl") == read_records(sphyr_data / "full_easy.jsonl")


def test_unsafe_archive_is_refused(http_server, tmp_path: Path) -> None:
    root, base = http_server
    with zipfile.ZipFile(root / "evil.zip", "w") as zf:
        zf.writestr("../../escape.jsonl", "{}")
    with pytest.raises(DataSourceError, match="unsafe member path"):
        fetch_url(f"{base}/evil.zip", tmp_path / "cache")
    assert not (tmp_path / "escape.jsonl").exists()


def test_unknown_source() -> None:
    with pytest.raises(DataSourceError, match="neither an existing folder"):
        resolve_source("not a source at all", hub_paths=[])
