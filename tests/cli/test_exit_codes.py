"""Every command, every hostile file: a bad *answer* is a score (exit 0, the reason in the output); a bad *truth,
data file or argument* is a usage error (exit 2, one line on stderr, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mechbench.cli import app, main
from mechbench.sources.resolve import bundled

runner = CliRunner()
GOOD_MODEL = bundled("structural_eval") / "data" / "raw_models" / "beam_001.json"
UNSTABLE = {
    "points": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 1, "y": 0}],
    "links": [{"id": "L", "a": "A", "b": "B"}],
    "supports": [{"id": "S", "at": "A", "kind": "roller"}],
    "loads": [],
}

# name -> file content (bytes), or None for "no such file", or "dir" for a directory.
HOSTILE_FILES: dict[str, bytes | str | None] = {
    "missing": None,
    "directory": "dir",
    "empty": b"",
    "binary": bytes(range(256)) * 4,
    "not_json": b"this is prose, not JSON",
    "truncated": GOOD_MODEL.read_bytes()[:100],
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "wrong_type": b"[1, 2, 3]",
    "nan": json.dumps({**UNSTABLE, "points": [{"id": "A", "x": float("nan"), "y": 0}]}).encode(),
    "unstable": json.dumps(UNSTABLE).encode(),
    "huge_number": b'{"points": [{"id": "A", "x": 1e999, "y": 0}], "links": [], "supports": [], "loads": []}',
}


def hostile_file(tmp_path: Path, kind: str, suffix: str = ".json") -> Path:
    path = tmp_path / f"{kind}{suffix}"
    content = HOSTILE_FILES[kind]
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    return path


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the installed entry point (usage errors included) in process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as ended:
        main(args)
    out, err = capsys.readouterr()
    return int(ended.value.code or 0), out, err


def assert_usage_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(args, capsys)
    assert code == 2, (args, code, out[-500:], err[-500:])
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in out + err, err


# Files a command cannot do without: which hostile kinds it must refuse (all of them, for these commands).
USAGE_COMMANDS = {
    "solve": lambda f: ["solve", str(f)],
    "render": lambda f: ["render", str(f), "-o", str(f.parent / "out.png")],
    "score structural --truth": lambda f: ["score", "structural", "--truth", str(f), "--answer", str(GOOD_MODEL)],
    "score sphyr": lambda f: ["score", "sphyr", str(f)],
}


# Not usage errors: a drawing needs no solution (render draws an unstable model), and a structural model is
# simply not a SPhyR results file (covered there by 'wrong_type').
FINE = {("render", "unstable"), ("score sphyr", "nan"), ("score sphyr", "unstable"), ("score sphyr", "huge_number")}


@pytest.mark.parametrize(
    ("command", "kind"), [(c, k) for c in sorted(USAGE_COMMANDS) for k in sorted(HOSTILE_FILES) if (c, k) not in FINE]
)
def test_a_bad_truth_or_input_file_is_a_one_line_usage_error(
    command: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_usage_error(USAGE_COMMANDS[command](hostile_file(tmp_path, kind)), capsys)


@pytest.mark.parametrize(
    "args",
    [
        ["score", "structural", "--truth", str(GOOD_MODEL), "--answer", str(GOOD_MODEL), "--tolerance", "7"],
        ["score", "structural", "--truth", str(GOOD_MODEL), "--answer", str(GOOD_MODEL), "--scoring", "lenient"],
        ["score", "structural", "--truth", str(GOOD_MODEL), "--answer", "/nonexistent/answer.txt"],
        ["score", "sphyr", str(GOOD_MODEL), "--parser", "magic"],
        ["score", "sphyr", str(GOOD_MODEL), "--executor", "cloud"],
        ["validate", "sphyr", "--data", "/nonexistent"],
        ["report", "/nonexistent/logs"],
        ["generate", "structural", "--n", "-3", "-o", "/tmp/mechbench-never"],
        ["generate", "structural", "-n", "3", "-o", "/tmp/mechbench-never"],  # no such option
        ["score", "structural", "--truth", str(GOOD_MODEL), "--answer", str(GOOD_MODEL), "--tolerance", "abc"],
        ["solve"],  # missing argument
        ["no-such-command"],
    ],
    ids=lambda a: " ".join(a[:4]),
)
def test_a_bad_argument_is_a_one_line_usage_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(args, capsys)


@pytest.mark.parametrize("kind", ["empty", "binary", "not_json", "truncated", "deep", "wrong_type", "nan", "unstable"])
def test_a_bad_structural_answer_is_a_zero_score_with_its_reason(kind: str, tmp_path: Path) -> None:
    answer = hostile_file(tmp_path, kind, ".txt")
    result = runner.invoke(app, ["score", "structural", "--truth", str(GOOD_MODEL), "--answer", str(answer)])
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.stdout)
    assert verdict["outcome"] != "correct" and verdict["explanation"]
    if kind != "unstable":  # an unstable answer still climbs the ladder as far as its parts allow
        assert verdict["ratio"] == 0.0


def test_bad_sphyr_answers_are_zero_scores_with_reasons(tmp_path: Path) -> None:
    record = json.loads((bundled("sphyr") / "full_easy.jsonl").read_text().splitlines()[0])
    completions = [None, 42, "", "\x00\xff junk", "١ ٠\n" * 10, "1 " * 100_000, [["1"]], "[" * 10_000]
    results = tmp_path / "results.jsonl"
    results.write_text("\n".join(json.dumps({**record, "completion": c}) for c in completions))
    result = runner.invoke(app, ["score", "sphyr", str(results)])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["records"]
    assert len(rows) == len(completions)
    for row in rows:
        assert row["valid_output_grid"] == 0.0 and row["score"] == 0.0 and row["invalid_reason"]


def test_version() -> None:
    from mechbench import __version__
    from mechbench.cli import app

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"mechbench {__version__}"


def test_help_texts_show_no_markup() -> None:
    from mechbench.cli import app

    commands = [
        [],
        ["eval"],
        ["eval-retry"],
        ["score", "sphyr"],
        ["validate", "sphyr"],
        ["solve"],
        ["report"],
        ["demo"],
    ]
    for command in commands:
        text = CliRunner().invoke(app, [*command, "--help"]).stdout
        assert "``" not in text and ":func:" not in text and ":class:" not in text, command
