"""StructuralEval's eval.yaml names the publishers' commit the code pins."""

from __future__ import annotations

from mechbench import registry
from mechbench.benchmarks.structural_eval.dataset import OFFICIAL_REVISION


def test_the_listing_names_the_pinned_publishers_commit() -> None:
    entry = registry.spec("structural_eval")
    assert entry is not None and entry.listing is not None
    assert f"commit {OFFICIAL_REVISION}" in entry.listing.read_text()
