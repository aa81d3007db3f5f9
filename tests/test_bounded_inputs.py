"""Every reader refuses what is past its limits before the work: one line, little memory, no traceback.

The command-line probes run in a child process whose peak resident memory is read back (``ru_maxrss`` of a
fresh intermediate process, so nothing else counts) and asserted, with an address-space ceiling as a guard.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.openseesime.dataset import open_openseesime, stream_questions
from mechbench.benchmarks.seesim.dataset import read_blocks
from mechbench.benchmarks.structural_eval.official_protocol import read_protocol
from mechbench.core.errors import DataSourceError
from mechbench.core.limits import MAX_GRID_SIDE, MAX_RECORDS_PER_FILE, MAX_SOURCE_TEXT_BYTES
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import sphyr
from tests.benchmarks.openseesime.test_openseesime import SCHEMA, _row

MEMORY_CEILING_KB = 1024 * 1024  # 1 GiB resident for the whole probe
ADDRESS_SPACE_GUARD = 6 * 1024**3  # a regression fails here instead of swapping the machine

_PROBE = """
import resource, subprocess, sys
guard = int(sys.argv[1])
def limit():
    resource.setrlimit(resource.RLIMIT_AS, (guard, guard))
done = subprocess.run(sys.argv[2:], capture_output=True, text=True, preexec_fn=limit, timeout=120)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(done.returncode, peak)
sys.stderr.write(done.stderr)
"""


def _probe(*args: str) -> tuple[int, int, str]:
    """(exit code, peak resident KB, stderr) of ``python -m mechbench ARGS`` under the guard."""
    command = [sys.executable, "-c", _PROBE, str(ADDRESS_SPACE_GUARD), sys.executable, "-m", "mechbench", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    code, peak = (int(v) for v in done.stdout.split())
    return code, peak, done.stderr


def _one_line_refusal(code: int, peak: int, stderr: str, *words: str) -> None:
    assert code == 2, stderr
    assert peak < MEMORY_CEILING_KB, f"{peak} KB resident"
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and all(w in lines[0] for w in words), stderr


def _grid_text(side: int) -> str:
    rows = [["0"] * side for _ in range(side)]
    rows[0][0], rows[-1][-1] = "L", "S"
    return "\n".join(" ".join(row) for row in rows)


@pytest.mark.slow
def test_a_huge_grid_and_too_many_records_are_refused_by_score(tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    grid = _grid_text(3000)  # 18 MB of text, 9 million cells
    huge.write_text(json.dumps([{"index": 0, "input_grid": grid, "ground_truth": grid, "completion": grid}]))
    _one_line_refusal(*_probe("score", "sphyr", str(huge), "--physics", "--workers", "1"), "ground_truth", "refused")
    many = tmp_path / "many.jsonl"
    small = _grid_text(10)
    line = json.dumps({"index": 0, "input_grid": small, "ground_truth": small, "completion": small}) + "\n"
    many.write_text(line * (MAX_RECORDS_PER_FILE + 1))
    _one_line_refusal(*_probe("score", "sphyr", str(many)), f"{MAX_RECORDS_PER_FILE + 1} records")


@pytest.mark.slow
def test_generate_checks_the_count_and_the_folder_before_any_work(tmp_path: Path) -> None:
    _one_line_refusal(*_probe("generate", "seesim", "-o", str(tmp_path / "a"), "--n", "99999999999"), "--n")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for command in ("seesim", "structural", "sphyr"):
        _one_line_refusal(*_probe("generate", command, "-o", str(blocker / "out"), "--n", "2"), "is a file")


def test_grids_past_the_limit_are_refused_on_every_sphyr_path(tmp_path: Path) -> None:
    side = MAX_GRID_SIDE + 1
    big = [["0"] * side for _ in range(side)]
    (tmp_path / "full_easy.jsonl").write_text(json.dumps({"index": 0, "input_grid": big, "ground_truth": big}) + "\n")
    with pytest.raises(DataSourceError, match=f"line 1: .*{side}×{side}"):
        sphyr(data=str(tmp_path), subject="full_easy", version="v1")
    replay = tmp_path / "replay"
    replay.mkdir()
    text = _grid_text(side)
    (replay / "full_easy_results.json").write_text(json.dumps([{"prompt": "p", "ground_truth": text}]))
    with pytest.raises(DataSourceError, match=r"full_easy_results\.json record 0: ground_truth is"):
        sphyr(samples=f"replay:{replay}", subject="full_easy")


def test_official_runner_texts_too_big_or_too_deep_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "prompts.py").write_text("SYSTEM = 'x'\n")
    runner = tmp_path / "run_eval.py"
    for text, words in (
        ("x = " + "not " * 100_000 + "1\n", "nests too deeply"),
        ("x = " + "a." * 100_000 + "b\n", "nests too deeply"),
        ("#" * (MAX_SOURCE_TEXT_BYTES + 1), "refused"),
    ):
        runner.write_text(text)
        with pytest.raises(DataSourceError, match=words):
            read_protocol(tmp_path)


def _seesim_copy(root: Path, questions: object) -> Path:
    (root / "benchmark").mkdir(parents=True, exist_ok=True)
    (root / "benchmark" / "qa-benchmark-with-qids.json").write_text(
        questions if isinstance(questions, str) else json.dumps(questions)
    )
    return root


def test_seesim_questions_files_deep_huge_or_with_odd_characters(tmp_path: Path) -> None:
    deep = _seesim_copy(tmp_path / "deep", '{"structural": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(DataSourceError, match="not the SeeSim benchmark"):
        read_blocks(deep)
    many = {"structural": {"questions": [{"qid": f"Q{k}", "question": "?"} for k in range(100_001)], "files": {}}}
    with pytest.raises(DataSourceError, match="100001 structural questions"):
        read_blocks(_seesim_copy(tmp_path / "many", many), ("structural",))
    odd = {"structural": {"questions": [{"qid": "Q1", "question": "Is it \ud800 \x1b[31mred\x1b[0m?"}], "files": {}}}
    text = json.dumps(odd)  # json writes the lone surrogate as an escape, as a hostile file would
    (block,) = read_blocks(_seesim_copy(tmp_path / "odd", text), ("structural",)).values()
    shown = block.questions[0].question
    shown.encode("utf-8")  # writable anywhere
    assert "\x1b" not in shown and "\\x1b[31mred" in shown


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"question": None}, "question"),
        ({"question_id": [1, 2]}, "question_id"),
        ({"answer_choices": "Yes"}, "answer_choices"),
    ],
)
def test_openseesime_rows_are_checked_at_the_door(tmp_path: Path, change: dict, field: str) -> None:
    # A wrong column type is wrong in every row; a missing value only in its own (the rows before it are read).
    typed = change["question"] is not None if "question" in change else True
    rows = [{**_row(0, video=False), **change}] if typed else [_row(0, video=False), {**_row(1, video=False), **change}]
    (tmp_path / "data").mkdir()
    pq.write_table(pa.Table.from_pylist(rows, schema=_schema_for(change)), tmp_path / "data" / "test.parquet")
    stream = stream_questions(open_openseesime(str(tmp_path), "structural", "mini"))
    if not typed:
        assert next(stream)[0].question_id == 0
    with pytest.raises(DataSourceError, match=f"row {len(rows) - 1}: field '{field}' must be"):
        next(stream)


def _schema_for(change: dict) -> pa.Schema:
    schema = SCHEMA
    for name, value in change.items():
        if value is None:
            continue
        kind = pa.list_(pa.int64()) if isinstance(value, list) else pa.string()
        schema = schema.set(schema.get_field_index(name), pa.field(name, kind))
    return schema


def test_an_image_column_that_is_text_is_a_field_error(tmp_path: Path) -> None:
    rows = [{**_row(0, video=False), "image": "not an image"}]
    schema = SCHEMA.set(SCHEMA.get_field_index("image"), pa.field("image", pa.string()))
    (tmp_path / "data").mkdir()
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), tmp_path / "data" / "test.parquet")
    with pytest.raises(DataSourceError, match="row 0: field 'image' must be"):
        next(stream_questions(open_openseesime(str(tmp_path), "structural", "mini")))


def test_a_lone_surrogate_in_the_data_never_fails_the_run(tmp_path: Path) -> None:
    good = _grid_text(10).splitlines()
    records = []
    for index in range(3):
        truth = [row.split() for row in good]
        masked = [list(row) for row in truth]
        masked[5][5] = "V"
        if index == 1:
            masked[2][2] = "\ud800"  # one lone surrogate in one record's input grid
        records.append(json.dumps({"index": index, "input_grid": masked, "ground_truth": truth}))
    (tmp_path / "full_easy.jsonl").write_text("\n".join(records) + "\n")
    (log,) = inspect_eval(
        sphyr(data=str(tmp_path), subject="full_easy", version="v1", physics=False),
        model="mechbench/empty",
        log_dir=str(tmp_path / "logs"),
        **QUIET_EVAL,
    )
    assert log.status == "success" and len(log.samples) == 3


def _probe_python(code: str, *args: str) -> tuple[int, int, str]:
    """(exit code, peak resident KB, stderr) of ``python -c CODE ARGS`` under the guard."""
    command = [sys.executable, "-c", _PROBE, str(ADDRESS_SPACE_GUARD), sys.executable, "-c", code, *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    code_, peak = (int(v) for v in done.stdout.split())
    return code_, peak, done.stderr


_CHECK_MEDIA = """
import sys
from pathlib import Path
from mechbench.core.errors import DataSourceError
from mechbench.sources.media import check_media
try:
    check_media(Path(sys.argv[1]), "video")
