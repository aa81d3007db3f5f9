"""``mechbench check`` fails, with a message naming the fix, on each mistake a contributor copying the template makes
(and that CI would otherwise catch only with a cause nobody can read).

Run only inside the copy of the repository that ``tests/test_template_benchmark.py`` makes, where the template is a
registered benchmark and the copy a git checkout (its file name keeps pytest from collecting it elsewhere).
"""

from __future__ import annotations

import dataclasses
import importlib
import subprocess
from pathlib import Path

import pytest
from inspect_ai import task

from mechbench import registry
from mechbench.conformance import check_benchmark
from mechbench.conformance.checks import check_builtin_models, check_listing, check_offline_set, check_task_name
from mechbench.harness.task import benchmark_task
from mechbench.registry.listing import UNPINNED, baseline_problems, pin_listing, read_listing

NAME = "beam_deflection"


@pytest.fixture
def template() -> registry.BenchmarkSpec:
    """The template, copied into the package as a contributor would."""
    spec = registry.spec(NAME)
    assert spec is not None, "run inside tests/test_template_benchmark.py's copy of the repository"
    return spec


def _swap(spec: registry.BenchmarkSpec, monkeypatch: pytest.MonkeyPatch, **changes: object) -> registry.BenchmarkSpec:
    changed = dataclasses.replace(spec, **changes)
    monkeypatch.setitem(registry.specs.__globals__["_SPECS"], spec.name, changed)
    return changed


def test_the_template_as_it_is_passes_every_check(template: registry.BenchmarkSpec, tmp_path: Path) -> None:
    results = check_benchmark(NAME, tmp_path, limit=2)
    assert all(r.passed for r in results), [f"{r.name}: {r.detail}" for r in results if not r.passed]
    listing = next(r for r in results if r.name == "listing")
    assert "not pinned yet" in listing.detail  # the template's first commit cannot name itself


def test_a_task_function_that_keeps_the_templates_name_is_named(
    template: registry.BenchmarkSpec, tmp_path: Path
) -> None:
    renamed = dataclasses.replace(template, name="my_bench")
    with pytest.raises(AssertionError, match=r"the task function is called 'beam_deflection': rename it 'my_bench'"):
        check_task_name(renamed, tmp_path, 1)

    def not_a_task(**kwargs: object) -> None:
        return None

    with pytest.raises(AssertionError, match=r"not an Inspect task: decorate it with @task"):
        check_task_name(dataclasses.replace(template, task=not_a_task), tmp_path, 1)


def test_a_benchmark_task_decorator_naming_another_benchmark_is_named(
    template: registry.BenchmarkSpec, tmp_path: Path
) -> None:
    body = importlib.import_module(f"mechbench.benchmarks.{NAME}.task").beam_deflection.__wrapped__.__wrapped__

    @task(name=NAME)
    @benchmark_task("beam_deflections")
    def mistaken(data: str | None = None, oracle: bool = False):  # type: ignore[no-untyped-def]
        return body(data=data, oracle=oracle)

    with pytest.raises(
        AssertionError, match=r"says it is 'beam_deflections': write @benchmark_task\('beam_deflection'\)"
    ):
        check_offline_set(dataclasses.replace(template, task=mistaken), tmp_path, 1)


def test_a_baseline_that_does_not_recognise_its_own_prompt_is_named(
    template: registry.BenchmarkSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blind = tuple(
        dataclasses.replace(b, accepts=lambda prompt: False) if b.name == "zero" else b for b in template.baselines
    )
    spec = _swap(template, monkeypatch, baselines=blind)
    with pytest.raises(
        AssertionError, match=r"mechbench/zero's accepts\(\) does not recognise BeamDeflection's own prompt"
    ):
        check_builtin_models(spec, tmp_path, 1)


def test_listing_baselines_and_pins_each_named(template: registry.BenchmarkSpec, tmp_path: Path) -> None:
    listing = read_listing(template.listing)
    served = {"random", "zero"}
    assert baseline_problems(listing, NAME, served) == []
    extra = listing.model_copy(update={"baselines": {**listing.baselines, "human": "someone"}})
    assert (
        "baselines must be exactly trivial and oracle (got human, oracle, trivial)"
        in baseline_problems(extra, NAME, served)[0]
    )
    foreign = listing.model_copy(
        update={"baselines": {**listing.baselines, "trivial": f"inspect eval mechbench/{NAME} --model mechbench/empty"}}
    )
    assert "must run one of beam_deflection's built-in models" in baseline_problems(foreign, NAME, served)[0]
    assert listing.source.repository_commit == UNPINNED


def test_a_pin_must_hold_the_task_and_check_pin_sets_one_that_does(
    template: registry.BenchmarkSpec, tmp_path: Path
) -> None:
    assert template.listing is not None
    original = template.listing.read_text()
    first = _git(template.listing.parent, "rev-list", "--max-parents=0", "HEAD").split()[0]
    template.listing.write_text(original.replace(UNPINNED, first))  # a commit from before the template was copied in
    try:
        with pytest.raises(
            AssertionError, match=r"does not hold src/mechbench/benchmarks/beam_deflection/task.py: run"
        ):
            check_listing(template, tmp_path, 1)
        pinned = pin_listing(template.listing)
        assert pinned == _git(template.listing.parent, "log", "-1", "--format=%H", "--", ".").strip()
        assert "pinned at " + pinned[:12] in check_listing(template, tmp_path, 1)
    finally:
        template.listing.write_text(original)


def _git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, cwd=folder, check=True).stdout
