"""Fuzz every function that reads model output or user files; each case must end in a result or a specific error.

    python scripts/fuzz.py --cases 2000 --seed 0          # all targets
    python scripts/fuzz.py --cases 500 --target solver    # one target

Each target gets crafted hostile inputs (NaN, inf, 1e308, zero-length links, duplicate and dangling ids, 10^5
points, deeply nested and huge JSON, wrong types, ragged and huge grids, binary junk, unicode digits, path
traversal in file names) and seeded mutations of valid inputs (mechbench's bundled data). A case fails when it
raises anything but the target's documented error, raises with an empty message, exceeds the per-case time
limit, or runs out of the process memory limit. Prints a table of case counts per target; exits 1 on a failure
and writes the failing inputs to --failures.
"""

from __future__ import annotations

import argparse
import copy
import functools
import io
import json
import math
import random
import resource
import signal
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mechbench.benchmarks.seesim.dataset import load_items
from mechbench.benchmarks.seesim.parse import parse_answer
from mechbench.benchmarks.sphyr.dataset import read_records
from mechbench.benchmarks.sphyr.scoring import score_grid
from mechbench.benchmarks.structural_eval.check import check_reply
from mechbench.benchmarks.structural_eval.dataset import load_tasks
from mechbench.benchmarks.structural_eval.extract import ReplyFormatError, extract_model_json
from mechbench.core.errors import DataSourceError, MechbenchError, ModelFormatError, UnstableStructureError
from mechbench.frame import FrameModel, solve
from mechbench.sources.resolve import bundled

HOSTILE_NUMBERS: list[Any] = [
    math.nan,
    math.inf,
    -math.inf,
    1e308,
    -1e308,
    5e-324,
    0,
    -0.0,
    10**400,
    "1e308",
    "nan",
    "",
    "١٢",
    True,
    None,
]
HOSTILE_VALUES: list[Any] = [*HOSTILE_NUMBERS, [], {}, [[[]]], {"a": {"b": {}}}, "x" * 10_000, "../../etc/passwd"]
UNICODE_DIGITS = {"0": ["٠", "０", "۰", "⁰", "𝟎"], "1": ["١", "１", "۱", "¹", "𝟏"]}
TRAVERSAL = ["../../../etc/passwd", "/etc/passwd", "..\\..\\boot.ini", "a/../../b", "%2e%2e/x", "\x00.png", ""]


class CaseTimeout(Exception):
    pass


@dataclass
class Target:
    name: str
    run: Callable[[Any], object]
    expected: tuple[type[BaseException], ...]
    cases: Callable[[random.Random], Iterator[Any]]
    counts: dict[str, int] = field(default_factory=lambda: {"cases": 0, "result": 0, "error": 0, "failed": 0})
    slowest: float = 0.0
    failures: list[tuple[str, Any]] = field(default_factory=list)


# ---- seeds: valid inputs to mutate -------------------------------------------------------------------------


def seed_models() -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((bundled("structural_eval") / "data" / "raw_models").glob("*"))]


def seed_sphyr_lines() -> list[str]:
    return (bundled("sphyr") / "full_easy.jsonl").read_text().splitlines()


def grid_text(grid: list[list[str]]) -> str:
    return "\n".join(" ".join(row) for row in grid)


# ---- mutations ---------------------------------------------------------------------------------------------


def mutate_text(rng: random.Random, text: str) -> str:
    choice = rng.randrange(9)
    if not text or choice == 0:
        return "".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(1, 400)))
    i = rng.randrange(len(text) + 1)
    if choice == 1:
        return text[:i]  # truncated
    if choice == 2:
        return text[:i] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))).decode("latin-1") + text[i:]
    if choice == 3:
        return "".join(rng.choice(UNICODE_DIGITS[c]) if c in UNICODE_DIGITS and rng.random() < 0.3 else c for c in text)
    if choice == 4:
        depth = rng.choice([10, 1000, 100_000])
        return text[:i] + rng.choice("[{") * depth + text[i:]
    if choice == 5:
        return text * rng.choice([2, 50, 5000])  # huge
    if choice == 6:
        return text[:i] + "\x00\ud800\ufeff" + text[i:]  # NUL, lone surrogate, BOM
    if choice == 7:
        j = rng.randrange(len(text) + 1)
        return text[: min(i, j)] + text[max(i, j) :]  # a slice removed
    return text.replace("\n", rng.choice(["\r\n", "\r", " ", "\n\n", "|"]))


