"""FrameCalc models written for the tests (textbook cases, not taken from any published set)."""

from __future__ import annotations


def overhanging_beam() -> dict:
    """A 10 m beam, pinned at 0 and on a roller at 8 m, with 5 kN at 2 m, 6 kN at 5 m and 2 kN/m on the overhang."""
    return {
        "points": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 8, "y": 0}, {"id": "C", "x": 10, "y": 0}],
        "links": [{"id": "L1", "a": "A", "b": "B"}, {"id": "L2", "a": "B", "b": "C"}],
        "supports": [
            {"id": "S1", "at": {"type": "point", "id": "A"}, "kind": "pin", "angleDeg": 0},
            {"id": "S2", "at": {"type": "point", "id": "B"}, "kind": "roller", "angleDeg": 0},
        ],
        "loads": [
            {
                "id": "Q1",
                "kind": "distributedLoad",
                "at": {"type": "link", "id": "L2"},
                "wStart": 2,
                "wEnd": 2,
                "angleDeg": 270,
                "angleMode": "world",
                "flip": 1,
            },
            {
                "id": "F1",
                "kind": "pointLoad",
                "at": {"type": "link", "id": "L1"},
                "value": 5,
                "angleDeg": 270,
                "angleMode": "world",
                "flip": 1,
                "refEnd": "A",
                "offsetMode": "m",
                "offset": 2,
            },
            {
                "id": "F2",
                "kind": "pointLoad",
                "at": {"type": "link", "id": "L1"},
                "value": 6,
                "angleDeg": 270,
                "angleMode": "world",
                "flip": 1,
                "refEnd": "A",
                "offsetMode": "m",
                "offset": 5,
            },
        ],
    }
