"""The bounds mechbench puts on a run: retries and time per model call, and what ``mechbench eval`` adds to
``inspect eval``. Plain values, so that the command line reads them without loading Inspect
(:mod:`mechbench.harness.reliability` explains how they work together)."""

from __future__ import annotations

from typing import Any

MAX_RETRIES = 8
"""Retries of one model call (Inspect back-off starts at 3 s and doubles: about 13 minutes of waiting in all)."""
ATTEMPT_TIMEOUT = 600
"""Seconds one request may take before it is abandoned and retried (long enough for 16k-token reasoning)."""
TIMEOUT = 3600
"""Seconds one model call may take, all its retries included."""
GENERATE_DEFAULTS: dict[str, Any] = {
    "max_retries": MAX_RETRIES,
    "attempt_timeout": ATTEMPT_TIMEOUT,
    "timeout": TIMEOUT,
}

EVAL_DEFAULTS: dict[str, Any] = {
    "continue_on_fail": True,
    "retry_on_error": 3,
    "log_buffer": 1,
    "log_level_transcript": "http",
}
"""What ``mechbench eval`` adds to ``inspect eval`` unless the user gave the option."""
