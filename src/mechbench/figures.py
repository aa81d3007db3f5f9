"""Report figures as PNG bytes: a matplotlib figure saved the same way everywhere, images placed side by side.

Shared by the benchmarks' report parts (each benchmark draws its own figures) and the report writer.
"""

from __future__ import annotations

from io import BytesIO
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MAX_SIDE_BY_SIDE = (1800, 900)
"""Largest size, in pixels, of images placed side by side (a report stays small)."""


def png(figure: Figure) -> bytes:
    """The figure as PNG bytes (100 dpi, tight, no software stamp so the bytes depend only on the drawing)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure)
    buffer = BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    return buffer.getvalue()


def side_by_side(images: list[bytes]) -> bytes:
    """PNG images placed left to right on white, scaled down to :data:`MAX_SIDE_BY_SIDE`."""
    from PIL import Image

    pictures = [Image.open(BytesIO(b)).convert("RGB") for b in images]
    height = max(p.height for p in pictures)
    canvas = Image.new("RGB", (sum(p.width for p in pictures), height), "white")
    x = 0
    for picture in pictures:
        canvas.paste(picture, (x, 0))
        x += picture.width
    buffer = BytesIO()
    canvas.thumbnail(MAX_SIDE_BY_SIDE)
    canvas.save(buffer, format="PNG")
    return buffer.getvalue()
