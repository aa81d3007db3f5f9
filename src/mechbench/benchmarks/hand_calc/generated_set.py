"""Writing a fresh HandCalc set: ``items.jsonl`` (same seed, same bytes on any machine) and each item's drawing."""

from __future__ import annotations

import json
import random
from pathlib import Path

from mechbench.core.executor import run_batch
from mechbench.core.precision import rounded

from .catalogue import LEVELED, families_at
from .drawing import drawing
from .families import FAMILIES
from .items import Item
from .protocol import DRAWINGS, ITEMS_FILE

GENERATOR_VERSION = "1"
"""Changes whenever the same seed would give other items."""
ID_PREFIX = "hc"


TRUTH_DIGITS = 10
"""Significant digits of every number an item stores (truths, floors, inputs): far below the 1 % tolerance, far above
the last bits a solve leaves differently on another machine, so a seed writes the same bytes anywhere."""


def item_line(item_json: str) -> str:
    """One line of ``items.jsonl``: the item's JSON with every number at :data:`TRUTH_DIGITS`, keys sorted."""
    return json.dumps(rounded(json.loads(item_json), TRUTH_DIGITS), ensure_ascii=False, sort_keys=True)


def make_item(seed: int, index: int, difficulty: int | None = None) -> Item:
    """Item ``index`` of the set of ``seed``: families in a seeded rotation (each family equally often), the details
    drawn from the item's own stream. Without ``difficulty`` the textbook mix (each family's levels 1–5, the level
    drawn too); with it, every item at that level, from the families that reach it."""
    if difficulty is None:
        names, stream, table = list(FAMILIES), f"hand_calc:{GENERATOR_VERSION}:{seed}", FAMILIES
    else:
        names, stream, table = families_at(difficulty), f"hand_calc:{GENERATOR_VERSION}:{seed}:L{difficulty}", LEVELED
    order = random.Random(f"{stream}:order").sample(names, len(names))
    family = order[index % len(order)]
    rng = random.Random(f"{stream}:{index}")
    levels, generate = table[family]
    return generate(rng, rng.choice(levels) if difficulty is None else difficulty, f"{ID_PREFIX}-{index:04d}")


def _drawn(job: tuple[int, int, str, int | None]) -> tuple[str, str]:
    seed, index, out, difficulty = job
    item = make_item(seed, index, difficulty)
    (Path(out) / DRAWINGS / f"{item.id}.png").write_bytes(drawing(item))
    return item.id, item.model_dump_json()


def write_items(out: Path, n: int, seed: int, workers: int = 2, difficulty: int | None = None) -> Path:
    """``n`` fresh items and their drawings under ``out`` (all at ``difficulty``, or the textbook mix); returns the
    items file."""
    (out / DRAWINGS).mkdir(parents=True, exist_ok=True)
    jobs = [(seed, k, str(out), difficulty) for k in range(n)]
    done = run_batch(_drawn, jobs, workers=workers, chunk_size=25) if workers > 1 else [_drawn(j) for j in jobs]
    lines = [
        json.dumps(rounded(json.loads(text), TRUTH_DIGITS), ensure_ascii=False, sort_keys=True) for _, text in done
    ]
    path = out / ITEMS_FILE
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
