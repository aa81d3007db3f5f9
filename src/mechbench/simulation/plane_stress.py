"""Linear plane-stress finite elements on a masked grid of square cells (mm, N, MPa).

One bilinear Q4 element per solid cell of side ``h`` and thickness ``t``; nodes numbered row by row, row 0 at
the top, +y pointing down the grid (the conventions of :mod:`mechbench.fem.q4`, whose unit element
this uses: for square plane-stress elements the stiffness does not depend on ``h``). Besides the static
solve: thermal strains, element stresses, reactions, strain energy, a linear buckling factor, natural
frequency and a Newmark transient, all on the same sparse matrices.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from mechbench.fem.q4 import centre_b, d_matrix, element_dofs, element_stiffness, geometric_blocks


@dataclass(frozen=True)
class Body:
    """A plane-stress part: solid cells, cell size (mm), thickness (mm) and an isotropic elastic material."""

    solid: np.ndarray  # bool, rows × cols
    h: float
    thickness: float
    young: float  # MPa
    poisson: float
    density: float = 7.85e-9  # t/mm³ (so that N, mm, s are consistent)
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def rows(self) -> int:
        return self.solid.shape[0]

    @property
    def cols(self) -> int:
        return self.solid.shape[1]

    @property
    def ndof(self) -> int:
        return 2 * (self.rows + 1) * (self.cols + 1)

    @property
    def cells(self) -> np.ndarray:
        """Indices (flattened) of the solid cells."""
        return np.flatnonzero(self.solid.ravel())

    @property
    def edofs(self) -> np.ndarray:
        """The 8 DOFs of each solid cell."""
        return element_dofs(self.rows, self.cols)[self.cells]

    @property
    def active(self) -> np.ndarray:
        """DOFs that belong to at least one solid cell."""
        mask = np.zeros(self.ndof, dtype=bool)
        mask[self.edofs.ravel()] = True
        return mask

    def node_xy(self) -> np.ndarray:
        """(x, y) in mm of every node, y down the grid."""
        r, c = np.meshgrid(np.arange(self.rows + 1), np.arange(self.cols + 1), indexing="ij")
        return np.stack([c.ravel() * self.h, r.ravel() * self.h], axis=1)

    def stiffness(self) -> sp.csr_matrix:
        """Global stiffness matrix (N/mm)."""
        if "K" not in self._cache:
            ke = element_stiffness(self.poisson) * self.young * self.thickness
            e = self.edofs
            rows = np.repeat(e, 8, axis=1).ravel()
            cols = np.tile(e, (1, 8)).ravel()
            values = np.tile(ke.ravel(), len(e))
            self._cache["K"] = sp.csr_matrix((values, (rows, cols)), shape=(self.ndof, self.ndof))
        return self._cache["K"]

    def lumped_mass(self) -> np.ndarray:
        """Diagonal of the lumped mass matrix (t), a quarter of each cell's mass at each corner."""
        m = np.zeros(self.ndof)
        np.add.at(m, self.edofs.ravel(), self.density * self.thickness * self.h**2 / 4)
        return m

    def thermal_force(self, temperature_rise: np.ndarray, expansion: float) -> np.ndarray:
        """Nodal forces equivalent to the free thermal strain α·ΔT of each cell (ΔT per cell, rows × cols)."""
        strain = expansion * temperature_rise.ravel()[self.cells]
        sigma0 = self.young * (d_matrix(self.poisson) @ np.array([1.0, 1.0, 0.0]))  # stress per unit strain
        fe = self.thickness * self.h * (centre_b().T @ sigma0)  # per unit thermal strain, per element
        f = np.zeros(self.ndof)
        np.add.at(f, self.edofs.ravel(), (strain[:, None] * fe[None, :]).ravel())
        return f

    def stresses(self, u: np.ndarray, temperature_rise: np.ndarray | None = None, expansion: float = 0.0) -> np.ndarray:
        """σx, σy, τxy (MPa) at each cell centre (rows × cols × 3; zero in void cells)."""
        strain = (u[self.edofs] @ centre_b().T) / self.h
        if temperature_rise is not None:
            strain[:, :2] -= expansion * temperature_rise.ravel()[self.cells][:, None]
        out = np.zeros((self.rows * self.cols, 3))
        out[self.cells] = self.young * strain @ d_matrix(self.poisson).T
        return out.reshape(self.rows, self.cols, 3)

    def geometric_stiffness(self, stress: np.ndarray) -> sp.csr_matrix:
        """Initial-stress stiffness of the cell stresses ``stress`` (rows × cols × 3)."""
        hxx, hyy, hxy = geometric_blocks()
        s = stress.reshape(-1, 3)[self.cells]
        blocks = s[:, 0, None, None] * hxx + s[:, 1, None, None] * hyy + s[:, 2, None, None] * hxy
        kg = np.zeros((len(s), 8, 8))
        kg[:, 0::2, 0::2] = blocks
        kg[:, 1::2, 1::2] = blocks
        kg *= self.thickness
        e = self.edofs
        rows = np.repeat(e, 8, axis=1).ravel()
        cols = np.tile(e, (1, 8)).ravel()
        return sp.csr_matrix((kg.ravel(), (rows, cols)), shape=(self.ndof, self.ndof))


