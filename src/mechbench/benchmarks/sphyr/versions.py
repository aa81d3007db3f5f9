"""SPhyR's dataset versions and where their official files live (one place for these protocol constants).

v1 is the published benchmark (10×10, on the Hugging Face hub). Its authors now recommend v2 for new work
(10×10, samples held far apart, regenerated with the scorer's own optimiser) and offer v2-20 (the same at
20×20); both live only in the upstream repository, which mechbench reads at a pinned commit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

Version = Literal["v1", "v2", "v2-20"]
VERSIONS: tuple[Version, ...] = ("v1", "v2", "v2-20")
DEFAULT_VERSION: Version = "v2"
"""What upstream's dataset card recommends for new work."""

UPSTREAM_REPOSITORY = "philippds/SPhyR"
UPSTREAM_REVISION = "755ee412671a6a66a86e5b093a076cf9f4b3f99f"
"""The pinned upstream commit: v2 and v2-20 data, the v2 harness (prompt styles, feedback, replay)."""
DATA_ROOT = "src/sphyr/dataset_creation/huggingface/2D"
DATA_FOLDERS: dict[Version, str] = {"v1": "datasets", "v2": "datasets_v2", "v2-20": "datasets_v2_20"}
"""Each version's folder of ``<subject>.jsonl`` files in the upstream repository."""
GRID_SIZES: dict[Version, int] = {"v1": 10, "v2": 10, "v2-20": 20}
PROMPT_TEMPLATES_PATH = "src/sphyr/prompt_templates.py"
"""Upstream's prompt wordings, read at run time when ``wording=upstream`` asks for them (never shipped)."""
GENERATION_VOLUME_FRACTION = 0.3
"""v2 / v2-20 ground truths: the reference optimum at this volume fraction, 30 % of all cells solid when easy."""


def check_version(version: str) -> Version:
    """``version`` validated (an error naming the valid ones)."""
    from mechbench.core.errors import DataSourceError

    if version not in VERSIONS:
        raise DataSourceError(f"unknown SPhyR version {version!r}; one of: {', '.join(VERSIONS)}")
    return version  # type: ignore[return-value]


def upstream_path(version: Version, subject: str) -> str:
    """Path of a subject file of ``version`` inside the upstream repository."""
    return f"{DATA_ROOT}/{DATA_FOLDERS[version]}/{subject}.jsonl"


def upstream_file(path: str, revision: str | None = None) -> Path:
    """One file of the upstream repository at ``revision`` (default: pinned), downloaded once."""
    from mechbench.sources.github import fetch_repository_files

    root = fetch_repository_files(UPSTREAM_REPOSITORY, [path], revision=revision or UPSTREAM_REVISION)
    return root / path
