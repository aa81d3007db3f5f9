"""What an engineer reads off a solved part besides its peaks: the forces on a section cut through it, its
plastic capacity there, and whether the set-up is mirror-symmetric.

Symmetry is read from the set-up itself (outline, holes, supports, load and temperature field), not from the mesh:
an unstructured mesh is never exactly symmetric, and round-off must not decide a categorical answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mechbench.simulation.elastic import Model
from mechbench.simulation.parts import Hold, Part, Push

SECTION_SAMPLES = 800
"""Points a section cut is integrated over (midpoint rule; the stress is interpolated between mesh vertices)."""
SYMMETRY_TOLERANCE = 1e-6
"""mm, and share of the peak temperature: two set-up features this close are the same."""


@dataclass(frozen=True)
class Section:
    """The normal stress on a straight cut through the part, integrated (N, N·mm, mm²)."""

    force: float
    """Axial force N."""
    moment: float
    """Bending moment M about the centroid of the cut."""
    area: float
    axial: float
    """|N| / A (MPa)."""
    bending: float
    """|M| c / I (MPa), c to the farthest material of the cut."""
    plastic_force: float
    """A·σ_y per MPa of yield strength (mm²): the axial force the section carries fully yielded, per MPa."""
    plastic_moment: float
    """Plastic section modulus (mm³): the moment the section carries fully yielded, per MPa of yield strength."""


def section(model: Model, part: Part, vertex_stress: np.ndarray, at: tuple[float, float], vertical: bool) -> Section:
    """The normal stress (σx on a vertical cut, σy on a horizontal one) across the part through ``at``."""
    span = part.height if vertical else part.width
    s = (np.arange(SECTION_SAMPLES) + 0.5) * span / SECTION_SAMPLES
    # A peak on an end face is cut just inside it (a cut along the boundary holds no material).
    across = part.width if vertical else part.height
    where = float(np.clip(at[0] if vertical else at[1], 1e-3 * across, (1 - 1e-3) * across))
    x, y = (np.full_like(s, where), s) if vertical else (s, np.full_like(s, where))
    inside = part.inside(x, y)
    s, points = s[inside], np.stack([x[inside], y[inside]])
    ds = span / SECTION_SAMPLES * part.thickness  # area of one sample's strip
    sigma = model.on_vertices(vertex_stress[0 if vertical else 1], points)[0]
    area = ds * len(s)
    centroid = float(s.mean())
    inertia = float(((s - centroid) ** 2).sum() * ds) + area * (span / SECTION_SAMPLES) ** 2 / 12
    force = float(sigma.sum() * ds)
    moment = float((sigma * (s - centroid)).sum() * ds)
    reach = float(np.abs(s - centroid).max()) + span / SECTION_SAMPLES / 2
    neutral = float(np.median(s))  # the plastic neutral axis halves the area
    return Section(
        force=force,
        moment=moment,
        area=area,
        axial=abs(force) / area,
        bending=abs(moment) * reach / inertia,
        plastic_force=area,
        plastic_moment=float(np.abs(s - neutral).sum() * ds),
    )


def _mirror_point(part: Part, axis: str, x: float, y: float) -> tuple[float, float]:
    return (part.width - x, y) if axis == "x" else (x, part.height - y)


def _mirror_span(part: Part, axis: str, edge: str, span: tuple[float, float] | None) -> tuple[float, float] | None:
    along_x = edge in ("bottom", "top")
    if span is None or along_x != (axis == "x"):
        return span
    length = part.width if along_x else part.height
    return (round(length - span[1], 6), round(length - span[0], 6))


def _mirror_edge(axis: str, edge: str) -> str:
    swap = {"x": {"left": "right", "right": "left"}, "y": {"bottom": "top", "top": "bottom"}}[axis]
    return swap.get(edge, edge)


def _mirror_hold(part: Part, axis: str, hold: Hold) -> tuple:
    if hold.point is not None:
        point = _mirror_point(part, axis, *hold.point)
        return (hold.x, hold.y, None, None, (round(point[0], 6), round(point[1], 6)))
    assert hold.edge is not None
    return (hold.x, hold.y, _mirror_edge(axis, hold.edge), _mirror_span(part, axis, hold.edge, hold.span), None)


def _hold_key(hold: Hold) -> tuple:
    point = None if hold.point is None else (round(hold.point[0], 6), round(hold.point[1], 6))
    span = None if hold.span is None else (round(hold.span[0], 6), round(hold.span[1], 6))
    return (hold.x, hold.y, hold.edge, span, point)


def _mirror_push(part: Part, axis: str, push: Push) -> Push:
    dx, dy = push.direction
    direction = (-dx, dy) if axis == "x" else (dx, -dy)
    return Push(_mirror_edge(axis, push.edge), direction, _mirror_span(part, axis, push.edge, push.span))


def _push_key(push: Push) -> tuple:
    span = None if push.span is None else (round(push.span[0], 6), round(push.span[1], 6))
    return (push.edge, tuple(round(d, 6) + 0.0 for d in push.direction), span)


def _same_points(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    key = lambda p: (round(p[0] / SYMMETRY_TOLERANCE), round(p[1] / SYMMETRY_TOLERANCE))  # noqa: E731
    return sorted(map(key, a)) == sorted(map(key, b))


def mirror_symmetric(
    part: Part,
    holds: tuple[Hold, ...],
    push: Push | None,
    heat: Callable[[np.ndarray, np.ndarray], np.ndarray],
    supports: bool = True,
) -> bool:
    """Outline, holes, load (``None``: no mechanical load) and temperature field — and, with ``supports``, the
    supports — unchanged by a mirror about the part's mid-length or mid-height line."""
    grid_x, grid_y = np.meshgrid(np.linspace(0, part.width, 41), np.linspace(0, part.height, 41))
    inside = part.inside(grid_x, grid_y)
    gx, gy = grid_x[inside], grid_y[inside]
    temperature = np.asarray(heat(gx, gy), dtype=float) + 0 * gx
    scale = max(float(np.abs(temperature).max()), 1.0)
    for axis in ("x", "y"):
        outline = [_mirror_point(part, axis, x, y) for x, y in part.shape.outline]
        holes = [(*_mirror_point(part, axis, x, y), r) for x, y, r in part.shape.holes]
        mx, my = (part.width - gx, gy) if axis == "x" else (gx, part.height - gy)
        mirrored = np.asarray(heat(mx, my), dtype=float) + 0 * gx
        same = (
            _same_points(outline, list(part.shape.outline))
            and sorted(np.round(holes, 6).tolist()) == sorted(np.round(part.shape.holes, 6).tolist())
            and np.allclose(mirrored, temperature, atol=SYMMETRY_TOLERANCE * scale)
            and (push is None or _push_key(_mirror_push(part, axis, push)) == _push_key(push))
            and (not supports or sorted(map(str, (_mirror_hold(part, axis, h) for h in holds)))
                 == sorted(map(str, map(_hold_key, holds))))
        )  # fmt: skip
        if same:
            return True
    return False
