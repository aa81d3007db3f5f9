"""The SeeSim media of a generated simulation: a result plot (PNG) and an animation (GIF), as an engineer would
plot them, with colour bars and units. Same run, same bytes (no timestamps in the files).

What a reader needs is in every picture: the image and the animation share one colour scale per simulation, tick
labels are plain numbers (no offset notation), and a details box prints the figures the answers are read from
(the same named lines as the report, :mod:`mechbench.simulation.reports`). Structural plots draw the supports, the
loads and an outline where the plotted stress passes the material's limit; flow plots add the pressure field, the
velocity profiles at the two stations compared and the wake probe's history.

A :class:`~mechbench.simulation.reports.Disclosure` past ``FULL`` (SeeSim's higher levels) plots the linear field
without the limit outline, labels each colour bar's band edges (its maximum and minimum among them), and prints the
raw results in the details box, or the set-up alone, with the fields and no result panels.

Kept as one module (~490 lines): both domains share one colour scale, one details box and one animation
writer, and the blind-reader checks review the drawing as a whole.
"""

from __future__ import annotations

import io
import textwrap
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image

from mechbench.simulation.flow import FLUIDS, FlowRun, measured_region
from mechbench.simulation.reports import (
    Disclosure,
    flow_results,
    material_lines,
    results_lines,
    settling_lines,
)
from mechbench.simulation.structural import StructuralRun
from mechbench.simulation.units import FlowUnits

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

DPI = 100
FRAME_MS = 250
DETAILS_WIDTH = 58
"""Characters per line of the details box."""
LINE_HEIGHT = 0.125
"""Inches per line of the details box (6.5 pt monospace)."""
BANDS = 9
"""Colour bands a legend past ``Disclosure.FULL`` labels the edges of."""


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
    """An animated GIF whose frames share one palette (taken from frames across the run): a colour means the same
    value in every frame, as on the colour bar."""
    picks = frames[:: max(1, len(frames) // 4)][:4]
    width, height = picks[0].size
    montage = Image.new("RGB", (width, height * len(picks)))
    for k, frame in enumerate(picks):
        montage.paste(frame, (0, k * height))
    palette = montage.quantize(colors=192, method=Image.Quantize.MEDIANCUT)
    images = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    buffer = io.BytesIO()
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:], duration=FRAME_MS, loop=0)
    return buffer.getvalue()


def _plain(axis: object) -> None:
    """Every tick labelled with its own value (four significant digits): no offset ("+2e1") and no multiplier at
    the end of a colour bar or an axis, which readers miss."""
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:.4g}"))  # type: ignore[attr-defined]


def _colour_bar(fig: Figure, mappable: object, ax: Axes, label: str, bands: bool = False) -> None:
    bar = fig.colorbar(mappable, ax=ax, shrink=0.9, pad=0.02)  # type: ignore[arg-type]
    bar.set_label(label, fontsize=8)
    if bands:  # every band edge labelled, the maximum and minimum among them
        norm = mappable.norm  # type: ignore[attr-defined]
        bar.set_ticks(list(np.linspace(norm.vmin, norm.vmax, BANDS + 1)))
    _plain(bar.ax.yaxis)
    bar.ax.tick_params(labelsize=7)


def _detail_lines(title: str, rows: list[tuple[str, str]]) -> list[str]:
    lines = [title, ""]
    for label, value in rows:
        lines += textwrap.wrap(f"{label}: {value}", DETAILS_WIDTH, subsequent_indent="    ")
    return lines


def details_height(title: str, rows: list[tuple[str, str]]) -> float:
    """Inches of figure the details box needs to print every line."""
    return 0.8 + LINE_HEIGHT * len(_detail_lines(title, rows))


def _details(ax: Axes, title: str, rows: list[tuple[str, str]]) -> None:
    """A details box: one line per figure, wrapped to the box's width."""
    ax.axis("off")
    lines = _detail_lines(title, rows)
    ax.text(0.0, 1.0, "\n".join(lines), va="top", ha="left", family="monospace", fontsize=6.5, transform=ax.transAxes)


