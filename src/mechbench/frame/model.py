"""Pydantic schema of the FrameCalc structural model format.

The format, its conventions and the solver's sign rules are described in the repository's
``docs/framecalc-format.md``. The schema accepts what real model replies contain where the meaning is unambiguous
(numbers written as strings, ``"offsetMode": "length"``, missing optional fields, a support or load
target given as a bare point id) and rejects everything else with a :class:`ModelFormatError` that
names the element and the problem.

Kept as one module (~460 lines): the FrameCalc schema and every validation message are read together when
the format changes (``docs/framecalc-format.md``); each element's checks are short.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from mechbench.core.errors import ModelFormatError, ModelTooLargeError

# Section defaults: a solid round steel-like bar 100 mm in diameter, in kN and m, as the benchmark's
# prompt gives them (E = 80 918 000 kN/m², A = π·0.05², Iz = π·0.05⁴/4).
DEFAULT_E = 80_918_000.0
DEFAULT_A = 0.007853981633974483
DEFAULT_IZ = 4.908738521234054e-06
DEFAULT_DENSITY = 7850.0

# Size limits, about ten times the largest published task (StructuralEval: 19 points, 36 links, 4 supports,
# 6 loads). They bound the judge's cost per reply: a reply at every limit at once is scored in about a second
# (benchmarks/structural_worst_case.py), where the earlier 1000/2000 limits allowed replies costing minutes
# and a gigabyte, stalling every other sample.
MAX_POINTS = 200
MAX_LINKS = 400
MAX_SUPPORTS = 100
MAX_LOADS = 400
# Coordinates and load values beyond these magnitudes are not engineering drawings and would
# overflow the stiffness arithmetic.
MAX_COORDINATE = 1e6
MAX_LOAD_VALUE = 1e12
MAX_SECTION_VALUE = 1e15


def _finite(value: float, what: str, limit: float) -> float:
    if not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number, got {value}")
    if abs(value) > limit:
        raise ValueError(f"{what} must be at most {limit:g} in magnitude, got {value:g}")
    return value


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _target(value: Any) -> Any:
    # A bare id ("P1") is read as a point target: unambiguous for supports, and the only reading
    # that makes sense for a point load written without the object.
    if isinstance(value, str | int):
        return {"type": "point", "id": str(value)}
    return value


_END_ALIASES = {
    "rigid": "rigid",
    "fixed": "rigid",
    "continuous": "rigid",
    "hinge": "hinge",
    "hinged": "hinge",
    "pin": "hinge",
    "pinned": "hinge",
    "released": "hinge",
}
_SUPPORT_ALIASES = {
    "fixed": "fixed",
    "clamped": "fixed",
    "pin": "pin",
    "pinned": "pin",
    "roller": "roller",
    "slider": "slider",
}


def _end(value: Any) -> Any:
    value = _lower(value)
    return _END_ALIASES.get(value, value) if isinstance(value, str) else value


def _support_kind(value: Any) -> Any:
    value = _lower(value)
    return _SUPPORT_ALIASES.get(value, value) if isinstance(value, str) else value


def _flip(value: Any) -> Any:
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return value
    if number in (1.0, -1.0):
        return int(number)
    raise ValueError(f"flip must be 1 or -1, got {value!r}")


EndKind = Annotated[Literal["rigid", "hinge"], BeforeValidator(_end)]
SupportKind = Annotated[Literal["fixed", "pin", "roller", "slider"], BeforeValidator(_support_kind)]
Flip = Annotated[Literal[1, -1], BeforeValidator(_flip)]


class _Element(BaseModel):
    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True, frozen=True)


class Point(_Element):
    """A node of the structure, in metres."""

    id: str
    x: float
    """Horizontal coordinate (m), x to the right."""
    y: float
    """Vertical coordinate (m), y up."""

    @field_validator("x", "y")
    @classmethod
    def _check_coordinate(cls, value: float, info: Any) -> float:
        return _finite(value, info.field_name, MAX_COORDINATE)


class Link(_Element):
    """A straight prismatic member from point ``a`` (end A) to point ``b`` (end B)."""

    id: str
    a: str
    b: str
    E: float = DEFAULT_E
    """Young's modulus (kN/m²)."""
    A: float = DEFAULT_A
    """Cross-section area (m²)."""
    Iz: float = DEFAULT_IZ
    """Second moment of area for in-plane bending (m⁴)."""
    density: float = DEFAULT_DENSITY
    """Mass density; FrameCalc ignores it (no self-weight)."""
    endA: EndKind = "rigid"
    """Connection at end A: ``rigid`` or ``hinge`` (moment released at that end of this link)."""
    endB: EndKind = "rigid"
    """Connection at end B."""

    @field_validator("E", "A", "Iz")
    @classmethod
    def _check_section(cls, value: float, info: Any) -> float:
        _finite(value, info.field_name, MAX_SECTION_VALUE)
        if value <= 0:
            raise ValueError(f"{info.field_name} must be positive, got {value:g}")
        return value


