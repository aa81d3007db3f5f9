"""The reference optima the bundled SPhyR set ships (``optima.json``): what the optimiser gives today, read only for
mechbench's own set, and never under another recipe."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mechbench.benchmarks.sphyr import optimum_cache
from mechbench.benchmarks.sphyr.generated_set import write_optima
from mechbench.sources.resolve import bundled


@pytest.fixture
def fresh_optima(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """No optimum in memory or on disk: every one is computed."""
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    optimum_cache.clear_memory()
    yield
    optimum_cache.clear_memory()


@pytest.mark.slow
def test_the_shipped_optima_are_what_the_optimiser_gives(tmp_path: Path, fresh_optima: None) -> None:
    folder = bundled("sphyr")
    copy = tmp_path / "set"
    copy.mkdir()
    subjects = [p.stem for p in folder.glob("*.jsonl")]
    for subject in subjects:
        shutil.copy(folder / f"{subject}.jsonl", copy)
    written = write_optima(copy, subjects)
    assert written.read_bytes() == (folder / optimum_cache.SHIPPED_FILE).read_bytes()
    assert len(json.loads(written.read_text())["optima"]) == 128  # one problem per record


def test_shipped_optima_are_read_only_for_the_bundled_set_and_only_under_their_recipe(
    tmp_path: Path, fresh_optima: None
) -> None:
    from mechbench.tasks import sphyr

    shipped = json.loads((bundled("sphyr") / optimum_cache.SHIPPED_FILE).read_text())["optima"]
    sphyr(subject="full_easy", data="bundled", version="v1")
    assert set(shipped) <= set(optimum_cache._memory)  # taken into memory: the judge computes none of them
    optimum_cache.clear_memory()
    copy = tmp_path / "copy"
    shutil.copytree(bundled("sphyr"), copy)
    sphyr(subject="full_easy", data=str(copy), version="v1")
    assert not set(shipped) & set(optimum_cache._memory)  # another folder's optima.json is never trusted
    stale = {"recipe": "sphyr-published-0", "optima": shipped}
    (copy / optimum_cache.SHIPPED_FILE).write_text(json.dumps(stale))
    assert optimum_cache.load_shipped(copy) == 0
    (copy / optimum_cache.SHIPPED_FILE).write_text("{not json")
    assert optimum_cache.load_shipped(copy) == 0  # unreadable: only the computation is lost
