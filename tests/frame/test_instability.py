"""Mechanisms raise UnstableStructureError saying which part moves; never a NaN or garbage result."""

from __future__ import annotations

import pytest

from mechbench.core.errors import ModelFormatError, UnstableStructureError
from mechbench.frame import solve, solve_many
from tests.frame.helpers import line_load, link, model, moment, nodal_force, point, support


def _beam(supports: list[dict], links: list[dict] | None = None, loads: list[dict] | None = None) -> dict:
    return model(
        [point("P1", 0, 0), point("P2", 3, 0), point("P3", 6, 0)],
        links or [link("L1", "P1", "P2"), link("L2", "P2", "P3")],
        supports,
        loads if loads is not None else [nodal_force("F", "P2", 10, 270)],
    )


def test_two_rollers_slide_sideways() -> None:
    with pytest.raises(UnstableStructureError, match="slide along x as a rigid body") as info:
        solve(_beam([support("S1", "P1", "roller"), support("S2", "P3", "roller")]))
    assert set(info.value.moving) == {"P1", "P2", "P3"}


def test_single_pin_lets_the_beam_rotate() -> None:
    with pytest.raises(UnstableStructureError, match="it can rotate about P1 as a rigid body"):
        solve(_beam([support("S1", "P1", "pin")]))


def test_single_roller_slides_and_rotates() -> None:
    with pytest.raises(UnstableStructureError, match="slide along x and rotate about P1"):
        solve(_beam([support("S1", "P1", "roller")]))


def test_inclined_rollers_meeting_at_a_point_let_it_rotate_about_that_point() -> None:
    # Roller normals at P1 (θ = −45°) and P3 (θ = 45°) meet at (3, 3): the beam can turn about it.
    with pytest.raises(UnstableStructureError, match=r"rotate about \(3, 3\)"):
        solve(_beam([support("S1", "P1", "roller", -45), support("S2", "P3", "roller", 45)]))


def test_hinge_between_pin_and_roller_is_a_mechanism() -> None:
    links = [link("L1", "P1", "P2", end_b="hinge"), link("L2", "P2", "P3")]
    with pytest.raises(UnstableStructureError, match="mechanism: points P2") as info:
        solve(_beam([support("S1", "P1", "pin"), support("S2", "P3", "roller")], links=links))
    assert info.value.moving[0] == "P2"  # the hinge moves most


def test_hinged_cantilever_tip_swings() -> None:
    links = [link("L1", "P1", "P2"), link("L2", "P2", "P3", end_a="hinge")]
    with pytest.raises(UnstableStructureError, match="mechanism: points P3"):
        solve(_beam([support("S1", "P1", "fixed")], links=links))


def test_moment_on_a_fully_hinged_joint() -> None:
    links = [link("L1", "P1", "P2", end_b="hinge"), link("L2", "P2", "P3", end_a="hinge")]
    supports = [support("S1", "P1", "fixed"), support("S2", "P3", "fixed")]
    with pytest.raises(UnstableStructureError, match="point moment acts at P2, where every link end is hinged"):
        solve(_beam(supports, links=links, loads=[moment("M", "point", "P2", 5)]))


def test_no_supports() -> None:
    with pytest.raises(UnstableStructureError, match="no supports"):
        solve(_beam([]))


def test_rectangle_of_pinned_bars_racks() -> None:
    # A square of four bars pinned at every joint on two pins: the top can sway (no diagonal).
    data = model(
        [point("A", 0, 0), point("B", 4, 0), point("C", 4, 3), point("D", 0, 3)],
        [link(n, a, b, "hinge", "hinge") for n, a, b in (("L1", "A", "D"), ("L2", "D", "C"), ("L3", "C", "B"))],
        [support("S1", "A", "pin"), support("S2", "B", "pin")],
        [nodal_force("F", "D", 5, 0)],
    )
    with pytest.raises(UnstableStructureError, match="mechanism"):
        solve(data)
    # A diagonal makes it a truss and stable.
    data["links"].append(link("L4", "A", "C", "hinge", "hinge"))
    assert solve(data, diagrams=False)["reactions"]


def test_stiff_but_flexible_structures_are_not_flagged() -> None:
    """A long slender cantilever of many members is flexible, not a mechanism."""
    n = 40
    data = model(
        [point(f"P{i}", 0.5 * i, 0) for i in range(n + 1)],
        [link(f"L{i}", f"P{i}", f"P{i + 1}") for i in range(n)],
        [support("S1", "P0", "fixed")],
        [line_load(f"Q{i}", f"L{i}", 1.0) for i in range(n)],
    )
    result = solve(data, diagrams=False)
    assert result["reactions"][2]["value"] == pytest.approx(0.5 * 20.0**2, rel=1e-9)


def test_batch_keeps_going_past_bad_models() -> None:
    good = _beam([support("S1", "P1", "pin"), support("S2", "P3", "roller")])
    unstable = _beam([support("S1", "P1", "roller"), support("S2", "P3", "roller")])
    broken = {**good, "links": [link("L1", "P1", "P9")]}
    out = solve_many([good, unstable, broken, good], diagrams=False)
    assert isinstance(out[1], UnstableStructureError)
    assert isinstance(out[2], ModelFormatError)
    assert out[0]["reactions"] == out[3]["reactions"]
    with pytest.raises(UnstableStructureError):
        solve_many([good, unstable], errors="raise")
