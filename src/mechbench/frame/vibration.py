"""Natural frequencies of lumped-mass systems: a shear building (rigid floors on columns) and any system given by
its mass and stiffness matrices."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

FIXED_COLUMN = 12.0
"""A column fixed at both ends (rigid floors): its lateral stiffness is 12 EI / h³."""


def natural_frequencies(mass: np.ndarray, stiffness: np.ndarray) -> np.ndarray:
    """Natural frequencies in Hz, ascending, of K φ = ω² M φ (mass in t, stiffness in kN/m: ω in rad/s)."""
    from scipy.linalg import eigh

    omega_squared = eigh(stiffness, mass, eigvals_only=True)
    return np.sqrt(np.clip(omega_squared, 0.0, None)) / (2 * math.pi)


def storey_stiffness(column_ei: Sequence[float], height: float) -> float:
    """kN/m of one storey: the columns (EI in kN·m², fixed at both ends by rigid floors) side by side."""
    return sum(FIXED_COLUMN * ei / height**3 for ei in column_ei)


def shear_building(masses: Sequence[float], stiffnesses: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """(M, K) of a shear building: floor masses (t) from the first floor up, storey stiffnesses (kN/m) from the
    ground storey up."""
    n = len(masses)
    k = np.zeros((n, n))
    for i in range(n):  # storey i joins floor i − 1 (the ground below the first) to floor i
        k[i, i] += stiffnesses[i]
        if i > 0:
            k[i - 1, i - 1] += stiffnesses[i]
            k[i - 1, i] = k[i, i - 1] = -stiffnesses[i]
    return np.diag(np.asarray(masses, dtype=float)), k
