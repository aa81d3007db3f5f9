"""Generated drawings a careful reader cannot misread: checked from each drawing's own layout (pixels).

Over 225 generated tasks of every kind and difficulty: no label overlaps another label, a member or an
arrowhead, and every hinge marker sits on the joint it marks.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from mechbench.frame.generate import generate_structure
from mechbench.frame.render import LABEL_PAD_PX, _boxes_overlap, _grown, _segment_hits_box, render_layout

PAD = LABEL_PAD_PX + 1.5  # the layout's label boxes carry this margin; the checks use the text's own box


def problems(layout: dict) -> list[str]:
    """Everything in a layout that a reader could misread."""
    found = []
    labels = [(text, _grown(np.array(box), -PAD)) for text, box in layout["labels"]]
    for i, (text, box) in enumerate(labels):
        for other, other_box in labels[i + 1 :]:
            if _boxes_overlap(box, other_box):
                found.append(f"label {text!r} overlaps label {other!r}")
        for a, b, half_width in layout["members"]:
            if _segment_hits_box(np.array(a), np.array(b), _grown(box, half_width)):
                found.append(f"label {text!r} lies on a member")
        for head in layout["arrowheads"]:
            if _boxes_overlap(box, np.array(head)):
                found.append(f"label {text!r} covers an arrowhead")
    for centre, radius, point in layout["markers"]:
        if np.linalg.norm(np.array(centre) - np.array(point)) > radius:
            found.append(f"a hinge marker at {centre} does not cover its joint {point}")
    return found


@pytest.mark.slow
def test_generated_drawings_are_unambiguous() -> None:
    rng = random.Random(2026)
    seen, bad = set(), []
    for difficulty in range(1, 6):
        for _ in range(45):
            kind, model = generate_structure(rng, difficulty)
            seen.add((kind, difficulty))
            found = problems(render_layout(model))
            if found:
                bad.append((kind, difficulty, found[:2]))
    assert {kind for kind, _ in seen} == {"beam", "frame", "truss"} and len(seen) >= 8
    assert not bad, f"{len(bad)} of 225 drawings can be misread, e.g. {bad[:3]}"


def test_the_checks_would_catch_a_crowded_drawing() -> None:
    layout = {
        "labels": [("10 kN", [0, 0, 40, 20]), ("P1", [30, 5, 60, 25])],
        "members": [([50.0, -100.0], [50.0, 100.0], 2.0)],
        "arrowheads": [[5.0, 5.0, 12.0, 12.0]],
        "markers": [([0.0, 0.0], 5.0, [20.0, 0.0])],
    }
    found = problems(layout)
    assert any("overlaps label" in f for f in found) and any("lies on a member" in f for f in found)
    assert any("covers an arrowhead" in f for f in found) and any("hinge marker" in f for f in found)


@pytest.mark.parametrize("kind", ["fixed", "pin"])
def test_a_clamped_beam_end_gets_its_wall_across_the_member(kind: str) -> None:
    model = {
        "points": [{"id": "P1", "x": 0, "y": 0}, {"id": "P2", "x": 5, "y": 0}],
        "links": [{"id": "L1", "a": "P1", "b": "P2"}],
        "supports": [{"id": "S1", "kind": kind, "at": {"type": "point", "id": "P1"}}]
        + ([{"id": "S2", "kind": "roller", "at": {"type": "point", "id": "P2"}}] if kind == "pin" else []),
        "loads": [{"id": "F1", "kind": "pointLoad", "at": {"type": "point", "id": "P2"}, "value": 10, "angleDeg": 270}],
    }
    from mechbench.frame.model import FrameModel
    from mechbench.frame.render import _Drawing

    drawing = _Drawing(FrameModel.parse(model), None, True, True)
    lines_before = len(drawing.ax.lines)
    drawing.supports()
    xs = np.concatenate([line.get_xdata() for line in drawing.ax.lines[lines_before:]])
    if kind == "fixed":
        assert xs.max() <= 1e-9  # the wall and its hatching stay left of the beam's first point
    else:
        assert xs.max() > 0  # a pin's base spreads under the point
