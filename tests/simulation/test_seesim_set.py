"""Generated SeeSim sets: balance, pairs, layout, provenance, same bytes, the bundled set and the task on them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.seesim.protocol import PAIRS
from mechbench.data import bundled
from mechbench.simulation.answers import NOT_ASKED, RULES
from mechbench.simulation.seesim_set import simulate, write_seesim
from mechbench.tasks import seesim

OPPOSITE_PAIRS = {
    ("b12d8f45e3a670c92178", "n46e2f9ba03e6545205b"),  # elastic / plastic
    ("a7e94b2c6f1d83052c9e", "r80c6d90f47c0329649f"),  # beyond the limits / factor of safety above 1
    ("bb0a6b65d47a0320349d", "ee3d9e73a70d3983672a"),  # laminar / turbulent
    ("ii7b3c37e14b7767016e", "x46c2d01f03c6546905f"),  # buoyancy negligible / natural convection significant
}


@pytest.fixture(scope="module")
def forty(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """40 simulations (20 structural, 20 fluid) on two worker processes."""
    out = tmp_path_factory.mktemp("seesim40")
    table = write_seesim(out, 20, 1, questions="mechbench", workers=2)
    return out, table


def _qa(folder: Path) -> dict:
    return json.loads((folder / "benchmark" / "qa-benchmark-with-qids.json").read_text())


def test_forty_simulations_are_balanced_and_every_question_goes_both_ways(forty: tuple[Path, dict]) -> None:
    _, table = forty
    assert 0.4 <= table["always_true"] <= 0.6 and 0.4 <= table["always_false"] <= 0.6
    asked = {rule.qid for rules in RULES.values() for rule in rules}
    assert set(table["questions"]) == asked
    for qid, row in table["questions"].items():
        assert 0 < row["true"] < row["files"], f"{qid} ({row['question']}) never varies: {row}"


def test_paired_questions_get_consistent_truths(forty: tuple[Path, dict]) -> None:
    folder, _ = forty
    qa = _qa(folder)
    relations: dict[tuple[str, str], set[bool]] = {}
    for domain, pairs in PAIRS.items():
        for entry in qa[domain]["files"].values():
            answers = entry["answers"]
            for q1, q2 in pairs:
                if q1 in answers and q2 in answers:
                    relations.setdefault((q1, q2), set()).add(answers[q1] == answers[q2])
    assert set(relations) == {pair for pairs in PAIRS.values() for pair in pairs}  # all six published pairs asked
    for pair, seen in relations.items():
        if pair in OPPOSITE_PAIRS:
            assert seen == {False}, f"{pair}: the physics makes these opposite, the truths disagree"
        else:  # independent facts: both relations occur, so answering "opposite" every time is not rewarded
            assert seen == {True, False}, pair


def test_the_layout_loads_in_every_modality_and_the_oracle_is_consistent(
    forty: tuple[Path, dict], tmp_path: Path
) -> None:
    folder, table = forty
    for modality in ("image", "video", "text"):
        (log,) = inspect_eval(
            seesim(data=str(folder), modality=modality, oracle=True),
            model="mockllm/model",
            log_dir=str(tmp_path),
            display="none",
        )
        values = {k: v.value for s in log.results.scores for k, v in s.metrics.items()}
        assert len(log.samples) == table["answers"]
        assert values["accuracy"] == values["consistency"] == values["validation_accuracy"] == 1.0
        assert log.eval.metadata["generated"]["seed"] == 1 and not log.eval.metadata["verified_copy"]
    (log,) = inspect_eval(
        seesim(data=str(folder), modality="text"), model="mechbench/always-true", log_dir=str(tmp_path), display="none"
    )
    accuracy = next(v.value for s in log.results.scores for k, v in s.metrics.items() if k == "accuracy")
    assert accuracy == pytest.approx(table["always_true"])


def test_provenance_says_how_every_answer_was_derived(forty: tuple[Path, dict], seesim_data: Path) -> None:
    folder, _ = forty
    manifest = json.loads((folder / "generated.json").read_text())
    published = json.loads((seesim_data / "benchmark" / "qa-benchmark-with-qids.json").read_text())
    every = {q["qid"] for d in ("structural", "fluid") for q in published[d]["questions"]}
    derived = {qid for d in manifest["derivations"].values() for qid in d}
    assert derived | set(manifest["not_asked"]) == every and not derived & set(NOT_ASKED)  # all 40, once each
    for key, entry in manifest["files"].items():
        assert entry["setup"] and entry["facts"] and entry["answers"], key
    for domain in ("structural", "fluid"):
        for name in ("images/File_1.png", "videos/File_1.gif", "text/File_1.txt"):
            assert (folder / "data" / domain / name).stat().st_size > 0


def test_published_wording_comes_from_a_seesim_copy(tmp_path: Path, seesim_data: Path) -> None:
    write_seesim(tmp_path, 1, 3, questions=str(seesim_data), workers=1)
    published = json.loads((seesim_data / "benchmark" / "qa-benchmark-with-qids.json").read_text())
    mine = _qa(tmp_path)
    for domain in ("structural", "fluid"):
        texts = {q["qid"]: q["question"] for q in published[domain]["questions"]}
        assert all(q["question"] == texts[q["qid"]] for q in mine[domain]["questions"])
    assert mine["generator"]["question_wording"] == "published"


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    write_seesim(tmp_path / "a", 1, 5, questions="mechbench", workers=1)
    write_seesim(tmp_path / "b", 1, 5, questions="mechbench", workers=2)
    tree = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    assert tree and all((tmp_path / "b" / k).read_bytes() == v for k, v in tree.items())


@pytest.mark.parametrize(("domain", "index"), [("structural", 0), ("structural", 5), ("fluid", 1), ("fluid", 3)])
def test_the_bundled_set_is_what_its_command_writes(domain: str, index: int) -> None:
    folder = bundled("seesim")
    result = simulate((domain, 2026, index))
    data = folder / "data" / domain
    assert (data / "images" / f"File_{index + 1}.png").read_bytes() == result["png"]
    assert (data / "videos" / f"File_{index + 1}.gif").read_bytes() == result["gif"]
    assert (data / "text" / f"File_{index + 1}.txt").read_text() == result["text"]
    key = f"File_{index + 1 + (6 if domain == 'fluid' else 0)}"
    assert _qa(folder)[domain]["files"][key]["answers"] == result["answers"]


def test_the_command_prints_the_balance_and_refuses_bad_arguments(tmp_path: Path, seesim_data: Path) -> None:
    from typer.testing import CliRunner

    from mechbench.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["generate", "seesim", "-o", str(tmp_path), "--n", "1", "--questions", "mechbench"])
    assert result.exit_code == 0, result.stderr
    assert "wrote 1 structural and 1 fluid simulations" in result.stdout and "always-True" in result.stdout
    assert (tmp_path / "data" / "fluid" / "videos" / "File_1.gif").is_file()
    result = runner.invoke(app, ["generate", "seesim", "-o", str(tmp_path / "x"), "--n", "0"])
    assert result.exit_code == 2 and "--n must be at least 1" in result.stderr
    missing = tmp_path / "no-such-copy"
    result = runner.invoke(
        app, ["generate", "seesim", "-o", str(tmp_path / "y"), "--n", "1", "--questions", str(missing)]
    )
    assert result.exit_code == 2 and "error:" in result.stderr
    assert not (tmp_path / "y" / "data").exists()  # refused before simulating anything