except DataSourceError as error:
    sys.exit(f"error: {error}")
"""


@pytest.mark.slow
def test_a_bomb_or_an_endless_gif_used_as_a_video_is_refused_before_decoding(tmp_path: Path) -> None:
    from PIL import Image

    from mechbench.sources.media import MAX_FRAME_PIXELS, MAX_VIDEO_FRAMES

    bomb = tmp_path / "bomb.png"
    Image.new("1", (8_000, 8_000)).save(bomb)  # 64 million pixels in ~10 kB (Pillow itself refuses 179 million)
    frames = [Image.new("L", (2, 2), k) for k in (0, 255)]  # black, white: no two neighbours merge
    endless = tmp_path / "endless.gif"
    frames[0].save(endless, save_all=True, append_images=frames[::-1] * (MAX_VIDEO_FRAMES // 2 + 1), duration=10)
    for path, words in ((bomb, f"more than the {MAX_FRAME_PIXELS}"), (endless, f"more than the {MAX_VIDEO_FRAMES}")):
        code, peak, stderr = _probe_python(_CHECK_MEDIA, str(path))
        assert code == 1 and peak < MEMORY_CEILING_KB, (peak, stderr)
        assert stderr.startswith("error:") and len(stderr.splitlines()) == 1 and words in stderr, stderr


_BUILD_OPENSEESIME = """
import sys
from mechbench.core.errors import UsageError
from mechbench.tasks import openseesime
try:
    openseesime(data=sys.argv[1])
