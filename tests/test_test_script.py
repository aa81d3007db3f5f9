"""``scripts/test.sh`` in a second checkout on the same machine: it stops at once with a one-line reason instead of
installing itself over the other checkout's editable install (which would make that checkout's tests import this
one), and goes on where the installed checkout is its own or the user says to replace it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _installed_from(tmp_path: Path, folder: Path, editable: bool = True) -> dict[str, str]:
    """An environment whose Python finds mechbench installed from ``folder`` first (a dist-info on PYTHONPATH), and
    whose ``pip`` fails loudly: the script must decide before it installs anything."""
    site = tmp_path / "site"
    info = site / "mechbench-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mechbench\nVersion: 0.1.0\n")
    direct = {"url": folder.as_uri(), "dir_info": {"editable": True} if editable else {}}
    (info / "direct_url.json").write_text(json.dumps(direct))
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool, code in (("pip", 97), ("chromium", 0)):
        (bin_ / tool).write_text(f"#!/bin/sh\necho '{tool} was called' >&2\nexit {code}\n")
        (bin_ / tool).chmod(0o755)
    (bin_ / "python").symlink_to(sys.executable)
    env = {**os.environ, "PYTHONPATH": str(site), "PATH": f"{bin_}{os.pathsep}{os.environ['PATH']}"}
    env.pop("MECHBENCH_TEST_REPLACE_INSTALL", None)
    return env


def _checkout(path: Path) -> Path:
    path.mkdir(parents=True)
    (path / "pyproject.toml").write_text("[project]\nname = 'mechbench'\n")
    return path


def test_a_second_checkout_stops_at_once_naming_the_installed_one(tmp_path: Path) -> None:
    other = _checkout(tmp_path / "other clone")
    env = _installed_from(tmp_path, other)
    done = subprocess.run(["bash", "scripts/test.sh"], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and str(other) in lines[0]
    assert "virtual environment" in lines[0] and "MECHBENCH_TEST_REPLACE_INSTALL=1" in lines[0]
    assert "pip was called" not in done.stderr


def test_replacing_the_other_install_is_the_users_call(tmp_path: Path) -> None:
    env = {**_installed_from(tmp_path, _checkout(tmp_path / "other")), "MECHBENCH_TEST_REPLACE_INSTALL": "1"}
    done = subprocess.run(["bash", "scripts/test.sh"], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert "pip was called" in done.stderr and done.returncode == 97  # it went on to install (here a stand-in pip)


def test_its_own_install_a_wheel_or_a_deleted_checkout_are_no_other_checkout(tmp_path: Path) -> None:
    script = [sys.executable, "scripts/other_checkout.py"]
    cases = {
        "own": _installed_from(tmp_path / "own", REPO),
        "wheel": _installed_from(tmp_path / "wheel", _checkout(tmp_path / "w"), editable=False),
        "gone": _installed_from(tmp_path / "gone", tmp_path / "deleted"),
    }
    for case, env in cases.items():
        done = subprocess.run(script, cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=True)
        assert done.stdout == "", case
