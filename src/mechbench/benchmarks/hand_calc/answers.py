"""Reading a reply: one line per quantity, ``key = number unit``, the unit parsed and converted by pint; each
quantity judged within the tolerance. Nothing is guessed: a missing line, a missing or wrong-dimension unit or an
unreadable number scores that quantity 0 with its reason."""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

from mechbench.harness.replies import split_reply

from .items import Quantity
from .protocol import TOLERANCE

_LINE = re.compile(
    r"^\s*[*`_]*(?P<key>[A-Za-z][A-Za-z0-9_]{0,23})[*`_]*\s*[=:]\s*[*`]*"
    r"(?P<number>[-+−]?(?:\d+(?:[.,]\d+)?|\.\d+)(?:\s*[eE][-+−]?\d{1,3}|\s*[×x]\s*10\^?[-+−]?\d{1,3})?)\s*"
    r"(?P<unit>[^\n]{0,24}?)[*`.\s]*$"
)
_UNIT_TEXT = re.compile(r"^[A-Za-zµμ°·*/^ ²³0-9.\-]{1,24}$")
SPELLED = {"·": "*", "²": "**2", "³": "**3", "µ": "u", "μ": "u", "°": "deg", "^": "**"}


@functools.lru_cache(maxsize=1)
def registry():  # type: ignore[no-untyped-def]  # pint's registry type is generic
    """pint's unit registry (built once: it reads its definitions file)."""
    import pint

    return pint.UnitRegistry()


@dataclass(frozen=True)
class Judged:
    """One quantity's verdict: the value read (in the quantity's unit), right or not, and why."""

    key: str
    value: float | None
    correct: bool
    reason: str


def _number(text: str) -> float:
    text = text.replace("−", "-").replace(" ", "")
    if "×10" in text or "x10" in text:
        mantissa, exponent = re.split(r"[×x]10\^?", text)
        return float(mantissa.replace(",", ".")) * 10 ** int(exponent)
    return float(text.replace(",", "."))


def _converted(value: float, unit_text: str, unit: str) -> tuple[float | None, str]:
    unit_text = unit_text.strip()
    if not unit_text:
        return None, "no unit"
    if not _UNIT_TEXT.match(unit_text):
        return None, f"unit {unit_text!r} not recognised"
    spelled = unit_text
    for old, new in SPELLED.items():
        spelled = spelled.replace(old, new)
    spelled = re.sub(r"(?<=[A-Za-z])\s+(?=[A-Za-z])", "*", spelled.strip())  # "kN m" is kN·m
    ureg = registry()
    try:
        given = ureg.Unit(spelled)
        wanted = ureg.Unit(unit)
        return float(ureg.Quantity(value, given).to(wanted).magnitude), "ok"
    except Exception as error:  # pint's parse and dimensionality errors have no common base worth naming
        kind = "wrong dimension" if type(error).__name__ == "DimensionalityError" else "unit not recognised"
        return None, f"{kind}: {unit_text!r} is not {unit.replace('*', '·')}"


def read_lines(reply: str) -> dict[str, tuple[str, str]]:
    """Each ``key = number unit`` line of the reply's answer (reasoning blocks removed; the last line of a key
    counts), as (number text, unit text)."""
    found: dict[str, tuple[str, str]] = {}
    for line in split_reply(reply).answer.splitlines():
        match = _LINE.match(line)
        if match:
            found[match["key"]] = (match["number"], match["unit"])
    return found


def judge(reply: str, quantities: list[Quantity]) -> list[Judged]:
    """Every quantity's verdict on ``reply``."""
    lines = read_lines(reply)
    verdicts = []
    for q in quantities:
        if q.key not in lines:
            verdicts.append(Judged(q.key, None, False, f"no line '{q.key} = <number> <unit>'"))
            continue
        number_text, unit_text = lines[q.key]
        try:
            number = _number(number_text)
        except ValueError:
            verdicts.append(Judged(q.key, None, False, f"unreadable number {number_text!r}"))
            continue
        value, why = _converted(number, unit_text, q.unit)
        if value is None or not math.isfinite(value):
            verdicts.append(Judged(q.key, None, False, why))
            continue
        ok = abs(value - q.truth) <= max(TOLERANCE * abs(q.truth), q.floor)
        verdicts.append(Judged(q.key, value, ok, "ok" if ok else f"{value:.4g} against {q.truth:.4g}"))
    return verdicts
