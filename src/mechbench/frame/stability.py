"""Elastic critical loads of plane frames, exactly: the stiffness of every member under its axial force by the
stability functions, and the smallest load factor at which the frame's stiffness matrix becomes singular.

Each member is an Euler–Bernoulli beam-column, axially rigid, carrying a known axial force N (compression positive)
that grows with the load factor λ. Its exact stiffness for the end displacements across it and the end rotations,
with φ = L √(λN/EI), is (Livesley's stability functions)

    s = φ (sin φ − φ cos φ) / (2 − 2 cos φ − φ sin φ),   c = (φ − sin φ) / (sin φ − φ cos φ),

[[a, b, −a, b], [b, sEI/L, −b, scEI/L], [−a, −b, a, −b], [b, scEI/L, −b, sEI/L]] with b = s(1 + c) EI/L² and
a = 2 s (1 + c) EI/L³ − λN/L (the last term is the force N's own turning effect when the member's chord rotates;
it alone is what a pin-ended "leaning" column contributes). s → 4, c → ½ as N → 0. Axial rigidity is imposed with a
stiff axial spring. The critical factor is the smallest λ > 0 where the smallest eigenvalue of the assembled
stiffness matrix reaches zero, found by bisection below the first member's own clamped Euler load (where s has a
pole); the tests check it against a refined finite-element buckling analysis and Euler's columns.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

FIXED_PINNED_ROOT = 4.493409457909064
"""The first root of tan φ = φ: a member pinned at one end has a stiffness pole there."""
RIGID = 1e8
"""Axial stiffness of a member, as a multiple of its bending stiffness EI/L³: rigid for the critical load (changes it
by less than 1e-6), finite so the matrix stays well conditioned."""


@dataclass(frozen=True)
class Member:
    """A straight member between two nodes, with its bending stiffness and its axial force per unit load factor
    (compression positive); ``pinned`` ends carry no moment."""

    a: int
    b: int
    ei: float
    force: float
    pinned: tuple[bool, bool] = (False, False)


def stability_functions(phi: float) -> tuple[float, float]:
    """(s, c) at φ = L√(N/EI) for a compressive N; their series near φ = 0 (where the closed forms lose digits)."""
    if phi < 1e-2:
        return 4.0 - 2 * phi**2 / 15, 0.5 + phi**2 / 40
    sin, cos = math.sin(phi), math.cos(phi)
    return phi * (sin - phi * cos) / (2 - 2 * cos - phi * sin), (phi - sin) / (sin - phi * cos)


def _local(member: Member, length: float, factor: float) -> np.ndarray:
    """The member's 6×6 stiffness in its own axes (u, v, θ at each end) at load factor ``factor``."""
    ei, n = member.ei, factor * member.force
    phi = length * math.sqrt(n / ei) if n > 0 else 0.0
    s, c = stability_functions(phi)
    k = np.zeros((6, 6))
    axial = RIGID * ei / length**3
    k[0, 0] = k[3, 3] = axial
    k[0, 3] = k[3, 0] = -axial
    if member.pinned == (True, True):  # a leaning member: only the axial force's turning effect on its chord
        a = -n / length
        for i, j, sign in ((1, 1, 1), (4, 4, 1), (1, 4, -1), (4, 1, -1)):
            k[i, j] = sign * a
        return k
    if any(member.pinned):  # one end pinned: the condensed beam-column (s' = s(1 − c²), no carry-over)
        s_pinned = s * (1 - c * c)
        bend = np.array([
            [s_pinned * ei / length**3 - n / length, s_pinned * ei / length**2],
            [s_pinned * ei / length**2, s_pinned * ei / length],
        ])  # fmt: skip
        rotation = 2 if not member.pinned[0] else 5
        v_here, v_other = (1, 4) if rotation == 2 else (4, 1)
        sign = 1.0 if rotation == 2 else -1.0
        dofs = [v_here, rotation]
        k[np.ix_(dofs, dofs)] = bend * np.array([[1, sign], [sign, 1]])
        k[v_other, v_other] = bend[0, 0]
        k[v_here, v_other] = k[v_other, v_here] = -bend[0, 0]
        k[v_other, rotation] = k[rotation, v_other] = -bend[0, 1] * sign
        return k
    a = 2 * s * (1 + c) * ei / length**3 - n / length
    b = s * (1 + c) * ei / length**2
    bend = np.array([
        [a, b, -a, b],
        [b, s * ei / length, -b, s * c * ei / length],
        [-a, -b, a, -b],
        [b, s * c * ei / length, -b, s * ei / length],
    ])  # fmt: skip
    k[np.ix_([1, 2, 4, 5], [1, 2, 4, 5])] = bend
    return k


