"""SeeSim's difficulty levels: how much of a generated simulation's engineering its media and report leave to the
reader.

Level 1 is the set as it has always been generated (same seed, same bytes): the details box and the report state
the part's state past a limit and every figure an answer is decided on (failure indices, shares, the buckling
multiplier, mesh changes, the Richardson number, reverse-flow share, symmetry and gradient measures). Level 2
keeps the inputs and the raw results of the analysis as run (the linear field at the applied load, peak stresses,
displacements, reactions, energies, velocities, pressures) and withdraws the derived figures and verdicts. Level 3
keeps the set-up and the fields with their colour bars (maximum and minimum labelled): a peak is read off the
legend. A question is asked at a level only when what that level shows decides it with the same margin as the key
(:mod:`mechbench.benchmarks.seesim.level_rules`).

One run of a seed gives the same simulations at every level (only the media and the questions asked differ), so
levels can be compared on the same physics.
"""

from __future__ import annotations

from dataclasses import dataclass

from mechbench.simulation.reports import Disclosure, FluidLine, StructuralLine


@dataclass(frozen=True)
class Level:
    """One SeeSim difficulty level."""

    number: int
    disclosure: Disclosure
    shows: str
    """What the media and the report show, in a line."""


LEVELS = {
    1: Level(
        1,
        Disclosure.FULL,
        "the inputs, the part's state and every computed figure the answers are decided on (failure indices, "
        "shares, multipliers, verdict lines)",
    ),
    2: Level(
        2,
        Disclosure.RAW,
        "the inputs and the raw results (linear field, peak stresses, displacements, reactions, energies, velocities, "
        "pressures); the derived figures and verdicts are the reader's to form",
    ),
    3: Level(
        3,
        Disclosure.SETUP,
        "the set-up and the fields with their colour bars (maximum and minimum labelled); peaks are read off the "
        "legend",
    ),
}
NUMBERS = tuple(LEVELS)

_S, _F = StructuralLine, FluidLine
DERIVED = {
    "structural": (_S.PEAK, _S.PEAK_MESH, _S.LIMIT, _S.YIELDED, _S.PAST_STRENGTH, _S.FATIGUE_INDEX, _S.LIFE,
                   _S.BUCKLING, _S.VON_MISES_SPREAD),
    "fluid": (_F.RICHARDSON, _F.REVERSED, _F.PROFILES, _F.ASYMMETRY),
}  # fmt: skip
"""The lines that state a derived figure or a verdict: withdrawn from level 2 on."""
RESULTS = {
    "structural": (_S.DISPLACEMENT, _S.VON_MISES_MAX, _S.PRINCIPAL_MAX, _S.PRINCIPAL_MIN, _S.STATIC_PEAKS, _S.STATIC,
                   _S.SECTION, _S.THERMAL_ALONE, _S.REACTIONS, _S.APPLIED, _S.FATIGUE_STRENGTH, _S.AMPLITUDE,
                   _S.ENERGY, _S.ENERGY_FINE, _S.ENERGY_SHOWN),
    "fluid": (_F.REYNOLDS, _F.TEMPERATURE_RANGE, _F.WALL_REVERSE, _F.PROBE, _F.GRADIENT, _F.MASS_FLOW,
              "Maximum velocity magnitude", "Pressure range", "Pressure drop"),
}  # fmt: skip
"""The lines that state a raw result: withdrawn at level 3, where the fields' colour bars are the results."""


def withdrawn(level: int, domain: str) -> tuple[str, ...]:
    """The named lines no medium of ``domain`` shows at ``level``."""
    return () if level == 1 else DERIVED[domain] + (RESULTS[domain] if level >= 3 else ())


def level_of(index: int, difficulty: int | None) -> Level:
    """The level of simulation ``index`` (0-based) of a domain: ``difficulty``, or with ``None`` (mix) the levels
    in turn."""
    if difficulty is None:
        return LEVELS[NUMBERS[index % len(NUMBERS)]]
    return LEVELS[difficulty]
