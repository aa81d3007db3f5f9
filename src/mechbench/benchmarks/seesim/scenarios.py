"""What the generator simulates: ten scenario templates per domain, each drawing its details at random.

A set of ``n`` simulations walks through the templates in an order drawn from the seed, so that every ten
simulations hold each template once: every question meets both of its answers in a set of twenty (cyclic loads,
brittle parts, sliding blocks, buckled struts, shedding wakes and buoyant plumes all occur), instead of by luck.
Quantities the generator controls (the governing factor of safety, the Richardson number, Reynolds numbers) are
drawn clear of the thresholds the answers compare them with, and within what the solvers represent.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from mechbench.simulation.flow import FlowSetup, heated_length
from mechbench.simulation.materials import MATERIALS
from mechbench.simulation.structural import StructuralSetup

DUCTILE = tuple(i for i, m in enumerate(MATERIALS) if m.ductile)
WITH_ENDURANCE = tuple(i for i, m in enumerate(MATERIALS) if m.ductile and m.endurance_limit)
WITHOUT_ENDURANCE = tuple(i for i, m in enumerate(MATERIALS) if m.ductile and not m.endurance_limit)
RESTRAINABLE = tuple(
    i for i in DUCTILE if MATERIALS[i].young * MATERIALS[i].expansion * MATERIALS[i].max_rise
    >= 2.5 * float(MATERIALS[i].yield_strength or 0)
)  # fmt: skip
"""Ductile materials a rise within their property data takes, held between walls, well past yield (the overloads
drawn reach 2.5 times the first-yield load)."""
DESIGN = (1.7, 5.0)
"""Governing factors of safety of a design load: clear of 1 by the rules' margin, up to a lightly loaded part."""
OVERLOAD = (0.4, 0.67)
"""Governing factors of safety of an overload (1.5–2.5 times what the part takes): the failure cases."""
CYCLES = (1e5, 1e8)
"""Load cycles in service drawn for a cyclic load (up to 5×10⁸ for aluminium, whose S–N data reach that far)."""


def _log_uniform(rng: random.Random, low: float, high: float) -> float:
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def _fos(rng: random.Random) -> float:
    """A governing factor of safety of an overload or of a design load, equally often."""
    return _log_uniform(rng, *OVERLOAD) if rng.random() < 0.5 else _log_uniform(rng, *DESIGN)


def _cycles(rng: random.Random, material: int) -> float:
    """Cycles in service, to two significant digits (as a specification states them)."""
    data = MATERIALS[material]
    high = CYCLES[1] if data.endurance_limit else float(data.fatigue_cycles or CYCLES[1])
    return float(f"{_log_uniform(rng, CYCLES[0], high):.2g}")


def _structural(
    kind: str,
    materials: tuple[int, ...],
    cells: tuple[int, ...],
    loadings: tuple[str, ...],
    thermal: str = "none",
    restrained: bool = False,
    fos: Callable[[random.Random], float] = _fos,
) -> Callable[[random.Random], StructuralSetup]:
    def draw(rng: random.Random) -> StructuralSetup:
        heat = thermal if thermal != "maybe" else rng.choice(("none", "uniform"))
        material = rng.choice(materials)
        loading = rng.choice(loadings)
        return StructuralSetup(
            kind=kind,
            material=material,
            cells_across=rng.choice(cells),
            loading=loading,
            thermal=heat,
            restrained=restrained,
            target_fos=fos(rng),
            part_seed=f"{rng.random():.17f}",
            thermal_share=_log_uniform(rng, 0.3, 1.5) if heat == "hot_spot" else None,
            cycles=_cycles(rng, material) if loading == "cyclic" else None,
        )

    return draw


ANY = tuple(range(len(MATERIALS)))
STRUCTURAL_TEMPLATES = (  # quadratic elements across the thinnest section: 4 at the least
    _structural("bar", DUCTILE, (4, 6, 8), ("static",), thermal="maybe"),  # uniform, symmetric, axial
    _structural("plate_hole", WITH_ENDURANCE, (4, 6), ("cyclic",)),  # fatigue against the endurance limit
    _structural("notched_bar", ANY, (4, 6), ("static",)),  # a notch: local yield (ductile) or a crack (brittle)
    _structural("cantilever", ANY, (4, 6, 8), ("impact",)),  # inertia: reactions out of balance
    _structural("bracket", WITHOUT_ENDURANCE, (4, 6, 8), ("cyclic",)),  # no endurance limit
    _structural("column", DUCTILE, (4, 6, 8), ("static", "cyclic")),  # buckling
    _structural("slider", DUCTILE, (4,), ("impact",)),  # rigid body (pushed at an acceleration, not a fos)
    _structural("slider", ANY, (4,), ("impact",)),
    _structural("bar", RESTRAINABLE, (4, 6), ("static",), thermal="uniform", restrained=True),  # thermal stress
    _structural("plate_hole", ANY, (4, 6), ("static",), thermal="hot_spot"),  # thermal and mechanical
)

