"""The benchmark's items: a simply supported beam (span, section, load), its truth from mechbench's frame solver,
and the prompt a model reads. One place for every protocol constant."""

from __future__ import annotations

import json
import random
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from mechbench.core.errors import DataSourceError
from mechbench.core.limits import MAX_RECORDS_PER_FILE, check_count
from mechbench.frame import solve
from mechbench.registry import Cluster
from mechbench.sources.root import DataRoot

BENCHMARK = "beam_deflection"
"""The benchmark's name: its folder, its task function, its commands and its built-in models' entries."""
ITEMS_FILE = "items.jsonl"
TOLERANCE = 0.02
"""Relative tolerance of an answer (the solver is exact to round-off; 2 % allows a rounded hand calculation)."""
SEGMENTS = 2
"""Members the beam is modelled with (a node at midspan, where the deflection is read)."""
ANSWER_MARK = "Answer:"
STRUCTURE = "A simply supported beam (pin at the left end, roller at the right end)"
"""How every prompt opens: the built-in models recognise this benchmark's prompts by it (``baselines.py``)."""
LEFT_SUPPORT = "pin"
"""The frame solver's support at the left end (the right end is a roller)."""
CLUSTER = Cluster("beam", "beam")
"""Each beam is asked once: its own cluster (intervals over clusters are then over beams)."""


class Item(BaseModel):
    """One beam: span in m, bending stiffness EI in kN·m², and a point load at midspan or a uniform load."""

    id: str
    span: float = Field(gt=0, le=100)
    ei: float = Field(gt=0)
    load: str = Field(pattern="^(point|uniform)$")
    value: float = Field(gt=0)
    """kN for a point load, kN/m for a uniform load."""


def inputs(item: Item) -> dict[str, float | str]:
    """What the prompt states, as data: the first user message's metadata, which the built-in models read
    (``baselines.py``) instead of parsing the prompt's words. Never the truth: a built-in model must not see it."""
    return {"span": item.span, "ei": item.ei, "load": item.load, "value": item.value}


def prompt(item: Item) -> str:
    """What the model reads."""
    load = (
        f"a point load of {item.value:g} kN at midspan"
        if item.load == "point"
        else f"a uniformly distributed load of {item.value:g} kN/m over its whole span"
    )
    return (
        f"{STRUCTURE} of span {item.span:g} m and "
        f"bending stiffness EI = {item.ei:g} kN·m² carries {load}. Neglect shear and axial deformation. What is the "
        f"vertical deflection at midspan, in mm (downward positive)? End your reply with a line '{ANSWER_MARK} "
        "<number>'."
    )


def truth_mm(item: Item) -> float:
    """The midspan deflection in mm, from mechbench's frame solver."""
    half = item.span / 2
    model = {
        "points": [{"id": f"P{k}", "x": k * half, "y": 0} for k in range(SEGMENTS + 1)],
        "links": [
            {"id": f"L{k}", "a": f"P{k}", "b": f"P{k + 1}", "E": item.ei, "Iz": 1.0, "A": 1e6} for k in range(SEGMENTS)
        ],
        "supports": [
            {"id": "S1", "at": {"type": "point", "id": "P0"}, "kind": LEFT_SUPPORT, "angleDeg": 0},
            {"id": "S2", "at": {"type": "point", "id": f"P{SEGMENTS}"}, "kind": "roller", "angleDeg": 0},
        ],
        "loads": [
            {"id": "F", "kind": "pointLoad", "at": {"type": "point", "id": "P1"}, "value": item.value, "angleDeg": 270}
        ]
        if item.load == "point"
        else [
            {
                "id": f"W{k}",
                "kind": "distributedLoad",
                "at": {"type": "link", "id": f"L{k}"},
                "wStart": item.value,
                "wEnd": item.value,
                "angleDeg": 270,
            }
            for k in range(SEGMENTS)
        ],
    }
    result = solve(model, diagrams=False, exact_supports=True)
    middle = next(d for d in result["displacements"] if d["pointId"] == "P1")
    return -middle["uy"] * 1000


def _field_errors(error: ValidationError) -> str:
    """Each invalid field of a line by name, with what pydantic expected of it."""
    return "; ".join(
        f"field '{'.'.join(str(part) for part in e['loc']) or '(the line)'}': {e['msg']}" for e in error.errors()
    )


def read_items(root: DataRoot) -> list[Item]:
    """Every item of the data's ``items.jsonl``; a malformed line is one error naming the line, each invalid field
    and the fix."""
    path = root.find(ITEMS_FILE)
    lines = [line for line in root.read_text(path).splitlines() if line.strip()]
    check_count(len(lines), MAX_RECORDS_PER_FILE, "items", ITEMS_FILE)
    items = []
    for number, line in enumerate(lines, start=1):
        try:
            items.append(Item.model_validate_json(line))
        except ValidationError as error:
            raise DataSourceError(
                f"{ITEMS_FILE} line {number}: {_field_errors(error)}; correct the line, or write a fresh set with "
                f"`mechbench generate {BENCHMARK} -o FOLDER`"
            ) from None
    if not items:
        raise DataSourceError(
            f"{ITEMS_FILE} holds no items: write a set with `mechbench generate {BENCHMARK} -o FOLDER`"
        )
    return items


def write_items(out: Path, n: int, seed: int) -> Path:
    """``n`` fresh items (same seed, same bytes) in ``out/items.jsonl``."""
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for k in range(n):
        item = Item(
            id=f"beam-{k:03d}",
            span=rng.choice([3, 4, 5, 6, 8, 10]),
            ei=rng.choice([5000, 10000, 20000, 40000]),
            load=rng.choice(["point", "uniform"]),
            value=rng.choice([5, 10, 20, 40]),
        )
        lines.append(json.dumps(item.model_dump()))
    path = out / ITEMS_FILE
    path.write_text("\n".join(lines) + "\n")
    return path