def _details_image(title: str, rows: list[tuple[str, str]], width: float, height: float) -> Image.Image:
    """The details box drawn once, to stand beside every frame of an animation (only the field is redrawn)."""
    fig = _figure(width, height)
    _details(fig.add_axes((0.02, 0.02, 0.96, 0.96)), title, rows)
    return _rgb(fig)


def _beside(left: Image.Image, right: Image.Image) -> Image.Image:
    canvas = Image.new("RGB", (left.width + right.width, max(left.height, right.height)), "white")
    canvas.paste(left, (0, 0))
    canvas.paste(right, (left.width, 0))
    return canvas


def _deformation_scale(run: StructuralRun, disclosure: Disclosure = Disclosure.FULL) -> float:
    """Displacements drawn at a scale that makes the largest 4 % of the part's size (as post-processors do)."""
    frames = run.frames if disclosure == Disclosure.FULL else run.linear_frames
    peak = max(float(np.hypot(*frame.displacement).max()) for frame in frames)
    size = max(run.part.width, run.part.height)
    return 0.04 * size / peak if peak > 0 else 0.0


def structural_scale(run: StructuralRun, linear: bool = False) -> tuple[float, float]:
    """The colour scale of a run's image and animation: the plotted field over every frame (the shown instant is
    one of them); ``linear``: over the linear analysis's frames."""
    values = [run.plotted(frame.stress) for frame in (run.linear_frames if linear else run.frames)]
    high = max(float(v.max()) for v in values)
    low = min(0.0, min(float(v.min()) for v in values))
    return low, high if high > low else low + 1.0


def _outline_level(run: StructuralRun) -> float:
    """Where the outline is drawn: just below the material's limit, since a yielding part's state sits at it."""
    return run.field_limit * (1 - 1e-6)


def _outlined(run: StructuralRun, stress: np.ndarray) -> bool:
    """The plotted field reaches the material's limit inside the part (an outline can be drawn)."""
    values, level = run.plotted(stress), _outline_level(run)
    return bool((values > level).any() and (values < level).any())


