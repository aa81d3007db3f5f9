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
_UNIT_TEXT = re.compile(r"^[A-Za-zµμ°·*/^ ²³⁴0-9.\-−]{1,24}$")
_UNIT_NAME = re.compile(r"(?P<name>[A-Za-zµμ°]{1,12})(?:(?:\^|\*\*)(?P<power>[-−]?\d{1,2})|(?P<raised>[²³⁴]))?")
_UNIT_SEPARATOR = re.compile(r"\s*(?P<op>[*·/.])\s*|\s+")
SPELLED = {"µ": "u", "μ": "u", "°": "deg"}
RAISED = {"²": 2, "³": 3, "⁴": 4}
MAX_UNIT_POWER = 6
"""The largest power of one unit factor a reply may write (mm⁶ is a warping constant's): bounded before pint sees
anything, so no reply can make it compute a tower of powers."""
RADIAN = {"rad", "radian", "radians"}
"""An angular frequency's angle: ω in rad/s is 2π times the frequency in Hz."""
ANGLE_PER_TURN = {"rpm", "revolution", "revolutions", "rev", "cycle", "cycles", "turn", "turns", "deg", "degree"}
"""Angles pint would count by the radian (a revolution is 2π to it): refused for a frequency rather than misread."""
MAX_UNIT_FACTORS = 6
"""Unit factors in one answer (kN·m/m² has three)."""


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
    """The number a reply wrote (``4.5``, ``4,5``, ``1.2e3``, ``1.2 × 10^3``); ``inf`` when it is out of float
    range (never an exception: ``10 ** 999`` is never formed)."""
    text = text.replace("−", "-").replace(" ", "")
    scientific = re.fullmatch(r"(?P<mantissa>.+?)[×x]10\^?(?P<exponent>[-+]?\d+)", text)
    if scientific:
        return float(f"{scientific['mantissa'].replace(',', '.')}e{scientific['exponent']}")
    return float(text.replace(",", "."))


def unit_factors(text: str) -> list[tuple[str, int]] | None:
    """A unit as written (``kN·m``, ``N/mm²``, ``kip*ft``, ``kN m``, ``1/s``) as (name, signed power) factors, read
    left to right as pint reads a product; None when it is not one: a factor takes at most one exponent, a
    single-digit superscript or a small integer (:data:`MAX_UNIT_POWER`), and nothing else may follow a name."""
    text = text.strip()
    position, sign, factors = 0, 1, []
    if text.startswith("1/"):
        position, sign = 2, -1
    while True:
        found = _UNIT_NAME.match(text, position)
        if found is None or len(factors) == MAX_UNIT_FACTORS:
            return None
        if found["power"]:
            power = int(found["power"].replace("−", "-"))
        else:
            power = RAISED[found["raised"]] if found["raised"] else 1
        if power == 0 or abs(power) > MAX_UNIT_POWER:
            return None
        name = found["name"]
        for old, new in SPELLED.items():
            name = name.replace(old, new)
        factors.append((name, sign * power))
        position = found.end()
        if position == len(text):
            return factors
        separator = _UNIT_SEPARATOR.match(text, position)
        if separator is None:
            return None
        sign = -1 if separator["op"] == "/" else 1
        position = separator.end()


def _converted(value: float, unit_text: str, unit: str) -> tuple[float | None, str]:
    unit_text = unit_text.strip()
    if not unit_text:
        return None, "no unit"
    factors = unit_factors(unit_text) if _UNIT_TEXT.match(unit_text) else None
    if factors is None:
        return None, f"unit {unit_text!r} not recognised"
    if unit == "Hz":  # pint takes a radian for the number 1: an angular frequency would pass as cycles per second
        names = {name.lower() for name, _ in factors}
        if names & ANGLE_PER_TURN:
            return None, f"unit {unit_text!r} not read for a frequency: give it in Hz, or in rad/s"
        if names & RADIAN:
            value, factors = value / (2 * math.pi), [f for f in factors if f[0].lower() not in RADIAN]
            if not factors:
                return None, f"unit {unit_text!r} not recognised"
    ureg = registry()
    try:
        given = ureg.dimensionless
        for name, power in factors:
            given = given * ureg.Unit(name) ** power
        wanted = ureg.Unit(unit)
        converted = float(ureg.Quantity(value, given).to(wanted).magnitude)
    except Exception as error:  # pint's parse and dimensionality errors have no common base worth naming
        kind = "wrong dimension" if type(error).__name__ == "DimensionalityError" else "unit not recognised"
        return None, f"{kind}: {unit_text!r} is not {unit.replace('*', '·')}"
    if not math.isfinite(converted):
        return None, f"{value:g} {unit_text} is out of float range once converted to {unit.replace('*', '·')}"
    return converted, "ok"


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
        if not math.isfinite(number):
            verdicts.append(Judged(q.key, None, False, f"number {number_text!r} is out of float range"))
            continue
        value, why = _converted(number, unit_text, q.unit)
        if value is None:
            verdicts.append(Judged(q.key, None, False, why))
            continue
        ok = abs(value - q.truth) <= max(TOLERANCE * abs(q.truth), q.floor)
        verdicts.append(Judged(q.key, value, ok, "ok" if ok else f"{value:.4g} against {q.truth:.4g}"))
    return verdicts
