"""Writing a fresh HandCalc set: ``items.jsonl`` (same seed, same bytes on any machine) and each item's drawing."""

from __future__ import annotations

import json
import random
from pathlib import Path

from mechbench.core.executor import run_batch

from .drawing import drawing
from .families import FAMILIES
from .items import Item
from .protocol import DRAWINGS, ITEMS_FILE

GENERATOR_VERSION = "1"
"""Changes whenever the same seed would give other items."""
ID_PREFIX = "hc"


def make_item(seed: int, index: int) -> Item:
    """Item ``index`` of the set of ``seed``: families in a seeded rotation (each family equally often), the level
    and the details drawn from the item's own stream."""
    names = list(FAMILIES)
    order = random.Random(f"hand_calc:{GENERATOR_VERSION}:{seed}:order").sample(names, len(names))
    family = order[index % len(order)]
    rng = random.Random(f"hand_calc:{GENERATOR_VERSION}:{seed}:{index}")
    levels, generate = FAMILIES[family]
    return generate(rng, rng.choice(levels), f"{ID_PREFIX}-{index:04d}")


def _drawn(job: tuple[int, int, str]) -> tuple[str, str]:
    seed, index, out = job
    item = make_item(seed, index)
    (Path(out) / DRAWINGS / f"{item.id}.png").write_bytes(drawing(item))
    return item.id, item.model_dump_json()


def write_items(out: Path, n: int, seed: int, workers: int = 2) -> Path:
    """``n`` fresh items and their drawings under ``out``; returns the items file."""
    (out / DRAWINGS).mkdir(parents=True, exist_ok=True)
    jobs = [(seed, k, str(out)) for k in range(n)]
    done = run_batch(_drawn, jobs, workers=workers, chunk_size=25) if workers > 1 else [_drawn(j) for j in jobs]
    lines = [json.dumps(json.loads(text), ensure_ascii=False, sort_keys=True) for _, text in done]
    path = out / ITEMS_FILE
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