class Target(_Element):
    """What a support or load is attached to."""

    type: Annotated[Literal["point", "link"], BeforeValidator(_lower)]
    id: str


class Support(_Element):
    """A support at a point; ``angleDeg`` orients rollers and sliders (CCW from world +x)."""

    id: str
    at: Annotated[Target, BeforeValidator(_target)]
    kind: SupportKind
    angleDeg: float = 0.0

    @field_validator("angleDeg")
    @classmethod
    def _check_angle(cls, value: float) -> float:
        return _finite(value, "angleDeg", 1e6)


class _Positioned(_Element):
    """Fields placing a load along a link (ignored for loads on points)."""

    offsetMode: str | None = None
    """``percent`` reads ``offsetPercent``; any other value reads ``offset`` in metres."""
    offset: float | None = None
    offsetPercent: float | None = None
    refEnd: Annotated[Literal["A", "B"], BeforeValidator(lambda v: v.strip().upper() if isinstance(v, str) else v)] = (
        "A"
    )

    @field_validator("offset", "offsetPercent")
    @classmethod
    def _check_offset(cls, value: float | None, info: Any) -> float | None:
        return None if value is None else _finite(value, info.field_name, MAX_COORDINATE * 100)

    def position_from_a(self, length: float) -> float | None:
        """Distance from end A (m) of a link of ``length``; None when no position is given."""
        use_percent = self.offsetMode is not None and self.offsetMode.strip().lower() == "percent"
        if use_percent:
            if self.offsetPercent is None:
                return None
            distance = self.offsetPercent / 100.0 * length
        elif self.offset is not None:
            distance = self.offset
        elif self.offsetPercent is not None:
            # Only the percentage was written: that is the only position the load has.
            distance = self.offsetPercent / 100.0 * length
        else:
            return None
        return distance if self.refEnd == "A" else length - distance


class _Directed(_Element):
    angleDeg: float
    """Direction of the force (degrees, CCW from world +x, or from the link axis when relative)."""
    angleMode: Annotated[str, BeforeValidator(_lower)] = "world"
    """``relative`` measures ``angleDeg`` from the link's A→B axis (loads on links only)."""

    @field_validator("angleDeg")
    @classmethod
    def _check_angle(cls, value: float) -> float:
        return _finite(value, "angleDeg", 1e6)


class _Concentrated(_Positioned):
    """A load acting at one place: a point, or a position along a link."""

    id: str
    at: Annotated[Target, BeforeValidator(_target)]
    value: float
    flip: Flip = 1

    @field_validator("value")
    @classmethod
    def _check_value(cls, value: float) -> float:
        return _finite(value, "value", MAX_LOAD_VALUE)


class PointLoad(_Concentrated, _Directed):
    """A concentrated force of ``value`` × ``flip`` kN."""

    kind: Literal["pointLoad"]


class BendingMoment(_Concentrated):
    """A concentrated moment of ``value`` × ``flip`` kN·m, positive counter-clockwise."""

    kind: Literal["bendingMoment"]


