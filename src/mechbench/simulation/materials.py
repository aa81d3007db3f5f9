"""Engineering materials of the generated structural simulations (handbook values, MPa, t/mm³, 1/K), their
fatigue data and, for the steel, its properties at elevated temperature."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

AMBIENT = 20.0
"""°C: the temperature of a part before it is heated."""
KELVIN = 273.15
ROOM_LIMIT = 100.0
"""°C: below it the room-temperature values of the table hold within a few per cent for every material here;
parts of a material without elevated-temperature data are not heated past it."""
LOW_CYCLE = 1e3
"""Cycles at which the S–N line starts, at 0.9 of the ultimate strength (the usual estimate of the high-cycle
line's upper end, Shigley's Mechanical Engineering Design, §6-7)."""
LOW_CYCLE_SHARE = 0.9
STEEL_HOT = (  # °C, k_E (elastic modulus), k_p0.2 (0.2 % proof strength): EN 1993-1-2, Tables 3.1 and E.1
    (20.0, 1.0, 1.0),
    (100.0, 1.0, 1.0),
    (200.0, 0.9, 0.89),
    (300.0, 0.8, 0.78),
    (400.0, 0.7, 0.65),
)
"""Carbon steel's stiffness and proof strength at temperature, as Eurocode 3 gives them for structural design
(linear between the rows). The proof strength, not the larger effective yield strength, bounds the elastic range;
the strength at large strain (k_y) stays 1 up to 400 °C, so the ultimate strength is kept."""


@dataclass(frozen=True)
class Material:
    """An isotropic linear-elastic material with its strengths.

    Ductile materials fail by yielding (von Mises against ``yield_strength``); brittle ones by fracture
    (Coulomb–Mohr: the largest principal stress against ``tensile_strength``, the smallest against
    ``compressive_strength``). Fatigue: ``fatigue_strength`` is the fully reversed (R = −1) strength of smooth
    specimens at ``fatigue_cycles``; it is the endurance limit (unlimited life) when ``endurance_limit`` is set,
    and the last point of a still falling S–N curve where the material has none (aluminium alloys).
    """

    name: str
    young: float
    poisson: float
    density: float
    expansion: float
    ductile: bool
    yield_strength: float | None
    tensile_strength: float
    compressive_strength: float
    endurance_limit: bool
    elongation: float  # at break, %
    melting_point: float
    """°C: the solidus of a metal (where it starts to melt), the softening point of glass."""
    fatigue_strength: float | None = None
    fatigue_cycles: float | None = None
    fatigue_source: str = "no fatigue data: not loaded cyclically here"
    max_temperature: float = ROOM_LIMIT
    """°C: the hottest a generated part of this material gets (where its property data stop)."""
    temperature: float = AMBIENT
    """°C: the temperature the values hold at (:meth:`at_temperature`)."""

    @property
    def max_rise(self) -> float:
        """The largest temperature rise (K) above the 20 °C ambient a generated part is given."""
        return self.max_temperature - AMBIENT

    def at_temperature(self, celsius: float) -> Material:
        """The material at ``celsius``: the steel's stiffness and proof (yield) strength reduced as EN 1993-1-2
        gives them; the others are never heated past :data:`ROOM_LIMIT`, where their table holds."""
        if celsius > self.max_temperature + 1e-9:
            raise ValueError(f"{self.name} has no property data above {self.max_temperature:g} °C ({celsius:g} °C)")
        if celsius <= ROOM_LIMIT or not self.name.startswith("Structural steel"):
            return replace(self, temperature=celsius)
        temps, k_e, k_p = (np.array(column) for column in zip(*STEEL_HOT, strict=True))
        stiffness, strength = float(np.interp(celsius, temps, k_e)), float(np.interp(celsius, temps, k_p))
        return replace(
            self,
            young=self.young * stiffness,
            yield_strength=float(self.yield_strength or 0) * strength,
            temperature=celsius,
        )

    def fatigue_strength_at(self, cycles: float) -> float:
        """Fully reversed fatigue strength (MPa) for a life of ``cycles``: the Basquin line from 0.9 of the
        ultimate strength at 10³ cycles to the handbook point, flat beyond it where the material has an endurance
        limit (no data past the last point of a material without one)."""
        if self.fatigue_strength is None or self.fatigue_cycles is None:
            raise ValueError(f"{self.name} has no fatigue data")
        if cycles >= self.fatigue_cycles:
            if self.endurance_limit:
                return self.fatigue_strength
            if cycles > self.fatigue_cycles * (1 + 1e-9):
                raise ValueError(f"no fatigue data for {self.name} beyond {self.fatigue_cycles:.3g} cycles")
        exponent = self.basquin_exponent
        return LOW_CYCLE_SHARE * self.tensile_strength * (max(cycles, LOW_CYCLE) / LOW_CYCLE) ** exponent

    @property
    def basquin_exponent(self) -> float:
        """The slope b of the S–N line S = 0.9 Sᵤ (N / 10³)ᵇ."""
        assert self.fatigue_strength is not None and self.fatigue_cycles is not None
        top = LOW_CYCLE_SHARE * self.tensile_strength
        return math.log(self.fatigue_strength / top) / math.log(self.fatigue_cycles / LOW_CYCLE)

    def cycles_to_failure(self, amplitude: float) -> float:
        """Cycles a fully reversed ``amplitude`` (MPa) survives on the S–N line (∞ below the endurance limit)."""
        assert self.fatigue_strength is not None and self.fatigue_cycles is not None
        if amplitude <= self.fatigue_strength and self.endurance_limit:
            return math.inf
        top = LOW_CYCLE_SHARE * self.tensile_strength
        return LOW_CYCLE * (min(amplitude, top) / top) ** (1 / self.basquin_exponent)

    def failure_index(self, von_mises: np.ndarray, sigma1: np.ndarray, sigma2: np.ndarray) -> np.ndarray:
        """Equivalent stress over strength (≥ 1: the material's limit is reached), element-wise over stress states."""
        if self.ductile:
            return von_mises / float(self.yield_strength)
        tension = np.maximum(sigma1, 0.0) / self.tensile_strength
        compression = np.maximum(-sigma2, 0.0) / self.compressive_strength
        return np.where((sigma1 > 0) & (sigma2 < 0), tension + compression, np.maximum(tension, compression))


MATERIALS = (  # name, E, ν, ρ, α, ductile, yield, ultimate tension/compression, endurance limit?, elongation, melting
    Material(
        "Structural steel S355",
        200e3,
        0.30,
        7.85e-9,
        12e-6,
        True,
        355.0,
        510.0,
        510.0,
        True,
        22.0,
        1450.0,
        fatigue_strength=255.0,
        fatigue_cycles=1e6,
        fatigue_source="endurance limit 0.5 Sᵤ of smooth rotating-beam specimens (Shigley, Mechanical Engineering "
        "Design, eq. 6-8)",
        max_temperature=400.0,
    ),
    Material(
        "Aluminium alloy 6061-T6",
        68.9e3,
        0.33,
        2.70e-9,
        23.6e-6,
        True,
        276.0,
        310.0,
        310.0,
        False,
        12.0,
        582.0,
        fatigue_strength=96.5,
        fatigue_cycles=5e8,
        fatigue_source="no endurance limit; fatigue strength 96.5 MPa at 5×10⁸ cycles, R. R. Moore fully reversed "
        "(Aluminum Association; ASM Handbook Vol. 2)",
    ),
    Material(
        "Titanium alloy Ti-6Al-4V",
        113.8e3,
        0.34,
        4.43e-9,
        8.6e-6,
        True,
        880.0,
        950.0,
        950.0,
        True,
        14.0,
        1604.0,
        fatigue_strength=510.0,
        fatigue_cycles=1e7,
        fatigue_source="endurance limit 510 MPa at 10⁷ cycles, smooth annealed specimens, fully reversed (ASM "
        "Materials Properties Handbook: Titanium Alloys)",
    ),
    Material(
        "Grey cast iron EN-GJL-250",
        110e3,
        0.26,
        7.20e-9,
        11e-6,
        False,
        None,
        250.0,
        840.0,
        True,
        0.5,
        1150.0,
        fatigue_strength=110.0,
        fatigue_cycles=1e7,
        fatigue_source="endurance limit 0.44 of the tensile strength, rotating bending (EN 1561, informative annex)",
    ),
    Material("Soda-lime glass", 72e3, 0.22, 2.50e-9, 9e-6, False, None, 45.0, 1000.0, False, 0.0, 726.0),
)
