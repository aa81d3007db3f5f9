"""``mechbench calibrate structural``: a generated set's composition against the published drawings, and what
planted mistakes of each component the physics can see in each set."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mechbench.benchmarks.structural_eval.calibrate import PANEL, calibrate, task_features
from mechbench.benchmarks.structural_eval.dataset import load_tasks
from tests import forked_command as forked


def _generate(out: Path, *args: str) -> list:
    done = forked.run(
        [sys.executable, "-m", "mechbench", "generate", "structural", "--n", "20", "--seed", "71", *args,
         "-o", str(out)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return load_tasks(out)


def test_a_generated_set_against_the_published_drawings(published_structural: Path, tmp_path: Path) -> None:
    report = calibrate(_generate(tmp_path), load_tasks(published_structural), ("fresh", "published"))
    assert [r["solver"] for r in report["panel"]] == list(PANEL)
    features = {r["feature"] for r in report["features"]}
    assert {"kind", "difficulty", "moment releases", "degree of static indeterminacy"} <= features
    credit = {r["solver"]: r["published"] for r in report["panel"]}
    for component in ("geometry", "supports", "hinges", "loads"):  # a mistake on every task costs more
        assert credit[f"{component} mistakes, rate 1"] <= credit[f"{component} mistakes, rate 0.5"] <= 1
    assert credit["geometry mistakes, rate 1"] < credit["loads mistakes, rate 1"]  # the ladder: geometry first


def test_a_set_of_beams_alone_is_caught(published_structural: Path, tmp_path: Path) -> None:
    _generate(tmp_path, "--kinds", "beam")
    done = forked.run(
        [sys.executable, "-m", "mechbench", "calibrate", "structural", "--set", str(tmp_path), "--published",
         str(published_structural), "--json", str(tmp_path / "report.json")],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 1 and "differs at 20 items" in done.stderr and "Traceback" not in done.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert {"kind", "members"} <= {r["feature"] for r in report["features"] if r["differs"]}


def test_a_pin_jointed_truss_counts_as_a_truss() -> None:
    """m + r − 2j: a triangle of three pin-jointed bars on a pin and a roller is statically determinate."""
    from mechbench.benchmarks.structural_eval.dataset import StructuralTask

    points = [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 4, "y": 0}, {"id": "C", "x": 2, "y": 2}]
    links = [{"id": f"L{i}", "a": a, "b": b, "endA": "hinge", "endB": "hinge"} for i, (a, b) in
             enumerate((("A", "B"), ("B", "C"), ("C", "A")))]  # fmt: skip
    supports = [{"id": "S1", "at": {"type": "point", "id": "A"}, "kind": "pin"},
                {"id": "S2", "at": {"type": "point", "id": "B"}, "kind": "roller"}]  # fmt: skip
    task = StructuralTask(id="truss_001", category="truss", difficulty=1, difficulty_source="heuristic", image="",
                          image_source="rendered", truth_source="solver",
                          raw_model={"points": points, "links": links, "supports": supports, "loads": []},
                          truth_reactions={}, truth_values=[], truth_max_moment=0.0)  # fmt: skip
    assert task_features(task)["degree of static indeterminacy"] == 0.0
    assert task_features(task)["moment releases"] == 0.0
    # The same truss drawn with rigid joints (as the published trusses are) is still counted as a truss.
    rigid = {**task.raw_model, "links": [{**link, "endA": "rigid", "endB": "rigid"} for link in links]}
    assert task_features(task.model_copy(update={"raw_model": rigid})) == task_features(task)
