"""The same structures expressed for peer solvers (anaStruct, PyNite, OpenSeesPy), for the benchmark.

Peers take nodal loads and whole-member distributed loads most naturally, so each model is first
brought into a "peer form": links are split at interior point loads, point moments and the ends of
partial distributed loads (what a user of those tools does by hand). Supports must be axis-aligned.
Each adapter builds, solves and returns world reactions per support point: {point_id: (Fx, Fy, Mz)}.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mechbench.frame.loads import cos_sin_deg, force_angle_deg
from mechbench.frame.model import BendingMoment, DistributedLoad, FrameModel, PointLoad


@dataclass
class PeerModel:
    nodes: dict[str, tuple[float, float]]
    # (id, node a, node b, E, A, I, hinge at a, hinge at b)
    elements: list[tuple[str, str, str, float, float, float, bool, bool]]
    # point id -> (restrain x, restrain y, restrain rotation)
    restraints: dict[str, tuple[bool, bool, bool]]
    nodal: dict[str, list[float]] = field(default_factory=dict)
    # element id -> (qx1, qy1, qx2, qy2) world components of a linearly varying line load over the element
    lines: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)

    def loaded_nodal(self, node: str) -> list[float]:
        return self.nodal.setdefault(node, [0.0, 0.0, 0.0])


def _restraint(kind: str, angle: float) -> tuple[bool, bool, bool] | None:
    c, s = cos_sin_deg(angle)
    if kind == "fixed":
        return (True, True, True)
    if kind == "pin":
        return (True, True, False)
    if abs(c * s) > 1e-12:
        return None  # inclined rollers and sliders need a rotated frame: not every peer has one
    if kind == "roller":  # restrains n = (−sin θ, cos θ)
        return (abs(s) > 0.5, abs(c) > 0.5, False)
    return (abs(c) > 0.5, abs(s) > 0.5, True)  # slider restrains t = (cos θ, sin θ) and rotation


def to_peer_form(model: FrameModel) -> PeerModel | None:
    """Split links at interior load positions; None when a support is not axis-aligned."""
    restraints: dict[str, tuple[bool, bool, bool]] = {}
    for support in model.supports:
        r = _restraint(support.kind, support.angleDeg)
        if r is None:
            return None
        old = restraints.get(support.at.id, (False, False, False))
        restraints[support.at.id] = tuple(a or b for a, b in zip(old, r, strict=True))  # type: ignore[assignment]
    nodes = {p.id: (p.x, p.y) for p in model.points}
    peer = PeerModel(nodes=nodes, elements=[], restraints=restraints)
    by_link: dict[str, list] = {}
    for load in model.loads:
        if load.at.type == "point":
            target = peer.loaded_nodal(load.at.id)
            if isinstance(load, BendingMoment):
                target[2] += load.value * load.flip
            else:
                c, s = cos_sin_deg(force_angle_deg(load, None))
                target[0] += load.value * load.flip * c
                target[1] += load.value * load.flip * s
        else:
            by_link.setdefault(load.at.id, []).append(load)
    for link in model.links:
        (xa, ya), (xb, yb) = nodes[link.a], nodes[link.b]
        length = math.hypot(xb - xa, yb - ya)
        alpha = math.degrees(math.atan2(yb - ya, xb - xa))
        loads = by_link.get(link.id, [])
        cuts = {0.0, length}
        for load in loads:
            if isinstance(load, DistributedLoad):
                cuts.update((load.fromStart, length - load.fromEnd))
            else:
                cuts.add(load.position_from_a(length))
        stations = sorted(cuts)
        ids = [link.a]
        for k, s in enumerate(stations[1:-1], start=1):
            node = f"{link.id}~{k}"
            nodes[node] = (xa + (xb - xa) * s / length, ya + (yb - ya) * s / length)
            ids.append(node)
        ids.append(link.b)
        for k in range(len(ids) - 1):
            peer.elements.append(
                (
                    f"{link.id}#{k}",
                    ids[k],
                    ids[k + 1],
                    link.E,
                    link.A,
                    link.Iz,
                    link.endA == "hinge" and k == 0,
                    link.endB == "hinge" and k == len(ids) - 2,
                )
            )
        for load in loads:
            if isinstance(load, DistributedLoad):
                c, s = cos_sin_deg(force_angle_deg(load, alpha))
                s1, s2 = load.fromStart, length - load.fromEnd
                for k in range(len(ids) - 1):
                    a, b = stations[k], stations[k + 1]
                    if a < s1 - 1e-12 or b > s2 + 1e-12:
                        continue
                    w1 = load.wStart + (load.wEnd - load.wStart) * (a - s1) / (s2 - s1)
                    w2 = load.wStart + (load.wEnd - load.wStart) * (b - s1) / (s2 - s1)
                    key = f"{link.id}#{k}"
                    old = peer.lines.get(key, (0.0, 0.0, 0.0, 0.0))
                    f = load.flip
                    peer.lines[key] = (
                        old[0] + f * w1 * c,
                        old[1] + f * w1 * s,
                        old[2] + f * w2 * c,
                        old[3] + f * w2 * s,
                    )
                continue
            position = load.position_from_a(length)
            node = ids[stations.index(position)]
            target = peer.loaded_nodal(node)
            if isinstance(load, BendingMoment):
                target[2] += load.value * load.flip
            else:
                assert isinstance(load, PointLoad)
                c, s = cos_sin_deg(force_angle_deg(load, alpha))
                target[0] += load.value * load.flip * c
                target[1] += load.value * load.flip * s
    return peer


def _joint_rotation_free(peer: PeerModel) -> set[str]:
    """Nodes where every element end is hinged: peers need their (decoupled) rotation restrained."""
    rigid: set[str] = set()
    seen: set[str] = set()
    for _, a, b, *_rest, ha, hb in peer.elements:
        seen.update((a, b))
        if not ha:
            rigid.add(a)
        if not hb:
            rigid.add(b)
    return seen - rigid


# -- anaStruct ---------------------------------------------------------------------------------------------
def solve_anastruct(peer: PeerModel, diagrams: bool = False) -> dict[str, tuple[float, float, float]]:
    from anastruct import SystemElements

    ss = SystemElements()
    node_id: dict[str, int] = {}
    element_id: dict[str, int] = {}
    for name, a, b, E, A, I, ha, hb in peer.elements:  # noqa: E741
        spring = {}
        if ha:
            spring[1] = 0
        if hb:
            spring[2] = 0
        eid = ss.add_element([peer.nodes[a], peer.nodes[b]], EA=E * A, EI=E * I, spring=spring or None)
        element_id[name] = eid
        element = ss.element_map[eid]
        node_id.setdefault(a, element.node_id1)
        node_id.setdefault(b, element.node_id2)
    for node, (rx, ry, rr) in peer.restraints.items():
        nid = node_id[node]
        if rx and ry and rr:
            ss.add_support_fixed(nid)
        elif rx and ry:
            ss.add_support_hinged(nid)
        elif rr:
            ss.add_support_roll(nid, direction="y" if rx else "x", rotate=False)
        else:
            ss.add_support_roll(nid, direction="x" if ry else "y")
    for node, (fx, fy, mz) in peer.nodal.items():
        if fx or fy:
            ss.point_load(node_id[node], Fx=fx, Fy=fy)
        if mz:
            ss.moment_load(node_id[node], Tz=mz)
    for name, (qx1, qy1, qx2, qy2) in peer.lines.items():
        eid = element_id[name]
        if qx1 or qx2:
            ss.q_load([qx1, qx2], eid, direction="x")
        if qy1 or qy2:
            ss.q_load([qy1, qy2], eid, direction="y")
    ss.solve()
    if diagrams:
        for key in ("moment", "shear", "axial"):
            ss.get_element_result_range(key)
    out = {}
    for node in peer.restraints:
        r = ss.get_node_results_system(node_id[node])
        out[node] = (-float(r["Fx"]), -float(r["Fy"]), -float(r["Tz"]))  # anaStruct reports −reaction
    return out


# -- PyNite ------------------------------------------------------------------------------------------------
def solve_pynite(peer: PeerModel, diagrams: bool = False) -> dict[str, tuple[float, float, float]]:
    from Pynite import FEModel3D

    m = FEModel3D()
    free_rotation = _joint_rotation_free(peer)
    for node, (x, y) in peer.nodes.items():
        m.add_node(node, x, y, 0.0)
        rx, ry, rr = peer.restraints.get(node, (False, False, False))
        m.def_support(node, rx, ry, True, True, True, rr or node in free_rotation)
    sections: dict[tuple[float, float, float], tuple[str, str]] = {}
    for name, a, b, E, A, I, ha, hb in peer.elements:  # noqa: E741
        if (E, A, I) not in sections:
            k = len(sections)
            m.add_material(f"mat{k}", E, E / 2.6, 0.3, 0.0)
            m.add_section(f"sec{k}", A, I, I, 2 * I)
            sections[(E, A, I)] = (f"mat{k}", f"sec{k}")
        mat, sec = sections[(E, A, I)]
        m.add_member(name, a, b, mat, sec)
        if ha or hb:
            m.def_releases(name, Rzi=ha, Rzj=hb)
    for node, (fx, fy, mz) in peer.nodal.items():
        for direction, value in (("FX", fx), ("FY", fy), ("MZ", mz)):
            if value:
                m.add_node_load(node, direction, value)
    for name, (qx1, qy1, qx2, qy2) in peer.lines.items():
        if qx1 or qx2:
            m.add_member_dist_load(name, "FX", qx1, qx2)
        if qy1 or qy2:
            m.add_member_dist_load(name, "FY", qy1, qy2)
    m.analyze_linear(check_stability=False, sparse=False)
    if diagrams:
        for member in m.members.values():
            member.moment_array("Mz", 500)
            member.shear_array("Fy", 500)
            member.axial_array(500)
    out = {}
    for node in peer.restraints:
        n = m.nodes[node]
        out[node] = (n.RxnFX["Combo 1"], n.RxnFY["Combo 1"], n.RxnMZ["Combo 1"])
    return out


# -- OpenSeesPy --------------------------------------------------------------------------------------------
def solve_opensees(peer: PeerModel, diagrams: bool = False) -> dict[str, tuple[float, float, float]] | None:
    import openseespy.opensees as ops

    if any(peer.lines[k][0] or peer.lines[k][2] or peer.lines[k][1] != peer.lines[k][3] for k in peer.lines):
        return None  # beamUniform is uniform and transverse in the element frame; keep to what it expresses
    ops.wipe()
    ops.model("basic", "-ndm", 2, "-ndf", 3)
    tags = {node: i + 1 for i, node in enumerate(peer.nodes)}
    free_rotation = _joint_rotation_free(peer)
    for node, (x, y) in peer.nodes.items():
        ops.node(tags[node], x, y)
    for node in peer.nodes:
        rx, ry, rr = peer.restraints.get(node, (False, False, False))
        rr = rr or node in free_rotation
        if rx or ry or rr:
            ops.fix(tags[node], int(rx), int(ry), int(rr))
    ops.geomTransf("Linear", 1)
    element_tag = {}
    for k, (name, a, b, E, A, I, ha, hb) in enumerate(peer.elements):  # noqa: E741
        release = (1 if ha else 0) + (2 if hb else 0)
        args = ["-release", release] if release else []
        ops.element("elasticBeamColumn", k + 1, tags[a], tags[b], A, E, I, 1, *args)
        element_tag[name] = (k + 1, a, b)
    ops.timeSeries("Constant", 1)
    ops.pattern("Plain", 1, 1)
    for node, load in peer.nodal.items():
        ops.load(tags[node], *load)
    for name, (_, qy1, _, _) in peer.lines.items():
        tag, a, b = element_tag[name]
        (xa, ya), (xb, yb) = peer.nodes[a], peer.nodes[b]
        length = math.hypot(xb - xa, yb - ya)
        # World y-load → element-local transverse and axial parts.
        c, s = (xb - xa) / length, (yb - ya) / length
        ops.eleLoad("-ele", tag, "-type", "-beamUniform", qy1 * c, qy1 * s)
    ops.system("BandGeneral")
    ops.numberer("RCM")
    ops.constraints("Plain")
    ops.integrator("LoadControl", 1.0)
    ops.algorithm("Linear")
    ops.analysis("Static")
    if ops.analyze(1) != 0:
        return None
    ops.reactions()
    out = {}
    for node in peer.restraints:
        fx, fy, mz = ops.nodeReaction(tags[node])
        out[node] = (fx, fy, mz)
    return out
