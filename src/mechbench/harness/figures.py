"""Report figures as PNG bytes: a matplotlib figure saved the same way everywhere, images placed side by side.

Shared by the benchmarks' report parts (each benchmark draws its own figures) and the report writer.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from io import BytesIO
from typing import TYPE_CHECKING, TypeVar

from mechbench.core.text import clean

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MAX_SIDE_BY_SIDE = (1800, 900)
"""Largest size, in pixels, of images placed side by side (a report stays small)."""
MAX_LABEL_CHARS = 48
"""Characters of a label drawn in a figure (a model name or a subject label from a log can be any length)."""
MAX_TEXT_CHARS = 200
"""Characters of any text a figure draws (titles included); labels are cut shorter, to :data:`MAX_LABEL_CHARS`."""
MAX_FIGURE_GROUPS = 24
"""Bar groups (models, runs) one figure draws; the tables beside it list them all."""

T = TypeVar("T")


def short(text: object, limit: int = MAX_LABEL_CHARS) -> str:
    """``text`` fit to draw: cleaned (:func:`~mechbench.core.text.clean`: a lone surrogate stops the font renderer) and
    cut to ``limit`` characters, ending in an ellipsis when cut."""
    text = clean(str(text))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def first_groups(items: Sequence[T], what: str) -> tuple[list[T], str]:
    """The first :data:`MAX_FIGURE_GROUPS` of ``items`` and a title suffix saying how many were left out."""
    if len(items) <= MAX_FIGURE_GROUPS:
        return list(items), ""
    return list(items[:MAX_FIGURE_GROUPS]), f" (first {MAX_FIGURE_GROUPS} of {len(items)} {what}; all in the tables)"


def png(figure: Figure) -> bytes:
    """The figure as PNG bytes (100 dpi, tight, no software stamp so the bytes depend only on the drawing)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    FigureCanvasAgg(figure)
    for text in figure.findobj(Text):  # the last guard: one huge or unencodable label must not stop the renderer
        if len(text.get_text()) > MAX_TEXT_CHARS or not text.get_text().isascii():
            text.set_text(short(text.get_text(), MAX_TEXT_CHARS))
    buffer = BytesIO()
    with warnings.catch_warnings():  # a label in a script the font lacks is drawn as boxes, which is fine
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
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
