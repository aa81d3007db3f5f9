"""What a model reads: the item in words or beside its drawing, the quantities asked and the answer format."""

from __future__ import annotations

from .catalogue import ALL_TOPICS as TOPICS
from .items import Item, Quantity
from .protocol import ANSWER_FORMAT, MARK

UNIT_SHOWN = {"kN": "kN", "kN*m": "kN·m", "mm": "mm", "MPa": "MPa", "degree": "deg", "Hz": "Hz"}


def _asked(quantities: list[Quantity]) -> str:
    lines = ["Find:"]
    lines += [f"{k}. {q.key}: the {q.asks}." for k, q in enumerate(quantities, start=1)]
    lines.append(ANSWER_FORMAT)
    lines += [f"{q.key} = <number> {UNIT_SHOWN[q.unit]}" for q in quantities]
    return "\n".join(lines)


def prompt(item: Item, presentation: str) -> str:
    """The prompt of ``item`` shown as ``drawing`` (the image goes beside it) or ``text``."""
    head = f"{MARK} ({TOPICS[item.family]}). Solve by hand; show your working briefly."
    body = item.statement if presentation == "text" else item.with_drawing
    return f"{head}\n\n{body}\n\n{_asked(item.quantities)}"


def target(item: Item) -> str:
    """A correct reply: every quantity at full precision (what the oracle answers)."""
    return "\n".join(f"{q.key} = {q.truth:.8g} {UNIT_SHOWN[q.unit]}" for q in item.quantities)
