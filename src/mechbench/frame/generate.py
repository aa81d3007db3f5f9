"""Procedurally generated structures like textbook exercises, with physics ground truth.

Five difficulty levels:

1. simply supported beam, one or two loads;
2. overhanging beam or cantilever with mixed loads (point, partial or trapezoidal line load, moment);
3. Gerber beam with a hinge over three supports, or a portal frame;
4. portal frame with a hinge and an inclined roller, or a Pratt/Howe/Warren truss;
5. two-bay frame with hinges and mixed loads, or a K truss.

Trusses are trusses: triangulated, every member pinned at both ends, loaded only at the joints, and kept only if
stable pin-jointed (checked by the solver). Frames join their members rigidly unless a hinge is drawn.

Dimensions are whole or half metres, loads multiples of 5 kN (kN/m, kN·m). Every structure is solved
and kept only if it is stable; the same seed gives the same structures.
"""

from __future__ import annotations

import random
from typing import Any

from mechbench.core.errors import MechbenchError
from mechbench.frame.model import FrameModel
from mechbench.frame.solve import solve

KINDS = ("beam", "frame", "truss")
LEVELS = (1, 2, 3, 4, 5)
"""The textbook levels of this module; :mod:`mechbench.frame.generate_deep` continues them."""


class ModelBuilder:
    """A FrameCalc model assembled piece by piece, with ids numbered in order."""

    def __init__(self) -> None:
        self.points: list[dict[str, Any]] = []
        self.links: list[dict[str, Any]] = []
        self.supports: list[dict[str, Any]] = []
        self.loads: list[dict[str, Any]] = []

    def point(self, x: float, y: float) -> str:
        for p in self.points:
            if p["x"] == x and p["y"] == y:
                return p["id"]
        pid = f"P{len(self.points) + 1}"
        self.points.append({"id": pid, "x": x, "y": y})
        return pid

    def link(self, a: str, b: str, end_a: str = "rigid", end_b: str = "rigid") -> str:
        lid = f"L{len(self.links) + 1}"
        self.links.append({"id": lid, "a": a, "b": b, "endA": end_a, "endB": end_b})
        return lid

    def support(self, at: str, kind: str, angle: float = 0.0) -> None:
        self.supports.append(
            {"id": f"S{len(self.supports) + 1}", "at": {"type": "point", "id": at}, "kind": kind, "angleDeg": angle}
        )

    def _load(self, **fields: Any) -> None:
        self.loads.append({"id": f"LD{len(self.loads) + 1}", **fields})

    def force_at_point(self, at: str, value: float, angle: float) -> None:
        self._load(
            kind="pointLoad", at={"type": "point", "id": at}, value=value, angleDeg=angle, angleMode="world", flip=1
        )

    def force_on_link(self, link: str, value: float, angle: float, offset: float) -> None:
        self._load(
            kind="pointLoad",
            at={"type": "link", "id": link},
            value=value,
            angleDeg=angle,
            angleMode="world",
            flip=1,
            offsetMode="m",
            offset=offset,
            refEnd="A",
        )

    def line_load(
        self, link: str, w1: float, w2: float, from_start: float = 0.0, from_end: float = 0.0, angle: float = 270.0
    ) -> None:
        self._load(
            kind="distributedLoad",
            at={"type": "link", "id": link},
            wStart=w1,
            wEnd=w2,
            fromStart=from_start,
            fromEnd=from_end,
            angleDeg=angle,
            angleMode="world",
            flip=1,
        )

    def moment(self, at_type: str, at: str, value: float, flip: int, offset: float | None = None) -> None:
        fields: dict[str, Any] = {
            "kind": "bendingMoment",
            "at": {"type": at_type, "id": at},
            "value": value,
            "flip": flip,
        }
        if offset is not None:
            fields.update(offsetMode="m", offset=offset, refEnd="A")
        self._load(**fields)

    def model(self) -> dict[str, Any]:
        return {"points": self.points, "links": self.links, "supports": self.supports, "loads": self.loads}


def _force(rng: random.Random) -> float:
    return float(rng.choice([5, 10, 15, 20, 25, 30, 40]))


def _w(rng: random.Random) -> float:
    return float(rng.choice([2, 4, 5, 6, 8, 10, 12, 15]))


