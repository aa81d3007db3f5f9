"""Recorded replies, replayed: score outputs collected elsewhere through the normal tasks.

File format (JSONL), one object per line: ``{"id": SAMPLE_ID, "reply": TEXT}`` or ``{"id": SAMPLE_ID,
"replies": [TEXT, ...]}``; several lines with one id are successive attempts. A tool-using conversation (the
tool setting) is ``{"id": SAMPLE_ID, "turns": [TURN, ...]}``, each turn ``{"tool": NAME, "arguments": {...}}``
(a tool call; ``submit`` ends it) or ``{"reply": TEXT}``; the tools run again on replay, so their results are
mechbench's, not recorded ones. A line may carry ``"prompt"`` instead of ``"id"`` to be matched by the exact
prompt text. Attempt k of a sample gets the k-th recorded reply; past the last one there is nothing to replay
(see :data:`~mechbench.harness.replies.REPLAY_EXHAUSTED`).

Each file is its own recorded model: the report keeps replays of different files (or of different ``-M name=NAME``,
which names the model whose replies they are; the replay itself ignores it) in rows of their own
(:mod:`mechbench.report.models`).

Benchmarks may read their own formats too (their spec's ``replay_readers``): a published SPhyR results file
(``<subject>_results.json``) or a folder of them replays each record's completion for the sample
``-T samples=replay:PATH`` builds from the same record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mechbench import registry
from mechbench.core import safejson
from mechbench.core.errors import DataSourceError, MechbenchError
from mechbench.core.limits import MAX_RECORDS_PER_FILE, check_count
from mechbench.sources.files import read_data_text


class ReplayFileError(MechbenchError):
    """The replay file is missing or malformed."""


def _turns(value: Any, where: str) -> list[dict[str, Any]]:
    """A recorded tool conversation, checked turn by turn (one line naming the bad turn otherwise)."""
    if not isinstance(value, list) or not value:
        raise ReplayFileError(f"{where}: turns must be a non-empty list")
    for k, turn in enumerate(value):
        tool_call = (
            isinstance(turn, dict) and isinstance(turn.get("tool"), str) and isinstance(turn.get("arguments"), dict)
        )
        reply = isinstance(turn, dict) and isinstance(turn.get("reply"), str)
        if not (tool_call or reply):
            raise ReplayFileError(
                f"{where}: turn {k} must be {{'tool': NAME, 'arguments': {{...}}}} or {{'reply': TEXT}}"
            )
    return value


MAX_REPLAY_FILE_BYTES = 128 * 1024**2
"""Bytes of a replay file (10,000 records of ~12 KB; a published SPhyR results file takes ~5 MB)."""
MAX_REPLAY_LINE_CHARS = 8 * 1024**2
"""Characters of one replay record: a reply longer than any benchmark reads (SPhyR keeps the last 1,000,000)."""


class ReplayBook:
    """Replies by sample id or prompt text, in recorded order."""

    def __init__(self, path: str | Path):
        path = Path(path)
        self.by_key: dict[str, list[str]] = {}
        self.turns: dict[str, list[dict[str, Any]]] = {}
        reader = next((r for r in registry.replay_readers() if r.accepts(path)), None)
        if reader is not None:
            try:
                self.by_key = reader.read(path)
            except DataSourceError as error:
                raise ReplayFileError(f"cannot read recorded replies {path}: {error}") from None
            return
        try:
            lines = read_data_text(path, MAX_REPLAY_FILE_BYTES).splitlines()
            records = sum(1 for line in lines if line.strip())
            check_count(records, MAX_RECORDS_PER_FILE, "records", path.name)
        except DataSourceError as error:
            raise ReplayFileError(f"cannot read replay file {path}: {error}") from None
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            if len(line) > MAX_REPLAY_LINE_CHARS:
                raise ReplayFileError(
                    f"{path.name} line {number}: {len(line)} characters, more than the {MAX_REPLAY_LINE_CHARS} a "
                    "recorded reply may have; refused"
                )
            try:
                record = safejson.loads(line)
            except json.JSONDecodeError as error:
                raise ReplayFileError(f"{path.name} line {number}: not JSON ({error.msg})") from None
            except safejson.JSONNestingError as error:
                raise ReplayFileError(f"{path.name} line {number}: {error}") from None
            if not isinstance(record, dict):
                raise ReplayFileError(f"{path.name} line {number}: expected an object")
            key = record.get("id", record.get("prompt"))
            if "turns" in record and key is not None:
                self.turns[str(key)] = _turns(record["turns"], f"{path.name} line {number}")
                continue
            replies = record.get("replies", [record["reply"]] if "reply" in record else None)
            if key is None or not isinstance(replies, list) or not all(isinstance(r, str) for r in replies):
                raise ReplayFileError(f"{path.name} line {number}: needs id (or prompt) and reply (or replies)")
            self.by_key.setdefault(str(key), []).extend(replies)

    @staticmethod
    def _recorded(table: dict[str, list[Any]], sample_id: str | None, prompt: str, what: str) -> list[Any]:
        found = table.get(str(sample_id)) if sample_id is not None else None
        if found is None:
            found = table.get(prompt)
        if found is None:
            raise ReplayFileError(f"no recorded {what} for sample {sample_id!r}")
        return found

    def turn(self, sample_id: str | None, prompt: str, index: int) -> dict[str, Any] | None:
        """Turn ``index`` (0-based) of the sample's recorded tool conversation; None past the last one."""
        turns = self._recorded(self.turns, sample_id, prompt, "tool conversation")
        return turns[index] if index < len(turns) else None

    def replies(self, sample_id: str | None, prompt: str) -> list[str]:
        """Every recorded reply of the sample, in order."""
        return list(self._recorded(self.by_key, sample_id, prompt, "reply"))

    def reply(self, sample_id: str | None, prompt: str, attempt: int) -> str | None:
        """The recorded reply for this sample's attempt (0-based); None past the last one."""
        replies = self._recorded(self.by_key, sample_id, prompt, "reply")
        return replies[attempt] if attempt < len(replies) else None
