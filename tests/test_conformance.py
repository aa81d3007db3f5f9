"""Every registered benchmark passes the conformance suite (mechbench.conformance), offline."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mechbench import registry
from mechbench.conformance import check_benchmark
from mechbench.conformance.checks import CHECKS


@pytest.mark.parametrize("name", [entry.name for entry in registry.specs()])
def test_the_benchmark_passes_every_conformance_check(name: str, tmp_path: Path) -> None:
    results = check_benchmark(name, tmp_path, limit=2)
    assert len(results) == len(CHECKS)
    failed = [f"{r.name}: {r.detail}" for r in results if not r.passed]
    assert not failed, failed


def test_a_failing_check_names_its_reason_and_the_others_still_run(tmp_path: Path, monkeypatch) -> None:
    entry = registry.specs()[0]
    broken = registry.BenchmarkSpec(**{**entry.__dict__, "oracle_metric": "no_such_metric"})
    monkeypatch.setitem(registry.specs.__globals__["_SPECS"], entry.name, broken)
    results = {r.name: r for r in check_benchmark(entry.name, tmp_path, limit=1)}
    assert not results["oracle"].passed and "no_such_metric" in results["oracle"].detail
    assert results["refusals"].passed and results["listing"].passed


def test_a_benchmark_that_declares_no_cluster_fails_the_offline_set_check(tmp_path: Path, monkeypatch) -> None:
    entry = registry.specs()[0]
    monkeypatch.setitem(registry.specs.__globals__["_SPECS"], entry.name, dataclasses.replace(entry, cluster=None))
    results = {r.name: r for r in check_benchmark(entry.name, tmp_path, limit=1)}
    assert not results["offline set"].passed and "no cluster declared: give the spec cluster=Cluster(key, unit)" in (
        results["offline set"].detail
    )
    unnamed = dataclasses.replace(entry, cluster=registry.Cluster("no_such_key", "thing"))
    monkeypatch.setitem(registry.specs.__globals__["_SPECS"], entry.name, unnamed)
    results = {r.name: r for r in check_benchmark(entry.name, tmp_path / "again", limit=1)}
    assert "have no 'no_such_key' in their metadata" in results["offline set"].detail