def _beam(rng: random.Random, difficulty: int) -> dict[str, Any]:
    b = ModelBuilder()
    span = float(rng.choice([4, 5, 6, 8]))
    if difficulty == 1:
        a, c = b.point(0.0, 0.0), b.point(span, 0.0)
        beam = b.link(a, c)
        b.support(a, "pin")
        b.support(c, "roller")
        if rng.random() < 0.5:
            b.force_on_link(beam, _force(rng), 270.0, float(rng.randint(1, int(span) - 1)))
        else:
            w = _w(rng)
            b.line_load(beam, w, rng.choice([w, 0.0]))  # uniform or triangular
        if rng.random() < 0.5:
            b.force_on_link(beam, _force(rng), 270.0, float(rng.randint(1, int(span) - 1)))
        return b.model()
    if difficulty == 2:
        overhang = float(rng.choice([1, 1.5, 2]))
        a, m, c = b.point(0.0, 0.0), b.point(span, 0.0), b.point(span + overhang, 0.0)
        main, tip = b.link(a, m), b.link(m, c)
        if rng.random() < 0.5:
            b.support(a, "pin")
            b.support(m, "roller")
            w1 = _w(rng)
            b.line_load(main, w1, w1 + rng.choice([0, 4, 6]), from_start=float(rng.choice([0, 1])))
            b.force_at_point(c, _force(rng), rng.choice([270.0, 240.0, 300.0]))
        else:
            b.support(a, "fixed")
            b.force_on_link(main, _force(rng), 270.0, float(rng.randint(1, int(span) - 1)))
            b.line_load(tip, _w(rng), _w(rng))
        b.moment("link", main, float(rng.choice([5, 10, 20])), rng.choice([1, -1]), offset=span / 2)
        return b.model()
    # difficulty 3: Gerber beam over three supports with a hinge in the second span
    second = float(rng.choice([4, 5, 6]))
    hinge_at = span + float(rng.choice([1, 1.5, 2]))
    a, m, h, c = b.point(0.0, 0.0), b.point(span, 0.0), b.point(hinge_at, 0.0), b.point(span + second, 0.0)
    l1, l2, l3 = b.link(a, m), b.link(m, h, end_b="hinge"), b.link(h, c)
    b.support(a, "pin")
    b.support(m, "roller")
    b.support(c, "roller")
    b.line_load(l1, _w(rng), _w(rng))
    b.force_on_link(l3, _force(rng), 270.0, round((span + second - hinge_at) / 2 * 2) / 2)
    if rng.random() < 0.5:
        b.line_load(l2, _w(rng), _w(rng))
    return b.model()


def _frame(rng: random.Random, difficulty: int) -> dict[str, Any]:
    b = ModelBuilder()
    width, height = float(rng.choice([4, 5, 6])), float(rng.choice([3, 4]))
    bays = 2 if difficulty == 5 else 1
    bases = [b.point(i * width, 0.0) for i in range(bays + 1)]
    tops = [b.point(i * width, height) for i in range(bays + 1)]
    columns = [b.link(base, top) for base, top in zip(bases, tops, strict=True)]
    beams = []
    for i in range(bays):
        if difficulty >= 4 and i == 0:
            mid = b.point(i * width + width / 2, height)
            beams.append(b.link(tops[i], mid, end_b="hinge"))
            beams.append(b.link(mid, tops[i + 1]))
        else:
            beams.append(b.link(tops[i], tops[i + 1]))
    if difficulty == 3:
        kinds = rng.choice([("fixed", "fixed"), ("fixed", "pin"), ("pin", "fixed")])
        for base, kind in zip(bases, kinds, strict=True):
            b.support(base, kind)
    elif difficulty == 4:
        b.support(bases[0], "pin")
        b.support(bases[1], "fixed")
        if rng.random() < 0.5:
            b.supports[-1].update(kind="roller", angleDeg=float(rng.choice([30, -30, 45])))
            b.supports[0].update(kind="fixed")
    else:
        for base, kind in zip(bases, ["fixed", "pin", "fixed"], strict=True):
            b.support(base, kind)
    for beam in beams:
        w = _w(rng)
        b.line_load(beam, w, w)
    b.force_at_point(tops[0], _force(rng), 0.0)
    if difficulty >= 4:
        b.moment("point", tops[-1], float(rng.choice([10, 20])), rng.choice([1, -1]))
        b.force_on_link(columns[-1], _force(rng), 180.0, float(rng.choice([1, 2])))
    return b.model()


