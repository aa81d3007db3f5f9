"""The SeeSim media of a generated simulation: a result plot (PNG) and an animation (GIF), as an engineer would
plot them, with colour bars and units. Same run, same bytes (no timestamps in the files)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image

from mechbench.simulation import plane_stress as ps
from mechbench.simulation.flow import FlowRun
from mechbench.simulation.structural import StructuralRun
from mechbench.simulation.units import FlowUnits

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.image import AxesImage

DPI = 100
FRAME_MS = 250


def _figure(width: float, height: float) -> Figure:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


def _png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def _rgb(fig: Figure) -> Image.Image:
    """The figure as drawn, without a PNG round trip (animation frames)."""
    fig.canvas.draw()
    return Image.fromarray(np.asarray(fig.canvas.buffer_rgba())).convert("RGB")


def _gif(frames: list[Image.Image]) -> bytes:
    images = [frame.quantize(colors=128, method=Image.Quantize.MEDIANCUT) for frame in frames]
    buffer = io.BytesIO()
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:], duration=FRAME_MS, loop=0)
    return buffer.getvalue()


def _deformation_scale(run: StructuralRun) -> float:
    """Displacements drawn at a scale that makes the largest 4 % of the part's size (as post-processors do)."""
    peak = max(float(np.abs(u).max()) for _, u, _ in run.frames)
    size = max(run.part.solid.shape) * run.part.h
    return 0.04 * size / peak if peak > 0 else 0.0


