"""A validated model flattened into plain lists: the input of the vectorised numerical stages.

Kept in plain Python (no numpy) because it runs once per model: for the small structures of a
benchmark, per-call overhead, not arithmetic, is what costs time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mechbench.core.errors import ModelFormatError, UnstableStructureError
from mechbench.frame.loads import cos_sin_deg, force_angle_deg
from mechbench.frame.model import BendingMoment, DistributedLoad, FrameModel

_DIRECTIONS = {
    "fixed": ("ux", "uy", "rz"),
    "pin": ("ux", "uy"),
    "roller": ("normal",),
    "slider": ("normal", "rz"),
}


@dataclass
class Compiled:
    """One model as flat lists. Nodes are the points some link touches, in input order."""

    model: FrameModel
    node_ids: list[str]
    coords: list[tuple[float, float]]
    link_ids: list[str]
    ia: list[int]
    ib: list[int]
    E: list[float]
    A: list[float]
    I: list[float]  # noqa: E741
    length: list[float]
    cos: list[float]
    sin: list[float]
    release_a: list[bool]
    release_b: list[bool]
    nodal: list[float]
    """Nodal loads (fx, fy, mz per node)."""
    forces: list[tuple[int, float, float, float]] = field(default_factory=list)
    """Point forces in links: (link, distance from A, fx, fy world)."""
    moments: list[tuple[int, float, float]] = field(default_factory=list)
    """Point moments in links: (link, distance from A, moment)."""
    lines: list[tuple[int, float, float, float, float, float, float]] = field(default_factory=list)
    """Line loads: (link, s1, s2, w1, w2, ux, uy) with (ux, uy) the world direction times flip."""
    spring_node: list[int] = field(default_factory=list)
    spring_dir: list[tuple[float, float, float]] = field(default_factory=list)
    reaction_labels: list[tuple[str, str]] = field(default_factory=list)
    free_rotation: list[int] = field(default_factory=list)
    """Nodes where every link end is hinged and no support restrains rotation (decoupled DOF)."""

    @property
    def ndof(self) -> int:
        return 3 * len(self.node_ids)


def compile_model(model: FrameModel) -> Compiled:
    """Flatten ``model``; raises for what no numerical stage could fix (no links, nothing to hold it)."""
    if not model.links:
        raise ModelFormatError("the model has no links")
    if not model.supports:
        raise UnstableStructureError("the structure has no supports: it can move freely as a rigid body")
    xy = {p.id: (p.x, p.y) for p in model.points}
    attached = {pid for link in model.links for pid in (link.a, link.b)}
    node_ids = [p.id for p in model.points if p.id in attached]
    index = {pid: i for i, pid in enumerate(node_ids)}

    ia, ib, lengths, cos, sin, angles = [], [], [], [], [], []
    link_index: dict[str, int] = {}
    for k, link in enumerate(model.links):
        (xa, ya), (xb, yb) = xy[link.a], xy[link.b]
        length = math.hypot(xb - xa, yb - ya)
        ia.append(index[link.a])
        ib.append(index[link.b])
        lengths.append(length)
        cos.append((xb - xa) / length)
        sin.append((yb - ya) / length)
        angles.append(math.degrees(math.atan2(yb - ya, xb - xa)))
        link_index[link.id] = k

    compiled = Compiled(
        model=model,
        node_ids=node_ids,
        coords=[xy[pid] for pid in node_ids],
        link_ids=[link.id for link in model.links],
        ia=ia,
        ib=ib,
        E=[link.E for link in model.links],
        A=[link.A for link in model.links],
        I=[link.Iz for link in model.links],
        length=lengths,
        cos=cos,
        sin=sin,
        release_a=[link.endA == "hinge" for link in model.links],
        release_b=[link.endB == "hinge" for link in model.links],
        nodal=[0.0] * (3 * len(node_ids)),
    )
    _add_loads(compiled, model, index, link_index, angles)
    _add_supports(compiled, model, index)
    return compiled


def _add_loads(
    compiled: Compiled,
    model: FrameModel,
    index: dict[str, int],
    link_index: dict[str, int],
    angles: list[float],
) -> None:
    for load in model.loads:
        on_link = load.at.type == "link"
        if not on_link and load.at.id not in index:
            raise ModelFormatError(f"load {load.id}: point {load.at.id} is not the end of any link")
        k = link_index[load.at.id] if on_link else -1
        if isinstance(load, BendingMoment):
            moment = load.value * load.flip
            if on_link:
                compiled.moments.append((k, load.position_from_a(compiled.length[k]), moment))
            else:
                compiled.nodal[3 * index[load.at.id] + 2] += moment
            continue
        c, s = cos_sin_deg(force_angle_deg(load, angles[k] if on_link else None))
        if isinstance(load, DistributedLoad):
            length = compiled.length[k]
            compiled.lines.append(
                (
                    k,
                    load.fromStart,
                    length - load.fromEnd,
                    load.wStart,
                    load.wEnd,
                    load.flip * c,
                    load.flip * s,
                )
            )
            continue
        fx, fy = load.value * load.flip * c, load.value * load.flip * s
        if on_link:
            compiled.forces.append((k, load.position_from_a(compiled.length[k]), fx, fy))
        else:
            node = 3 * index[load.at.id]
            compiled.nodal[node] += fx
            compiled.nodal[node + 1] += fy


def _add_supports(compiled: Compiled, model: FrameModel, index: dict[str, int]) -> None:
    rigid = [False] * len(compiled.node_ids)
    for a, b, ra, rb in zip(compiled.ia, compiled.ib, compiled.release_a, compiled.release_b, strict=True):
        rigid[a] = rigid[a] or not ra
        rigid[b] = rigid[b] or not rb
    held = [False] * len(compiled.node_ids)
    for support in model.supports:
        if support.at.id not in index:
            raise ModelFormatError(f"support {support.id}: point {support.at.id} is not the end of any link")
        node = index[support.at.id]
        c, s = cos_sin_deg(support.angleDeg)
        directions = {
            "fixed": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
            "pin": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)),
            "roller": ((-s, c, 0.0),),
            "slider": ((c, s, 0.0), (0.0, 0.0, 1.0)),
        }[support.kind]
        for direction, label in zip(directions, _DIRECTIONS[support.kind], strict=True):
            compiled.spring_node.append(node)
            compiled.spring_dir.append(direction)
            compiled.reaction_labels.append((support.id, label))
            held[node] = held[node] or direction[2] != 0.0
    # A joint where every link end is hinged has no rotational stiffness from the links; its rotation
    # is decoupled and carries nothing, unless a support restrains it or a moment is applied to it.
    for node, (is_rigid, is_held) in enumerate(zip(rigid, held, strict=True)):
        if is_rigid or is_held:
            continue
        if compiled.nodal[3 * node + 2] != 0.0:
            raise UnstableStructureError(
                f"a point moment acts at {compiled.node_ids[node]}, where every link end is hinged: nothing resists it",
                moving=[compiled.node_ids[node]],
            )
        compiled.free_rotation.append(node)
