"""Whether a structure's reactions depend on its members' stiffness (it is statically indeterminate).

Decided by the physics rather than by counting: the reactions of a statically determinate structure follow from
equilibrium alone, so changing every member's section by a different factor leaves them unchanged; those of an
indeterminate one change. Supports are imposed exactly (FrameCalc's 1e12 springs would make every structure
depend on stiffness a little).
"""

from __future__ import annotations

import numpy as np

from mechbench.frame.model import FrameModel
from mechbench.frame.solve import analyze_many

RELATIVE_CHANGE = 1e-6
"""A reaction change, relative to the largest reaction, that counts as depending on stiffness (round-off is ~1e-12)."""


def _scaled(model: FrameModel) -> FrameModel:
    links = [
        link.model_copy(update={"Iz": link.Iz * (1.7 + 0.61 * k), "A": link.A * (2.3 + 0.43 * k)})
        for k, link in enumerate(model.links)
    ]
    return model.model_copy(update={"links": links})


def reactions_depend_on_stiffness(model: FrameModel) -> bool:
    """True when changing the members' sections changes the support reactions (a statically indeterminate
    structure, whose drawing must say which stiffness it assumes); False for a determinate or unstable one."""
    first, second = analyze_many([model, _scaled(model)], exact_supports=True)
    if isinstance(first, Exception) or isinstance(second, Exception):  # an unstable or invalid model
        return False
    scale = max(float(np.max(np.abs(first.reactions), initial=0.0)), 1e-300)
    return bool(np.max(np.abs(first.reactions - second.reactions), initial=0.0) > RELATIVE_CHANGE * scale)


def stiffness_note(model: FrameModel) -> str | None:
    """What a drawing of ``model`` must say about stiffness: None for a determinate structure; for an
    indeterminate one "EI, EA constant" when every member has the same section, else each member's EI and EA."""
    if not reactions_depend_on_stiffness(model):
        return None
    sections = {(link.E * link.Iz, link.E * link.A) for link in model.links}
    if len(sections) == 1:
        return "EI, EA constant"
    return "; ".join(f"{link.id}: EI {link.E * link.Iz:.3g}, EA {link.E * link.A:.3g}" for link in model.links)


RESTRAINTS = {"fixed": 3, "pin": 2, "roller": 1, "slider": 2}
"""Reaction components of each support kind."""
TRUSS_RESTRAINTS = {"fixed": 2, "pin": 2, "roller": 1, "slider": 1}
"""The components that restrain a pin-jointed truss: a support's rotation restraint holds nothing at a pin joint."""


def moment_releases(model: FrameModel) -> int:
    """Moment releases at the joints: each hinged member end releases one, but a joint where every member end is
    hinged releases one fewer (its members still share the joint's displacement), unless a support holds the
    joint's rotation (fixed, slider): then every end is released from it."""
    held = {s.at.id for s in model.supports if s.at.type == "point" and s.kind in ("fixed", "slider")}
    ends: dict[str, list[bool]] = {}
    for link in model.links:
        ends.setdefault(link.a, []).append(link.endA == "hinge")
        ends.setdefault(link.b, []).append(link.endB == "hinge")
    return sum(len(hinged) - (point not in held) if all(hinged) else sum(hinged) for point, hinged in ends.items())


def static_indeterminacy(model: FrameModel, *, pin_jointed: bool = False) -> int:
    """The degree of static indeterminacy by counting: reactions + 3 per member − 3 per joint − moment releases for
    a frame; reactions + members − 2 per joint for a pin-jointed truss (``pin_jointed``, whatever its drawn joints;
    a support's rotation restraint holds nothing there). Negative for a mechanism; counting cannot see a
    geometrically unstable arrangement."""
    joints = len({end for link in model.links for end in (link.a, link.b)})
    if pin_jointed:
        return sum(TRUSS_RESTRAINTS[support.kind] for support in model.supports) + len(model.links) - 2 * joints
    reactions = sum(RESTRAINTS[support.kind] for support in model.supports)
    return reactions + 3 * len(model.links) - 3 * joints - moment_releases(model)