def mutate_tree(rng: random.Random, value: Any) -> Any:
    """Replace one random node of a JSON tree with a hostile value, drop a key, or change a type."""
    value = copy.deepcopy(value)
    nodes: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in items:
            nodes.append((node, key))
            walk(child)

    walk(value)
    if not nodes:
        return rng.choice(HOSTILE_VALUES)
    for _ in range(rng.randrange(1, 4)):
        parent, key = rng.choice(nodes)
        if key not in (parent if isinstance(parent, dict) else range(len(parent))):
            continue
        action = rng.randrange(4)
        if action == 0 and isinstance(parent, dict):
            del parent[key]
        elif action == 1:
            parent[key] = rng.choice(HOSTILE_VALUES)
        elif action == 2:
            parent[key] = [parent[key]] if rng.random() < 0.5 else {"value": parent[key]}
        else:
            parent[key] = str(parent[key])
    return value


def model_cases(rng: random.Random) -> Iterator[Any]:
    """Crafted hostile FrameCalc models, then random mutations of the bundled ones."""
    models = seed_models()
    base = models[0]
    first, second = base["points"][0]["id"], base["points"][1]["id"]
    crafted = []
    for number in HOSTILE_NUMBERS:
        m = copy.deepcopy(base)
        m["points"][1]["x"] = number
        crafted.append(m)
    m = copy.deepcopy(base)
    m["points"][1].update(x=m["points"][0]["x"], y=m["points"][0]["y"])  # zero-length link
    crafted.append(m)
    m = copy.deepcopy(base)
    m["points"][1]["id"] = first  # duplicate id
    crafted.append(m)
    m = copy.deepcopy(base)
    m["links"][0]["a"] = "nowhere"  # dangling id
    crafted.append(m)
    m = copy.deepcopy(base)
    m["points"] = [{"id": f"Q{i}", "x": i, "y": 0} for i in range(100_000)]  # 10^5 points
    crafted.append(m)
    m = copy.deepcopy(base)
    m["links"] = [{"id": f"K{i}", "a": first, "b": second} for i in range(20_000)]
    crafted.append(m)
    deep: Any = 1
    for _ in range(100_000):
        deep = [deep]
    crafted += [{"points": deep}, {"points": {"a": 1}}, [], "model", 12, None, {"points": [None] * 5}]
    yield from crafted
    while True:
        yield mutate_tree(rng, rng.choice(models))


def reply_cases(rng: random.Random) -> Iterator[str]:
    """Model replies: fenced and bare JSON models, prose, and mutations of them."""
    replies = [json.dumps(m) for m in seed_models()] + [
        f"Here:\n```json\n{json.dumps(m, indent=1)}\n```" for m in seed_models()[:5]
    ]
    crafted = [
        "",
        "{",
        "}",
        "[" * 100_000,
        '{"a":' * 50_000,
        "{" + "a" * 10_000_000,
        "```json\n```",
        "\x00" * 1000,
        json.dumps({"points": [{"id": f"P{i}", "x": i, "y": 0} for i in range(100_000)]}),
        '{"points": [{"id": "A", "x": NaN, "y": Infinity}], "links": [], "supports": [], "loads": []}',
        json.dumps(seed_models()[0])[:-1] + ', "n": ' + "1" * 4301 + "}",  # past Python's int-to-string limit
        json.dumps(seed_models()[0]).replace('"x": 0', '"x": ' + "9" * 5000, 1),
        '{"points": ' + "1e9999999" + "}",
    ]
    yield from crafted
    while True:
        yield mutate_text(rng, rng.choice(replies))


def grid_reply_cases(rng: random.Random) -> Iterator[str]:
    records = [json.loads(line) for line in seed_sphyr_lines()]
    texts = [grid_text(r["ground_truth"]) for r in records]
    crafted = [
        "",
        "\n" * 10_000,
        ("1 " * 5_000 + "\n") * 2_000,
        bytes(range(256)).decode("latin-1") * 1000,
        grid_text([["١"] * 10] * 10),
        grid_text([["1"] * 10] * 9 + [["1"] * 3]),
        "```\n" + texts[0] + "\n```",
        texts[0].replace("0", "9" * 5000, 1),  # a 5,000-digit cell
        texts[0].replace("0", "1e9999999", 1),
    ]
    yield from crafted
    while True:
        yield mutate_text(rng, rng.choice(texts))


def raw_grid_cases(rng: random.Random) -> Iterator[Any]:
    records = [json.loads(line) for line in seed_sphyr_lines()]
    yield from ([], [[]], [["1"] * 10] * 3, [["1"] * 10_000] * 10, [[None] * 10] * 10, "1 1", None, [[1.5] * 10] * 10)
    while True:
        yield mutate_tree(rng, rng.choice(records)["ground_truth"])


