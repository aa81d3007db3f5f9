"""Euler–Bernoulli frame elements, vectorised over many links at once.

Local DOF order per link: (u_A, v_A, θ_A, u_B, v_B, θ_B) along the link's local x (A→B) and y axes.
A hinged end releases θ at that end of that link only; it is condensed out of the element, so the
element's end moment there is zero while forces still pass.
"""

from __future__ import annotations

import numpy as np

_THETA_A, _THETA_B = 2, 5


def local_stiffness(E: np.ndarray, A: np.ndarray, I: np.ndarray, L: np.ndarray) -> np.ndarray:  # noqa: E741
    """Local stiffness matrices (n, 6, 6) of prismatic frame elements with axial stiffness."""
    n = len(L)
    k = np.zeros((n, 6, 6))
    axial = E * A / L
    b12, b6, b4, b2 = 12 * E * I / L**3, 6 * E * I / L**2, 4 * E * I / L, 2 * E * I / L
    k[:, 0, 0] = k[:, 3, 3] = axial
    k[:, 0, 3] = k[:, 3, 0] = -axial
    k[:, 1, 1] = k[:, 4, 4] = b12
    k[:, 1, 4] = k[:, 4, 1] = -b12
    k[:, 1, 2] = k[:, 2, 1] = k[:, 1, 5] = k[:, 5, 1] = b6
    k[:, 4, 2] = k[:, 2, 4] = k[:, 4, 5] = k[:, 5, 4] = -b6
    k[:, 2, 2] = k[:, 5, 5] = b4
    k[:, 2, 5] = k[:, 5, 2] = b2
    return k


def condense_releases(
    k: np.ndarray, f: np.ndarray, release_a: np.ndarray, release_b: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Condense released end rotations out of stiffness ``k`` (n,6,6) and fixed-end loads ``f`` (n,6).

    Condensing one DOF after the other equals condensing both together, so a link hinged at both
    ends becomes a pin-ended bar that still carries transverse span loads to its ends.
    """
    k, f = k.copy(), f.copy()
    for dof, released in ((_THETA_A, release_a), (_THETA_B, release_b)):
        if not released.any():
            continue
        kr = k[released]
        fr = f[released]
        pivot = kr[:, dof, dof]
        column = kr[:, :, dof]
        kr = kr - column[:, :, None] * kr[:, None, dof, :] / pivot[:, None, None]
        fr = fr - column * (fr[:, dof] / pivot)[:, None]
        kr[:, dof, :] = 0.0
        kr[:, :, dof] = 0.0
        fr[:, dof] = 0.0
        k[released] = kr
        f[released] = fr
    return k, f


def rotation(c: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Rotation matrices T (n, 6, 6) with local = T @ global for each link direction (cos α, sin α)."""
    n = len(c)
    t = np.zeros((n, 6, 6))
    for o in (0, 3):
        t[:, o, o] = t[:, o + 1, o + 1] = c
        t[:, o, o + 1] = s
        t[:, o + 1, o] = -s
        t[:, o + 2, o + 2] = 1.0
    return t
