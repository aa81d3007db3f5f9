"""Engineering drawings of FrameCalc models, drawn the way a textbook exercise is.

Members as thick lines, point ids, support symbols by kind and angle (fixed: hatched wall; pin:
triangle; roller: triangle on wheels; slider: guided plate on wheels), hinge circles, point-load
arrows with values (and the angle to the horizontal when inclined), distributed-load blocks with
intensities, moment arcs with their sense, dimension chains in metres. Every number the solution
depends on is written on the drawing; the images are meant for people and for vision models alike.

Kept as one module (~710 lines): the layout decisions (label placement, collisions, dimension chains) depend on
each other and are tested as one drawing (tests/frame/test_drawing_layout.py).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, Polygon

from mechbench.core.budget import check_budget
from mechbench.core.errors import ModelTooLargeError
from mechbench.core.text import plain_text
from mechbench.frame.determinacy import stiffness_note
from mechbench.frame.loads import cos_sin_deg, force_angle_deg
from mechbench.frame.model import (
    DEFAULT_A,
    DEFAULT_E,
    DEFAULT_IZ,
    BendingMoment,
    DistributedLoad,
    FrameModel,
    PointLoad,
)

MEMBER = "#111111"
LOAD = "#c0392b"
MOMENT = "#8e44ad"
LABEL = "#1f4e9c"
DIMENSION = "#555555"
GUSSET = 0.45
"""Leg of a rigid joint's gusset, in symbol sizes."""
HINGE_NUDGE = 0.7
"""A partial hinge's circle sits this many radii into the released member (the joint stays inside it)."""
LABEL_PAD_PX = 1.5
_TEXT_BOX = {"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.85}


def _fmt(value: float) -> str:
    """A number as an engineer writes it: 2.5, 10, 0.125 (no trailing zeros, at most 4 decimals)."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@dataclass
class _Scale:
    size: float  # characteristic structure size (m)

    @property
    def symbol(self) -> float:
        return 0.055 * self.size

    @property
    def arrow(self) -> float:
        return 0.16 * self.size

    @property
    def hinge(self) -> float:
        return 0.014 * self.size


class _Drawing:
    def __init__(self, model: FrameModel, title: str | None, dimensions: bool, point_ids: bool):
        self.model = model
        self.points = {p.id: np.array([p.x, p.y], dtype=float) for p in model.points}
        self.links = {link.id: link for link in model.links}
        coords = np.array([[p.x, p.y] for p in model.points]) if model.points else np.zeros((1, 2))
        span = np.ptp(coords, axis=0)
        self.scale = _Scale(size=max(float(span.max()), 1.0))
        self.figure = Figure(figsize=self._figure_size(span), dpi=100)
        FigureCanvasAgg(self.figure)
        self.ax = self.figure.add_axes((0.02, 0.02, 0.96, 0.90 if title else 0.96))
        self.ax.set_aspect("equal")
        self.ax.axis("off")
        if title:
            self.figure.suptitle(title, fontsize=13, y=0.98)
        self.dimensions = dimensions
        self.point_ids = point_ids
        # Directions (unit vectors) already taken around each point, so its label goes elsewhere.
        self.occupied: dict[str, list[np.ndarray]] = {pid: self._directions_at(pid) for pid in self.points}
        self.label_distance: dict[str, float] = {}
        self.moment_centres = [self._load_position(load)[0] for load in model.loads if isinstance(load, BendingMoment)]
        self.extent: list[np.ndarray] = [coords.min(axis=0), coords.max(axis=0)]
        self.pending: list[tuple[np.ndarray, str, dict[str, Any]]] = []
        self.heads: list[tuple[np.ndarray, np.ndarray, float]] = []
        self.markers: list[tuple[np.ndarray, float, np.ndarray]] = []
        """Hinge circles: (centre, radius, the joint they mark), in data units."""
        self.layout: dict[str, Any] = {}

    def _figure_size(self, span: np.ndarray) -> tuple[float, float]:
        width = 9.0
        ratio = (span[1] + 0.6 * self.scale.size) / (span[0] + 0.6 * self.scale.size)
        return width, float(np.clip(width * ratio, 3.2, 11.0))

    # -- helpers -------------------------------------------------------------------------------------
    def _grow(self, *xy: np.ndarray) -> None:
        for p in xy:
            self.extent[0] = np.minimum(self.extent[0], p)
            self.extent[1] = np.maximum(self.extent[1], p)

    def _line(self, a: np.ndarray, b: np.ndarray, **style: Any) -> None:
        self.ax.plot([a[0], b[0]], [a[1], b[1]], solid_capstyle="butt", **style)
        self._grow(a, b)

    def _text(self, xy: np.ndarray, text: str, **style: Any) -> None:
        """Queue a label at its preferred spot; :meth:`place_labels` moves it where it hides nothing."""
        style.setdefault("fontsize", 10)
        style.setdefault("ha", "center")
        style.setdefault("va", "center")
        self.pending.append((np.asarray(xy, dtype=float), text, style))
        self._grow(xy)

    def _arrow(self, tail: np.ndarray, tip: np.ndarray, head: float, **style: Any) -> None:
        """An arrow whose head is an obstacle no label may cover."""
        self.ax.add_patch(
            FancyArrowPatch(
                tuple(tail), tuple(tip), arrowstyle="-|>", mutation_scale=head, shrinkA=0, shrinkB=0, **style
            )
        )
        self.heads.append((np.asarray(tail, dtype=float), np.asarray(tip, dtype=float), head))

    def _link_frame(self, link_id: str) -> tuple[np.ndarray, np.ndarray, float]:
        link = self.links[link_id]
        a, b = self.points[link.a], self.points[link.b]
        length = float(np.linalg.norm(b - a))
        return a, (b - a) / length, length

    def _directions_at(self, point_id: str) -> list[np.ndarray]:
        out = []
        for link in self.model.links:
            if point_id in (link.a, link.b):
                other = link.b if link.a == point_id else link.a
                d = self.points[other] - self.points[point_id]
                out.append(d / np.linalg.norm(d))
        return out

    def _away(self, point_id: str, candidates: list[np.ndarray]) -> np.ndarray:
        """The candidate direction that points most clearly away from the members at a point."""
        members = self._directions_at(point_id)
        if not members:
            return candidates[0]
        return min(candidates, key=lambda c: max(float(c @ m) for m in members))

    # -- members and points --------------------------------------------------------------------------
    def members(self) -> None:
        for link in self.model.links:
            check_budget()
            a, b = self.points[link.a], self.points[link.b]
            self._line(a, b, color=MEMBER, lw=3.2, zorder=2)
            notes = []
            for name, default in (("E", DEFAULT_E), ("A", DEFAULT_A), ("Iz", DEFAULT_IZ)):
                value = getattr(link, name)
                if not math.isclose(value, default, rel_tol=1e-9):
                    notes.append(f"{name} = {_fmt(value) if value >= 1e-3 else f'{value:.6g}'}")
            if notes:
                _, unit, _ = self._link_frame(link.id)
                normal = np.array([-unit[1], unit[0]])
                self._text((a + b) / 2 + normal * 0.05 * self.scale.size, ", ".join(notes), fontsize=8, color=MEMBER)

    def labels(self) -> None:
        """Point ids, each in the free direction farthest from members, supports and loads."""
        if not self.point_ids:
            return
        for pid, xy in self.points.items():
            if not self._directions_at(pid):
                continue
            taken = self.occupied[pid]
            taken = [t / np.linalg.norm(t) for t in taken]
            candidates = [np.array([math.cos(a), math.sin(a)]) for a in np.radians(np.arange(11.25, 360, 22.5))]

            def clearance(c: np.ndarray, taken: list[np.ndarray] = taken) -> float:
                return min((math.acos(float(np.clip(c @ t, -1, 1))) for t in taken), default=math.pi)

            best = max(candidates, key=clearance)
            distance = self.label_distance.get(pid, 0.045 * self.scale.size)
            self._text(xy + best * distance, pid, fontsize=8, color=LABEL)

    def hinges(self) -> None:
        ends: dict[str, list[tuple[str, bool]]] = {}
        for link in self.model.links:
            ends.setdefault(link.a, []).append((link.id, link.endA == "hinge"))
            ends.setdefault(link.b, []).append((link.id, link.endB == "hinge"))
        r = self.scale.hinge
        for pid, items in ends.items():
            hinged = [lid for lid, h in items if h]
            if not hinged:
                continue
            xy = self.points[pid]
            # Releasing all but one member end at a joint is the same joint as releasing all of them (unless a
            # moment or a clamp acts there): one circle on the point, as a textbook draws a pin.
            if len(hinged) >= len(items) - 1 and not self._turning_held(pid):
                self.ax.add_patch(Circle(tuple(xy), r, facecolor="white", edgecolor=MEMBER, lw=1.8, zorder=5))
                self.markers.append((xy.copy(), r, xy.copy()))
                continue
            for lid in hinged:
                link = self.links[lid]
                other = link.b if link.a == pid else link.a
                d = self.points[other] - xy
                d /= np.linalg.norm(d)
                # On the joint, nudged into the released member just enough to say which one it is: the joint
                # stays inside the circle, so the hinge reads at the point's true position.
                centre = xy + d * HINGE_NUDGE * r
                self.ax.add_patch(Circle(tuple(centre), r, facecolor="white", edgecolor=MEMBER, lw=1.8, zorder=5))
                self.markers.append((centre, r, xy.copy()))

    def _turning_held(self, pid: str) -> bool:
        """A point moment acts at the point, or a support there holds its rotation."""
        moment = any(isinstance(load, BendingMoment) and load.at.id == pid for load in self.model.loads)
        clamp = any(s.at.id == pid and s.kind in ("fixed", "slider") for s in self.model.supports)
        return moment or clamp

    def rigid_joints(self) -> None:
        """A small filled gusset in each corner where members meet rigidly at an angle, as textbooks mark a rigid
        joint (a frame's corner); collinear members (a beam) and pinned ends get none."""
        rigid: dict[str, list[np.ndarray]] = {}
        for link in self.model.links:
            for pid, other, end in ((link.a, link.b, link.endA), (link.b, link.a, link.endB)):
                if end == "rigid":
                    d = self.points[other] - self.points[pid]
                    rigid.setdefault(pid, []).append(d / np.linalg.norm(d))
        size = GUSSET * self.scale.symbol
        for pid, directions in rigid.items():
            if len(directions) < 2:
                continue
            angles = sorted(math.atan2(d[1], d[0]) for d in directions)
            xy = self.points[pid]
            for k, first in enumerate(angles):
                second = angles[(k + 1) % len(angles)] + (2 * math.pi if k == len(angles) - 1 else 0.0)
                if not 0.05 < second - first < math.pi - 0.05:  # collinear, or the outside of a corner
                    continue
                corners = [
                    xy,
                    xy + size * np.array([math.cos(first), math.sin(first)]),
                    xy + size * np.array([math.cos(second), math.sin(second)]),
                ]
                self.ax.add_patch(Polygon(corners, closed=True, facecolor=MEMBER, edgecolor=MEMBER, lw=0.6, zorder=3))

    # -- supports ------------------------------------------------------------------------------------
    def supports(self) -> None:
        for support in self.model.supports:
            pid = support.at.id
            c, s = cos_sin_deg(support.angleDeg)
            normal = np.array([-s, c])  # restrained direction of a roller (reaction into the structure)
            tangent = np.array([c, s])
            members = self._directions_at(pid)
            if support.kind == "slider":
                down = self._away(pid, [-tangent, tangent])
            elif support.kind == "fixed" and len(members) == 1:
                # A clamped member end: the wall stands across the member, beyond its end, so the member
                # visibly starts at the support (hatching under a beam end reads as extra length).
                down = -members[0]
            else:
                down = self._away(pid, [-normal, normal])
            getattr(self, f"_{support.kind}")(self.points[pid], down)
            if support.kind in ("roller", "slider"):
                self._surface_angle(self.points[pid], down, support.angleDeg)
            across = np.array([-down[1], down[0]])
            # The symbol is wide: keep labels out of the whole half-plane it sits in.
            self.occupied[pid].extend([down, down + across, down - across, down + 2.5 * across, down - 2.5 * across])
            self.label_distance[pid] = 0.06 * self.scale.size

    def _surface_angle(self, origin: np.ndarray, down: np.ndarray, angle: float) -> None:
        """An inclined roller or slider: a dashed horizontal from the end of its ground line and the acute angle the
        surface makes with it, so the angle is read, not guessed (multiples of 90° need none)."""
        inclination = angle % 180.0
        acute = min(inclination, 180.0 - inclination)
        if acute < 1e-9 or abs(acute - 90.0) < 1e-9:
            return
        at = self._placer(origin, down)
        ends = [at(-1.1, -1.12), at(1.1, -1.12)]
        low = min(ends, key=lambda p: (p[1], p[0]))  # the reference runs out from the lower end, clear of the symbol
        other = ends[1] if low is ends[0] else ends[0]
        outward = -1.0 if other[0] > low[0] else 1.0
        length = 1.8 * self.scale.symbol
        self._line(low, low + np.array([outward * length, 0.0]), color=MEMBER, lw=0.9, ls="--", zorder=3)
        self._text(low + np.array([outward * length * 0.75, -0.45 * self.scale.symbol]), f"{_fmt(acute)}°",
                   fontsize=9, color=MEMBER)  # fmt: skip

    def _placer(self, origin: np.ndarray, down: np.ndarray):
        across = np.array([-down[1], down[0]])

        def at(u: float, v: float) -> np.ndarray:
            """Canonical (u across, v up) in symbol units → drawing coordinates."""
            h = self.scale.symbol
            return origin + across * u * h - down * v * h

        return at

    def _ground(self, at, level: float, half: float = 1.1) -> None:
        self._line(at(-half, level), at(half, level), color=MEMBER, lw=1.6, zorder=3)
        for u in np.linspace(-half, half - 0.35, 7):
            self._line(at(u + 0.35, level), at(u, level - 0.35), color=MEMBER, lw=0.9, zorder=3)

    def _fixed(self, origin: np.ndarray, down: np.ndarray) -> None:
        at = self._placer(origin, down)
        self._line(at(-1.1, 0), at(1.1, 0), color=MEMBER, lw=2.6, zorder=3)
        for u in np.linspace(-1.1, 0.75, 7):
            self._line(at(u + 0.35, 0), at(u, -0.45), color=MEMBER, lw=0.9, zorder=3)

    def _triangle(self, at, height: float) -> None:
        corners = [at(0, 0), at(-0.65, -height), at(0.65, -height)]
        self.ax.add_patch(Polygon(corners, closed=True, facecolor="white", edgecolor=MEMBER, lw=1.6, zorder=4))
        self._grow(*corners)

    def _pin(self, origin: np.ndarray, down: np.ndarray) -> None:
        at = self._placer(origin, down)
        self._triangle(at, 1.0)
        self._ground(at, -1.0)

    def _wheels(self, at, level: float, spread: float) -> None:
        radius = 0.16 * self.scale.symbol
        for u in (-spread, 0.0, spread):
            self.ax.add_patch(
                Circle(tuple(at(u, level)), radius, facecolor="white", edgecolor=MEMBER, lw=1.2, zorder=4)
            )

    def _roller(self, origin: np.ndarray, down: np.ndarray) -> None:
        at = self._placer(origin, down)
        self._triangle(at, 0.8)
        self._wheels(at, -0.96, 0.42)
        self._ground(at, -1.12)

    def _slider(self, origin: np.ndarray, down: np.ndarray) -> None:
        at = self._placer(origin, down)
        self._line(at(0, 0), at(0, -0.35), color=MEMBER, lw=2.6, zorder=3)
        block = [at(-0.75, -0.35), at(0.75, -0.35), at(0.75, -0.6), at(-0.75, -0.6)]
        self.ax.add_patch(Polygon(block, closed=True, facecolor="#dddddd", edgecolor=MEMBER, lw=1.6, zorder=4))
        self._wheels(at, -0.76, 0.45)
        self._ground(at, -0.92)

    # -- loads ---------------------------------------------------------------------------------------
    def loads(self) -> None:
        for load in self.model.loads:
            check_budget()  # per load: a line load is tens of arrows and labels
            if isinstance(load, BendingMoment):
                self._moment(load)
            elif isinstance(load, PointLoad):
                self._point_load(load)
            else:
                self._line_load(load)

    def _load_position(self, load: PointLoad | BendingMoment) -> tuple[np.ndarray, str | None]:
        if load.at.type == "point":
            return self.points[load.at.id], load.at.id
        origin, unit, length = self._link_frame(load.at.id)
        return origin + unit * load.position_from_a(length), None

    def _direction(self, load: PointLoad | DistributedLoad) -> tuple[np.ndarray, float]:
        link_angle = None
        if load.at.type == "link":
            _, unit, _ = self._link_frame(load.at.id)
            link_angle = math.degrees(math.atan2(unit[1], unit[0]))
        psi = force_angle_deg(load, link_angle) + (180.0 if load.flip < 0 else 0.0)
        c, s = cos_sin_deg(psi)
        return np.array([c, s]), psi % 360.0

    def _angle_note(self, tail: np.ndarray, direction: np.ndarray, psi: float) -> str:
        """Mark the acute angle between an inclined force and the horizontal at the arrow's tail: the horizontal
        reference line it is measured from, the arc, and the angle beside the arc.

        Returns the text to add to the force's label (always "": the angle stands at its arc).
        """
        if abs(psi / 90.0 - round(psi / 90.0)) < 1e-9:
            return ""
        r = 0.07 * self.scale.size
        back = -direction  # from the tail, along the arrow's line away from the structure
        horizontal = np.array([math.copysign(1.0, back[0]), 0.0])
        self._line(tail - horizontal * r * 0.4, tail + horizontal * r * 1.8, color=LOAD, lw=0.9, ls="--", zorder=3)
        a0 = math.degrees(math.atan2(horizontal[1], horizontal[0]))
        a1 = math.degrees(math.atan2(back[1], back[0]))
        sweep = (a1 - a0 + 180) % 360 - 180
        angles = np.radians(np.linspace(a0, a0 + sweep, 30))
        self.ax.plot(tail[0] + r * np.cos(angles), tail[1] + r * np.sin(angles), color=LOAD, lw=0.9, zorder=3)
        middle = math.radians(a0 + sweep / 2)
        self._text(
            tail + 1.5 * r * np.array([math.cos(middle), math.sin(middle)]),
            f"{_fmt(abs(sweep))}°",
            fontsize=9,
            color=LOAD,
        )
        return ""

    def _members_at(self, load: PointLoad | BendingMoment) -> list[np.ndarray]:
        """Member directions leaving the point where a load acts (a link's interior has two)."""
        if load.at.type == "point":
            return self._directions_at(load.at.id)
        link = self.links[load.at.id]
        _, unit, length = self._link_frame(load.at.id)
        position = load.position_from_a(length)
        if position <= 1e-9:
            return self._directions_at(link.a)
        if position >= length - 1e-9:
            return self._directions_at(link.b)
        return [unit, -unit]

    def _point_load(self, load: PointLoad) -> None:
        where, pid = self._load_position(load)
        direction, psi = self._direction(load)
        if load.value < 0:
            direction = -direction
            psi = (psi + 180.0) % 360.0
        length = self.scale.arrow
        # The tip reaches the point; it stops at a hinge circle drawn there.
        hinged = any(np.linalg.norm(point - where) < 1e-9 for _, _, point in self.markers)
        gap = (1.2 if hinged else 0.3) * self.scale.hinge
        if any(np.linalg.norm(c - where) < 1e-9 for c in self.moment_centres):
            gap = 0.075 * self.scale.size  # stop at the moment arc drawn around the same point
        members = self._members_at(load)
        push_clash = max((float(-direction @ m) for m in members), default=-1.0)
        pull_clash = max((float(direction @ m) for m in members), default=-1.0)
        if push_clash > 0.95 and pull_clash > 0.95:
            # A force along a member's axis inside the member: draw it beside the member, tip level with
            # the point of application, which a short tick marks on the member.
            across = np.array([-direction[1], direction[0]])
            normal = across * 0.2 * self.scale.symbol
            self._line(where - normal, where + normal, color=LOAD, lw=2.0, zorder=5)
            side = across * 0.5 * self.scale.symbol
            tip, tail = where + side, where + side - direction * length
        elif push_clash <= 0.9 or pull_clash > 0.9:
            # Push: the arrow ends on the point, its tail out where no member runs.
            tip, tail = where - direction * gap, where - direction * (gap + length)
        else:
            tail, tip = where + direction * gap, where + direction * (gap + length)
        self._arrow(tail, tip, 18, color=LOAD, lw=2.0, zorder=5)
        self._grow(tail, tip)
        if pid is not None:
            self.occupied[pid].append((tail - where) / max(np.linalg.norm(tail - where), 1e-12))
        free_end = tail if np.linalg.norm(tail - where) > np.linalg.norm(tip - where) else tip
        outward = (free_end - where) / np.linalg.norm(free_end - where)
        note = self._angle_note(free_end, direction, psi) if free_end is tail else ""
        self._text(
            free_end + outward * 0.05 * self.scale.size,
            f"{_fmt(abs(load.value))} kN{note}",
            fontsize=10,
            color=LOAD,
            fontweight="bold",
        )

    def _crowding(self, samples: np.ndarray, exclude: str) -> int:
        """How many sample points lie on or next to members (other than ``exclude``) or moment arcs."""
        near = 0.035 * self.scale.size
        hits = np.zeros(len(samples), dtype=bool)
        for link in self.model.links:
            if link.id == exclude:
                continue
            a, b = self.points[link.a], self.points[link.b]
            ab = b - a
            t = np.clip(((samples - a) @ ab) / (ab @ ab), 0.0, 1.0)
            hits |= np.linalg.norm(samples - (a + t[:, None] * ab), axis=1) < near
        for centre in self.moment_centres:
            hits |= np.linalg.norm(samples - centre, axis=1) < 0.1 * self.scale.size
        return int(hits.sum())

    def _line_load(self, load: DistributedLoad) -> None:
        origin, unit, length = self._link_frame(load.at.id)
        direction, psi = self._direction(load)
        s1, s2 = load.fromStart, length - load.fromEnd
        # One scale for every line load of the drawing: a larger intensity is never drawn shorter than a smaller one.
        peak = max(
            (
                abs(w)
                for other in self.model.loads
                if isinstance(other, DistributedLoad)
                for w in (other.wStart, other.wEnd)
            ),
            default=1e-12,
        )
        peak = max(peak, 1e-12)
        count = max(4, round((s2 - s1) / self.scale.size * 16) + 1)
        t = np.linspace(0.0, 1.0, count)
        on_member = origin + np.outer(s1 + t * (s2 - s1), unit)
        w = load.wStart + t * (load.wEnd - load.wStart)
        if min(abs(load.wStart), abs(load.wEnd)) <= 1e-12:
            # Tapering to zero: depth proportional to the intensity, so the envelope is one straight line.
            depth = self.scale.arrow * 0.75 * np.abs(w) / peak
        else:  # rising with the intensity on the drawing's one scale, never too short to read
            depth = self.scale.arrow * 0.75 * (0.35 + 0.65 * np.abs(w) / peak)
        signed = (depth * np.sign(w))[:, None] * direction[None, :]
        # Arrows end on the member (pushing) unless that side is crowded and the other side is not;
        # then they start on the member and point away (pulling). Both show the true direction.
        inner = np.concatenate([on_member[1:-1] - f * signed[1:-1] for f in (0.35, 0.7, 1.0)])
        outer = np.concatenate([on_member[1:-1] + f * signed[1:-1] for f in (0.35, 0.7, 1.0)])
        push = self._crowding(inner, load.at.id) <= self._crowding(outer, load.at.id)
        tails, tips = (on_member - signed, on_member) if push else (on_member, on_member + signed)
        envelope = tails if push else tips
        for tail, tip, d in zip(tails, tips, depth, strict=True):
            if d > 0:
                self._arrow(tail, tip, 11, color=LOAD, lw=1.2, zorder=4)
            self._grow(tail, tip)
        self.ax.plot(envelope[:, 0], envelope[:, 1], color=LOAD, lw=1.4, zorder=4)
        outward = -direction if push else direction
        offset = outward * 0.06 * self.scale.size
        note = self._angle_note(envelope[-1], direction, psi) if push else ""
        if abs(unit[0]) > 1e-9 and abs(unit[1]) > 1e-9:  # an inclined member: per metre of what, said, not guessed
            note += " per m of member"
        if math.isclose(load.wStart, load.wEnd):
            self._text(
                envelope[len(envelope) // 2] + offset,
                f"{_fmt(abs(load.wStart))} kN/m{note}",
                color=LOAD,
                fontweight="bold",
            )
        else:
            # Each end value reads inward from its own end, so two loads meeting at a point keep their values
            # on their own sides.
            inward: dict[str, Any] = {}
            if abs(unit[0]) > 0.3:
                inward = {"ha": "left" if unit[0] > 0 else "right"}
            start_style = {**inward, "color": LOAD, "fontweight": "bold"}
            end_style = {
                **({"ha": {"left": "right", "right": "left"}[inward["ha"]]} if inward else {}),
                "color": LOAD,
                "fontweight": "bold",
            }
            self._text(envelope[0] + offset, f"{_fmt(abs(load.wStart))} kN/m", **start_style)
            self._text(envelope[-1] + offset, f"{_fmt(abs(load.wEnd))} kN/m{note}", **end_style)
        link = self.links[load.at.id]
        for pid, s_at in ((link.a, 0.0), (link.b, length)):
            if s1 - 1e-9 <= s_at <= s2 + 1e-9:
                self.occupied[pid].append(outward)

    def _moment(self, load: BendingMoment) -> None:
        where, _ = self._load_position(load)
        r = 0.065 * self.scale.size
        value = load.value * load.flip
        start, stop = (200.0, 480.0) if value >= 0 else (480.0, 200.0)  # counter-clockwise when positive
        angles = np.radians(np.linspace(start, stop, 60))
        xs, ys = where[0] + r * np.cos(angles), where[1] + r * np.sin(angles)
        self.ax.plot(xs[:-3], ys[:-3], color=MOMENT, lw=2.0, zorder=5)
        self._arrow(np.array([xs[-6], ys[-6]]), np.array([xs[-1], ys[-1]]), 16, color=MOMENT, lw=2.0, zorder=5)
        self._grow(where - r, where + r)
        # The label goes where no member and no force at the same point is drawn.
        taken = list(self._members_at(load))
        for other in self.model.loads:
            if (
                isinstance(other, PointLoad | DistributedLoad)
                and other is not load
                and (isinstance(other, PointLoad) and np.linalg.norm(self._load_position(other)[0] - where) < 1e-9)
            ):
                direction, _ = self._direction(other)
                taken.extend([-direction, direction])
        sides = [np.array([math.cos(a), math.sin(a)]) for a in np.radians([90, 270, 0, 180, 45, 135, 315, 225])]
        side = max(sides, key=lambda c: min((float(-(c @ t)) for t in taken), default=1.0))
        self._text(where + side * r * 1.9, f"{_fmt(abs(value))} kN·m", color=MOMENT, fontweight="bold")
        if load.at.type == "point":
            self.occupied[load.at.id].append(side)
            self.label_distance[load.at.id] = 1.35 * r

    # -- dimensions ----------------------------------------------------------------------------------
    def _dimension_stations(self) -> tuple[list[float], list[float]]:
        xs = {round(float(p[0]), 6) for p in self.points.values()}
        ys = {round(float(p[1]), 6) for p in self.points.values()}
        for load in self.model.loads:
            if load.at.type != "link":
                continue
            origin, unit, length = self._link_frame(load.at.id)
            if isinstance(load, DistributedLoad):
                stations = [load.fromStart, length - load.fromEnd] if (load.fromStart or load.fromEnd) else []
            else:
                stations = [load.position_from_a(length)]
            for s in stations:
                xy = origin + unit * s
                if abs(unit[0]) > 1e-9:
                    xs.add(round(float(xy[0]), 6))
                if abs(unit[1]) > 1e-9 and abs(unit[0]) < 1e-9:
                    ys.add(round(float(xy[1]), 6))
        return sorted(xs), sorted(ys)

    def dimension_chains(self) -> None:
        if not self.dimensions:
            return
        xs, ys = self._dimension_stations()
        lo = self.extent[0].copy()
        gap = 0.09 * self.scale.size
        tick = 0.02 * self.scale.size
        if len(xs) > 1:
            y = lo[1] - gap
            self._chain([np.array([x, y]) for x in xs], np.array([0.0, 1.0]), tick, below=True)
        if len(ys) > 1:
            x = lo[0] - gap
            self._chain([np.array([x, y]) for y in ys], np.array([1.0, 0.0]), tick, below=False)

    def _chain(self, stations: list[np.ndarray], across: np.ndarray, tick: float, below: bool) -> None:
        self._line(stations[0], stations[-1], color=DIMENSION, lw=0.9, zorder=1)
        for p in stations:
            self._line(p - across * tick, p + across * tick, color=DIMENSION, lw=0.9, zorder=1)
        for a, b in itertools.pairwise(stations):
            distance = float(np.linalg.norm(b - a))
            mid = (a + b) / 2
            if below:
                self._text(mid - across * 2.4 * tick, f"{_fmt(distance)}", fontsize=9, color=DIMENSION)
            else:
                self._text(mid - across * 2.4 * tick, f"{_fmt(distance)}", fontsize=9, color=DIMENSION, rotation=90)

    def _set_limits(self) -> None:
        lo, hi = self.extent
        pad = 0.06 * self.scale.size
        side = 0.12 * self.scale.size  # labels extend sideways past their anchor points
        self.ax.set_xlim(lo[0] - side, hi[0] + side)
        self.ax.set_ylim(lo[1] - pad, hi[1] + pad)

    def _obstacles(self) -> tuple[list[tuple[np.ndarray, np.ndarray, float]], list[np.ndarray]]:
        """Members (display segments with half-widths) and arrowheads (display boxes) no label may cover."""
        to_px = self.ax.transData.transform
        px_per_pt = self.figure.dpi / 72.0
        members = [
            (to_px(self.points[link.a]), to_px(self.points[link.b]), 1.6 * px_per_pt) for link in self.model.links
        ]
        heads = []
        for tail, tip, mutation in self.heads:
            a, b = to_px(tail), to_px(tip)
            d = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
            n = np.array([-d[1], d[0]])
            length, half = 0.4 * mutation * px_per_pt, 0.25 * mutation * px_per_pt
            corners = np.array([b, b - d * length + n * half, b - d * length - n * half])
            heads.append(np.array([*corners.min(axis=0), *corners.max(axis=0)]))
        return members, heads

    def place_labels(self) -> None:
        """Put every queued label where it overlaps no other label, no member and no arrowhead.

        Each label tries its preferred spot, then rings of spots around it (in pixels, nearest first); the axes
        grow to keep every label inside, and placement is redone on the final scale.
        """
        renderer = self.figure.canvas.get_renderer()
        artists = []
        for xy, text, style in self.pending:
            check_budget()
            artists.append(self.ax.text(*xy, text, bbox=_TEXT_BOX, zorder=6, **style))
        offsets = [np.zeros(2)] + [
            radius * np.array([math.cos(a), math.sin(a)])
            for radius in (5.0, 10.0, 15.0, 20.0, 28.0, 36.0, 46.0, 58.0, 72.0)
            for a in np.radians(np.arange(0.0, 360.0, 22.5))
        ]
        boxes: list[np.ndarray] = []
        for _ in range(3):
            self._set_limits()
            members, heads = self._obstacles()
            to_px, to_data = self.ax.transData.transform, self.ax.transData.inverted().transform
            boxes = []
            for artist, (xy, _, _) in zip(artists, self.pending, strict=True):
                start = to_px(xy)
                best: tuple[int, np.ndarray, np.ndarray] | None = None
                for offset in offsets:
                    check_budget()  # per spot tried: a crowded label tries up to 145, each a text layout
                    artist.set_position(tuple(to_data(start + offset)))
                    box = _box(artist.get_window_extent(renderer), LABEL_PAD_PX + 1.5)
                    clashes = sum(_boxes_overlap(box, b) for b in boxes + heads) + sum(
                        _segment_hits_box(a, b, _grown(box, w)) for a, b, w in members
                    )
                    if best is None or clashes < best[0]:
                        best = (clashes, offset, box)
                    if clashes == 0:
                        break
                assert best is not None
                artist.set_position(tuple(to_data(start + best[1])))
                boxes.append(best[2])
            # Grow the drawing to hold every label; stop once nothing sticks out.
            corners = np.array([to_data(b[:2]) for b in boxes] + [to_data(b[2:]) for b in boxes]) if boxes else None
            if corners is None:
                break
            lo, hi = corners.min(axis=0), corners.max(axis=0)
            xlim, ylim = self.ax.get_xlim(), self.ax.get_ylim()
            if lo[0] >= xlim[0] and lo[1] >= ylim[0] and hi[0] <= xlim[1] and hi[1] <= ylim[1]:
                break
            self._grow(lo, hi)
        members, heads = self._obstacles()
        to_px = self.ax.transData.transform
        self.layout = {
            "labels": [(text, b.tolist()) for (_, text, _), b in zip(self.pending, boxes, strict=True)],
            "members": [(a.tolist(), b.tolist(), w) for a, b, w in members],
            "arrowheads": [h.tolist() for h in heads],
            "markers": [
                (
                    to_px(c).tolist(),
                    float(np.linalg.norm(to_px(c + np.array([r, 0.0])) - to_px(c))),
                    to_px(point).tolist(),
                )
                for c, r, point in self.markers
            ],
        }

    def finish(self) -> Figure:
        self.place_labels()
        note = stiffness_note(self.model)
        if note is not None:  # the reactions of an indeterminate structure depend on it: the drawing says it
            self.ax.text(0.0, 0.0, note, transform=self.ax.transAxes, ha="left", va="bottom", fontsize=9, color=MEMBER)
        self.ax.text(
            1.0,
            0.0,
            "units: m, kN",
            transform=self.ax.transAxes,
            ha="right",
            va="bottom",
            fontsize=8,
            color=DIMENSION,
        )
        return self.figure


def _box(extent: Any, pad: float) -> np.ndarray:
    return np.array([extent.x0 - pad, extent.y0 - pad, extent.x1 + pad, extent.y1 + pad])


def _grown(box: np.ndarray, by: float) -> np.ndarray:
    return box + np.array([-by, -by, by, by])


def _boxes_overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Axis-aligned boxes (x0, y0, x1, y1) share area."""
    return bool(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def _segment_hits_box(p: np.ndarray, q: np.ndarray, box: np.ndarray) -> bool:
    """The segment p–q passes through the box (Liang–Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    d = q - p
    for delta, start, low, high in ((d[0], p[0], box[0], box[2]), (d[1], p[1], box[1], box[3])):
        if abs(delta) < 1e-12:
            if start < low or start > high:
                return False
            continue
        a, b = (low - start) / delta, (high - start) / delta
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
        if t0 > t1:
            return False
    return True


MAX_DRAWN_POINTS = 40
MAX_DRAWN_LINKS = 40
MAX_DRAWN_LOADS = 40
"""The largest model drawn: label placement grows with the square of the parts, so a drawing stays within seconds
(40 links and 40 loads: ~6 s on a 2-core machine; 80 of each took 100 s). The published drawings have at most ~20
members; the solver itself takes far larger models (:data:`mechbench.frame.model.MAX_LINKS`)."""


def check_drawable(model: FrameModel) -> None:
    """Refuse a model too large to draw in seconds, in one line naming the limit."""
    counts = (("points", len(model.points), MAX_DRAWN_POINTS), ("links", len(model.links), MAX_DRAWN_LINKS))
    for what, count, limit in (*counts, ("loads", len(model.loads), MAX_DRAWN_LOADS)):
        if count > limit:
            raise ModelTooLargeError(
                f"the model has {count} {what}; mechbench draws at most {limit} (it solves larger ones)"
            )


def _drawn(model: dict[str, Any] | FrameModel, title: str | None, dimensions: bool, point_ids: bool) -> _Drawing:
    """The finished drawing of ``model`` (figure and layout)."""
    parsed = FrameModel.parse(model)
    check_drawable(parsed)
    drawing = _Drawing(parsed, title, dimensions, point_ids)
    drawing.members()
    drawing.rigid_joints()
    drawing.hinges()
    drawing.supports()
    drawing.loads()
    drawing.labels()
    drawing.dimension_chains()
    drawing.finish()
    return drawing


@plain_text
def render_figure(
    model: dict[str, Any] | FrameModel,
    *,
    title: str | None = None,
    dimensions: bool = True,
    point_ids: bool = True,
) -> Figure:
    """Draw ``model`` and return the matplotlib Figure (no pyplot state is touched)."""
    return _drawn(model, title, dimensions, point_ids).figure


@plain_text
def render_layout(
    model: dict[str, Any] | FrameModel,
    *,
    title: str | None = None,
    dimensions: bool = True,
    point_ids: bool = True,
) -> dict[str, Any]:
    """The drawing's layout in pixels: label boxes, member segments, arrowhead boxes and hinge markers.

    What a careful reader needs to find each quantity unambiguously; the tests check it over many drawings.
    """
    return _drawn(model, title, dimensions, point_ids).layout


@plain_text
def render(
    model: dict[str, Any] | FrameModel,
    path: str | Path | None = None,
    *,
    title: str | None = None,
    dpi: int = 110,
    dimensions: bool = True,
    point_ids: bool = True,
) -> bytes:
    """Draw ``model`` as a PNG; write it to ``path`` when given and return the PNG bytes.

    The output is deterministic: the same model gives the same bytes.
    """
    figure = render_figure(model, title=title, dimensions=dimensions, point_ids=point_ids)
    buffer = BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    data = buffer.getvalue()
    if path is not None:
        Path(path).write_bytes(data)
    return data