class _StructuralPlot:
    """One axes showing the von Mises field on the deformed part; :meth:`show` redraws it for another instant."""

    def __init__(self, fig: Figure, run: StructuralRun, scale: float, vmax: float, frames: list[np.ndarray]) -> None:
        self.fig, self.run, self.scale, self.vmax = fig, run, scale, vmax
        self.ax = fig.add_subplot(1, 1, 1)
        self.mesh = None
        part = run.part
        self.nodes = ps.Body(part.solid, part.h, part.thickness, 1.0, 0.3).node_xy()
        corners = np.concatenate([self._xy(u) for u in frames])
        pad = 0.03 * max(np.ptp(corners[:, 0]), np.ptp(corners[:, 1]))
        self.ax.set_xlim(corners[:, 0].min() - pad, corners[:, 0].max() + pad)
        self.ax.set_ylim(corners[:, 1].min() - pad, corners[:, 1].max() + pad)
        self.ax.set_aspect("equal")
        self.ax.set_xlabel("x [mm]")
        self.ax.set_ylabel("y [mm]")
        (self.supports,) = self.ax.plot([], [], "k^", markersize=3, label="supported nodes")
        self.ax.legend(loc="upper right", fontsize=7)

    def _xy(self, u: np.ndarray) -> np.ndarray:
        xy = self.nodes + self.scale * u.reshape(-1, 2)
        xy[:, 1] = self.run.part.solid.shape[0] * self.run.part.h - xy[:, 1]  # +y up, from the bottom edge
        return xy

    def show(self, u: np.ndarray, stress: np.ndarray, label: str) -> None:
        """Draw the field of one instant (displacements ``u``, cell stresses) in place of the previous one."""
        part = self.run.part
        rows, cols = part.solid.shape
        xy = self._xy(u)
        x, y = xy[:, 0].reshape(rows + 1, cols + 1), xy[:, 1].reshape(rows + 1, cols + 1)
        field = np.ma.masked_array(ps.von_mises(stress), mask=~part.solid)
        if self.mesh is not None:
            self.mesh.remove()
        self.mesh = self.ax.pcolormesh(x, y, field, cmap="jet", vmin=0.0, vmax=self.vmax, shading="flat")
        if len(self.fig.axes) == 1:
            self.fig.colorbar(self.mesh, ax=self.ax, shrink=0.85).set_label("Equivalent (von Mises) stress [MPa]")
        fixed_nodes = np.unique(self.run.fixed // 2)
        self.supports.set_data(xy[fixed_nodes, 0], xy[fixed_nodes, 1])
        title = f"{part.title}, {self.run.material.name}: {label}\n(deformation × {self.scale:.3g})"
        self.ax.set_title(title, fontsize=9)


def _aspect_size(rows: int, cols: int, base: float = 8.0) -> tuple[float, float]:
    return base, float(np.clip(base * rows / cols + 1.4, 3.0, 7.0))


def structural_image(run: StructuralRun) -> bytes:
    """The von Mises field at the most loaded instant, on the deformed part."""
    fig = _figure(*_aspect_size(*run.part.solid.shape))
    vmax = float(ps.von_mises(run.stress)[run.part.solid].max()) or 1.0
    plot = _StructuralPlot(fig, run, _deformation_scale(run), vmax, [run.displacement])
    plot.show(run.displacement, run.stress, run.facts["shown"])
    fig.tight_layout()
    return _png(fig)


def structural_video(run: StructuralRun) -> bytes:
    """The load history as an animation (load ramp, load cycles or the transient after the blow)."""
    vmax = max(float(ps.von_mises(s)[run.part.solid].max()) for _, _, s in run.frames) or 1.0
    fig = _figure(*_aspect_size(*run.part.solid.shape, base=6.0))
    plot = _StructuralPlot(fig, run, _deformation_scale(run), vmax, [u for _, u, _ in run.frames])
    frames = []
    for k, (label, u, stress) in enumerate(run.frames):
        plot.show(u, stress, label)
        if k == 0:
            fig.tight_layout()  # once: every frame keeps the same layout
        frames.append(_rgb(fig))
    return _gif(frames)


def _flow_axes(
    fig: Figure, run: FlowRun, units: FlowUnits, speed: np.ndarray, position: int, count: int, title: str, vmax: float
) -> tuple[Axes, tuple[float, float, float, float], AxesImage]:
    """Velocity magnitude (m/s) over the lattice, solids in grey, with a colour bar."""
    ny, nx = run.solid.shape
    extent = (0.0, nx * units.dx * 1e3, 0.0, ny * units.dx * 1e3)
    ax = fig.add_subplot(count, 1, position)
    field = np.ma.masked_array(speed * units.velocity, mask=run.solid)
    image = ax.imshow(field, origin="lower", extent=extent, cmap="jet", vmin=0.0, vmax=vmax * units.velocity)
    ax.imshow(
        np.ma.masked_array(np.ones_like(speed), mask=~run.solid),
        origin="lower",
        extent=extent,
        cmap="gray",
        vmin=0,
        vmax=2,
    )
    bar = fig.colorbar(image, ax=ax, shrink=0.9)
    bar.set_label("Velocity magnitude [m/s]", fontsize=8)
    ax.set_xlabel("x [mm]")
    ax.set_ylabel("y [mm]")
    ax.set_title(title, fontsize=9)
    return ax, extent, image


def flow_image(run: FlowRun, units: FlowUnits) -> bytes:
    """Velocity magnitude with streamlines at the end of the run (and the temperature, when heated)."""
    heated = run.facts["heated"]
    ny, nx = run.solid.shape
    fig = _figure(8.0, 2 * (8.0 * ny / nx + 1.2) if heated else 8.0 * ny / nx + 1.4)
    speed = np.hypot(run.ux, run.uy)
    ax, extent, _ = _flow_axes(
        fig, run, units, speed, 1, 2 if heated else 1, f"{units.title}: {units.final_label}", float(speed.max())
    )
    x = np.linspace(extent[0], extent[1], nx)
    y = np.linspace(extent[2], extent[3], ny)
    ax.streamplot(
        x,
        y,
        np.where(run.solid, 0.0, run.ux),
        np.where(run.solid, 0.0, run.uy),
        color="white",
        linewidth=0.5,
        density=1.2,
        arrowsize=0.6,
    )
    if heated:
        hot = fig.add_subplot(2, 1, 2)
        temperature = np.ma.masked_array(units.temperature(run.temperature), mask=run.solid)
        image = hot.imshow(temperature, origin="lower", extent=extent, cmap="inferno")
        bar = fig.colorbar(image, ax=hot, shrink=0.9)
        bar.set_label("Temperature [°C]", fontsize=8)
        hot.set_xlabel("x [mm]")
        hot.set_ylabel("y [mm]")
        hot.set_title("Temperature (gravity acts downward in the picture)", fontsize=9)
    fig.tight_layout()
    return _png(fig)


def flow_video(run: FlowRun, units: FlowUnits) -> bytes:
    """The flow developing over the run, velocity magnitude on one colour scale."""
    ny, nx = run.solid.shape
    vmax = max(float(s.max()) for _, s in run.frames) or 1.0
    fig = _figure(6.0, 6.0 * ny / nx + 1.3)
    first_step, first_speed = run.frames[0]
    ax, _, image = _flow_axes(
        fig, run, units, first_speed, 1, 1, f"{units.title}: {units.step_label(first_step)}", vmax
    )
    fig.tight_layout()
    frames = []
    for step, speed in run.frames:
        image.set_data(np.ma.masked_array(speed * units.velocity, mask=run.solid))
        ax.set_title(f"{units.title}: {units.step_label(step)}", fontsize=9)
        frames.append(_rgb(fig))
    return _gif(frames)