class DistributedLoad(_Directed):
    """A line load from ``fromStart`` (from A) to ``L - fromEnd``, varying linearly wStart → wEnd (kN/m)."""

    id: str
    kind: Literal["distributedLoad"]
    at: Target
    wStart: float
    wEnd: float
    fromStart: float = 0.0
    fromEnd: float = 0.0
    flip: Flip = 1

    @model_validator(mode="before")
    @classmethod
    def _uniform_shorthand(cls, data: Any) -> Any:
        # A single intensity ("w" or only one of wStart/wEnd) means a uniform load.
        if isinstance(data, dict):
            data = dict(data)
            if "wStart" not in data and "wEnd" not in data and "w" in data:
                data["wStart"] = data["wEnd"] = data["w"]
            elif "wStart" in data and "wEnd" not in data:
                data["wEnd"] = data["wStart"]
            elif "wEnd" in data and "wStart" not in data:
                data["wStart"] = data["wEnd"]
        return data

    @field_validator("wStart", "wEnd", "fromStart", "fromEnd")
    @classmethod
    def _check_numbers(cls, value: float, info: Any) -> float:
        return _finite(value, info.field_name, MAX_LOAD_VALUE)


Load = Annotated[PointLoad | BendingMoment | DistributedLoad, Field(discriminator="kind")]

_ARRAY_NOUNS = {"points": "point", "links": "link", "supports": "support", "loads": "load"}
_LIMITS = {"points": MAX_POINTS, "links": MAX_LINKS, "supports": MAX_SUPPORTS, "loads": MAX_LOADS}
_LOAD_KINDS = ("pointLoad", "distributedLoad", "bendingMoment")