def answer_cases(rng: random.Random) -> Iterator[str]:
    answers = ["True", "False", "**True**", "Answer: False.", "true or false? True", "TRUE\nFALSE", "Yes", "Nope"]
    yield from ("", "True " * 1_000_000, "ＴＲＵＥ", "\x00True", "Tr\u200bue", "ꓔrue", "False" * 3)
    while True:
        yield mutate_text(rng, rng.choice(answers))


# ---- loaders: write hostile files into a temporary folder ------------------------------------------------------


def sphyr_file_cases(rng: random.Random) -> Iterator[str]:
    lines = seed_sphyr_lines()
    yield from ("", "\x00\xff", "not json", "[]", "{}", json.dumps({"input_grid": "x", "ground_truth": 1}), "\n" * 100)
    yield '{"index": ' + "1" * 4301 + ', "input_grid": [["V"]], "ground_truth": [["1"]]}'
    while True:
        if rng.random() < 0.5:
            yield "\n".join(mutate_text(rng, line) for line in rng.sample(lines, 2))
        else:
            yield "\n".join(json.dumps(mutate_tree(rng, json.loads(line))) for line in rng.sample(lines, 2))


def structural_folder_cases(rng: random.Random) -> Iterator[dict[str, Any]]:
    """{'model': text of a raw model, 'meta': JSON of its ground_truth_meta (or None), 'name': its file stem}."""
    models = seed_models()
    for name in TRAVERSAL:
        yield {"model": json.dumps(models[0]), "meta": {"image_filename": name}, "name": "beam_x"}
    yield {"model": "{", "meta": None, "name": "x"}
    yield {"model": json.dumps(models[0]), "meta": [1, 2], "name": "x"}
    yield {
        "model": json.dumps(models[0]),
        "meta": {"difficulty": math.inf, "solution": {"reactions": "no"}},
        "name": "x",
    }
    while True:
        model = rng.choice(models)
        text = mutate_text(rng, json.dumps(model)) if rng.random() < 0.3 else json.dumps(mutate_tree(rng, model))
        meta = mutate_tree(rng, {"difficulty": 3, "image_filename": "x.png", "solution": {"reactions": []}})
        yield {
            "model": text,
            "meta": meta if rng.random() < 0.7 else None,
            "name": rng.choice(["beam_a", "frame_b", "t"]),
        }


def seesim_file_cases(rng: random.Random) -> Iterator[Any]:
    good = {
        "structural": {
            "questions": [{"qid": "Q1", "question": "Is it stable?"}],
            "files": {"File_1": {"answers": {"Q1": True}}},
        }
    }
    for name in TRAVERSAL:
        yield {"structural": {**good["structural"], "files": {name: {"answers": {"Q1": True}}}}}
    yield from ([], "x", {"structural": []}, {"structural": {"questions": None, "files": {}}})
    while True:
        yield mutate_tree(rng, good)


def load_sphyr_file(text: str) -> object:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "full_easy.jsonl"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        return read_records(path)


def load_structural_folder(case: dict[str, Any]) -> object:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        for sub in ("raw_models", "ground_truth_meta", "images"):
            (data / sub).mkdir(parents=True)
        (data / "raw_models" / f"{case['name']}.json").write_text(case["model"], errors="surrogatepass")
        if case["meta"] is not None:
            (data / "ground_truth_meta" / f"{case['name']}.json").write_text(json.dumps(case["meta"]))
        return load_tasks(folder)


def load_seesim_file(raw: Any) -> object:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "benchmark").mkdir()
        (Path(folder) / "benchmark" / "qa-benchmark-with-qids.json").write_text(json.dumps(raw))
        text_dir = Path(folder) / "data" / "structural" / "text"
        text_dir.mkdir(parents=True)
        (text_dir / "File_1.txt").write_text("report")
        return load_items(folder, "text", "structural")


# ---- report builder, archive extractor, credential paths ----------------------------------------------------

HOSTILE_STRINGS = [
    r"$\undefinedcommand{x}$",
    "$$",
    "<script>alert(1)</script>",
    "</table><img src=x onerror=alert(1)>",
    "x" * 100_000,
    "\x00\x1b[31m",
    "\u202e\ud800",
    "{{}}%s%d",
    "../../etc/passwd",
    "https://host/x.zip?token=SECRET-fuzz-token-1",
]


