"""What a drawing states beside its geometry: the stiffness an indeterminate structure's reactions depend on, an
inclined force's angle with the line it is measured from, and arrowheads that reach their point."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from matplotlib.patches import FancyArrowPatch
from matplotlib.text import Text

import mechbench
from mechbench.frame import FrameModel
from mechbench.frame.determinacy import reactions_depend_on_stiffness, stiffness_note
from mechbench.frame.render import render_figure


def _example(name: str) -> dict:
    return json.loads((Path(mechbench.__file__).parent / "examples" / f"{name}.json").read_text())


def _texts(model: dict) -> list[str]:
    return [t.get_text() for t in render_figure(model).findobj(Text) if t.get_text()]


def _beam(supports: list[tuple[str, str]]) -> dict:
    """A 4 m beam in two members, loaded at the middle point M."""
    return {
        "points": [{"id": "A", "x": 0, "y": 0}, {"id": "M", "x": 2, "y": 0}, {"id": "B", "x": 4, "y": 0}],
        "links": [{"id": "L1", "a": "A", "b": "M"}, {"id": "L2", "a": "M", "b": "B"}],
        "supports": [
            {"id": f"S{k}", "at": {"type": "point", "id": p}, "kind": kind} for k, (p, kind) in enumerate(supports)
        ],
        "loads": [{"id": "F", "kind": "pointLoad", "at": {"type": "point", "id": "M"}, "value": 10, "angleDeg": -90}],
    }


def test_indeterminacy_is_read_from_the_physics() -> None:
    assert not reactions_depend_on_stiffness(FrameModel.parse(_beam([("A", "fixed")])))  # a cantilever
    assert reactions_depend_on_stiffness(FrameModel.parse(_beam([("A", "fixed"), ("B", "roller")])))  # propped
    assert not reactions_depend_on_stiffness(FrameModel.parse(_example("overhanging_beam")))
    assert not reactions_depend_on_stiffness(FrameModel.parse(_example("pratt_truss")))
    assert reactions_depend_on_stiffness(FrameModel.parse(_example("portal_frame")))


def test_an_indeterminate_structure_states_its_stiffness_and_a_determinate_one_does_not() -> None:
    assert "EI, EA constant" in _texts(_example("portal_frame"))
    assert not any("EI" in t for t in _texts(_example("overhanging_beam")))
    frame = _example("portal_frame")
    frame["links"][0]["Iz"] = 2 * frame["links"][0].get("Iz", 1e-4)  # one stiffer column: each member's section
    note = stiffness_note(FrameModel.parse(frame))
    assert note is not None and note.count("EI") == len(frame["links"]) and "constant" not in note


def test_an_inclined_force_shows_its_angle_at_its_reference_line_and_reaches_its_point() -> None:
    model = _example("overhanging_beam")
    figure = render_figure(model)
    assert "60°" in [t.get_text() for t in figure.findobj(Text)]  # at its arc, not inside the force's label
    ax = figure.axes[0]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert dashed and all(abs(np.ptp(line.get_ydata())) < 1e-12 for line in dashed)  # the horizontal it is read from
    point = next(p for p in model["points"] if p["id"] == "P3")
    tips = [np.array(a._posA_posB[1]) for a in ax.patches if isinstance(a, FancyArrowPatch)]
    gap = min(np.linalg.norm(tip - (point["x"], point["y"])) for tip in tips)
    assert (
        gap < 0.01 * 7
    )  # metres, on a 7 m beam: the head touches P3 (a fixed gap and a 2-point shrink stopped it short)