class FrameModel(BaseModel):
    """A whole structure in the FrameCalc format: points, links, supports and loads."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    points: list[Point]
    links: list[Link]
    supports: list[Support]
    loads: list[Load] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check_references(self) -> FrameModel:
        problems = reference_problems(self)
        if problems:
            raise ModelFormatError(problems)
        return self

    @classmethod
    def parse(cls, data: Any) -> FrameModel:
        """Validate ``data`` (a dict as read from JSON) into a model, or raise :class:`ModelFormatError`."""
        if isinstance(data, FrameModel):
            return data
        if not isinstance(data, dict):
            raise ModelFormatError(
                f"a model must be a JSON object with points, links, supports and loads; got {type(data).__name__}"
            )
        _check_sizes(data)
        data = _normalise_loads(data)
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            raise ModelFormatError(_describe_validation_error(error, data)) from None
        except UnicodeError:  # a lone surrogate in an id or label (a Python str can hold one, UTF-8 cannot)
            raise ModelFormatError("the model contains text that is not valid Unicode") from None

    def to_json_dict(self) -> dict[str, Any]:
        """The model as a JSON-ready dict in the FrameCalc layout (optional fields written out)."""
        return self.model_dump(mode="json", exclude_none=True)


def _check_sizes(data: dict[str, Any]) -> None:
    for key, limit in _LIMITS.items():
        items = data.get(key)
        if isinstance(items, list) and len(items) > limit:
            raise ModelTooLargeError(
                f"the model has {len(items)} {key}; mechbench solves at most {limit} {key} per model"
            )


def _normalise_loads(data: dict[str, Any]) -> dict[str, Any]:
    # Give the discriminator a clear message for unknown kinds, and accept "PointLoad"-style casing.
    loads = data.get("loads")
    if not isinstance(loads, list):
        return data
    fixed = []
    for load in loads:
        if isinstance(load, dict) and isinstance(load.get("kind"), str):
            match = next((k for k in _LOAD_KINDS if k.lower() == load["kind"].strip().lower()), None)
            if match is not None and match != load["kind"]:
                load = {**load, "kind": match}
        fixed.append(load)
    return {**data, "loads": fixed}


def _describe_validation_error(error: ValidationError, data: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    for item in error.errors():
        original = item.get("ctx", {}).get("error")
        if isinstance(original, ModelFormatError):
            problems.extend(original.problems)
            continue
        loc = list(item["loc"])
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "union_tag_invalid":
            message = f"kind must be one of {', '.join(_LOAD_KINDS)}, got {item['input'].get('kind')!r}"
        elif item["type"] == "union_tag_not_found":
            message = f"kind is missing (one of {', '.join(_LOAD_KINDS)})"
        elif item["type"] == "missing":
            message = "is required"
        # Inside a load the discriminator value appears in the location; drop it.
        if len(loc) >= 3 and loc[0] == "loads" and loc[2] in _LOAD_KINDS:
            del loc[2]
        if not loc:
            problems.append(message)
            continue
        key = loc[0]
        where = str(key)
        rest = loc[1:]
        if key in _ARRAY_NOUNS and rest and isinstance(rest[0], int):
            index = rest[0]
            rest = rest[1:]
            raw = data.get(key)
            raw_item = raw[index] if isinstance(raw, list) and index < len(raw) else None
            name = raw_item.get("id") if isinstance(raw_item, dict) else None
            where = f"{_ARRAY_NOUNS[key]} {name}" if name is not None else f"{_ARRAY_NOUNS[key]} #{index + 1}"
        elif key in _ARRAY_NOUNS and item["type"] in ("missing", "list_type"):
            message = "must be a list" if item["type"] == "list_type" else "is missing (every model needs it)"
        field = ".".join(str(part) for part in rest)
        if not field:
            problems.append(f"{where}: {message}")
        elif message.startswith(f"{field} ") or message == "is required":
            problems.append(f"{where}: {message}" if message != "is required" else f"{where}: {field} is required")
        else:
            problems.append(f"{where}: {field}: {message}")
    return problems


def reference_problems(model: FrameModel) -> list[str]:
    """Cross-reference checks: unique ids, existing targets, non-zero lengths, positions on links."""
    problems: list[str] = []
    for key in ("points", "links", "supports", "loads"):
        seen: set[str] = set()
        for item in getattr(model, key):
            if item.id in seen:
                problems.append(f"{_ARRAY_NOUNS[key]} {item.id}: id is used twice among the {key}")
            seen.add(item.id)
    points = {p.id: p for p in model.points}
    links = {link.id: link for link in model.links}
    lengths: dict[str, float] = {}
    for link in model.links:
        missing = [end for end in (link.a, link.b) if end not in points]
        for end in missing:
            problems.append(f"link {link.id}: point {end} does not exist")
        if missing:
            continue
        if link.a == link.b:
            problems.append(f"link {link.id}: starts and ends at the same point {link.a}")
            continue
        length = math.hypot(points[link.b].x - points[link.a].x, points[link.b].y - points[link.a].y)
        if length < 1e-9:
            problems.append(f"link {link.id}: has zero length (points {link.a} and {link.b} coincide)")
            continue
        lengths[link.id] = length
    for support in model.supports:
        if support.at.type != "point":
            problems.append(f"support {support.id}: must be at a point, not a {support.at.type}")
        elif support.at.id not in points:
            problems.append(f"support {support.id}: point {support.at.id} does not exist")
    for load in model.loads:
        problems.extend(_load_problems(load, points, links, lengths))
    return problems


def _load_problems(load: Any, points: dict, links: dict, lengths: dict[str, float]) -> list[str]:
    where = f"load {load.id}"
    if load.at.type == "point":
        if load.at.id not in points:
            return [f"{where}: point {load.at.id} does not exist"]
        if isinstance(load, DistributedLoad):
            return [f"{where}: a distributedLoad must act on a link, not on point {load.at.id}"]
        return []
    if load.at.id not in links:
        return [f"{where}: link {load.at.id} does not exist"]
    length = lengths.get(load.at.id)
    if length is None:
        return []  # the link itself is already reported
    tolerance = 1e-9 * max(length, 1.0)
    if isinstance(load, DistributedLoad):
        if load.fromStart < -tolerance or load.fromEnd < -tolerance:
            return [f"{where}: fromStart and fromEnd must not be negative"]
        if load.fromStart + load.fromEnd > length - tolerance:
            return [
                f"{where}: fromStart {load.fromStart:g} + fromEnd {load.fromEnd:g} leave nothing of "
                f"link {load.at.id} ({length:g} m) to load"
            ]
        return []
    position = load.position_from_a(length)
    if position is None:
        return [f"{where}: no position on link {load.at.id} (give offset in m or offsetPercent)"]
    if position < -tolerance or position > length + tolerance:
        return [f"{where}: position {position:g} m from end A lies outside link {load.at.id} (0 to {length:g} m)"]
    return []
