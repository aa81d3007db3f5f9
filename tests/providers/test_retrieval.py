"""The nearest-neighbour baselines: upstream's similarity, self-skipping, and the same version's records."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from mechbench.benchmarks.sphyr.dataset import read_records
from mechbench.benchmarks.sphyr.retrieval import retrieve, similarity
from mechbench.harness.quiet import QUIET_EVAL
from mechbench.tasks import sphyr


def test_similarity_counts_visible_cells_the_truth_repeats() -> None:
    query = [["L", "V"], ["1", "S"]]
    assert similarity(query, [["L", "0"], ["1", "S"]]) == 3
    assert similarity(query, [["0", "1"], ["0", "S"]]) == 1
    # The perfect match is skipped by retrieval, kept by lookup; ties go to the first candidate.
    candidates = [[["L", "1"], ["1", "S"]], [["L", "0"], ["0", "S"]], [["L", "1"], ["0", "S"]]]
    assert retrieve(query, candidates, skip_perfect=False) == [["L", "1"], ["1", "S"]]
    assert retrieve(query, candidates, skip_perfect=True) == [["L", "0"], ["1", "S"]]
    assert retrieve(query, [[["1"]]], skip_perfect=True) == query  # no candidate of this shape: V left


@pytest.mark.parametrize("size_folder", ["sphyr_v2_data", "sphyr_v2_20_data"])
def test_lookup_finds_the_sample_and_retrieval_does_not(
    request: pytest.FixtureRequest, tmp_path: Path, size_folder: str
) -> None:
    folder = request.getfixturevalue(size_folder)
    version = "v2" if size_folder == "sphyr_v2_data" else "v2-20"
    records = read_records(folder / "10_random_cell_easy.jsonl")
    scores = {}
    for model in ("retrieval", "retrieval-lookup"):
        (log,) = inspect_eval(
            sphyr(data=str(folder), subject="10_random_cell_easy", physics=False, version=version),
            model=f"mechbench/{model}",
            log_dir=str(tmp_path),
            **QUIET_EVAL,
        )
        assert log.status == "success" and len(log.samples) == len(records)
        scores[model] = {s.name: s.metrics["mean"].value for s in log.results.scores if s.metrics}
        if model == "retrieval":  # each answer is the best *other* record's truth in the V cells
            by_index = {r.index: r for r in records}
            for sample in log.samples:
                record = by_index[sample.metadata["index"]]
                others = [r.ground_truth for r in records if r.index != record.index]
                expected = retrieve(record.input_grid, others, skip_perfect=True)
                assert sample.output.completion == "\n".join(" ".join(row) for row in expected)
    assert scores["retrieval-lookup"]["exact_match"] == 1.0  # its own record is in the corpus
    assert scores["retrieval"]["exact_match"] < 1.0


def test_retrieval_outside_a_sphyr_task_says_what_it_needs(tmp_path: Path, sphyr_v2_data: Path) -> None:
    from inspect_ai.model import ChatMessageUser

    from mechbench.providers.model import MechbenchModel

    model = MechbenchModel("retrieval")
    with pytest.raises(ValueError, match=r"answers sphyr prompts and does not recognise this one \('no grid here'"):
        model.answer([ChatMessageUser(content="no grid here")])
    rotated = sphyr(data=str(sphyr_v2_data), subject="full_easy", physics=False, rotation=1, samples="1")
    assert rotated.dataset[0].input[0].metadata["sphyr_rotation"] == 1  # candidates are turned like the query