class _StructuralPlot:
    """The plotted stress on the deformed mesh, supports, loads and the limit outline. :meth:`show` draws one
    instant; :meth:`animate` draws every frame of the run over a background drawn once (axes, ticks, colour bar,
    legend), so an animation costs little more than its fields."""

    def __init__(self, fig: Figure, ax: Axes, run: StructuralRun, scale: float, disclosure: Disclosure) -> None:
        self.fig, self.ax, self.run, self.scale = fig, ax, run, scale
        self.linear = disclosure != Disclosure.FULL
        self.frames = run.linear_frames if self.linear else run.frames
        self.low, self.high = structural_scale(run, self.linear)
        self.artists: list = []
        corners = np.concatenate([self._xy(frame.displacement) for frame in self.frames], axis=1)
        pad = 0.12 * max(np.ptp(corners[0]), np.ptp(corners[1]))
        ax.set_xlim(corners[0].min() - pad, corners[0].max() + pad)
        ax.set_ylim(corners[1].min() - pad, corners[1].max() + pad)
        ax.set_aspect("equal")
        ax.set_xlabel("x [mm]")
        ax.set_ylabel("y [mm]")
        _plain(ax.xaxis)
        _plain(ax.yaxis)
        name = "Equivalent (von Mises)" if run.field_name == "von Mises" else "Maximum principal"
        from matplotlib.cm import ScalarMappable
        from matplotlib.colors import Normalize

        scale_bar = ScalarMappable(Normalize(self.low, self.high), cmap="jet")
        _colour_bar(fig, scale_bar, ax, f"{name} stress [MPa]", bands=self.linear)
        keys = [ax.plot([], [], "k^", markersize=3, label="supported nodes")[0]]
        if run.load_newtons:
            label = "load (fully reversed)" if run.setup.loading == "cyclic" else "load"
            keys.append(ax.plot([], [], color="magenta", label=label)[0])
        if not self.linear and any(_outlined(run, frame.stress) for frame in run.frames):
            keys.append(ax.plot([], [], "k-", lw=1.2, label=f"limit: {run.field_limit:.4g} MPa")[0])
        ax.legend(handles=keys, loc="upper right", fontsize=6)

    def _xy(self, displacement: np.ndarray) -> np.ndarray:
        return self.run.vertices + self.scale * displacement

    def show(self, displacement: np.ndarray, stress: np.ndarray, label: str, animated: bool = False) -> None:
        """Draw the field of one instant (vertex displacements and stresses) in place of the previous one."""
        from matplotlib.tri import Triangulation

        run, ax = self.run, self.ax
        for artist in self.artists:
            artist.remove()
        xy = self._xy(displacement)
        mesh = Triangulation(xy[0], xy[1], run.triangles.T)
        values = run.plotted(stress)
        self.artists = [ax.tripcolor(mesh, values, cmap="jet", vmin=self.low, vmax=self.high, shading="gouraud")]
        if not self.linear and _outlined(run, stress):
            self.artists.append(ax.tricontour(mesh, values, levels=[_outline_level(run)], colors="k", linewidths=1.2))
        fixed = run.fixed_vertices
        self.artists.append(ax.plot(xy[0, fixed], xy[1, fixed], "k^", markersize=3)[0])
        self.artists += self._loads(xy)
        for artist in self.artists:
            artist.set_animated(animated)
        ax.set_title(f"{run.part.title}, {run.material.name}\n{label} (deformation × {self.scale:.3g})", fontsize=8)

    def animate(self, beside: Image.Image) -> list[Image.Image]:
        """Every frame of the run, each with ``beside`` (the details box) to its right."""
        fig, ax = self.fig, self.ax
        first = self.frames[0]
        self.show(first.displacement, first.stress, first.label)
        fig.tight_layout()  # once: every frame keeps the same layout
        for artist in self.artists:
            artist.set_visible(False)
        ax.set_title("")
        fig.canvas.draw()
        background = fig.canvas.copy_from_bbox(fig.bbox)  # type: ignore[attr-defined]
        frames = []
        for frame in self.frames:
            self.show(frame.displacement, frame.stress, frame.label, animated=True)
            fig.canvas.restore_region(background)  # type: ignore[attr-defined]
            for artist in [*self.artists, ax.title]:
                ax.draw_artist(artist)
            frames.append(_beside(Image.fromarray(np.asarray(fig.canvas.buffer_rgba())).convert("RGB"), beside))
        return frames

    def _loads(self, xy: np.ndarray) -> list:
        """Arrows from the loaded edge (up to seven points, evenly spread along it) in the load's direction (+y
        up); a fully reversed load gets heads at both ends."""
        loaded = self.run.loaded_vertices
        if not len(loaded) or not self.run.load_newtons:
            return []
        along = xy[:, loaded]
        order = np.lexsort((along[0], along[1]))
        loaded = loaded[order]
        direction = np.array(self.run.part.push.direction)
        tangent = along[:, order[-1]] - along[:, order[0]]
        # A load along its edge (a shear) is one arrow at the edge's middle: arrows along a line overlap.
        count = 1 if abs(direction @ tangent) > 0.9 * np.linalg.norm(tangent) else min(7, len(loaded))
        pick = (
            loaded[np.linspace(0, len(loaded) - 1, count + 2)[1:-1].round().astype(int)]
            if count == 1
            else loaded[np.linspace(0, len(loaded) - 1, count).round().astype(int)]
        )
        size = 0.1 * max(np.ptp(xy[0]), np.ptp(xy[1]))
        style = "<->" if self.run.setup.loading == "cyclic" else "->"
        return [
            self.ax.annotate(
                "",
                xy=xy[:, node] + size * direction,
                xytext=xy[:, node],
                arrowprops={"arrowstyle": style, "color": "magenta", "lw": 1.2},
            )
            for node in pick
        ]


DETAILS = "Details (at the instant evaluated)"


def _structural_rows(run: StructuralRun, disclosure: Disclosure) -> list[tuple[str, str]]:
    part = run.part
    inputs = (  # past FULL the box states what a reader forms the derived figures from
        [
            ("Geometry", f"{part.title}, {part.width:.4g} mm × {part.height:.4g} mm, {part.thickness:g} mm thick"),
            ("Young's modulus", f"{run.material.young:.4g} MPa"),
        ]
        if disclosure != Disclosure.FULL
        else []
    )
    return [
        *inputs,
        ("Material", run.material.name),
        *material_lines(run),
        ("Load", f"{run.part.load}, {run.load_newtons:.4g} N" if run.load_newtons else "none"),
        ("Supports", run.part.supports),
        ("Temperature", run.facts["heat"]),
        (
            "Loading",
            {"static": "static, applied once", "cyclic": "fully reversed cycles", "impact": "sudden"}[
                run.setup.loading
            ],
        ),
        *(results_lines(run, disclosure) if disclosure != Disclosure.SETUP else []),
    ]


