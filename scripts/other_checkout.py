"""Print the folder of another mechbench checkout installed editable into this Python, or nothing.

``scripts/test.sh`` calls it before installing: one interpreter holds one editable install, and replacing another
checkout's would make that checkout's tests import this one. Standard library only (it runs before any install).
"""

from __future__ import annotations

import json
import sys
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

HERE = Path(__file__).resolve().parents[1]


def installed_checkout() -> Path | None:
    """The folder mechbench is installed editable from, if it is and the folder is still a checkout."""
    try:
        text = metadata.distribution("mechbench").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        info = json.loads(text or "{}")
    except ValueError:
        return None
    url = urlparse(info.get("url", ""))
    if not info.get("dir_info", {}).get("editable") or url.scheme != "file":
        return None
    folder = Path(unquote(url.path)).resolve()
    return folder if (folder / "pyproject.toml").is_file() else None


def main() -> int:
    """Print another checkout's folder (exit 0 either way: the caller decides)."""
    folder = installed_checkout()
    if folder is not None and folder != HERE:
        print(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
