"""How mechbench runs Inspect in its own process (the demo, ``mechbench check``, the shortcut panels): quietly and
without the work that only a watched run needs."""

from __future__ import annotations

from typing import Any

QUIET_EVAL: dict[str, Any] = {"display": "log", "log_realtime": False, "log_level": "error", "score_display": False}
"""Inspect options of an in-process run whose progress mechbench reports itself.

``display="none"`` still lays out the rich task-results table of every run (rich only hides the output): on the
demo's 90 runs that took a third of the time; the ``log`` display lays out nothing. ``log_realtime=False`` skips the
live sample buffer (an SQLite database ``inspect view`` reads while a run is going on) and ``score_display=False``
the metrics recomputed every second for a progress line nobody sees; the logs are the same.
``log_level="error"``: warnings the caller has already said in its own words (a generated SeeSim set is not the
published one) are not repeated on the console; they stay in the logs."""