def _structural_figure(run: StructuralRun, base: float, disclosure: Disclosure) -> tuple[Figure, Axes]:
    rows = _structural_rows(run, disclosure)
    height = max(float(np.clip(base * run.part.height / run.part.width + 1.6, 4.2, 7.5)), details_height(DETAILS, rows))
    fig = _figure(base + 5.2, height)
    grid = fig.add_gridspec(1, 2, width_ratios=[base, 5.2])
    ax = fig.add_subplot(grid[0, 0])
    _details(fig.add_subplot(grid[0, 1]), DETAILS, rows)
    return fig, ax


def structural_image(run: StructuralRun, disclosure: Disclosure = Disclosure.FULL) -> bytes:
    """The plotted stress at the most loaded instant, on the deformed part, with the details box."""
    fig, ax = _structural_figure(run, 7.0, disclosure)
    plot = _StructuralPlot(fig, ax, run, _deformation_scale(run, disclosure), disclosure)
    shown = plot.frames[run.shown_frame]
    plot.show(shown.displacement, shown.stress, shown.label)
    fig.tight_layout()
    return _png(fig)


def structural_video(run: StructuralRun, disclosure: Disclosure = Disclosure.FULL) -> bytes:
    """The load history as an animation (ramp, cycles, or the transient's first periods), on the image's scale."""
    rows = _structural_rows(run, disclosure)
    height = max(float(np.clip(6.0 * run.part.height / run.part.width + 1.6, 4.2, 7.5)), details_height(DETAILS, rows))
    fig = _figure(6.8, height)
    box = _details_image(DETAILS, rows, 5.2, height)
    plot = _StructuralPlot(fig, fig.add_subplot(1, 1, 1), run, _deformation_scale(run, disclosure), disclosure)
    return _gif(plot.animate(box))


def _extent(run: FlowRun, units: FlowUnits) -> tuple[float, float, float, float]:
    ny, nx = run.solid.shape
    return (0.0, nx * units.dx * 1e3, 0.0, ny * units.dx * 1e3)


def _field(
    fig: Figure,
    ax: Axes,
    run: FlowRun,
    units: FlowUnits,
    values: np.ndarray,
    label: str,
    cmap: str,
    limits: tuple[float, float] | None = None,
    bands: bool = False,
) -> object:
    """One field over the lattice, solids in grey, with a plain colour bar."""
    extent = _extent(run, units)
    low, high = limits or (float(values[~run.solid].min()), float(values[~run.solid].max()))
    image = ax.imshow(
        np.ma.masked_array(values, mask=run.solid),
        origin="lower",
        extent=extent,
        cmap=cmap,
        vmin=low,
        vmax=high if high > low else low + 1e-12,
    )
    ax.imshow(
        np.ma.masked_array(np.ones_like(values), mask=~run.solid),
        origin="lower",
        extent=extent,
        cmap="gray",
        vmin=0,
        vmax=2,
    )
    _colour_bar(fig, image, ax, label, bands)
    ax.set_xlabel("x [mm]", fontsize=8)
    ax.set_ylabel("y [mm]", fontsize=8)
    ax.tick_params(labelsize=7)
    _plain(ax.xaxis)
    _plain(ax.yaxis)
    return image


def flow_speed_limits(run: FlowRun, units: FlowUnits) -> tuple[float, float]:
    """The velocity colour scale of a run's image and animation (the final state is the last frame)."""
    high = max([float(np.hypot(run.ux, run.uy)[~run.solid].max())] + [float(s.max()) for _, s, _ in run.frames])
    return 0.0, high * units.velocity


def temperature_limits(units: FlowUnits) -> tuple[float, float]:
    """The temperature colour scale: from the inflow to the heated wall."""
    return float(units.temperature(np.array(0.0))), float(units.temperature(np.array(1.0)))


