"""Headless Chromium for the report tests: a page's screenshot, or its DOM as the browser built it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium(page: Path, work: Path, *options: str) -> str:
    """Run Chromium headless on ``page`` with ``options`` (``--screenshot=…``, ``--dump-dom``); what it printed."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser, "Chromium is required for this test (scripts/test.sh installs Debian's chromium package)"
    done = subprocess.run(
        [browser, *FLAGS, f"--user-data-dir={work / 'profile'}", *options, page.as_uri()],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout
