"""Linear plane-stress finite elements on a conforming triangular mesh (mm, N, MPa, tonnes, s).

The part's true outline — holes and notches as circles, not staircases — is meshed with Shewchuk's Triangle
(quality triangles, a size set from the thinnest section so that at least :data:`MIN_ACROSS` elements span it, and
finer segments along every arc), and solved with quadratic triangles (P2) by scikit-fem: bending and stress
concentrations converge on a few elements, where bilinear squares lock. Besides the static solve: thermal strains,
stresses (at quadrature points for areas and means, averaged at the vertices for peaks and plots), reactions,
strain energy, a linear buckling factor, natural frequencies and a Newmark transient with the consistent mass.
Coordinates are y up.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from mechbench.core.precision import ROUND_OFF

MIN_ACROSS = 4
"""Elements across the thinnest section a stress is read in, at the least."""
ARC_SEGMENTS = 64
"""Segments of a full circle (a hole); a notch's arc has its share, and none longer than half the element size."""
QUALITY = 30
"""Smallest angle (degrees) of a mesh triangle."""

Heat = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""A temperature rise (K) as a function of position (x, y in mm)."""
Edge = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""A boolean of positions: which boundary points belong to a support or a loaded edge."""


@dataclass(frozen=True)
class Shape:
    """A plane part: its outline (a counter-clockwise polygon, arcs included as segments) and its holes (circles)."""

    outline: tuple[tuple[float, float], ...]
    holes: tuple[tuple[float, float, float], ...] = ()
    """(centre x, centre y, radius) of each hole."""
    size: float = 1.0
    """Target element size (mm)."""


def circle_points(
    cx: float, cy: float, r: float, start: float, stop: float, spacing: float
) -> list[tuple[float, float]]:
    """Points along an arc (angles in radians, counter-clockwise from ``start`` to ``stop``), end points included, no
    segment longer than ``spacing`` nor coarser than :data:`ARC_SEGMENTS` to the circle."""
    sweep = stop - start
    count = max(2, math.ceil(abs(sweep) / (2 * math.pi) * ARC_SEGMENTS), math.ceil(abs(sweep) * r / spacing))
    return [
        (cx + r * math.cos(start + sweep * k / count), cy + r * math.sin(start + sweep * k / count))
        for k in range(count + 1)
    ]


def triangulate(shape: Shape) -> tuple[np.ndarray, np.ndarray]:
    """(points 2 × n, triangles 3 × m) of a quality mesh of ``shape``."""
    import triangle

    vertices = list(shape.outline)
    segments = [(k, (k + 1) % len(vertices)) for k in range(len(vertices))]
    seeds = []
    for cx, cy, r in shape.holes:
        ring = circle_points(cx, cy, r, 0.0, 2 * math.pi, shape.size / 2)[:-1]
        first = len(vertices)
        vertices += ring
        segments += [(first + k, first + (k + 1) % len(ring)) for k in range(len(ring))]
        seeds.append((cx, cy))
    data: dict = {"vertices": np.array(vertices, dtype=float), "segments": np.array(segments, dtype=np.int32)}
    if seeds:
        data["holes"] = np.array(seeds, dtype=float)
    area = math.sqrt(3) / 4 * shape.size**2
    mesh = triangle.triangulate(data, f"pq{QUALITY}a{area:.10g}Q")
    return mesh["vertices"].T.copy(), mesh["triangles"].T.copy()


def symmetric_lu(matrix: sp.spmatrix) -> spla.SuperLU:
    """SuperLU of a symmetric matrix, ordered on A + Aᵀ with diagonal pivots: on these meshes half the fill and
    time of the default column ordering, and U's diagonal holds the pivots of L D Lᵀ (their signs: the inertia)."""
    return spla.splu(
        sp.csc_matrix(matrix), permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0, options={"SymmetricMode": True}
    )