def _truss(rng: random.Random, difficulty: int) -> dict[str, Any]:
    """A triangulated truss, pin-jointed (every member end hinged), loaded at its joints: Pratt, Howe or Warren
    (difficulty 4), K (difficulty 5). The generator keeps it only if it is stable pin-jointed."""
    b = ModelBuilder()
    panels = rng.choice([4, 6]) if difficulty == 5 else rng.choice([3, 4])
    width, height = float(rng.choice([2, 3])), float(rng.choice([2, 3, 4]))
    style = "K" if difficulty == 5 else rng.choice(["Pratt", "Howe", "Warren"])
    bottom = [b.point(i * width, 0.0) for i in range(panels + 1)]
    middle = panels / 2

    def member(a: str, c: str) -> None:
        b.link(a, c, "hinge", "hinge")

    if style == "Warren":
        # The classic Warren truss: top joints over the middle of each bottom panel, equilateral-ish triangles.
        top = [b.point((i + 0.5) * width, height) for i in range(panels)]
        for i in range(panels):
            member(bottom[i], bottom[i + 1])
            member(bottom[i], top[i])
            member(top[i], bottom[i + 1])
            if i < panels - 1:
                member(top[i], top[i + 1])
        loaded = top
    else:
        top = [b.point(i * width, height) for i in range(panels + 1)]
        for i in range(panels):
            member(bottom[i], bottom[i + 1])
            member(top[i], top[i + 1])
        if style == "K":
            # Interior verticals are split at mid-height; from each mid point two diagonals run to the top and
            # bottom of the neighbouring vertical on the support side.
            member(bottom[0], top[0])
            member(bottom[-1], top[-1])
            mids = {i: b.point(i * width, height / 2) for i in range(1, panels)}
            for i, mid in mids.items():
                member(bottom[i], mid)
                member(mid, top[i])
                for j in (i - 1,) if i < middle else (i + 1,) if i > middle else (i - 1, i + 1):
                    member(mid, top[j])
                    member(mid, bottom[j])
        else:
            for i in range(panels + 1):
                member(bottom[i], top[i])
            for i in range(panels):
                if (style == "Pratt") == (i < middle):
                    member(top[i], bottom[i + 1])
                else:
                    member(bottom[i], top[i + 1])
        loaded = top[1:-1]
    b.support(bottom[0], "pin")
    b.support(bottom[-1], "roller")
    for node in rng.sample(loaded, k=min(2, len(loaded))):
        b.force_at_point(node, _force(rng), 270.0)
    if difficulty >= 4:
        b.force_at_point(top[0], float(rng.choice([5, 10])), 0.0)
    return b.model()


def _kind_for(difficulty: int, kinds: tuple[str, ...], rng: random.Random) -> str:
    allowed = [
        k
        for k in kinds
        if (k, difficulty)
        not in {("truss", 1), ("truss", 2), ("truss", 3), ("beam", 4), ("beam", 5), ("frame", 1), ("frame", 2)}
    ]
    return rng.choice(allowed or list(kinds))


def generate_structure(rng: random.Random, difficulty: int, kinds: tuple[str, ...] = KINDS) -> tuple[str, dict]:
    """One stable structure of the given difficulty (1–5 here, 6–10 in :mod:`mechbench.frame.generate_deep`):
    (category, FrameCalc model)."""
    from mechbench.frame.generate_deep import DEEP_LEVELS, deep_beam, deep_frame, deep_truss

    if difficulty not in (*LEVELS, *DEEP_LEVELS):
        raise MechbenchError(f"no structures of difficulty {difficulty}: levels are 1 to {max(DEEP_LEVELS)}")
    for _ in range(100):
        kind = _kind_for(difficulty, kinds, rng)
        if difficulty in DEEP_LEVELS:
            model = {"beam": deep_beam, "frame": deep_frame, "truss": deep_truss}[kind](rng, difficulty)
        else:
            builder = {"beam": _beam, "frame": _frame, "truss": _truss}[kind]
            model = builder(rng, min(difficulty, 3) if kind == "beam" else difficulty)
        try:
            FrameModel.parse(model)
            solve(model, diagrams=False)
        except MechbenchError:
            continue
        return kind, model
    raise MechbenchError(f"could not generate a stable {kinds} structure of difficulty {difficulty}")
