"""Shared fixtures. The published benchmark data lives in ``../shared/data`` next to the checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def shared_data() -> Path:
    """The shared benchmark data folder; fails the test loudly when it is missing."""
    path = REPO_ROOT.parent / "shared" / "data"
    if not path.is_dir():
        pytest.fail(f"shared benchmark data not found: expected {path} next to the repository", pytrace=False)
    return path


@pytest.fixture(scope="session")
def shared() -> Path:
    """Path of ``../shared/data``."""
    return shared_data()


@pytest.fixture(scope="session")
def structural_data(shared: Path) -> Path:
    """Path of the StructuralEval data (raw_models, ground_truth_meta)."""
    path = shared / "structural_eval"
    if not (path / "raw_models").is_dir():
        pytest.fail(f"{path}/raw_models is missing", pytrace=False)
    return path


@pytest.fixture(scope="session")
def sphyr_data(shared: Path) -> Path:
    """Path of the SPhyR samples (``<subject>.jsonl``, ``PROMPT.md``, recorded completions)."""
    path = shared / "sphyr"
    if not (path / "full_easy.jsonl").is_file():
        pytest.fail(f"{path}/full_easy.jsonl is missing", pytrace=False)
    return path


@pytest.fixture
def http_server(tmp_path: Path):
    """A static HTTP server on 127.0.0.1 serving ``tmp_path / 'www'``; yields (root folder, base URL)."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    root = tmp_path / "www"
    root.mkdir()

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory):
    """Downloads and rendered drawings go to a per-session cache, not the user's ~/.cache/mechbench."""
    import os

    old = os.environ.get("MECHBENCH_CACHE")
    os.environ["MECHBENCH_CACHE"] = str(tmp_path_factory.mktemp("mechbench-cache"))
    yield
    if old is None:
        os.environ.pop("MECHBENCH_CACHE", None)
    else:
        os.environ["MECHBENCH_CACHE"] = old


@pytest.fixture(scope="session")
def seesim_data(shared: Path) -> Path:
    """Path of the SeeSim benchmark (``benchmark/``, ``data/``)."""
    path = shared / "seesim"
    if not (path / "benchmark" / "qa-benchmark-with-qids.json").is_file():
        pytest.fail(f"{path}/benchmark/qa-benchmark-with-qids.json is missing", pytrace=False)
    return path


def recorded_sphyr_records() -> list[dict]:
    """The records of the four recorded GPT-4.1 SPhyR results files (18 records)."""
    import json

    folder = shared_data() / "sphyr" / "recorded_completions" / "gpt-4.1-2025-04-14"
    files = [f for f in sorted(folder.glob("*_results.json")) if "aggregated" not in f.name]
    if len(files) != 4:
        pytest.fail(f"expected 4 recorded results files in {folder}", pytrace=False)
    return [r for f in files for r in json.loads(f.read_text())]
