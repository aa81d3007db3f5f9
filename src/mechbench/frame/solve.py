"""Public entry points: solve FrameCalc models and return FrameCalc's result format.

Linear static analysis by the direct stiffness method: one exact Euler–Bernoulli element per link
(span loads enter as exact fixed-end forces), hinged ends condensed out of their link, supports as
the 1e12 springs FrameCalc uses (or exact restraints). :func:`solve_many` runs many models through one
vectorised batch; :func:`solve` is the same code path for one model.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mechbench.core.errors import ModelFormatError, UnstableStructureError
from mechbench.frame.analysis import Analysis, analyze_batch, exact_restraints
from mechbench.frame.compile import Compiled, compile_model
from mechbench.frame.diagrams import LinkDiagram, link_diagrams, peak_moments, section_forces
from mechbench.frame.model import FrameModel


def analyze_many(
    models: Iterable[dict[str, Any] | FrameModel], *, exact_supports: bool = False
) -> list[Analysis | ModelFormatError | UnstableStructureError]:
    """Solve many models; each entry is an :class:`Analysis` (arrays) or the error that model raised."""
    outcomes: list[Any] = []
    compiled: list[Compiled] = []
    where: list[int] = []
    for model in models:
        try:
            parsed = model if isinstance(model, FrameModel) else FrameModel.parse(model)
            compiled.append(compile_model(parsed))
            where.append(len(outcomes))
            outcomes.append(None)
        except (ModelFormatError, UnstableStructureError) as error:
            outcomes.append(error)
    if compiled:
        for position, analysis in zip(where, analyze_batch(compiled), strict=True):
            if exact_supports and isinstance(analysis, Analysis):
                analysis = exact_restraints(analysis)
            outcomes[position] = analysis
    return outcomes


def diagrams_of(analysis: Analysis) -> list[LinkDiagram]:
    """N/V/M diagrams of every link, sampled as FrameCalc samples them, in FrameCalc's link order."""
    c = analysis.compiled
    return link_diagrams(c.link_ids, c.length, analysis.end_forces, analysis.span)


def section_at(analysis: Analysis, link_id: str, s: float) -> tuple[float, float, float]:
    """(n, v, m) of one link at ``s`` m from its end A, exact (not interpolated between samples); signs as in the
    diagrams (n compression-positive, m counter-clockwise)."""
    c = analysis.compiled
    return section_forces(c.link_ids, analysis.end_forces, analysis.span, link_id, s)


def largest_moments(analysis: Analysis) -> dict[str, Any]:
    """``maxMoment``: the true largest |m| per link (between samples, both sides of a concentrated
    moment) and overall; the sampled diagrams may miss it."""
    c = analysis.compiled
    largest = peak_moments(c.link_ids, c.length, analysis.end_forces, analysis.span)
    return {"overall": max(largest.values(), default=0.0), "links": largest}


def to_result(analysis: Analysis, *, diagrams: bool = True, records: bool = True) -> dict[str, Any]:
    """FrameCalc's result format for one analysis (plus ``maxMoment`` and ``displacements``)."""
    c = analysis.compiled
    result: dict[str, Any] = {
        "reactions": [
            {"atId": support_id, "type": label, "value": value}
            for (support_id, label), value in zip(c.reaction_labels, analysis.reactions.tolist(), strict=True)
        ]
    }
    free = set(c.free_rotation)
    result["displacements"] = [
        {"pointId": pid, "ux": ux, "uy": uy, "rz": None if i in free else rz}
        for i, (pid, (ux, uy, rz)) in enumerate(zip(c.node_ids, analysis.displacements.tolist(), strict=True))
    ]
    if diagrams:
        if records:  # FrameCalc returns the same list under all three keys.
            samples = [{"linkId": d.link_id, "samples": d.records()} for d in diagrams_of(analysis)]
            result["axial"] = result["shear"] = result["moment"] = samples
        result["maxMoment"] = largest_moments(analysis)
    return result


def solve(
    model: dict[str, Any] | FrameModel, *, diagrams: bool = True, exact_supports: bool = False, records: bool = True
) -> dict[str, Any]:
    """Solve one FrameCalc model and return FrameCalc's result format.

    Keys: ``reactions`` (per support, FrameCalc's order and types), ``displacements`` per point, and
    with ``diagrams`` also ``axial``/``shear``/``moment`` (one identical list of per-link samples,
    links sorted by id as strings) and ``maxMoment`` (largest |m| per link and overall).

    Raises :class:`ModelFormatError` for an invalid model and :class:`UnstableStructureError` for a
    mechanism. ``exact_supports`` imposes restraints exactly instead of FrameCalc's 1e12 springs.
    ``records=False`` computes ``maxMoment`` without building the per-sample records (a judge needs no more).
    """
    (outcome,) = analyze_many([model], exact_supports=exact_supports)
    if isinstance(outcome, Exception):
        raise outcome
    return to_result(outcome, diagrams=diagrams, records=records)


def solve_many(
    models: Iterable[dict[str, Any] | FrameModel],
    *,
    diagrams: bool = True,
    exact_supports: bool = False,
    errors: str = "return",
) -> list[dict[str, Any] | Exception]:
    """Solve many models in one vectorised batch.

    Returns one entry per model, in order: the result dict, or (``errors="return"``) the
    :class:`ModelFormatError` / :class:`UnstableStructureError` that model raised, so one bad model
    does not stop the batch. ``errors="raise"`` raises the first error instead.
    """
    if errors not in ("return", "raise"):
        raise ValueError("errors must be 'return' or 'raise'")
    out: list[dict[str, Any] | Exception] = []
    for outcome in analyze_many(models, exact_supports=exact_supports):
        if isinstance(outcome, Exception):
            if errors == "raise":
                raise outcome
            out.append(outcome)
        else:
            out.append(to_result(outcome, diagrams=diagrams))
    return out