def pressure_limits(run: FlowRun, units: FlowUnits) -> tuple[float, float]:
    """The pressure colour scale of the region the gradients are measured on."""
    values = run.pressure[measured_region(run.solid)] * units.pressure
    return float(values.min()), float(values.max())


def _flow_rows(run: FlowRun, units: FlowUnits, disclosure: Disclosure) -> list[tuple[str, str]]:
    setup = run.setup
    properties = []
    if disclosure != Disclosure.FULL:  # what the derived figures are formed from, stated beside the raw results
        nu, density, expansion = FLUIDS[setup.fluid]
        properties = [("Density", f"{density:.4g} kg/m³"), ("Kinematic viscosity", f"{nu:.4g} m²/s")]
        if run.facts["heated"]:
            properties += [
                ("Thermal expansion coefficient", f"{expansion:.4g} 1/K"),
                ("Gravity", "9.81 m/s², downward in the picture"),
                (
                    "Heated cylinder wall",
                    f"{float(units.temperature(np.array(1.0))):.4g} °C, {units.wall_rise:.4g} K above the inflow",
                ),
            ]
    return [
        ("Case", units.title),
        ("Fluid", setup.fluid),
        *properties,
        ("Mean inflow", f"{run.inflow * units.velocity:.4g} m/s"),
        ("Reference length", f"{run.facts['reference_cells'] * units.dx * 1e3:.4g} mm"),
        ("Analysis type", "transient"),
        *[row for row in settling_lines(run, units, disclosure) if row[0] == "Averaging window"],
        *flow_results(run, units, disclosure),
    ]


def flow_image(run: FlowRun, units: FlowUnits, disclosure: Disclosure = Disclosure.FULL) -> bytes:
    """Velocity with streamlines, pressure (and temperature, when heated) at the end of the run; the velocity
    profiles compared and the wake probe's history (not with the set-up alone); the details box."""
    heated = run.facts["heated"]
    bands = disclosure != Disclosure.FULL
    history = disclosure != Disclosure.SETUP
    ny, nx = run.solid.shape
    panel = 7.5 * ny / nx + 0.6
    fields = 3 if heated else 2
    fig = _figure(13.0, fields * panel + (2.8 if history else 0.4))
    grid = fig.add_gridspec(
        fields + history,
        3,
        width_ratios=[3.6, 3.6, 4.6],
        height_ratios=[panel] * fields + ([2.4] if history else []),
    )
    extent = _extent(run, units)
    speed = np.hypot(run.ux, run.uy) * units.velocity
    ax = fig.add_subplot(grid[0, :2])
    _field(fig, ax, run, units, speed, "Velocity magnitude [m/s]", "jet", flow_speed_limits(run, units), bands)
    x, y = np.linspace(extent[0], extent[1], nx), np.linspace(extent[2], extent[3], ny)
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
    if history:
        a, b = run.profile_columns
        for column, name in ((a, "60 %"), (b, "75 %")):
            ax.axvline((column + 0.5) * units.dx * 1e3, color="k", ls="--", lw=0.8)
            ax.text((column + 0.5) * units.dx * 1e3, extent[3], f"{name} ", fontsize=6, ha="right", va="bottom")
        probe_x, probe_y = run.probe[1] * units.dx * 1e3, run.probe[0] * units.dx * 1e3
        ax.plot([probe_x], [probe_y], "w+", markersize=8, mew=1.5)
    marks = " (+: probe; dashed: profile stations)" if history else ""
    ax.set_title(f"{units.title}: {units.final_label}{marks}", fontsize=8, pad=10)
    pressure = np.where(measured_region(run.solid), run.pressure * units.pressure, np.nan)
    ax = fig.add_subplot(grid[1, :2])
    _field(fig, ax, run, units, pressure, "Gauge pressure [Pa]", "viridis", pressure_limits(run, units), bands)
    ax.set_title(
        "Pressure (blank: the inlet and outlet columns, where the boundary conditions' artefacts are)", fontsize=8
    )
    if heated:
        ax = fig.add_subplot(grid[2, :2])
        _field(
            fig,
            ax,
            run,
            units,
            units.temperature(run.temperature),
            "Temperature [°C]",
            "inferno",
            temperature_limits(units),
            bands,
        )
        ax.set_title("Temperature (gravity acts downward in the picture)", fontsize=8)
    if history:
        _history_panels(fig, grid, fields, run, units)
    _details(fig.add_subplot(grid[:, 2]), "Details", _flow_rows(run, units, disclosure))
    fig.tight_layout()
    return _png(fig)


