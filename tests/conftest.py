"""Shared fixtures. The published benchmark data lives in ``../shared/data`` next to the checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def shared_data() -> Path:
    """The shared benchmark data folder; fails the test loudly when it is missing."""
    path = REPO_ROOT.parent / "shared" / "data"
    if not path.is_dir():
        pytest.fail(f"shared benchmark data not found: expected {path} next to the repository", pytrace=False)
    return path


@pytest.fixture(scope="session")
def shared() -> Path:
    """Path of ``../shared/data``."""
    return shared_data()


@pytest.fixture(scope="session")
def structural_data(shared: Path) -> Path:
    """Path of the StructuralEval data (raw_models, ground_truth_meta)."""
    path = shared / "structural_eval"
    if not (path / "raw_models").is_dir():
        pytest.fail(f"{path}/raw_models is missing", pytrace=False)
    return path