@functools.cache
def template_log() -> Any:
    """A real, small Inspect log of a SPhyR run (built once), whose strings the cases replace."""
    from inspect_ai import eval as inspect_eval

    from mechbench.tasks import sphyr

    folder = tempfile.mkdtemp(prefix="mechbench-fuzz-log-")
    (log,) = inspect_eval(
        sphyr(subject="full_easy", data="bundled", samples="2", physics=False),
        model="mechbench/solid",
        log_dir=folder,
        display="none",
    )
    return log


def report_cases(rng: random.Random) -> Iterator[Any]:
    """(model name, task arguments, explanation, score value) put into the template log."""
    template_log()  # built here, outside the per-case time limit
    for text in HOSTILE_STRINGS:
        yield (f"mechbench/{text}", {"data": text, "label": text}, text, 0.5)
    yield ("mechbench/solid", {"subject": [1, {"a": None}]}, "", math.nan)
    yield ("mechbench/solid", {}, "x", math.inf)
    while True:
        # Capped: repeated mutation can grow a string to hundreds of MB, whose cost is Inspect's log I/O.
        text = mutate_text(rng, rng.choice(HOSTILE_STRINGS)[:20_000])[:200_000]
        value = rng.choice([0.0, 1.0, -1e308, math.nan, 0.25])
        yield (f"mechbench/{text[:200]}", {"data": text, "n": rng.randint(-5, 5)}, text, value)


def build_hostile_report(case: Any) -> object:
    from inspect_ai.log import write_eval_log

    from mechbench.report import build_report, write_report

    model, task_args, explanation, value = case
    log = template_log().model_copy(deep=True)
    log.eval.model = model
    log.eval.task_args = task_args
    for sample in log.samples or []:
        for score in sample.scores.values():
            score.explanation = explanation
            if isinstance(score.value, dict):
                score.value = {k: value for k in score.value}
    with tempfile.TemporaryDirectory() as folder:
        write_eval_log(log, str(Path(folder) / "logs" / "run.eval"))
        report = build_report(Path(folder) / "logs")
        paths = write_report(report, Path(folder) / "report")
        page = paths["html"].read_text()
        if "<script>alert" in page or "token=SECRET-fuzz-token-1" in page:
            raise AssertionError("hostile log content reached report.html unescaped or unmasked")
    return report


