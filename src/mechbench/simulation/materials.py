"""Engineering materials of the generated structural simulations (handbook values, MPa, t/mm³, 1/K)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

AMBIENT = 20.0
"""°C: the temperature of a part before it is heated."""
KELVIN = 273.15
HOMOLOGOUS_LIMIT = 0.5


@dataclass(frozen=True)
class Material:
    """An isotropic linear-elastic material with its strengths.

    Ductile materials fail by yielding (von Mises against ``yield_strength``); brittle ones by fracture
    (Coulomb–Mohr: the largest principal stress against ``tensile_strength``, the smallest against
    ``compressive_strength``). ``endurance_limit`` is the fully reversed fatigue strength for unlimited life;
    ``None`` where the material has none (aluminium alloys and glass keep losing strength with cycles).
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
    endurance_limit: float | None
    elongation: float  # at break, %
    melting_point: float
    """°C: the solidus of a metal (where it starts to melt), the softening point of glass."""

    @property
    def max_rise(self) -> float:
        """The largest temperature rise (K) above a 20 °C ambient a generated part is given: up to half the
        melting point in kelvin (a homologous temperature of 0.5), below which creep is slow and the elastic
        constants and strengths of the table hold roughly."""
        return HOMOLOGOUS_LIMIT * (self.melting_point + KELVIN) - (AMBIENT + KELVIN)

    def failure_index(self, von_mises: np.ndarray, sigma1: np.ndarray, sigma2: np.ndarray) -> np.ndarray:
        """Equivalent stress over strength (≥ 1: the material's limit is reached), element-wise over stress states."""
        if self.ductile:
            return von_mises / float(self.yield_strength)
        tension = np.maximum(sigma1, 0.0) / self.tensile_strength
        compression = np.maximum(-sigma2, 0.0) / self.compressive_strength
        return np.where((sigma1 > 0) & (sigma2 < 0), tension + compression, np.maximum(tension, compression))


MATERIALS = (  # name, E, ν, ρ, α, ductile, yield, ultimate tension/compression, endurance, elongation, melting
    Material("Structural steel S355", 200e3, 0.30, 7.85e-9, 12e-6, True, 355.0, 510.0, 510.0, 255.0, 22.0, 1450.0),
    Material("Aluminium alloy 6061-T6", 68.9e3, 0.33, 2.70e-9, 23.6e-6, True, 276.0, 310.0, 310.0, None, 12.0, 582.0),
    Material(
        "Titanium alloy Ti-6Al-4V", 113.8e3, 0.34, 4.43e-9, 8.6e-6, True, 880.0, 950.0, 950.0, 510.0, 14.0, 1604.0
    ),
    Material("Grey cast iron EN-GJL-250", 110e3, 0.26, 7.20e-9, 11e-6, False, None, 250.0, 840.0, 110.0, 0.5, 1150.0),
    Material("Soda-lime glass", 72e3, 0.22, 2.50e-9, 9e-6, False, None, 45.0, 1000.0, None, 0.0, 726.0),
)
