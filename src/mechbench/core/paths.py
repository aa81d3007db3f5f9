"""Where mechbench keeps what it downloads and computes (one place for the cache location)."""

from __future__ import annotations

import os
from pathlib import Path


def default_cache() -> Path:
    """The cache folder: ``$MECHBENCH_CACHE`` if set (the documented override), else ~/.cache/mechbench."""
    return Path(os.environ.get("MECHBENCH_CACHE") or Path.home() / ".cache" / "mechbench")
