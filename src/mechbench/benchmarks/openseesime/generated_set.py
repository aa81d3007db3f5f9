"""An OpenSeeSimE-format set written from a SeeSim set mechbench generated: the same simulations and computed facts,
asked as multiple-choice questions in the publisher's parquet schema.

Every answered question of a generated SeeSim file (``generated.json``: the answer, the deciding value and
threshold, where a reader sees it) becomes one row whose media is the picture the evidence is visible in: the
still image of odd-numbered simulations and the video of even-numbered ones where both show it. A fact seen only
in the text report is not asked, since an OpenSeeSimE model sees media alone. The choices are the publisher's
binary pair, ``Yes`` and ``No``.

``-T data=bundled`` builds this set once from mechbench's bundled SeeSim simulations into the cache (the shards
depend only on those files and :data:`WRITER_VERSION`), so the package ships no second copy of the media.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from mechbench.benchmarks.openseesime.dataset import parquet_schema
from mechbench.benchmarks.seesim.protocol import FLUID_FILE_OFFSET
from mechbench.core.errors import DataSourceError
from mechbench.core.paths import default_cache
from mechbench.sources.resolve import bundled

WRITER_VERSION = "1"
"""Bumped whenever the same SeeSim set would give different rows."""
DOMAINS = ("structural", "fluid")
CHOICES = ["Yes", "No"]
SHARD = "test-00000-of-00001.parquet"
QUESTION_TYPES = {True: "threshold", False: "set-up"}
"""A value read against a threshold, or a property of the set-up read off the details box."""


def _media_kind(shown_in: list[str], prefer_video: bool) -> str | None:
    """Where a model sees the evidence: the image or the video (the preferred one when both show it); None when
    only the text report does."""
    places = {entry.split(":", 1)[0] for entry in shown_in}
    if "video" in places and (prefer_video or "image" not in places):
        return "video"
    return "image" if "image" in places else None


def rows(seesim_root: Path, domain: str) -> list[dict[str, Any]]:
    """The OpenSeeSimE rows of one domain of a generated SeeSim set (``generated.json`` beside its data)."""
    manifest = json.loads((seesim_root / "generated.json").read_text(encoding="utf-8"))
    qa = json.loads((seesim_root / "benchmark" / "qa-benchmark-with-qids.json").read_text(encoding="utf-8"))
    wording = {q["qid"]: q["question"] for q in qa[domain]["questions"]}
    order = list(wording)
    out: list[dict[str, Any]] = []
    for key, entry in sorted(manifest["files"].items(), key=lambda item: int(item[0].rsplit("_", 1)[1])):
        file_domain, question_key = key.split("/")
        if file_domain != domain:
            continue
        index = int(question_key.rsplit("_", 1)[1]) - (FLUID_FILE_OFFSET if domain == "fluid" else 0)
        data_name = f"File_{index}"
        for qid in sorted(entry["answers"], key=order.index):
            evidence = entry["evidence"][qid]
            kind = _media_kind(evidence["shown_in"], prefer_video=index % 2 == 0)
            if kind is None:
                continue
            suffix, folder = (".png", "images") if kind == "image" else (".gif", "videos")
            media = {"bytes": (seesim_root / "data" / domain / folder / f"{data_name}{suffix}").read_bytes(),
                     "path": f"{data_name}{suffix}"}  # fmt: skip
            correct = 0 if entry["answers"][qid] else 1
            out.append(
                {
                    "file_name": f"{data_name}{suffix}",
                    "source_file": f"{domain}/{data_name}",
                    "question": wording[qid],
                    "question_type": QUESTION_TYPES[evidence.get("threshold") is not None],
                    "question_id": len(out),
                    "answer": CHOICES[correct],
                    "answer_choices": CHOICES,
                    "correct_choice_idx": correct,
                    "image": media if kind == "image" else None,
                    "video": media if kind == "video" else None,
                    "media_type": kind,
                }
            )
    return out


def write_openseesime(seesim_root: Path, out: Path) -> dict[str, int]:
    """``out/{structural,fluid}/data/test-00000-of-00001.parquet`` from a generated SeeSim set; rows per domain."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not (seesim_root / "generated.json").is_file():
        raise DataSourceError(f"{seesim_root} is not a SeeSim set mechbench generated (no generated.json)")
    counts = {}
    for domain in DOMAINS:
        table = pa.Table.from_pylist(rows(seesim_root, domain), schema=parquet_schema())
        (out / domain / "data").mkdir(parents=True, exist_ok=True)
        # No statistics or creator stamp beyond pyarrow's own: the same set gives the same shard on this install.
        pq.write_table(table, out / domain / "data" / SHARD, row_group_size=32)
        counts[domain] = table.num_rows
    return counts


@functools.cache
def _bundled_digest() -> str:
    """What the bundled shards depend on: the bundled SeeSim files and the writer (read once per process)."""
    seesim_root = bundled("seesim")
    digest = hashlib.sha256(WRITER_VERSION.encode())
    for path in sorted(p for p in seesim_root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(seesim_root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def bundled_set(domain: str) -> Path:
    """The folder of ``domain``'s shards written from the bundled SeeSim set (built into the cache on first use)."""
    seesim_root = bundled("seesim")
    root = default_cache() / "openseesime-bundled" / _bundled_digest()
    if not (root / "done").is_file():
        building = root.with_name(root.name + ".part")
        shutil.rmtree(building, ignore_errors=True)
        write_openseesime(seesim_root, building)
        (building / "done").write_text("")
        shutil.rmtree(root, ignore_errors=True)
        building.replace(root)
    return root / domain
