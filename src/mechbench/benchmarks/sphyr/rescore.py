"""Rescoring SPhyR completions produced elsewhere (the published results files, or JSONL)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mechbench.benchmarks.sphyr.load_direction import Finding, LoadDirection, find, mean_over_directions
from mechbench.benchmarks.sphyr.parse import Parser
from mechbench.benchmarks.sphyr.physics_scoring import (
    JUDGE_BUDGET_S,
    JudgeLimitError,
    Reference,
    check_judged_cells,
    metric_names,
    physics_score,
)
from mechbench.benchmarks.sphyr.prompts import grid_from_prompt
from mechbench.benchmarks.sphyr.scoring import GridScore, score_grid, totals
from mechbench.core import safejson
from mechbench.core.budget import BudgetExceededError, time_budget
from mechbench.core.errors import DataSourceError
from mechbench.core.executor import run_batch
from mechbench.core.limits import MAX_RECORDS_PER_FILE, check_count, check_grid, check_prompt, grid_rows
from mechbench.sources.files import read_data_text


def _grid(value: Any, what: str, where: str) -> list[list[str]]:
    if isinstance(value, str):
        rows = grid_rows(value, what, where)
    elif isinstance(value, list) and all(isinstance(row, list) for row in value):
        rows = [[str(cell) for cell in row] for row in check_grid(value, what, where)]
    else:
        raise DataSourceError(f"{where}: {what} must be a grid (text or list of rows)")
    if not rows:
        raise DataSourceError(f"{where}: {what} is empty")
    return rows


def read_results_file(path: Path) -> list[dict[str, Any]]:
    """Records of a published results file (JSON array) or a JSONL of completions."""
    if not path.exists():
        raise DataSourceError(f"{path} does not exist")
    text = read_data_text(path)
    stripped = text.lstrip()
    try:
        if stripped.startswith("["):
            records = safejson.loads(text)
            check_count(len(records) if isinstance(records, list) else 0, MAX_RECORDS_PER_FILE, "records", path.name)
        else:
            lines = [line for line in text.splitlines() if line.strip()]
            check_count(len(lines), MAX_RECORDS_PER_FILE, "records", path.name)
            records = [safejson.loads(line) for line in lines]
    except json.JSONDecodeError as error:
        raise DataSourceError(f"{path} is neither a JSON array nor JSONL: {error.msg} at line {error.lineno}") from None
    except safejson.JSONNestingError:
        raise DataSourceError(f"{path} nests too deeply to be read") from None
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise DataSourceError(f"{path}: every record must be a JSON object")
    if not records:
        raise DataSourceError(f"{path} holds no records")
    return records


def record_grids(record: dict[str, Any], position: int, source: str = "") -> tuple[list[list[str]], list[list[str]]]:
    """(input grid, ground truth) of a record: the input from ``input_grid`` or the published prompt.

    ``source`` names the file in errors."""
    where = f"{source} record {position}".strip()
    if "ground_truth" not in record:
        raise DataSourceError(f"{where}: no ground_truth")
    truth = _grid(record["ground_truth"], "ground_truth", where)
    if "input_grid" in record:
        return _grid(record["input_grid"], "input_grid", where), truth
    if isinstance(record.get("prompt"), str):
        try:
            return grid_from_prompt(check_prompt(record["prompt"], where)), truth
        except ValueError as error:
            raise DataSourceError(f"{where}: {error}") from None
    raise DataSourceError(f"{where}: needs input_grid or the published prompt")


def rescore_record(
    record: dict[str, Any], position: int, parser: Parser = "current", gravity: tuple[float, float] = (1.0, 0.0)
) -> GridScore:
    """Score one record: the truth and input from the record, the completion as the reply.

    A missing or non-text completion is an answer like any other: it scores 0 with its reason.
    """
    input_grid, truth = record_grids(record, position)
    completion = record.get("completion")
    reply = completion if isinstance(completion, str) else ""
    return score_grid(input_grid, truth, reply, parser, gravity)


UNSCORED_FIELD = "physics_unscored"
"""A record's field naming why the physics judge left it unscored (past its budget or size limit); its physics is
then out of the totals, counted in ``physics_unscored_samples``."""


def physics_job(job: tuple[list[list[str]], list[list[str]], list[list[str]], Any, str]) -> dict[str, Any]:
    """Physics fields of one (input, truth, answer, directions, reference) job, as a plain dict (any worker).

    ``directions`` is one (row, col) load direction or several, whose scores are averaged (an ambiguous load).
    """
    input_grid, truth, answer, directions, reference = job
    if directions and not isinstance(directions[0], list | tuple):
        directions = [directions]
    scores = []
    try:
        for g in directions:  # each direction a judgement with its own budget, as in a run
            with time_budget(JUDGE_BUDGET_S, "the physics judge"):
                scores.append(physics_score(input_grid, truth, answer, tuple(g), reference))
    except (BudgetExceededError, JudgeLimitError) as error:  # mechbench's limit, not the answer's failure
        return {UNSCORED_FIELD: str(error)}
    return mean_over_directions(scores).fields()


def finding_job(job: tuple[list[list[str]], Any, str]) -> Finding:
    """The load direction(s) one record is judged under (any worker: a recovery re-runs the optimiser)."""
    truth, gravity, convention = job
    try:
        with time_budget(JUDGE_BUDGET_S, "the load-direction recovery"):
            return find(truth, tuple(gravity), convention)
    except BudgetExceededError:
        return Finding(convention, "not recovered", (tuple(gravity),))  # type: ignore[arg-type]


def gravity_for_results(path: Path | None) -> tuple[float, float]:
    """Gravity (row, col) of a published results folder: ``k_rotations`` in its name, else down (§1.2)."""
    name = path.parent.name if path is not None else ""
    for turns, gravity in ((3, (0.0, 1.0)), (2, (-1.0, 0.0)), (1, (0.0, -1.0))):
        if f"{turns}_rotations" in name:
            return gravity
    return (1.0, 0.0)


def rescore(
    records: list[dict[str, Any]],
    parser: Parser = "current",
    physics: bool = False,
    gravity: tuple[float, float] = (1.0, 0.0),
    reference: Reference = "published",
    load_direction: LoadDirection = "published",
    **executor: Any,
) -> dict[str, Any]:
    """Every record's metrics (with the reason when invalid) and the published totals.

    With ``physics``, also the finite-element fields of every record and their totals, as the published
    ``rescore`` wrote them: the physics runs whatever ``valid_output_grid`` says, and only an answer of the
    wrong shape gets the defaults. ``load_direction="recovered"`` judges each record under the load its truth was
    optimised for (:mod:`.load_direction`; each row says how it was found). Computed through
    :func:`mechbench.core.executor.run_batch` (``executor``: executor, workers, ray_address, ...).
    """
    truths = [record_grids(r, i)[1] for i, r in enumerate(records)]
    if physics:
        check_judged_cells(truths, "the results file")
    if load_direction == "recovered":
        findings = run_batch(finding_job, [(t, gravity, load_direction) for t in truths], **executor)
    else:
        findings = [find(t, gravity, load_direction) for t in truths]
    scores = [
        mean_over_directions([rescore_record(r, i, parser, g) for g in f.directions])
        for i, (r, f) in enumerate(zip(records, findings, strict=True))
    ]
    rows: list[dict[str, Any]] = [
        {"index": record.get("index"), **s.model_dump(exclude={"parsed_grid"})}
        for record, s in zip(records, scores, strict=True)
    ]
    if load_direction == "recovered":
        for row, finding in zip(rows, findings, strict=True):
            row["load_direction"] = finding.record()
    names = metric_names(reference)
    physics_totals: dict[str, float] = {f"total_{name}": 0.0 for name in names}
    if physics:
        jobs = []
        for position, (record, s, f) in enumerate(zip(records, scores, findings, strict=True)):
            jobs.append((*record_grids(record, position), s.parsed_grid, [list(g) for g in f.directions], reference))
        unscored = 0
        for row, fields in zip(rows, run_batch(physics_job, jobs, **executor), strict=True):
            row.update(fields)
            if UNSCORED_FIELD in fields:
                unscored += 1
                continue
            for name in names:
                physics_totals[f"total_{name}"] += float(fields[name] or 0.0)
        physics_totals["evaluated_samples"] = float(len(rows))
        physics_totals["physics_unscored_samples"] = float(unscored)
    out_totals = totals(scores) | (physics_totals if physics else {})
    return {
        "parser": parser,
        "physics": physics,
        "reference": reference if physics else None,
        "gravity": list(gravity) if physics else None,
        "load_direction": load_direction,
        "records": rows,
        "totals": out_totals,
    }
