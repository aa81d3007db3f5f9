"""The exact samples of a published SPhyR column, rebuilt from its results files.

v1's random masks were re-rolled after publication, so the grids behind a published column exist only in its
results files (``<subject>_results.json``: prompt, ground truth and completion per record). As upstream's
replay does, a sample is the record's prompt verbatim, the last grid block of that prompt as the input grid
and the stored ground truth; records keep their file order. The load direction follows the folder name
(``…_k_rotations``), as the published rescoring reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mechbench.benchmarks.sphyr.rescore import gravity_for_results, read_results_file, record_grids
from mechbench.core.errors import DataSourceError
from mechbench.core.limits import check_prompt

RESULTS_SUFFIX = "_results.json"
REPLAY_PREFIX = "replay:"


@dataclass(frozen=True)
class PublishedSample:
    """One record of a published results file, as a task."""

    id: str
    subject: str
    position: int
    prompt: str
    input_grid: list[list[str]]
    ground_truth: list[list[str]]
    gravity: tuple[float, float]
    source: str


def published_id(subject: str, position: int) -> str:
    """The sample id of record ``position`` of a subject's results file (shared by the task and the replay model)."""
    return f"{subject}-published-{position}"


def results_files(path: Path, subjects: list[str] | None = None) -> dict[str, Path]:
    """``{subject: results file}`` for a results file or a folder of them (aggregated files skipped)."""
    if path.is_file():
        if not path.name.endswith(RESULTS_SUFFIX):
            raise DataSourceError(f"{path.name}: a published results file is named <subject>{RESULTS_SUFFIX}")
        found = {path.name[: -len(RESULTS_SUFFIX)]: path}
    elif path.is_dir():
        found = {
            p.name[: -len(RESULTS_SUFFIX)]: p
            for p in sorted(path.glob(f"*{RESULTS_SUFFIX}"))
            if not p.name.endswith(f"_aggregated{RESULTS_SUFFIX}")
        }
    else:
        raise DataSourceError(f"{path} does not exist")
    if subjects is not None:
        missing = [s for s in subjects if s not in found]
        if missing and len(subjects) == 1:
            raise DataSourceError(f"no {missing[0]}{RESULTS_SUFFIX} in {path}")
        found = {s: p for s, p in found.items() if s in subjects}
    if not found:
        raise DataSourceError(f"no <subject>{RESULTS_SUFFIX} files in {path}")
    return found


def published_samples(file: Path, subject: str) -> list[PublishedSample]:
    """Every record of one results file as a sample (an unreadable record is an error naming it)."""
    gravity = gravity_for_results(file)
    samples = []
    for position, record in enumerate(read_results_file(file)):
        if not isinstance(record.get("prompt"), str):
            raise DataSourceError(f"{file.name} record {position}: no prompt to replay")
        check_prompt(record["prompt"], f"{file.name} record {position}")
        input_grid, truth = record_grids({k: v for k, v in record.items() if k != "input_grid"}, position, file.name)
        samples.append(
            PublishedSample(
                id=published_id(subject, position),
                subject=subject,
                position=position,
                prompt=record["prompt"],
                input_grid=input_grid,
                ground_truth=truth,
                gravity=gravity,
                source=f"{file.parent.name}/{file.name}",
            )
        )
    return samples


def published_completions(path: Path) -> dict[str, list[str]]:
    """``{sample id: [completion]}`` of every record in a results file or folder (what ``mechbench/replay`` plays).

    A missing or non-text completion replays as an empty reply, which is what the published run scored.
    """
    out: dict[str, list[str]] = {}
    for subject, file in results_files(path).items():
        for position, record in enumerate(read_results_file(file)):
            completion = record.get("completion")
            out[published_id(subject, position)] = [completion if isinstance(completion, str) else ""]
    return out
