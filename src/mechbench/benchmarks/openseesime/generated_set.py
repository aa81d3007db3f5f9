"""An OpenSeeSimE-format set written from a SeeSim set mechbench generated: the same simulations and computed facts,
asked as multiple-choice questions in the publisher's parquet schema.

Every answered question of a generated SeeSim file (``generated.json``: the answer, the deciding value and
threshold, where a reader sees it) becomes one row whose media is the picture the evidence is visible in: the
still image of odd-numbered simulations and the video of even-numbered ones where both show it. A fact seen only
in the text report is not asked, since an OpenSeeSimE model sees media alone. Yes/No facts are balanced per
question (as many Yes as No) with the correct choice first in half of them; each figure the details box prints (peak
stress, displacement, Reynolds number, …) is also asked as a choice of four ranges, the correct range's position
balanced over the set. No shortcut that does not read the media (first choice, a prior over the questions) beats
chance: one half for Yes/No, one quarter for ranges.

``-T data=bundled`` builds this set once from mechbench's bundled SeeSim simulations into the cache (the shards
depend only on those files and :data:`WRITER_VERSION`), so the package ships no second copy of the media.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import random
import shutil
from pathlib import Path
from typing import Any

from mechbench.benchmarks.openseesime.dataset import COLUMNS, parquet_schema
from mechbench.benchmarks.seesim.protocol import FLUID_FILE_OFFSET
from mechbench.core.errors import DataSourceError
from mechbench.core.paths import default_cache
from mechbench.sources.resolve import bundled

WRITER_VERSION = "2"
"""Bumped whenever the same SeeSim set would give different rows."""
DOMAINS = ("structural", "fluid")
CHOICES = ["Yes", "No"]
SHARD = "test-00000-of-00001.parquet"
QUESTION_TYPES = {True: "threshold", False: "set-up"}
"""A value read against a threshold, or a property of the set-up read off the details box (Yes/No)."""
VALUE_RANGE = "value range"
RANGE_CHOICES = 4
"""A printed figure asked as one of four ranges."""


VALUE_QUESTIONS: dict[str, tuple[tuple[str, str, str, tuple[float, float, float]], ...]] = {
    "structural": (
        ("von_mises_peak", "What is the maximum equivalent (von Mises) stress in the part?", "MPa", (50, 150, 500)),
        ("max_displacement", "What is the maximum total displacement of the part?", "mm", (0.2, 0.8, 2)),
        (
            "stress_spread",
            "What is the coefficient of variation of the von Mises stress over the part?",
            "",
            (0.25, 0.5, 0.7),
        ),
    ),
    "fluid": (("reynolds", "What is the Reynolds number of the flow?", "", (25, 50, 250)),),
}
"""Figures every details box prints (fact, question, unit, range edges), asked as a choice of four ranges. The edges
are fixed per question (near the quartiles of the generator's figures), so the ranges a model is offered say nothing
of the answer; the set keeps as many questions of each range, so no prior over the ranges beats one quarter."""
EDGE_CLEARANCE = 0.05
"""A figure within 5 % of a range edge is not asked (the details box prints four significant digits; this keeps any
rounding or reading of it off the edge)."""


def value_questions(domain: str, entry: dict[str, Any]) -> tuple[tuple[str, str, str, tuple[float, float, float]], ...]:
    """The figures a generated SeeSim file is asked as ranges: above SeeSim's level 1 none, since their figures are
    withdrawn or printed as the linear result, not the state the facts hold (its Yes/No facts are still asked)."""
    return VALUE_QUESTIONS[domain] if entry.get("level", 1) == 1 else ()


def range_choices(edges: tuple[float, float, float], unit: str) -> list[str]:
    """The four ranges of a value question, in order."""
    suffix = f" {unit}" if unit else ""
    first, second, third = (f"{e:g}" for e in edges)
    return [
        f"below {first}{suffix}",
        f"{first} to {second}{suffix}",
        f"{second} to {third}{suffix}",
        f"{third}{suffix} or more",
    ]


def range_index(value: float, edges: tuple[float, float, float]) -> int | None:
    """Which range holds ``value`` (None when it lies within :data:`EDGE_CLEARANCE` of an edge)."""
    if any(abs(value - edge) <= EDGE_CLEARANCE * edge for edge in edges):
        return None
    return sum(value >= edge for edge in edges)


def _media_kind(shown_in: list[str], prefer_video: bool) -> str | None:
    """Where a model sees the evidence: the image or the video (the preferred one when both show it); None when
    only the text report does."""
    places = {entry.split(":", 1)[0] for entry in shown_in}
    if "video" in places and (prefer_video or "image" not in places):
        return "video"
    return "image" if "image" in places else None


def _balanced_yes_no(candidates: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """As many Yes as No per question and question type (the surplus dropped, chosen by ``rng``), and the correct
    choice first in exactly half of each one's rows: neither a prior nor the first choice beats chance."""
    kept: list[dict[str, Any]] = []
    by_question: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in candidates:
        by_question.setdefault((row["question"], row["question_type"]), []).append(row)
    for question in sorted(by_question):
        rows = by_question[question]
        yes = [r for r in rows if r["answer"] == "Yes"]
        no = [r for r in rows if r["answer"] == "No"]
        keep = min(len(yes), len(no))
        chosen = rng.sample(yes, keep) + rng.sample(no, keep)
        first = set(map(id, rng.sample(chosen, len(chosen) // 2)))
        for row in chosen:
            choices = [row["answer"], "No" if row["answer"] == "Yes" else "Yes"]
            if id(row) not in first:
                choices.reverse()
            row["answer_choices"], row["correct_choice_idx"] = choices, choices.index(row["answer"])
        kept += chosen
    return kept


def rows(seesim_root: Path, domain: str) -> list[dict[str, Any]]:
    """The OpenSeeSimE rows of one domain of a generated SeeSim set (``generated.json`` beside its data): each
    asked Yes/No fact the media show, balanced per question, and each printed figure as a choice of four ranges,
    the correct range's position balanced over the set."""
    manifest = json.loads((seesim_root / "generated.json").read_text(encoding="utf-8"))
    qa = json.loads((seesim_root / "benchmark" / "qa-benchmark-with-qids.json").read_text(encoding="utf-8"))
    wording = {q["qid"]: q["question"] for q in qa[domain]["questions"]}
    order = list(wording)
    seed = manifest["generator"].get("seed")
    rng = random.Random(f"openseesime:{WRITER_VERSION}:{seed}:{domain}")
    yes_no: list[dict[str, Any]] = []
    ranges: list[dict[str, Any]] = []
    for key, entry in sorted(manifest["files"].items(), key=lambda item: int(item[0].rsplit("_", 1)[1])):
        file_domain, question_key = key.split("/")
        if file_domain != domain:
            continue
        index = int(question_key.rsplit("_", 1)[1]) - (FLUID_FILE_OFFSET if domain == "fluid" else 0)
        data_name = f"File_{index}"

        def media(kind: str, name: str = data_name) -> dict[str, Any]:
            suffix, folder = (".png", "images") if kind == "image" else (".gif", "videos")
            return {
                "file_name": f"{name}{suffix}",
                "source_file": f"{domain}/{name}",
                "image": None,
                "video": None,
                kind: {
                    "bytes": (seesim_root / "data" / domain / folder / f"{name}{suffix}").read_bytes(),
                    "path": f"{name}{suffix}",
                },
                "media_type": kind,
            }

        for qid in sorted(entry["answers"], key=order.index):
            evidence = entry["evidence"][qid]
            kind = _media_kind(evidence["shown_in"], prefer_video=index % 2 == 0)
            if kind is not None:
                answer = "Yes" if entry["answers"][qid] else "No"
                yes_no.append(
                    {
                        **media(kind),
                        "question": wording[qid],
                        "answer": answer,
                        "question_type": QUESTION_TYPES[evidence.get("threshold") is not None],
                    }
                )
        for fact, question, unit, edges in value_questions(domain, entry):
            value = entry["facts"].get(fact)
            if not isinstance(value, int | float) or not math.isfinite(value):
                continue
            position = range_index(float(value), edges)
            if position is not None:
                choices = range_choices(edges, unit)
                ranges.append(
                    {
                        **media("video" if index % 2 == 0 else "image"),
                        "question": question,
                        "answer": choices[position],
                        "answer_choices": choices,
                        "correct_choice_idx": position,
                        "question_type": VALUE_RANGE,
                    }
                )
    valued = []
    for question in sorted({row["question"] for row in ranges}):
        by_position = [
            [r for r in ranges if r["question"] == question and r["correct_choice_idx"] == k]
            for k in range(RANGE_CHOICES)
        ]
        keep = min(len(found) for found in by_position)
        for found in by_position:
            valued += rng.sample(found, keep)
    out = []
    for row in [*_balanced_yes_no(yes_no, rng), *valued]:
        out.append({"question_id": len(out), **row})
    return [{column: row.get(column) for column in COLUMNS} for row in out]


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
        shard = out / domain / "data" / SHARD
        try:
            pq.write_table(table, shard, row_group_size=32)
        except OSError as error:  # pyarrow's error names no file: a full disk would not say where
            raise OSError(error.errno, os.strerror(error.errno) if error.errno else str(error), str(shard)) from None
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
