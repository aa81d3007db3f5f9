"""HandCalc's items: what is asked (each quantity with its unit, sign convention and truth), the structure or the
data behind it, and reading and writing a set."""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, Field

from mechbench.core.errors import DataSourceError
from mechbench.core.limits import MAX_RECORDS_PER_FILE, check_count
from mechbench.sources.root import DataRoot

from .protocol import ASKED_SHARE, FLOOR_SHARE, ITEMS_FILE, LEVELS

Family = Literal[
    "reactions",
    "truss",
    "moment",
    "deflection",
    "axial",
    "buckling",
    "stress",
    "continuous",
    "plastic",
    "vibration",
    "moving_load",
    "stability",
]
UNITS = ("kN", "kN*m", "mm", "MPa", "degree", "Hz")
"""The units truths are kept in (each answer is converted to its quantity's)."""


class Quantity(BaseModel):
    """One number asked: the label its answer line starts with, what it is (with its sign convention), its unit,
    its truth and the absolute floor of its tolerance."""

    key: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]{0,23}$")
    asks: str = Field(min_length=3, max_length=300)
    unit: Literal["kN", "kN*m", "mm", "MPa", "degree", "Hz"]
    truth: float
    floor: float = Field(ge=0)
    kind: Literal["force", "moment", "deflection", "stress", "angle", "frequency"]


class Item(BaseModel):
    """One problem: its family and level, the text statement (everything needed, without the figure), the words
    shown with the drawing (what the drawing cannot say), the quantities asked and what a drawing is made from."""

    id: str = Field(pattern=r"^[a-z]+-[0-9]{3,5}$")
    family: Family
    level: int = Field(ge=min(LEVELS), le=max(LEVELS))
    statement: str = Field(min_length=10, max_length=6000)
    with_drawing: str = Field(max_length=1000)
    quantities: list[Quantity] = Field(min_length=1, max_length=3)
    structure: dict[str, Any] | None = None
    """The FrameCalc model drawn (and solved, for the families the frame solver answers)."""
    element: dict[str, float] | None = None
    """A plane stress element's σx, σy, τxy (MPa), drawn as a square."""
    title: str = Field(default="", max_length=300)
    """The data the drawing writes above the structure (section, material, temperature change)."""
    inputs: dict[str, float] = Field(default_factory=dict)
    """The problem's inputs a textbook formula reads (largest load, span, EI, …): what the shortcut panel answers
    from."""


def quantity(key: str, asks: str, unit: str, truth: float, kind: str) -> Quantity:
    """A quantity with its floor still to be set by :func:`with_floors`."""
    return Quantity(key=key, asks=asks, unit=unit, truth=float(truth), floor=0.0, kind=kind)  # type: ignore[arg-type]


def with_floors(quantities: list[Quantity]) -> list[Quantity]:
    """Each quantity's floor: :data:`FLOOR_SHARE` of the largest truth of its unit in the item."""
    largest: dict[str, float] = {}
    for q in quantities:
        largest[q.unit] = max(largest.get(q.unit, 0.0), abs(q.truth))
    return [q.model_copy(update={"floor": FLOOR_SHARE * largest[q.unit]}) for q in quantities]


def worth_asking(value: float, scale: float) -> bool:
    """A candidate quantity is asked only when it is clear of zero on the item's scale (:data:`ASKED_SHARE`)."""
    return math.isfinite(value) and abs(value) >= ASKED_SHARE * scale


def read_items(root: DataRoot) -> list[Item]:
    """Every item of the set's ``items.jsonl``; a malformed line is one error naming it."""
    path = root.find(ITEMS_FILE)
    lines = [line for line in root.read_text(path).splitlines() if line.strip()]
    check_count(len(lines), MAX_RECORDS_PER_FILE, "items", ITEMS_FILE)
    items = []
    for number, line in enumerate(lines, start=1):
        try:
            items.append(Item.model_validate_json(line))
        except ValueError as error:
            raise DataSourceError(
                f"{ITEMS_FILE} line {number}: not a hand-calculation item ({str(error).splitlines()[0]})"
            ) from None
    if not items:
        raise DataSourceError(f"{ITEMS_FILE} holds no items")
    if len({i.id for i in items}) != len(items):
        raise DataSourceError(f"{ITEMS_FILE} repeats an item id")
    return items
