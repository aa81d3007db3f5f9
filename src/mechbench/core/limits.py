"""The limits on everything mechbench reads from outside, stated once and checked before the work.

Each limit is far above what the published data needs (named beside it), and low enough that a hostile or broken
input is refused in seconds with one line instead of filling memory. The download and archive limits live with the
downloader (:mod:`mechbench.sources`), the media ones with the media check (:mod:`mechbench.sources.media`); these are
the ones the benchmark readers share.
"""

from __future__ import annotations

from mechbench.core.errors import DataSourceError

MAX_GRID_SIDE = 100
"""Rows or columns of a SPhyR grid (the published sets are 10×10 and 20×20)."""
MAX_GRID_TEXT_CHARS = 200_000
"""Characters of one grid written as text (a 100×100 grid of 0.1-step densities takes ~40,000)."""
MAX_PROMPT_CHARS = 1_000_000
"""Characters of a recorded prompt a grid is read from (the published SPhyR prompts take ~4,000)."""
MAX_RECORDS_PER_FILE = 10_000
"""Records in one data, results or replay file (the largest published one, a v1 SPhyR subject, has 1,296)."""
MAX_QUESTIONS_PER_FILE = 100_000
"""Questions in one SeeSim questions file or OpenSeeSimE split (the largest published split has ~30,000)."""
MAX_SAMPLES_PER_RUN = 50_000
"""Samples one task builds from a streamed source when no count is given (Inspect holds them all; the largest
published OpenSeeSimE split, ~30,000 questions, fits)."""
MAX_QUESTIONS_FILE_BYTES = 32 * 1024**2
"""Bytes of a SeeSim questions file (the published one has ~20 KB)."""
MAX_SOURCE_TEXT_BYTES = 2 * 1024**2
"""Bytes of a source file mechbench reads as data, never runs (the official runner's ``run_eval.py`` is ~20 KB)."""
MAX_CALIBRATION_BYTES = 64 * 1024**2
"""Bytes of a stored item calibration the report reads (10,000 items take about 1 MB)."""
MAX_GENERATED_ITEMS = MAX_RECORDS_PER_FILE
"""Items one ``mechbench generate`` command may be asked for (``--n``: per subject for SPhyR, per domain for SeeSim):
no more than ``eval`` reads from one data file, so that a set generated is never one ``eval`` refuses."""


def check_count(count: int, limit: int, what: str, where: str) -> None:
    """Refuse ``count`` ``what`` in ``where`` past ``limit`` (one line, before any of them is read)."""
    if count > limit:
        raise DataSourceError(f"{where}: {count} {what}, more than the {limit} mechbench reads from one file; refused")


def grid_rows(text: str, what: str, where: str) -> list[list[str]]:
    """A grid written as text, split into rows of tokens, refused unsplit when it could not be a SPhyR grid."""
    if len(text) > MAX_GRID_TEXT_CHARS:
        raise DataSourceError(f"{where}: {what} is {len(text)} characters, more than a grid of at most "
                              f"{MAX_GRID_SIDE}×{MAX_GRID_SIDE} cells takes; refused")  # fmt: skip
    return check_grid([line.split() for line in text.strip().splitlines() if line.strip()], what, where)


def check_grid(rows: list, what: str, where: str) -> list:
    """``rows`` if the grid is at most :data:`MAX_GRID_SIDE` on each side (a one-line refusal otherwise)."""
    width = max((len(row) for row in rows if isinstance(row, list | str)), default=0)
    if len(rows) > MAX_GRID_SIDE or width > MAX_GRID_SIDE:
        raise DataSourceError(f"{where}: {what} is {len(rows)}×{width} cells; SPhyR grids are at most "
                              f"{MAX_GRID_SIDE}×{MAX_GRID_SIDE}; refused")  # fmt: skip
    return rows


def check_prompt(prompt: str, where: str) -> str:
    """``prompt`` if it is at most :data:`MAX_PROMPT_CHARS` long (a one-line refusal otherwise)."""
    if len(prompt) > MAX_PROMPT_CHARS:
        raise DataSourceError(f"{where}: the prompt is {len(prompt)} characters, more than {MAX_PROMPT_CHARS}; refused")
    return prompt
