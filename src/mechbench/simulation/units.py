"""Lattice units of a flow run turned into the physical units its media and report are written in."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mechbench.simulation.flow import FLUIDS, GRAVITY, FlowRun, reynolds_length

AMBIENT = 20.0
"""Inflow temperature (°C)."""
TITLES = {
    "channel": "Flow between parallel plates",
    "cylinder": "Flow past a cylinder in a channel",
    "step": "Flow over a backward-facing step",
    "heated_cylinder": "Flow past a heated cylinder in a channel",
}


@dataclass(frozen=True)
class FlowUnits:
    """Scales from lattice to SI for one run (cell size, time step, velocity, pressure, temperature)."""

    dx: float  # m per cell
    dt: float  # s per step
    velocity: float  # m/s per lattice velocity unit
    pressure: float  # Pa per lattice pressure unit
    wall_rise: float  # K: the heated wall above the inflow
    title: str
    transient: bool
    steps: int

    def temperature(self, lattice: np.ndarray) -> np.ndarray:
        """°C of a lattice temperature (0 at the inflow, 1 on the heated wall)."""
        return AMBIENT + self.wall_rise * lattice

    def step_label(self, step: int) -> str:
        """How a frame is labelled: physical time for a transient run, the iteration for a steady one."""
        return f"t = {step * self.dt:.3g} s" if self.transient else f"iteration {step}"

    @property
    def final_label(self) -> str:
        """The label of the run's last step (the state the image and the report show)."""
        return self.step_label(self.steps)


def flow_units(run: FlowRun) -> FlowUnits:
    """The physical scales of ``run``: its characteristic length is ``setup.length`` metres."""
    setup = run.setup
    nu, density, expansion = FLUIDS[setup.fluid]
    dx = setup.length / run.scale
    lattice_length, _ = reynolds_length(setup, run.scale, run.solid)
    speed = setup.reynolds * nu / (lattice_length * dx)  # the mean inflow speed, m/s
    velocity = speed / run.inflow
    # The wall's temperature rise: as drawn, or the one the Richardson number implies for this length and speed.
    rise = setup.delta_t or setup.richardson * speed**2 / (GRAVITY * expansion * setup.length)
    rise = rise if run.facts["heated"] else 0.0
    return FlowUnits(
        dx=dx,
        dt=dx / velocity,
        velocity=velocity,
        pressure=density * velocity**2,
        wall_rise=rise,
        title=TITLES[setup.configuration],
        transient=run.facts["transient"],
        steps=run.steps,
    )