@dataclass
class Model:
    """A meshed plane-stress part of one isotropic elastic material."""

    shape: Shape
    thickness: float
    young: float
    poisson: float
    density: float
    expansion: float = 0.0
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        from skfem import Basis, ElementTriP2, ElementVector, MeshTri

        points, triangles = triangulate(self.shape)
        self.mesh = MeshTri(points, triangles)
        self.basis = Basis(self.mesh, ElementVector(ElementTriP2()), intorder=4)

    # -- assembly -----------------------------------------------------------------------------------
    @property
    def ndof(self) -> int:
        return int(self.basis.N)

    def _plane_stress(self) -> tuple[float, float]:
        e, nu = self.young, self.poisson
        return e * nu / (1 - nu**2), e / (2 * (1 + nu))  # λ* of plane stress, μ

    def stiffness(self) -> sp.csr_matrix:
        """Global stiffness (N/mm)."""
        if "K" not in self._cache:
            from skfem import asm
            from skfem.models.elasticity import linear_elasticity

            lam, mu = self._plane_stress()
            self._cache["K"] = (asm(linear_elasticity(lam, mu), self.basis) * self.thickness).tocsr()
        return self._cache["K"]

    def mass(self) -> sp.csr_matrix:
        """Consistent mass matrix (t)."""
        if "M" not in self._cache:
            from skfem import BilinearForm, asm
            from skfem.helpers import dot

            @BilinearForm
            def form(u, v, w):
                return dot(u, v)

            self._cache["M"] = (asm(form, self.basis) * self.density * self.thickness).tocsr()
        return self._cache["M"]

    def _heat_at_points(self, heat: Heat | None) -> np.ndarray:
        where = self.basis.global_coordinates()
        x, y = np.asarray(where[0]), np.asarray(where[1])
        return np.zeros(x.shape) if heat is None else np.asarray(heat(x, y), dtype=float) + 0 * x

    def thermal_load(self, heat: Heat) -> np.ndarray:
        """Nodal forces equivalent to the free thermal strain α·ΔT (plane stress)."""
        from skfem import LinearForm, asm
        from skfem.helpers import div

        stress = self.young * self.expansion / (1 - self.poisson)  # isotropic thermal stress per kelvin

        @LinearForm
        def form(v, w):
            return stress * w["dt"] * div(v)

        return asm(form, self.basis, dt=self._heat_at_points(heat)) * self.thickness

    def traction(self, edge: Edge, direction: tuple[float, float], total: float = 1.0) -> np.ndarray:
        """``total`` newtons along ``direction``, spread uniformly over the boundary where ``edge`` holds."""
        from skfem import FacetBasis, LinearForm, asm

        facets = self.mesh.facets_satisfying(lambda x: edge(x[0], x[1]), boundaries_only=True)
        if not len(facets):
            raise ValueError("the loaded edge holds no boundary of the mesh")
        fb = FacetBasis(self.mesh, self.basis.elem, facets=facets, intorder=4)
        length = float(np.sum(np.linalg.norm(np.diff(self.mesh.p[:, self.mesh.facets[:, facets]], axis=1), axis=0)))
        ux, uy = direction

        @LinearForm
        def form(v, w):
            return (ux * v[0] + uy * v[1]) / length

        return asm(form, fb) * total

    def dofs_on(self, edge: Edge, x: bool = True, y: bool = True) -> np.ndarray:
        """The displacement DOFs (x and/or y) of every node on the boundary where ``edge`` holds."""
        facets = self.mesh.facets_satisfying(lambda p: edge(p[0], p[1]), boundaries_only=True)
        dofs = self.basis.get_dofs(facets)
        names = [n for n, on in (("u^1", x), ("u^2", y)) if on]
        return np.unique(np.concatenate([dofs.all(n) for n in names])) if names else np.zeros(0, dtype=np.int64)

    def point_dofs(self, xy: tuple[float, float], x: bool = True, y: bool = True) -> np.ndarray:
        """The DOFs of the mesh vertex nearest ``xy``."""
        node = int(np.argmin(np.hypot(self.mesh.p[0] - xy[0], self.mesh.p[1] - xy[1])))
        nodal = self.basis.nodal_dofs[:, node]
        return np.array([d for d, on in zip(nodal, (x, y), strict=True) if on], dtype=np.int64)

    # -- solves -------------------------------------------------------------------------------------
    def free(self, fixed: np.ndarray) -> np.ndarray:
        mask = np.ones(self.ndof, dtype=bool)
        mask[fixed] = False
        return np.flatnonzero(mask)

    def rigid_modes_left(self, fixed: np.ndarray) -> np.ndarray:
        """Rigid-body motions (columns over all DOFs) that the supports do not prevent."""
        x = self.basis.doflocs
        centre = x.mean(axis=1)
        modes = np.zeros((self.ndof, 3))
        is_x = np.zeros(self.ndof, dtype=bool)
        is_x[self._x_dofs()] = True
        modes[is_x, 0] = 1.0
        modes[~is_x, 1] = 1.0
        modes[is_x, 2] = -(x[1, is_x] - centre[1])
        modes[~is_x, 2] = x[0, ~is_x] - centre[0]
        if not len(fixed):
            return modes
        _, singular, vt = np.linalg.svd(modes[fixed], full_matrices=True)
        scale = max(float(singular.max()) if len(singular) else 0.0, 1.0)
        rank = int((singular > 1e-9 * scale).sum())
        return modes @ vt[rank:].T

    def _x_dofs(self) -> np.ndarray:
        if "x" not in self._cache:
            self._cache["x"] = np.concatenate([self.basis.nodal_dofs[0], self.basis.facet_dofs[0]])
        return self._cache["x"]

    def solve(self, force: np.ndarray, fixed: np.ndarray) -> np.ndarray:
        """Displacements (mm) with ``fixed`` DOFs held at zero (a ``ValueError`` if a rigid-body mode is left)."""
        if self.rigid_modes_left(fixed).shape[1]:
            raise ValueError("the supports leave the part free to move as a rigid body: no static solution")
        free = self.free(fixed)
        u = np.zeros(self.ndof)
        u[free] = self._factor(fixed).solve(force[free])
        return u

    def _factor(self, fixed: np.ndarray) -> spla.SuperLU:
        key = ("lu", fixed.tobytes())
        if key not in self._cache:
            free = self.free(fixed)
            self._cache[key] = symmetric_lu(self.stiffness()[free][:, free])
        return self._cache[key]

    def reactions(self, u: np.ndarray, force: np.ndarray, fixed: np.ndarray) -> np.ndarray:
        """Support reactions (N) at ``fixed``: K u − f there."""
        return (self.stiffness() @ u - force)[fixed]

    def resultant(self, vector: np.ndarray) -> tuple[float, float]:
        """Sum of a nodal force vector's x and y components (N)."""
        is_x = np.zeros(self.ndof, dtype=bool)
        is_x[self._x_dofs()] = True
        return float(vector[is_x].sum()), float(vector[~is_x].sum())

    # -- stresses -----------------------------------------------------------------------------------
    def stress_field(self, u: np.ndarray, heat: Heat | None = None, basis: object = None) -> np.ndarray:
        """σx, σy, τxy (MPa) at the quadrature points of ``basis`` (default: the model's): 3 × elements × points."""
        from skfem.helpers import sym_grad

        basis = basis or self.basis
        eps = sym_grad(basis.interpolate(u))  # type: ignore[attr-defined]
        exx, eyy, exy = eps[0, 0], eps[1, 1], eps[0, 1]
        if heat is not None:
            where = basis.global_coordinates()  # type: ignore[attr-defined]
            x = np.asarray(where[0]), np.asarray(where[1])
            thermal = self.expansion * np.asarray(heat(x[0], x[1]), dtype=float)
            exx, eyy = exx - thermal, eyy - thermal
        factor = self.young / (1 - self.poisson**2)
        sx = factor * (exx + self.poisson * eyy)
        sy = factor * (eyy + self.poisson * exx)
        txy = self.young / (1 + self.poisson) * exy
        return np.stack([sx, sy, txy])

    def corner_stress(self, u: np.ndarray, heat: Heat | None = None) -> np.ndarray:
        """Stresses at every element's corners (3 × elements × 3), where the largest values of a P2 field are."""
        if "corners" not in self._cache:
            from skfem import Basis

            corners = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
            self._cache["corners"] = Basis(self.mesh, self.basis.elem, quadrature=(corners, np.ones(3) / 6))
        return self.stress_field(u, heat, self._cache["corners"])

    def energy(self, u: np.ndarray, heat: Heat | None = None) -> float:
        """Elastic strain energy (N·mm): ∫ ½ σ : C⁻¹ σ dV (thermal strains excluded from it)."""
        s = self.stress_field(u, heat)
        e, nu = self.young, self.poisson
        density = (s[0] ** 2 + s[1] ** 2 - 2 * nu * s[0] * s[1] + 2 * (1 + nu) * s[2] ** 2) / (2 * e)
        return float(np.sum(density * self.basis.dx) * self.thickness)

    def area(self) -> float:
        """The part's area (mm²)."""
        return float(np.sum(self.basis.dx))

    def weights(self) -> np.ndarray:
        """Area (mm²) each quadrature point of :meth:`stress_field` stands for (elements × points)."""
        return np.asarray(self.basis.dx)

    # -- stability and dynamics ---------------------------------------------------------------------
    def geometric_stiffness(self, prestress: np.ndarray) -> sp.csr_matrix:
        """Initial-stress stiffness of a stress field given at the quadrature points (3 × elements × points)."""
        from skfem import BilinearForm, asm
        from skfem.helpers import grad

        @BilinearForm
        def form(u, v, w):
            gu, gv = grad(u), grad(v)
            sx, sy, txy = w["sx"], w["sy"], w["txy"]
            total = 0.0
            for k in range(2):
                a, b = gu[k], gv[k]
                total = total + sx * a[0] * b[0] + sy * a[1] * b[1] + txy * (a[0] * b[1] + a[1] * b[0])
            return total

        return (asm(form, self.basis, sx=prestress[0], sy=prestress[1], txy=prestress[2]) * self.thickness).tocsr()

    def buckling_factor(self, prestress: np.ndarray, fixed: np.ndarray, below: float) -> float:
        """Smallest positive load factor λ with (K + λ K_G) φ = 0 if it is below ``below`` (∞ otherwise, and for a
        prestress with no compression).

        Whether any mode lies below ``below`` is read from the inertia of K + below·K_G (Sylvester: it has a
        negative pivot exactly when one does), one symmetric factorisation; only then is the mode found, as the
        largest μ of −K_G φ = μ K φ (Arnoldi on K⁻¹(−K_G), λ = 1/μ). The test keeps Arnoldi off prestresses whose
        compression is slight and local (a pulled member's corners), where it converges slowly or not at all."""
        sx, sy, txy = prestress
        centre, radius = (sx + sy) / 2, np.hypot((sx - sy) / 2, txy)
        if float((centre - radius).min()) >= -ROUND_OFF * float(np.abs(prestress).max()):
            return math.inf  # no compression beyond round-off
        free = self.free(fixed)
        kg = self.geometric_stiffness(prestress)[free][:, free].tocsc()
        if math.isfinite(below):
            shifted = symmetric_lu(self.stiffness()[free][:, free] + below * kg)
            if not (shifted.U.diagonal() < 0).any():
                return math.inf
        lu = self._factor(fixed)
        operator = spla.LinearOperator(kg.shape, matvec=lambda v: lu.solve(-(kg @ v)), dtype=float)
        values = spla.eigs(operator, k=1, which="LR", v0=np.ones(len(free)), tol=1e-6, ncv=20)[0]
        mu = float(np.max(values.real))
        if mu <= 0 or 1 / mu >= below:
            return math.inf
        return 1 / mu

    def modes(self, fixed: np.ndarray, count: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """The lowest natural frequencies (Hz) of the supported part's flexible modes and their shapes (columns
        over all DOFs, mass-normalised)."""
        free = self.free(fixed)
        k = self.stiffness()[free][:, free].tocsc()
        m = self.mass()[free][:, free].tocsc()
        rigid = self.rigid_modes_left(fixed).shape[1]
        values, vectors = spla.eigsh(k, k=count + rigid, M=m, sigma=-1e-6 * k.diagonal().mean(), v0=np.ones(len(free)))
        order = np.argsort(values)[rigid:]
        shapes = np.zeros((self.ndof, len(order)))
        shapes[free] = vectors[:, order]
        return np.sqrt(np.maximum(values[order], 0.0)) / (2 * math.pi), shapes

    def frequencies(self, fixed: np.ndarray, count: int = 1) -> np.ndarray:
        """The lowest natural frequencies (Hz) of the supported part (its flexible modes)."""
        return self.modes(fixed, count)[0]

    def dominant_mode(self, force: np.ndarray, fixed: np.ndarray, count: int = 8) -> float:
        """The frequency (Hz) of the mode that carries most of the static response to ``force`` (largest
        (φᵀf)²/ω² among the ``count`` lowest): the vibration a suddenly applied ``force`` sets going."""
        frequencies, shapes = self.modes(fixed, count)
        share = (shapes.T @ force) ** 2 / np.maximum(frequencies, 1e-30) ** 2
        return float(frequencies[int(np.argmax(share))])

    def newmark(
        self,
        force: np.ndarray,
        fixed: np.ndarray,
        history: np.ndarray,
        dt: float,
        damping_ratio: float = 0.0,
        damped_at: float | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Displacements (mm) and accelerations (mm/s²) over time under ``force × history[k]``, at rest at the start:
        average-acceleration Newmark (unconditionally stable, no numerical damping), consistent mass, and
        stiffness-proportional Rayleigh damping of ``damping_ratio`` at the frequency ``damped_at`` (Hz; default the
        first flexible mode's): it leaves rigid-body motion undamped and damps the mesh's highest modes most."""
        free = self.free(fixed)
        k = self.stiffness()[free][:, free].tocsc()
        m = self.mass()[free][:, free].tocsc()
        if damping_ratio and damped_at is None:
            damped_at = float(self.frequencies(fixed)[0])
        beta = 2 * damping_ratio / (2 * math.pi * damped_at) if damping_ratio and damped_at else 0.0
        c = beta * k
        lu = symmetric_lu(k + 4 / dt**2 * m + 2 / dt * c)
        f = force[free]
        u, v = np.zeros(len(free)), np.zeros(len(free))
        a = symmetric_lu(m).solve(history[0] * f)
        us, accelerations = np.zeros((len(history), self.ndof)), np.zeros((len(history), self.ndof))
        accelerations[0, free] = a
        for step, load in enumerate(history[1:], start=1):
            rhs = load * f + m @ (4 / dt**2 * u + 4 / dt * v + a) + c @ (2 / dt * u + v)
            new_u = lu.solve(rhs)
            new_a = 4 / dt**2 * (new_u - u) - 4 / dt * v - a
            v = v + dt / 2 * (a + new_a)
            u, a = new_u, new_a
            us[step, free], accelerations[step, free] = u, a
        return us, accelerations

    # -- vertex fields, for plots and peaks ---------------------------------------------------------
    def vertex_stress(self, u: np.ndarray, heat: Heat | None = None) -> np.ndarray:
        """σx, σy, τxy (MPa) at the mesh vertices (3 × vertices): each element's corner values, averaged over the
        elements that share the vertex — the "averaged nodal stress" post-processors plot and report."""
        corners = self.corner_stress(u, heat)  # 3 × elements × 3 corners, in the order of mesh.t
        total = np.zeros((3, self.mesh.p.shape[1]))
        count = np.zeros(self.mesh.p.shape[1])
        for corner in range(3):
            np.add.at(total, (slice(None), self.mesh.t[corner]), corners[:, :, corner])
            np.add.at(count, self.mesh.t[corner], 1.0)
        return total / count

    def vertex_displacement(self, u: np.ndarray) -> np.ndarray:
        """(ux, uy) at the mesh vertices (2 × vertices, mm)."""
        return u[self.basis.nodal_dofs]

    def on_vertices(self, values: np.ndarray, points: np.ndarray) -> np.ndarray:
        """A vertex field (k × vertices) interpolated linearly at ``points`` (2 × n inside the part): k × n."""
        if "p1" not in self._cache:
            from skfem import Basis, ElementTriP1

            self._cache["p1"] = Basis(self.mesh, ElementTriP1())
        probes = self._cache["p1"].probes(points)
        return np.stack([probes @ row for row in np.atleast_2d(values)])


def von_mises(stress: np.ndarray) -> np.ndarray:
    """Plane-stress von Mises stress of σx, σy, τxy (first axis)."""
    sx, sy, txy = stress[0], stress[1], stress[2]
    return np.sqrt(np.maximum(sx * sx - sx * sy + sy * sy + 3 * txy * txy, 0.0))


def principal(stress: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """In-plane principal stresses (σ1 ≥ σ2) of σx, σy, τxy (first axis)."""
    centre, radius = (stress[0] + stress[1]) / 2, np.hypot((stress[0] - stress[1]) / 2, stress[2])
    return centre + radius, centre - radius
