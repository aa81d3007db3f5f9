"""Buckling modes a plane-stress model cannot see: out-of-plane flexural buckling of compressed members and
lateral-torsional buckling of beams bent in their plane (closed forms, mm, N, MPa).

A part of thickness ``t`` modelled in plane stress is a plate seen edge-on: bending out of its plane has the weak
second moment ``w t³ / 12`` of a member ``w`` wide, and a deep narrow beam bent in its plane can twist sideways.
The in-plane modes come from the finite-element buckling analysis (:meth:`mechbench.simulation.elastic.Model.
buckling_factor`); these formulas add what the model leaves out, so that the smallest load factor of all is
the part's buckling load factor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

LTB_TIP_LOAD = 4.013
"""Critical tip load of a cantilever with a narrow rectangular section, loaded at its centroid:
P = 4.013 √(E I_z G J) / L² (Timoshenko and Gere, Theory of Elastic Stability, §6.3)."""


@dataclass(frozen=True)
class Mode:
    """One buckling mode and its load factor (critical load over the applied load; ∞ when not loaded that way)."""

    name: str
    factor: float


def out_of_plane_euler(young: float, width: float, thickness: float, length: float, k: float, force: float) -> Mode:
    """Flexural buckling out of the plane of a member ``width`` wide and ``thickness`` thick under axial
    compression ``force`` (N): P = π² E (w t³/12) / (K L)², effective-length factor ``k``."""
    if force <= 0:
        return Mode("out-of-plane flexural buckling (Euler)", math.inf)
    inertia = width * thickness**3 / 12
    critical = math.pi**2 * young * inertia / (k * length) ** 2
    return Mode(f"out-of-plane flexural buckling (Euler, effective length {k:g} L)", critical / force)


def torsion_constant(depth: float, thickness: float) -> float:
    """St Venant torsion constant of a rectangle (Roark's approximation, within 4 %)."""
    b, t = max(depth, thickness), min(depth, thickness)
    return b * t**3 / 3 * (1 - 0.63 * t / b * (1 - t**4 / (12 * b**4)))


def lateral_torsional(
    young: float, poisson: float, depth: float, thickness: float, length: float, tip_load: float
) -> Mode:
    """Lateral-torsional buckling of a cantilever ``depth`` deep (in the plane) and ``thickness`` thick, ``length``
    long, under a tip load ``tip_load`` (N) at the centroid."""
    if tip_load <= 0 or thickness >= depth:
        return Mode("lateral-torsional buckling", math.inf)  # a section at least as thick as deep does not tip over
    shear = young / (2 * (1 + poisson))
    weak = depth * thickness**3 / 12
    critical = LTB_TIP_LOAD * math.sqrt(young * weak * shear * torsion_constant(depth, thickness)) / length**2
    return Mode("lateral-torsional buckling", critical / tip_load)