def _history_panels(fig: Figure, grid: object, row: int, run: FlowRun, units: FlowUnits) -> None:
    """The velocity profiles at the two stations compared, and the wake probe's history."""
    a, b = run.profile_columns
    ax = fig.add_subplot(grid[row, 0])  # type: ignore[index]
    fluid = ~run.solid
    for column, name, style in ((a, "60 % of the length", "-"), (b, "75 % of the length", "--")):
        rows = fluid[:, a] & fluid[:, b]
        profile = run.ux[rows, column] / run.ux[rows, column].mean()
        ax.plot(profile, (np.flatnonzero(rows) + 0.5) * units.dx * 1e3, style, label=name)
    ax.set_xlabel("u / ū (profile shape)", fontsize=8)
    ax.set_ylabel("y [mm]", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=6)
    ax.set_title("Streamwise velocity profiles", fontsize=8)
    ax = fig.add_subplot(grid[row, 1])  # type: ignore[index]
    times = run.probe_steps * units.dt
    ax.plot(times, run.probe_values * units.velocity, lw=0.8)
    ax.axvspan(run.window[0] * units.dt, run.window[1] * units.dt, color="0.85")
    ax.set_xlabel("time [s]" if units.transient else "pseudo time [s]", fontsize=8)
    ax.set_ylabel("v at probe [m/s]", fontsize=8)
    ax.tick_params(labelsize=7)
    _plain(ax.yaxis)
    ax.set_title("Probe (+), cross-stream velocity (averaging window shaded)", fontsize=8)


def flow_video(run: FlowRun, units: FlowUnits, disclosure: Disclosure = Disclosure.FULL) -> bytes:
    """The averaging window (the whole shedding periods, or the last flow-through, the facts are measured on), on
    the image's velocity scale."""
    heated = run.facts["heated"]
    ny, nx = run.solid.shape
    panel = 6.5 * ny / nx + 0.6
    fields = 2 if heated else 1
    height = max(fields * panel + 0.6, 5.0)
    fig = _figure(6.8, height)
    ax = fig.add_subplot(fields, 1, 1)
    _, first_speed, first_heat = run.frames[0]
    speed_limits = flow_speed_limits(run, units)
    bands = disclosure != Disclosure.FULL
    image = _field(
        fig, ax, run, units, first_speed * units.velocity, "Velocity magnitude [m/s]", "jet", speed_limits, bands
    )
    hot = None
    if heated:
        heat_ax = fig.add_subplot(fields, 1, 2)
        hot = _field(
            fig,
            heat_ax,
            run,
            units,
            units.temperature(first_heat),
            "Temperature [°C]",
            "inferno",
            temperature_limits(units),
            bands,
        )
        heat_ax.set_title("Temperature (gravity acts downward in the picture)", fontsize=8)
    box = _details_image("Details (end of run)", _flow_rows(run, units, disclosure), 4.8, height)
    fig.tight_layout()
    moving = [image, ax.title] + ([hot] if hot is not None else [])
    for artist in moving:
        artist.set_animated(True)  # type: ignore[attr-defined]
    fig.canvas.draw()  # the axes, ticks and colour bars, once
    background = fig.canvas.copy_from_bbox(fig.bbox)  # type: ignore[attr-defined]
    frames = []
    for step, speed, heat in run.frames:
        image.set_data(np.ma.masked_array(speed * units.velocity, mask=run.solid))  # type: ignore[attr-defined]
        if hot is not None:
            hot.set_data(np.ma.masked_array(units.temperature(heat), mask=run.solid))  # type: ignore[attr-defined]
        ax.set_title(f"{units.title}: {units.step_label(step)}", fontsize=8)
        fig.canvas.restore_region(background)  # type: ignore[attr-defined]
        for artist in moving:
            artist.axes.draw_artist(artist)  # type: ignore[attr-defined]
        frames.append(_beside(Image.fromarray(np.asarray(fig.canvas.buffer_rgba())).convert("RGB"), box))
    return _gif(frames)