FLUIDS_DRAWN = ("water", "air")


def _flow(
    configuration: str,
    reynolds: tuple[float, float],
    offsets: tuple[int, ...] = (0,),
    time_resolved: bool | None = None,
) -> Callable[[random.Random], FlowSetup]:
    """A flow template; ``time_resolved`` says whether a steady flow of it is reported in time (None: at random)."""

    def draw(rng: random.Random) -> FlowSetup:
        reported = rng.random() < 0.5
        return FlowSetup(
            configuration=configuration,
            reynolds=_log_uniform(rng, *reynolds),
            richardson=0.0,
            offset=rng.choice(offsets),
            fluid=rng.choice(FLUIDS_DRAWN),
            length=rng.choice((0.01, 0.02, 0.05)),
            time_resolved=reported if time_resolved is None else time_resolved,
        )

    return draw


def _heated(richardson: tuple[float, float]) -> Callable[[random.Random], FlowSetup]:
    """A heated cylinder in air at Re 10–45 whose wall is 2–20 K above the inflow (Boussinesq: β ΔT ≤ 0.07), its
    diameter set by the Richardson number drawn. (Up to Re 60 some strongly heated wakes wander without settling
    into a steady or a periodic state within the run's budget.)"""

    def draw(rng: random.Random) -> FlowSetup:
        reynolds = rng.uniform(10, 45)
        ri = _log_uniform(rng, *richardson)
        fluid = "air"  # water's thermal layer (Pr 7) would be thinner than a lattice cell at this resolution
        delta_t = _log_uniform(rng, 2.0, 20.0)
        return FlowSetup(
            configuration="heated_cylinder",
            reynolds=reynolds,
            richardson=ri,
            offset=0 if rng.random() < 0.6 else rng.choice((-6, 6)),
            fluid=fluid,
            length=heated_length(reynolds, ri, fluid, delta_t),
            time_resolved=rng.random() < 0.5,
            delta_t=delta_t,
        )

    return draw


FLUID_TEMPLATES = (  # every flow laminar and two-dimensional, as the solver is (cylinder wakes below Re 190)
    _flow("channel", (20, 35)),  # developed, steady, symmetric, no recirculation
    _flow("channel", (300, 500)),  # still developing at the outlet
    _flow("channel", (60, 150)),  # developing or developed, by the entrance length
    _flow("cylinder", (20, 40), (-6, 6)),  # steady, off the centre line
    _flow("cylinder", (95, 130)),  # vortex shedding
    _flow("cylinder", (95, 130), (-6, 6)),  # shedding off the centre line
    _flow("cylinder", (130, 180)),  # shedding, resolved finer (τ ≥ 0.51)
    _flow("step", (30, 150)),  # separation and reattachment behind a developed inflow
    _heated((0.5, 2.0)),  # mixed convection: buoyancy visibly bends the plume
    _heated((0.02, 0.06)),  # forced convection: buoyancy barely moves the flow
)
TEMPLATES = {"structural": STRUCTURAL_TEMPLATES, "fluid": FLUID_TEMPLATES}


def template_order(domain: str, seed: int, version: str) -> list[int]:
    """The seed's walk through the templates of ``domain`` (a permutation, repeated every ten simulations)."""
    count = len(TEMPLATES[domain])
    return random.Random(f"seesim:{version}:{seed}:{domain}:order").sample(range(count), count)


def draw_setup(domain: str, index: int, order: list[int], rng: random.Random) -> StructuralSetup | FlowSetup:
    """Simulation ``index`` of a set: its template's details drawn from ``rng``."""
    templates = TEMPLATES[domain]
    return templates[order[index % len(templates)]](rng)  # type: ignore[return-value]
