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
