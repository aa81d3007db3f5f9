"""Each benchmark's eval.yaml is in the register's schema and agrees with the code: task names and files, the two
baselines, the repository and the pinned commit (it holds the task files, or is not pinned yet). Generic over the
registry: a benchmark's own listing facts (its publishers' pinned revisions, sample counts) are tested in its folder
under ``tests/benchmarks/``."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

from mechbench import registry
from mechbench.registry.listing import baseline_problems, listing_problems, pin_problems, read_listing

REPO = Path(__file__).resolve().parents[1]
NAMES = [entry.name for entry in registry.specs()]


def _listing(name: str):
    entry = registry.spec(name)
    assert entry is not None and entry.listing is not None, f"{name} has no eval.yaml"
    return entry, read_listing(entry.listing)


@pytest.mark.parametrize("name", NAMES)
def test_the_listing_is_in_the_register_schema_and_names_real_tasks_and_baselines(name: str) -> None:
    entry, listing = _listing(name)
    assert listing_problems(listing, name, entry.task, dict(entry.exports)) == []
    served = {n for n, found in registry.baselines().items() if any(b.benchmark == name for b in found)}
    assert baseline_problems(listing, name, served) == []


@pytest.mark.parametrize("name", [n for n in NAMES if _listing(n)[1].paper is not None])
def test_a_published_benchmark_carries_its_publishers_citation_in_listing_and_docs(name: str) -> None:
    entry, listing = _listing(name)
    assert listing.citation is not None and listing.citation.lstrip().startswith("@")
    key = listing.citation.split("{", 1)[1].split(",", 1)[0]
    assert key in (entry.listing.parent / "README.md").read_text()  # the docs page cites the same entry
    uncited = listing.model_copy(update={"citation": None})
    assert any("citation" in p for p in listing_problems(uncited, name, entry.task, dict(entry.exports)))


@pytest.mark.parametrize("name", NAMES)
def test_the_listing_points_at_this_repository_and_a_commit_holding_the_task(name: str) -> None:
    entry, listing = _listing(name)
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert listing.source.repository_url == project["urls"]["Repository"]
    pinned = pin_problems(listing, entry.listing)
    assert pinned.problem is None, pinned.problem


def test_mechbench_itself_is_licensed_and_citable_as_its_package_says() -> None:
    import yaml

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert project["license"]["text"] == citation["license"] == "MIT"
    assert "MIT License" in (REPO / "LICENSE").read_text()
    assert citation["version"] == project["version"] and citation["cff-version"] == "1.2.0"


def test_a_built_in_model_for_another_benchmark_is_refused_naming_what_list_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from types import SimpleNamespace

    from typer.testing import CliRunner

    from mechbench.cli import app
    from mechbench.core.errors import UsageError

    specs_module = importlib.import_module("mechbench.registry.specs")  # the package re-exports a function so named

    printed = CliRunner().invoke(app, ["list"]).output.splitlines()
    refused = 0
    for entry in registry.specs():
        listed = printed[printed.index(next(p for p in printed if p.startswith(f"mechbench/{entry.name}"))) + 1]
        others = [n for n, found in registry.baselines().items() if all(b.benchmark != entry.name for b in found)]
        for other in others[:1]:
            model = SimpleNamespace(api=SimpleNamespace(mechbench_baseline=other))
            monkeypatch.setattr(specs_module, "_active_model", lambda model=model: model)
            with pytest.raises(UsageError) as raised:
                registry.check_builtin_model(entry.name)
            assert f"built-in models for {entry.name}: " + listed.split("built-in models: ")[1] in str(raised.value)
            refused += 1
    assert refused >= 2
