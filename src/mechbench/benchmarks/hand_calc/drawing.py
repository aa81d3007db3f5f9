"""Each item's drawing: mechbench's structure renderer (dimensions, supports and loads labelled, the item's data in
the title), or a plane stress element with its stresses drawn on its faces."""

from __future__ import annotations

from io import BytesIO

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Rectangle

from mechbench.frame.render import render

from .items import Item
from .statement import number

DPI = 110
SOLVER_DATA = ("E", "A", "Iz", "density")
"""Member fields the solver reads and the drawing leaves out."""
ARROW = {"arrowstyle": "-|>", "mutation_scale": 16, "linewidth": 1.8, "color": "#c0392b"}


def _element(sx: float, sy: float, txy: float) -> bytes:
    """A square element: normal stresses as arrows out of (tension) or into (compression) each face, shear along
    the faces in the sense it acts, each labelled with its magnitude."""
    figure = Figure(figsize=(5.2, 5.2))
    FigureCanvasAgg(figure)
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(-3, 3)
    ax.set_ylim(-3, 3)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((-1, -1), 2, 2, facecolor="#eef2f7", edgecolor="#111111", linewidth=2))
    ax.annotate("", xy=(2.7, -2.6), xytext=(1.9, -2.6), arrowprops={"arrowstyle": "->", "color": "#555555"})
    ax.annotate("", xy=(1.9, -1.8), xytext=(1.9, -2.6), arrowprops={"arrowstyle": "->", "color": "#555555"})
    ax.text(2.75, -2.6, "x", va="center", color="#555555")
    ax.text(1.9, -1.7, "y", ha="center", color="#555555")
    for sign in (1, -1):
        if sx:  # on the ±x faces, pointing outward when in tension
            start, end = (sign * 1.35, 0.0), (sign * 2.25, 0.0)
            tail, tip = (start, end) if sx > 0 else (end, start)
            ax.add_patch(FancyArrowPatch(tail, tip, **ARROW))
        if sy:
            start, end = (0.0, sign * 1.35), (0.0, sign * 2.25)
            tail, tip = (start, end) if sy > 0 else (end, start)
            ax.add_patch(FancyArrowPatch(tail, tip, **ARROW))
        if txy:  # on the +x face shear acts in +y when positive, on the −x face in −y; likewise on the y faces
            d = sign * (1 if txy > 0 else -1)
            ax.add_patch(FancyArrowPatch((sign * 1.15, -0.7 * d), (sign * 1.15, 0.7 * d), **ARROW))
            ax.add_patch(FancyArrowPatch((-0.7 * d, sign * 1.15), (0.7 * d, sign * 1.15), **ARROW))
    if sx:
        ax.text(2.3, 0.12, f"{number(abs(sx))} MPa", ha="left", va="bottom", fontsize=11)
    if sy:
        ax.text(0.12, 2.3, f"{number(abs(sy))} MPa", ha="left", va="bottom", fontsize=11)
    if txy:
        ax.text(1.3, 0.8, f"{number(abs(txy))} MPa", ha="left", va="bottom", fontsize=11)
    ax.text(0, -2.9, "plane stress element (MPa); arrows show the sense each stress acts in", ha="center", fontsize=9)
    buffer = BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()


def drawing(item: Item) -> bytes:
    """The PNG the drawing presentation shows."""
    if item.element is not None:
        return _element(item.element["sx"], item.element["sy"], item.element["txy"])
    assert item.structure is not None
    # The members' section data stay out of the figure: what matters of them is said in words (EI, "axial
    # deformation neglected") in the title and the prompt, not as the solver's numbers.
    shown = {**item.structure, "links": [{k: v for k, v in link.items() if k not in SOLVER_DATA} for link in
                                         item.structure["links"]]}  # fmt: skip
    return render(shown, title=item.title or None, dpi=DPI)
