"""Plastic collapse of frames and beams by the static (lower-bound) theorem, solved exactly as a linear programme.

With loads at the joints only, moments are linear along each member, so a hinge can form only at a member's end
(a rigid end: a hinged one carries no moment). Every statically admissible moment field is λ·M₀ + S·c, where M₀ is
any equilibrium solution for the reference loads (the elastic one) and the columns of S span the self-stress states
(their number is the degree of indeterminacy). The collapse load factor is the largest λ for which some c keeps
|M| ≤ Mp at every member end: linear in (λ, c), solved by HiGHS. S is read off elastic solutions of the same
structure with other member stiffnesses: each is in equilibrium with the loads, so their differences are
self-stress states, and enough of them span all of them.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from mechbench.core.errors import ModelFormatError
from mechbench.frame.determinacy import static_indeterminacy
from mechbench.frame.model import FrameModel
from mechbench.frame.solve import analyze_many, section_at

HINGE_SHARE = 1e-6
"""A member end carries Mp (a hinge) when |M| is within this share of Mp at collapse."""


@dataclass(frozen=True)
class Collapse:
    """The collapse load factor and the member ends where hinges form (link id, "A" or "B")."""

    factor: float
    hinges: tuple[tuple[str, str], ...]


def _end_moments(models: list[dict[str, Any]], sections: list[tuple[str, str, float]]) -> np.ndarray:
    """(models, sections) moments at the member ends, from the elastic solution of each model."""
    out = []
    for analysis in analyze_many(models, exact_supports=True):
        if isinstance(analysis, Exception):
            raise analysis
        out.append([section_at(analysis, link, s)[2] for link, _, s in sections])
    return np.array(out)


def collapse_factor(model: dict[str, Any], plastic_moment: Mapping[str, float], seed: int = 0) -> Collapse:
    """The load factor at plastic collapse of ``model`` (its loads as the reference), each member ``link id`` with
    its full plastic moment ``plastic_moment[link id]`` (kN·m); loads must act at points."""
    from scipy.optimize import linprog

    if any(load["at"]["type"] != "point" for load in model["loads"]):
        raise ModelFormatError("plastic collapse is computed for loads at points only: put a point at each load")
    parsed = FrameModel.parse(model)
    where = {p.id: (p.x, p.y) for p in parsed.points}
    lengths = {link.id: float(np.hypot(*np.subtract(where[link.a], where[link.b]))) for link in parsed.links}
    sections = [
        (link.id, end, 0.0 if end == "A" else lengths[link.id])
        for link in parsed.links
        for end, kind in (("A", link.endA), ("B", link.endB))
        if kind != "hinge"
    ]
    redundants = static_indeterminacy(parsed)
    rng = random.Random(seed)
    variants = []
    for _ in range(redundants + 3):
        varied = copy.deepcopy(model)
        for link in varied["links"]:
            link["Iz"] = float(link.get("Iz", 1e-4)) * rng.uniform(0.3, 3.0)
        variants.append(varied)
    moments = _end_moments([model, *variants], sections)
    m0, differences = moments[0], (moments[1:] - moments[0]).T
    basis = np.zeros((len(sections), 0))
    if redundants > 0:
        u, singular, _ = np.linalg.svd(differences, full_matrices=False)
        rank = int(np.sum(singular > 1e-9 * max(singular[0], 1e-300)))
        basis = u[:, :rank]
    mp = np.array([float(plastic_moment[link]) for link, _, _ in sections])
    # variables: λ, then c; maximise λ subject to −Mp ≤ λ·M₀ + S·c ≤ Mp
    rows = np.hstack([m0[:, None], basis])
    result = linprog(
        c=np.r_[-1.0, np.zeros(basis.shape[1])],
        A_ub=np.vstack([rows, -rows]),
        b_ub=np.r_[mp, mp],
        bounds=[(0, None)] + [(None, None)] * basis.shape[1],
        method="highs",
    )
    if not result.success:
        raise ModelFormatError(f"the collapse load could not be found ({result.message})")
    factor = float(result.x[0])
    field = rows @ result.x
    hinges = tuple((link, end) for (link, end, _), m, p in zip(sections, field, mp, strict=True)
                   if abs(abs(m) - p) <= HINGE_SHARE * p)  # fmt: skip
    return Collapse(factor, hinges)
