"""The solver against the published FrameCalc ground truth (13 solutions, from the maintainers' repository), and
equilibrium and batch solves on mechbench's own generated models."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mechbench.frame import solve, solve_many
from tests.frame.helpers import equilibrium_residual

# The acceptance tolerance: every value within 1e-6 of the largest value of its kind.
RELATIVE_TOLERANCE = 1e-6


def _published_cases(folder: Path) -> list[str]:
    """The tasks of the published copy that come with a published solution (diagrams included)."""
    names = sorted(
        p.stem
        for p in (folder / "ground_truth_meta").glob("*.json")
        if "axial" in json.loads(p.read_text())["solution"]
    )
    assert len(names) >= 13, f"expected at least 13 published solutions in {folder}, found {len(names)}"
    return names


def _load(folder: Path, name: str) -> tuple[dict, dict]:
    model = json.loads((folder / "raw_models" / f"{name}.json").read_text())
    truth = json.loads((folder / "ground_truth_meta" / f"{name}.json").read_text())["solution"]
    return model, truth


def test_reactions_match_every_published_solution(published_structural: Path) -> None:
    for name in _published_cases(published_structural):
        model, truth = _load(published_structural, name)
        result = solve(model)
        assert [(r["atId"], r["type"]) for r in result["reactions"]] == [
            (r["atId"], r["type"]) for r in truth["reactions"]
        ], name
        ours = np.array([r["value"] for r in result["reactions"]])
        theirs = np.array([r["value"] for r in truth["reactions"]])
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=RELATIVE_TOLERANCE * np.abs(theirs).max(), err_msg=name)


def test_diagrams_match_every_published_solution(published_structural: Path) -> None:
    for name in _published_cases(published_structural):
        model, truth = _load(published_structural, name)
        result = solve(model)
        for key in ("axial", "shear", "moment"):
            assert [d["linkId"] for d in result[key]] == [d["linkId"] for d in truth[key]], name
            for ours, theirs in zip(result[key], truth[key], strict=True):
                assert len(ours["samples"]) == len(theirs["samples"]), (name, ours["linkId"])
        for field in "snvm":
            ours = np.concatenate([[x[field] for x in d["samples"]] for d in result["moment"]])
            theirs = np.concatenate([[x[field] for x in d["samples"]] for d in truth["moment"]])
            scale = max(np.abs(theirs).max(), 1e-12)
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=RELATIVE_TOLERANCE * scale, err_msg=f"{name} {field}")


def test_exact_supports_close_to_springs_but_not_identical(published_structural: Path) -> None:
    # frame_006's S1 ux is -2.740842e-5 with 1e12 springs and -2.740915e-5 with exact restraints.
    model, truth = _load(published_structural, "frame_006")
    springs = solve(model, diagrams=False)["reactions"]
    exact = solve(model, diagrams=False, exact_supports=True)["reactions"]
    s1_spring = next(r["value"] for r in springs if r["atId"] == "S1" and r["type"] == "ux")
    s1_exact = next(r["value"] for r in exact if r["atId"] == "S1" and r["type"] == "ux")
    s1_truth = next(r["value"] for r in truth["reactions"] if r["atId"] == "S1" and r["type"] == "ux")
    assert s1_spring == pytest.approx(s1_truth, rel=1e-6)
    assert s1_exact == pytest.approx(-2.740915e-5, rel=1e-5)
    assert abs(s1_exact - s1_spring) > 1e-10


def _raw_models(folder: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((folder / "raw_models").glob("*.json"))]


def test_batch_equals_single_solves(structural_data: Path) -> None:
    models = _raw_models(structural_data)
    batch = solve_many(models)
    for model, together in zip(models, batch, strict=True):
        alone = solve(model)
        # Padding changes the order of floating-point operations, nothing more.
        values = [r["value"] for r in alone["reactions"]]
        scale = max(abs(v) for v in values)
        assert [r["value"] for r in together["reactions"]] == pytest.approx(values, rel=0, abs=1e-12 * scale)
        assert together["maxMoment"]["overall"] == pytest.approx(alone["maxMoment"]["overall"], rel=1e-12)


def _assert_in_equilibrium(model: dict) -> None:
    result = solve(model)
    assert result["reactions"]
    scale = max(abs(r["value"]) for r in result["reactions"])
    fx, fy, mz = equilibrium_residual(model, result)
    assert abs(fx) < 1e-8 * scale and abs(fy) < 1e-8 * scale
    assert abs(mz) < 1e-7 * scale
    assert np.isfinite(result["maxMoment"]["overall"])


def test_every_generated_model_is_in_equilibrium(structural_data: Path) -> None:
    """Beams, frames and trusses of every kind mechbench generates: the reactions balance the loads."""
    for model in _raw_models(structural_data):
        _assert_in_equilibrium(model)


def test_published_models_without_a_solution_are_in_equilibrium(published_structural: Path) -> None:
    """The published raw models without published solutions still solve, and reactions balance the loads."""
    names = ["beam_002", "frame_004", "frame_010", "truss_001", "truss_003", "truss_004", "truss_005"]
    for name in names:
        _assert_in_equilibrium(json.loads((published_structural / "raw_models" / f"{name}.json").read_text()))