except UsageError as error:
    sys.exit(f"error: {error}")
"""


@pytest.mark.slow
def test_an_openseesime_source_past_a_run_is_refused_without_holding_it(tmp_path: Path) -> None:
    from mechbench.core.limits import MAX_SAMPLES_PER_RUN

    row = _row(0, video=False)
    rows = [{**row, "question_id": k} for k in range(MAX_SAMPLES_PER_RUN + 10)]
    (tmp_path / "data").mkdir()
    pq.write_table(pa.Table.from_pylist(rows, schema=SCHEMA), tmp_path / "data" / "test.parquet", row_group_size=1000)
    code, peak, stderr = _probe_python(_BUILD_OPENSEESIME, str(tmp_path))
    assert code == 1 and peak < MEMORY_CEILING_KB, (peak, stderr)
    assert f"more than {MAX_SAMPLES_PER_RUN} questions" in stderr and "-T samples=N" in stderr, stderr


_DRAW = """
from mechbench.benchmarks.sphyr.report import subject_figure
rows = [{"model": f"m{k}", "version": "v1", "subject": f"s{j}", "topology_score": 0.5}
        for k in range(2000) for j in range(16)]
rows.append({"model": "m", "version": "v1", "subject": "x" * 20_000, "topology_score": 0.5})
assert subject_figure({"subjects": rows}).startswith(b"\\x89PNG")
"""


@pytest.mark.slow
def test_report_figures_draw_thousands_of_models_and_huge_labels_in_bounds() -> None:
    code, peak, stderr = _probe_python(_DRAW)
    assert code == 0 and peak < MEMORY_CEILING_KB, (peak, stderr)
