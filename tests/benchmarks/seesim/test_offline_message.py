"""Offline, SeeSim's default data cannot be fetched: the error names mechbench's own set, -T data=bundled."""

from __future__ import annotations

from pathlib import Path

import pytest

from mechbench.core.errors import DataSourceError
from mechbench.tasks import seesim


def test_unreachable_official_data_names_the_bundled_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MECHBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("MECHBENCH_GITHUB", "http://127.0.0.1:9")  # the publisher's host: nothing listens there
    with pytest.raises(DataSourceError, match="use -T data=bundled"):
        seesim(modality="text")