def von_mises(stress: np.ndarray) -> np.ndarray:
    """Plane-stress von Mises stress of σx, σy, τxy (last axis)."""
    sx, sy, txy = stress[..., 0], stress[..., 1], stress[..., 2]
    return np.sqrt(np.maximum(sx * sx - sx * sy + sy * sy + 3 * txy * txy, 0.0))


def principal(stress: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """In-plane principal stresses (σ1 ≥ σ2)."""
    sx, sy, txy = stress[..., 0], stress[..., 1], stress[..., 2]
    centre, radius = (sx + sy) / 2, np.hypot((sx - sy) / 2, txy)
    return centre + radius, centre - radius


def free_dofs(body: Body, fixed: np.ndarray) -> np.ndarray:
    """Active DOFs that are not fixed."""
    mask = body.active.copy()
    mask[fixed] = False
    return np.flatnonzero(mask)


def solve_static(body: Body, force: np.ndarray, fixed: np.ndarray) -> np.ndarray:
    """Displacements (mm) of the static problem K u = f with ``fixed`` DOFs held at zero.

    Raises ``ValueError`` when the supports leave a rigid-body mode (the static problem has no solution).
    """
    if rigid_modes_left(body, fixed).shape[1]:
        raise ValueError("the supports leave the part free to move as a rigid body: no static solution")
    free = free_dofs(body, fixed)
    K = body.stiffness()
    u = np.zeros(body.ndof)
    u[free] = spla.splu(K[free][:, free].tocsc()).solve(force[free])
    return u


def reactions(body: Body, u: np.ndarray, force: np.ndarray, fixed: np.ndarray) -> np.ndarray:
    """Support reactions (N) at the fixed DOFs, in the order of ``fixed``: R = K u − f there."""
    return (body.stiffness() @ u - force)[fixed]


def elastic_energy(body: Body, stress: np.ndarray) -> float:
    """Elastic strain energy (N·mm) from cell stresses: ∫ ½ σ : C⁻¹ σ dV (includes thermal cases)."""
    s = stress.reshape(-1, 3)[body.cells]
    compliance = np.linalg.inv(d_matrix(body.poisson)) / body.young
    return float(0.5 * np.einsum("ei,ij,ej->", s, compliance, s) * body.h**2 * body.thickness)


def rigid_modes_left(body: Body, fixed: np.ndarray) -> np.ndarray:
    """Rigid-body motions (columns over all DOFs) that the supports do not prevent."""
    xy = body.node_xy()
    centre = xy.mean(axis=0)
    n = len(xy)
    modes = np.zeros((2 * n, 3))
    modes[0::2, 0] = 1.0
    modes[1::2, 1] = 1.0
    modes[0::2, 2] = -(xy[:, 1] - centre[1])
    modes[1::2, 2] = xy[:, 0] - centre[0]
    constrained = modes[fixed]
    if not len(fixed):
        return modes * body.active[:, None]
    _, singular, vt = np.linalg.svd(constrained, full_matrices=True)
    scale = max(float(singular.max()) if len(singular) else 0.0, 1.0)
    rank = int((singular > 1e-9 * scale).sum())
    return (modes @ vt[rank:].T) * body.active[:, None]


def buckling_factor(body: Body, stress: np.ndarray, fixed: np.ndarray, below: float) -> float:
    """Smallest positive load factor λ with (K + λ K_G) φ = 0 for the prestress ``stress``, if it is below ``below``;
    ∞ otherwise (and without compression anywhere, which cannot buckle).

    Whether λ < ``below`` is decided exactly by inertia: K + Λ K_G stays positive definite (its Cholesky
    factorisation exists) for every Λ below the first buckling factor. The value itself comes from ARPACK, or,
    should ARPACK not converge, from bisection on the same test.
    """
    _, sigma2 = principal(stress)
    if sigma2[body.solid].min() >= 0:
        return math.inf
    free = free_dofs(body, fixed)
    K = body.stiffness()[free][:, free].tocsc()
    Kg = body.geometric_stiffness(stress)[free][:, free].tocsc()
    dense_k, dense_kg = K.toarray(), Kg.toarray()

    def stable(factor: float) -> bool:
        try:
            scipy.linalg.cholesky(dense_k + factor * dense_kg, check_finite=False)
        except np.linalg.LinAlgError:
            return False
        return True

    if stable(below):
        return math.inf
    # (−K_G) φ = μ K φ with μ = 1/λ: the largest μ gives the smallest positive λ; K's factorisation serves as M⁻¹
    # and ARPACK's start vector is fixed (same bytes).
    lu = spla.splu(K)
    k_inverse = spla.LinearOperator(K.shape, matvec=lu.solve, dtype=float)
    try:
        mu = spla.eigsh(
            -Kg,
            k=1,
            M=K,
            Minv=k_inverse,
            which="LA",
            v0=np.ones(len(free)),
            maxiter=200,
            tol=1e-8,
            return_eigenvectors=False,
        )[0]
        if mu > 0 and 1 / mu < below and stable(0.999 / mu):  # and no smaller factor was missed
            return float(1 / mu)
    except (spla.ArpackNoConvergence, RuntimeError, ValueError):
        pass
    low, high = 0.0, below
    while high - low > 1e-4 * high:
        middle = (low + high) / 2
        low, high = (middle, high) if stable(middle) else (low, middle)
    return high


def first_frequency(body: Body, fixed: np.ndarray) -> float:
    """Lowest natural frequency (Hz) of the supported part (its flexible modes; 0 if it can move freely)."""
    if rigid_modes_left(body, fixed).shape[1]:
        return 0.0
    free = free_dofs(body, fixed)
    K = body.stiffness()[free][:, free].tocsc()
    M = sp.diags(body.lumped_mass()[free]).tocsc()
    value = spla.eigsh(K, k=1, M=M, sigma=0.0, v0=np.ones(len(free)), return_eigenvectors=False)[0]
    return math.sqrt(max(float(value), 0.0)) / (2 * math.pi)


def newmark(
    body: Body, force: np.ndarray, fixed: np.ndarray, history: np.ndarray, dt: float, damping_ratio: float = 0.02
) -> tuple[np.ndarray, np.ndarray]:
    """Displacements and accelerations over time under ``force × history[k]`` (average acceleration, unconditionally
    stable); mass-proportional damping of ``damping_ratio`` at the first mode. Works with rigid-body modes left."""
    free = free_dofs(body, fixed)
    K = body.stiffness()[free][:, free].tocsc()
    m = body.lumped_mass()[free]
    omega = 2 * math.pi * max(first_frequency(body, fixed), 1e-9)
    c = 2 * damping_ratio * omega * m if math.isfinite(omega) else 0 * m
    lhs = (K + sp.diags(4 * m / dt**2 + 2 * c / dt)).tocsc()
    lu = spla.splu(lhs)
    f = force[free]
    n = len(free)
    u, v = np.zeros(n), np.zeros(n)
    a = (history[0] * f - K @ u - c * v) / m
    us, accs = [np.zeros(body.ndof)], [np.zeros(body.ndof)]
    accs[0][free] = a
    for load in history[1:]:
        rhs = load * f + m * (4 * u / dt**2 + 4 * v / dt + a) + c * (2 * u / dt + v)
        new_u = lu.solve(rhs)
        new_a = 4 * (new_u - u) / dt**2 - 4 * v / dt - a
        v = v + dt / 2 * (a + new_a)
        u, a = new_u, new_a
        full_u, full_a = np.zeros(body.ndof), np.zeros(body.ndof)
        full_u[free], full_a[free] = u, a
        us.append(full_u)
        accs.append(full_a)
    return np.array(us), np.array(accs)


def refine(solid: np.ndarray, factor: int = 2) -> np.ndarray:
    """Each cell split into factor × factor cells (same geometry, finer mesh)."""
    return np.kron(solid, np.ones((factor, factor), dtype=bool)).astype(bool)