def _zip_bytes(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in members:
            zf.writestr(name, content)
    return buffer.getvalue()


def _tar_bytes(members: list[tuple[str, bytes, bytes]]) -> bytes:
    """(name, type flag, content) members of a gzipped tar."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tf:
        for name, kind, content in members:
            info = tarfile.TarInfo(name)
            info.type = kind
            info.size = len(content) if kind == tarfile.REGTYPE else 0
            if kind in (tarfile.SYMTYPE, tarfile.LNKTYPE):
                info.linkname = "/etc/passwd"
            tf.addfile(info, io.BytesIO(content) if kind == tarfile.REGTYPE else None)
    return buffer.getvalue()


def archive_cases(rng: random.Random) -> Iterator[tuple[str, bytes]]:
    """(file name, bytes) of archives: traversal, links, devices, clashes, bombs, junk and mutations."""
    good = _zip_bytes([("data/a.json", b"{}"), ("data/b/c.json", b"[]")])
    for name in (n.replace("\x00", "") or "x" for n in TRAVERSAL):  # zip and tar cut names at a NUL byte
        yield ("t.zip", _zip_bytes([(name, b"1")]))
        yield ("t.tar.gz", _tar_bytes([(name, tarfile.REGTYPE, b"1")]))
    for kind in (tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.CHRTYPE, tarfile.FIFOTYPE):
        yield ("l.tar.gz", _tar_bytes([("data/x", kind, b"")]))
    yield ("c.zip", _zip_bytes([("d/a", b"1"), ("d/a/b", b"2")]))
    yield ("c.tar.gz", _tar_bytes([("d/a", tarfile.REGTYPE, b"1"), ("d/a/b", tarfile.REGTYPE, b"2")]))
    yield ("bomb.zip", _zip_bytes([("z", bytes(64 * 1024**2))]))  # over the fuzz run's extraction cap
    yield ("many.zip", _zip_bytes([(f"f{i}", b"") for i in range(3000)]))  # over its member cap
    yield ("junk.zip", bytes(rng.randrange(256) for _ in range(2000)))
    yield ("empty.tar.gz", b"")
    while True:
        data = bytearray(good if rng.random() < 0.5 else _tar_bytes([("data/a.json", tarfile.REGTYPE, b"{}")]))
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        yield (rng.choice(["m.zip", "m.tar.gz"]), bytes(data))


def extract_archive(case: tuple[str, bytes]) -> object:
    from mechbench.sources import download as data

    name, content = case
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(folder) / name
        archive.write_bytes(content)
        data.MAX_EXTRACTED_BYTES, data.MAX_ARCHIVE_MEMBERS = 16 * 1024**2, 2000  # small caps: cheap bombs
        data._extract(archive, Path(folder) / "content")
        extracted = [p for p in (Path(folder) / "content").rglob("*")]
        if any(not p.resolve().is_relative_to(Path(folder).resolve()) for p in extracted):
            raise AssertionError("an archive member was written outside the extraction folder")
        return extracted


# ---- media, OpenSeeSimE shards, report figures ---------------------------------------------------------------

SMALL_FRAMES, SMALL_PIXELS = 50, 1_000_000  # small caps for the fuzz run: the bombs below stay cheap


def _image_bytes(size: tuple[int, int], mode: str = "RGB", kind: str = "PNG", frames: int = 1) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    pictures = [Image.new(mode, size, k % 2) for k in range(frames)]
    pictures[0].save(buffer, format=kind, save_all=frames > 1, append_images=pictures[1:], duration=40)
    return buffer.getvalue()


def media_cases(rng: random.Random) -> Iterator[tuple[str, str, bytes]]:
    """(suffix, kind, bytes): decompression bombs, too many frames, junk, truncations and mutations."""
    good_png, good_gif = _image_bytes((16, 16)), _image_bytes((8, 8), "P", "GIF", 3)
    bomb = _image_bytes((2000, 2000), "1")  # 4 million pixels in a few kB
    many = _image_bytes((2, 2), "P", "GIF", SMALL_FRAMES + 1)
    for suffix, kind, data in (
        (".png", "image", bomb),
        (".png", "video", bomb),
        (".mp4", "video", bomb),
        (".gif", "video", many),
        (".mp4", "video", many),
        (".png", "image", b""),
        (".mp4", "video", b"\x00\x00\x00\x18ftypmp42" + bytes(64)),
        (".png", "image", good_png[: len(good_png) // 2]),
    ):
        yield suffix, kind, data
    while True:
        data = bytearray(rng.choice([good_png, good_gif]))
        for _ in range(rng.randint(1, 6)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        yield (*rng.choice([(".png", "image"), (".gif", "video"), (".mp4", "video")]), bytes(data))


def check_media_file(case: tuple[str, str, bytes]) -> object:
    from mechbench.sources import media as media_check

    suffix, kind, data = case
    media_check.MAX_VIDEO_FRAMES, media_check.MAX_FRAME_PIXELS = SMALL_FRAMES, SMALL_PIXELS
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"media{suffix}"
        path.write_bytes(data)
        return media_check.check_media(path, kind)  # type: ignore[arg-type]


def shard_cases(rng: random.Random) -> Iterator[list[dict[str, Any]]]:
    """Rows of an OpenSeeSimE shard: missing and mistyped fields, huge cells, unusable choices, mutations."""
    good = {
        "file_name": "f",
        "source_file": "s",
        "question": "Which is larger?",
        "question_type": "comparison",
        "question_id": 1,
        "answer": "A",
        "answer_choices": ["A", "B"],
        "correct_choice_idx": 0,
        "image": {"bytes": _image_bytes((8, 8)), "path": "a.png"},
        "video": None,
        "media_type": "image",
    }
    for change in (
        {"question": None},
        {"question": "?" * 1_000_000},
        {"answer_choices": ["x" * 100_000, "y"]},
        {"answer_choices": []},
        {"correct_choice_idx": 7},
        {"image": {"bytes": b"not an image", "path": "a.png"}},
        {"image": None, "media_type": "video"},
        {"question_id": -(2**62)},
    ):
        yield [good, {**good, **change}]
    while True:
        row = dict(good)
        for _ in range(rng.randint(1, 3)):
            key = rng.choice([k for k in good if k not in ("image", "video")])
            row[key] = rng.choice([mutate_text(rng, str(row[key])), rng.choice(HOSTILE_VALUES[:12]), None])
        yield [good, row]


def read_shard(rows: list[dict[str, Any]]) -> object:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from mechbench.benchmarks.openseesime.dataset import open_openseesime, stream_questions

    with tempfile.TemporaryDirectory() as folder:
        try:
            table = pa.Table.from_pylist(rows)
        except (pa.ArrowException, OverflowError, UnicodeEncodeError):  # rows no parquet writer writes
            return None
        pq.write_table(table, Path(folder) / "test.parquet")
        return list(stream_questions(open_openseesime(str(folder), "structural", "mini")))


def figure_cases(rng: random.Random) -> Iterator[tuple[int, str, int]]:
    """(models, label, which figure): thousands of models; labels of any length and content."""
    for figure in range(4):
        yield 2000, "subject", figure
        for text in HOSTILE_STRINGS:
            yield 3, text * (20_000 // len(text) + 1), figure
    while True:
        yield rng.choice([1, 3]), mutate_text(rng, rng.choice(HOSTILE_STRINGS))[:50_000], rng.randrange(4)


def draw_report_figure(case: tuple[int, str, int]) -> object:
    """One benchmark's report figure on rows with ``models`` models whose labels are ``label``."""
    from mechbench.benchmarks.openseesime.report import accuracy_figure as openseesime_figure
    from mechbench.benchmarks.seesim.report import accuracy_figure as seesim_figure
    from mechbench.benchmarks.sphyr.report import subject_figure
    from mechbench.benchmarks.structural_eval.report import ladder_figure

    models, label, which = case
    names = [f"{label}{k}" for k in range(models)]
    runs = [
        {"model": m, "modality": label, "domain": label, "accuracy_structural": 0.5, "accuracy_x": 1} for m in names
    ]
    rows = {
        "runs": runs,
        "subjects": [{"model": m, "version": label, "subject": label, "topology_score": 0.5} for m in names],
        "ladder": [{"model": m, "difficulty": label, "step": "correct"} for m in names],
    }
    return (seesim_figure, openseesime_figure, subject_figure, ladder_figure)[which](rows)


def credential_cases(rng: random.Random) -> Iterator[tuple[str, str, list[int]]]:
    """(secret, text around it, chunk sizes) for the response redactor; URLs and argv for the maskers."""
    secrets = ["sk-FAKE-0123456789abcdef", "hf_" + "x" * 30, "a" * 8, "Bearer-like ***"]
    while True:
        secret = rng.choice(secrets)
        pieces = [mutate_text(rng, "error: request headers were {}") for _ in range(rng.randint(1, 4))]
        body = secret.join(pieces) + rng.choice(["", secret, secret[:-1]])
        yield secret, body, [rng.randint(1, 9) for _ in range(len(body) // 2 + 2)]


def check_credentials(case: tuple[str, str, list[int]]) -> object:
    """A secret never survives: response redaction over any chunking, URL masking, printed commands."""
    import httpx

    from mechbench.cli.eval_argv import mask_task_urls, shown_command
    from mechbench.core.text import redact_url
    from mechbench.harness.redaction import _Redactor, request_secrets

    secret, body, sizes = case
    request = httpx.Request("POST", "http://127.0.0.1/v1", headers={"Authorization": f"Bearer {secret}"})
    found = request_secrets(request)
    data, out, position = body.encode("utf-8", "surrogatepass"), b"", 0
    redactor = _Redactor(found) if found else None
    for size in [*sizes, len(data)]:  # the random chunking, then whatever is left in one piece
        chunk, position = data[position : position + size], position + size
        out += redactor.feed(chunk) if redactor else chunk
    out += redactor.flush() if redactor else b""
    if len(secret) >= 8 and secret.encode() in out:
        raise AssertionError("the secret survived response redaction")
    url = f"https://host/x.zip?token={secret}&sig={secret}"
    argv, mapping = mask_task_urls(["eval", "t", "-T", f"data={url}", "-M", f"api_key={secret}"])
    # What is printed, and the task argument Inspect will record; -M api_key stays in argv (Inspect drops it).
    for text in (redact_url(url), shown_command(argv), argv[3]):
        if secret in text and len(secret) >= 8:
            raise AssertionError(f"the secret survived masking: {text[:200]}")
    return mapping


HANDED_CAP = 4096
"""The byte cap the handed-file target reads under (small, so that files around it are cheap to write)."""


def handed_file_cases(rng: random.Random) -> Iterator[tuple[str, int]]:
    """(kind, size) of a file handed to mechbench: pipes, devices, folders, links to devices, and regular files of
    sizes around the cap."""
    yield from [("fifo", 0), ("/dev/zero", 0), ("/dev/urandom", 0), ("folder", 0), ("link to /dev/zero", 0)]
    yield from [("regular", n) for n in (0, HANDED_CAP - 1, HANDED_CAP, HANDED_CAP + 1, 10 * HANDED_CAP)]
    while True:
        yield ("regular", rng.randrange(0, 3 * HANDED_CAP))


def read_handed_file(case: tuple[str, int]) -> object:
    """Read one handed file the way replay, score and data files are read: bytes within the cap, or a refusal."""
    import os
    import tempfile

    from mechbench.core.reading import read_capped

    kind, size = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "handed"
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            path.mkdir()
        elif kind == "link to /dev/zero":
            path.symlink_to("/dev/zero")
        elif kind == "regular":
            path.write_bytes(os.urandom(size))
        else:
            path = Path(kind)
        data = read_capped(path, HANDED_CAP, "handed file")
        assert kind == "regular" and len(data) == size <= HANDED_CAP, (kind, size, len(data))
        return data


WORK_BUDGET = 0.05
"""Seconds of work the budget target allows (small: a case costs about this much however large its input)."""
WORK_STOP_SLACK = 1.5
"""How much work past its budget the work may do before it stops (one step of its outer loop at the size limits), in
seconds of this thread's CPU time: a starved thread's wall time is no measure of the work it did (the fuzz once
failed beside three CPU-bound processes, 1.58 s of wall time into a 0.05 s budget)."""


def work_cases(rng: random.Random) -> Iterator[tuple[str, int]]:
    """(kind, size) of work run inside a time budget: drawings of loaded chains up to the drawing limit, and
    physics judgements of grids up to the judge's limit."""
    from mechbench.benchmarks.sphyr.physics_scoring import MAX_JUDGED_SIDE
    from mechbench.frame.render import MAX_DRAWN_LINKS

    yield from [("drawing", MAX_DRAWN_LINKS - 1), ("judge", MAX_JUDGED_SIDE), ("drawing", 1), ("judge", 4)]
    while True:
        if rng.random() < 0.5:
            yield ("drawing", rng.randint(1, MAX_DRAWN_LINKS - 1))
        else:
            yield ("judge", rng.randint(4, MAX_JUDGED_SIDE))


def bounded_work(case: tuple[str, int]) -> object:
    """Draw or judge inside :data:`WORK_BUDGET`: a result, or the work stopping itself within
    :data:`WORK_STOP_SLACK` of its budget (never running on)."""
    from mechbench.benchmarks.sphyr.physics_scoring import physics_score
    from mechbench.core.budget import BudgetExceededError, within_budget
    from mechbench.frame.render import render

    kind, size = case
    started = time.thread_time()
    try:
        if kind == "drawing":
            points = [{"id": f"P{i}", "x": float(i), "y": 0.0} for i in range(size + 1)]
            links = [{"id": f"L{i}", "a": f"P{i}", "b": f"P{i + 1}"} for i in range(size)]
            supports = [{"id": "S1", "at": {"id": "P0", "type": "point"}, "kind": "pin"},
                        {"id": "S2", "at": {"id": f"P{size}", "type": "point"}, "kind": "roller"}]  # fmt: skip
            loads = [{"id": f"F{i}", "kind": "distributedLoad", "at": {"type": "link", "id": f"L{i}"},
                      "wStart": 8 + i, "wEnd": 2, "fromStart": 0, "fromEnd": 0, "angleDeg": 270 - i,
                      "angleMode": "world", "flip": 1} for i in range(size)]  # fmt: skip
            model = {"points": points, "links": links, "supports": supports, "loads": loads}
            result: object = within_budget(WORK_BUDGET, "the drawing", render, model, dpi=40)
        else:
            truth = [["1" if (r + c) % 3 else "0" for c in range(size)] for r in range(size)]
            truth[0][size // 2], truth[-1][0], truth[-1][-1] = "L", "S", "S"
            masked = [["V" if (r * size + c) % 4 == 0 and t in "01" else t for c, t in enumerate(row)]
                      for r, row in enumerate(truth)]  # fmt: skip
            reference = "best" if size % 2 else "published"  # both optimisers' loops must check the budget
            judge = "the physics judge"
            result = within_budget(WORK_BUDGET, judge, physics_score, masked, truth, truth, "down", reference)
    except BudgetExceededError as error:
        result = error
    worked = time.thread_time() - started
    if worked > WORK_BUDGET + WORK_STOP_SLACK:
        raise AssertionError(f"{kind} of size {size} stopped after {worked:.2f} s of work on a {WORK_BUDGET} s budget")
    return result


def judge_reply_against_truth() -> Callable[[str], object]:
    task = load_tasks(bundled("structural_eval"))[0]
    truth_model, truth = FrameModel.parse(task.raw_model), task.response()

    def judge(reply: str) -> object:
        attempt = check_reply(reply, truth_model, truth, tolerance=0.05, scoring="strict")
        # check_reply turns a crash of the solver into an instrument failure (the sample is left unscored);
        # for anything a model can write that is still a bug of mechbench's to find here.
        if attempt.outcome == "instrument_failure":
            raise AssertionError(f"the solver failed on a model-writable reply: {attempt.detail}")
        return attempt

    return judge


def targets() -> list[Target]:
    record = json.loads(seed_sphyr_lines()[0])
    inp, truth = record["input_grid"], record["ground_truth"]
    return [
        Target("extractor", extract_model_json, (ReplyFormatError,), reply_cases),
        Target("schema", FrameModel.parse, (ModelFormatError,), model_cases),
        Target("solver", solve, (ModelFormatError, UnstableStructureError), model_cases),
        Target("structural_check_reply", judge_reply_against_truth(), (), reply_cases),
        Target("sphyr_parser", lambda reply: score_grid(inp, truth, reply), (), grid_reply_cases),
        Target("sphyr_grid", lambda grid: score_grid(inp, truth, grid), (), raw_grid_cases),
        Target("sphyr_legacy_parser", lambda reply: score_grid(inp, truth, reply, "legacy"), (), grid_reply_cases),
        Target("seesim_parser", parse_answer, (), answer_cases),
        Target("sphyr_loader", load_sphyr_file, (DataSourceError,), sphyr_file_cases),
        Target("structural_loader", load_structural_folder, (DataSourceError,), structural_folder_cases),
        Target("seesim_loader", load_seesim_file, (DataSourceError,), seesim_file_cases),
        Target("report_builder", build_hostile_report, (MechbenchError,), report_cases),
        Target("archive_extractor", extract_archive, (DataSourceError,), archive_cases),
        Target("credentials", check_credentials, (), credential_cases),
        Target("media_check", check_media_file, (DataSourceError,), media_cases),
        Target("openseesime_shard", read_shard, (DataSourceError,), shard_cases),
        Target("report_figures", draw_report_figure, (), figure_cases),
        Target("handed_files", read_handed_file, (DataSourceError,), handed_file_cases),
        Target("work_budgets", bounded_work, (), work_cases),
    ]


# ---- runner ------------------------------------------------------------------------------------------------


def _alarm(signum: int, frame: object) -> None:
    raise CaseTimeout


def run_case(target: Target, case: Any, time_limit: float) -> None:
    target.counts["cases"] += 1
    start = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, time_limit)
    try:
        target.run(case)
        outcome = "result"
    except CaseTimeout:
        outcome = f"no answer within {time_limit} s"
    except target.expected as error:
        outcome = "error" if str(error).strip() else "error without a message"
    except (Exception, RecursionError, MemoryError) as error:
        outcome = f"unexpected {type(error).__name__}: {str(error)[:200]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    target.slowest = max(target.slowest, time.perf_counter() - start)
    if outcome in ("result", "error"):
        target.counts[outcome] += 1
    else:
        target.counts["failed"] += 1
        target.failures.append((outcome, case))


def fuzz(selected: list[Target], cases: int, seed: int, time_limit: float) -> list[Target]:
    """Run ``cases`` inputs through each target (crafted ones first); returns the targets with their counts."""
    signal.signal(signal.SIGALRM, _alarm)
    for target in selected:
        rng = random.Random(f"{seed}:{target.name}")
        generator = target.cases(rng)
        for _ in range(cases):
            run_case(target, next(generator), time_limit)
    return selected


def limit_memory(gib: float) -> None:
    limit = int(gib * 1024**3)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000, help="inputs per target")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", action="append", help="only these targets (repeatable)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per case")
    parser.add_argument("--memory-gib", type=float, default=8.0, help="address-space limit of the process")
    parser.add_argument("--failures", type=Path, default=Path("fuzz-failures.json"))
    args = parser.parse_args(argv)
    limit_memory(args.memory_gib)
    sys.setrecursionlimit(10_000)
    chosen = [t for t in targets() if not args.target or t.name in args.target]
    started = time.perf_counter()
    fuzz(chosen, args.cases, args.seed, args.time_limit)
    print("| target | cases | result | specific error | failed | slowest case (s) |\n|---|---|---|---|---|---|")
    for t in chosen:
        c = t.counts
        print(f"| {t.name} | {c['cases']} | {c['result']} | {c['error']} | {c['failed']} | {t.slowest:.2f} |")
    print(f"total {sum(t.counts['cases'] for t in chosen)} cases in {time.perf_counter() - started:.0f} s")
    failures = [{"target": t.name, "outcome": o, "input": repr(case)[:2000]} for t in chosen for o, case in t.failures]
    if failures:
        args.failures.write_text(json.dumps(failures, indent=1))
        for f in failures[:20]:
            print(f"FAIL {f['target']}: {f['outcome']} <- {f['input'][:200]}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