def _assembled(
    nodes: Sequence[tuple[float, float]], members: Sequence[Member], held: Mapping[int, tuple[bool, bool, bool]],
    factor: float,
) -> np.ndarray:  # fmt: skip
    size = 3 * len(nodes)
    k = np.zeros((size, size))
    for member in members:
        (x1, y1), (x2, y2) = nodes[member.a], nodes[member.b]
        length = math.hypot(x2 - x1, y2 - y1)
        cos, sin = (x2 - x1) / length, (y2 - y1) / length
        turn = np.zeros((6, 6))
        for block in (0, 3):
            turn[block : block + 2, block : block + 2] = [[cos, sin], [-sin, cos]]
            turn[block + 2, block + 2] = 1.0
        dofs = [3 * member.a, 3 * member.a + 1, 3 * member.a + 2, 3 * member.b, 3 * member.b + 1, 3 * member.b + 2]
        k[np.ix_(dofs, dofs)] += turn.T @ _local(member, length, factor) @ turn
    # A node where every member end is pinned has a rotation nothing resists: not a degree of freedom of the frame.
    turning = {node for m in members for node, pinned in zip((m.a, m.b), m.pinned, strict=True) if not pinned}
    free = [d for d in range(size) if not held.get(d // 3, (False, False, False))[d % 3]]
    free = [d for d in free if d % 3 != 2 or d // 3 in turning]
    return k[np.ix_(free, free)]


def critical_factor(
    nodes: Sequence[tuple[float, float]],
    members: Sequence[Member],
    held: Mapping[int, tuple[bool, bool, bool]],
    tolerance: float = 1e-10,
) -> float:
    """The smallest load factor at which the frame buckles elastically: ``nodes`` (x, y) in m, ``members`` with
    EI in kN·m² and axial force per unit factor in kN, ``held[node]`` the restrained (x, y, rotation)."""

    def lowest(factor: float) -> float:
        k = _assembled(nodes, members, held, factor)
        scale = np.max(np.abs(np.diag(k)))
        return float(np.linalg.eigvalsh(k / scale)[0])

    if any(m.force < 0 for m in members):
        raise ValueError("members in tension are not modelled (their stiffening would need the hyperbolic functions)")
    limits = []
    for m in members:
        if m.force > 0 and not all(m.pinned):
            length = math.dist(nodes[m.a], nodes[m.b])
            pole = FIXED_PINNED_ROOT if any(m.pinned) else 2 * math.pi  # where the member's own stiffness has a pole
            limits.append(pole**2 * m.ei / (m.force * length**2))
    high = min(limits) * (1 - 1e-9) if limits else 1e6
    low = 0.0
    if lowest(low) <= 0:
        raise ValueError("the frame is a mechanism before any load")
    if lowest(high) > 0:
        raise ValueError("no buckling below the first member's clamped Euler load")
    while high - low > tolerance * high:
        middle = (low + high) / 2
        if lowest(middle) > 0:
            low = middle
        else:
            high = middle
    # A pin-ended member enters the frame through its chord only; its own Euler load may come first.
    own = [
        math.pi**2 * m.ei / (m.force * math.dist(nodes[m.a], nodes[m.b]) ** 2)
        for m in members
        if m.force > 0 and all(m.pinned)
    ]
    return min([(low + high) / 2, *own])


def model_critical_factor(
    model: Mapping[str, object], bending: Mapping[str, float], force: Mapping[str, float]
) -> float:
    """:func:`critical_factor` of a FrameCalc model: each link's EI (``bending[link id]``, kN·m²) and axial force per
    unit load factor (``force[link id]``, compression positive, kN; absent is 0), hinged ends as the model draws them,
    its supports (fixed, pin, or a roller on a horizontal surface) as restraints."""
    points = [p for p in model["points"]]  # type: ignore[attr-defined]
    index = {p["id"]: k for k, p in enumerate(points)}
    nodes = [(float(p["x"]), float(p["y"])) for p in points]
    members = [
        Member(index[link["a"]], index[link["b"]], float(bending[link["id"]]), float(force.get(link["id"], 0.0)),
               (link.get("endA") == "hinge", link.get("endB") == "hinge"))
        for link in model["links"]  # type: ignore[attr-defined]
    ]  # fmt: skip
    restraints = {"fixed": (True, True, True), "pin": (True, True, False), "roller": (False, True, False)}
    held = {}
    for support in model["supports"]:  # type: ignore[attr-defined]
        if support["kind"] not in restraints or (support["kind"] == "roller" and support.get("angleDeg", 0.0) % 180):
            raise ValueError(f"support {support['id']}: only fixed, pin and level rollers are taken")
        held[index[support["at"]["id"]]] = restraints[support["kind"]]
    return critical_factor(nodes, members, held)
