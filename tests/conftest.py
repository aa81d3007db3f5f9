"""Shared fixtures.

Tests run from a bare clone: data in a benchmark's layout comes from what mechbench owns (its bundled sets, its
generators, files a test writes). Only the tests that reproduce published numbers read the publishers' data, through
:mod:`tests.published` (marked ``published``; skipped with a reason where it cannot be had, never in CI).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import mechbench  # noqa: F401  # before any test module loads numpy: its one-BLAS-thread default applies here too
from tests.published import SKIP_PREFIX, published_data  # first: it notes the user's cache before it is isolated
from tests.shared import built_once

REPO_ROOT = Path(__file__).resolve().parent.parent

# Inspect serves a control channel (FastAPI on a socket, for `inspect ctl`) during every eval; no test talks to it,
# and it costs about 0.4 s of CPU in each process that runs an eval (docs/speed.md). Set here, it reaches the
# suite's evals in this process and in the commands it starts. The SIGTERM test and CI's wheel smoke run with it on.
os.environ.setdefault("INSPECT_EVAL_CTL_SERVER", "false")


def _owned_copy(factory: pytest.TempPathFactory, name: str, source: Path) -> Path:
    """A copy of mechbench's own ``source`` folder (tests never write into the package)."""
    target = factory.mktemp(name) / source.name
    shutil.copytree(source, target)
    return target


@pytest.fixture(scope="session")
def structural_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A StructuralEval folder in the official layout (``raw_models``, ``ground_truth_meta``, ``images``): a copy
    of mechbench's bundled generated set."""
    from mechbench.sources.resolve import bundled

    return _owned_copy(tmp_path_factory, "structural", bundled("structural_eval") / "data")


@pytest.fixture(scope="session")
def sphyr_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SPhyR ``<subject>.jsonl`` files for all 16 subjects (10×10, v1 layout): mechbench's bundled set."""
    from mechbench.sources.resolve import bundled

    return _owned_copy(tmp_path_factory, "sphyr", bundled("sphyr"))


def _generated_v2(factory: pytest.TempPathFactory, version: str, n: int) -> Path:
    """``n`` records per subject from mechbench's v2 generator, written as upstream writes them (records without
    the ``load_direction`` mechbench's generator adds)."""
    from mechbench.benchmarks.sphyr.generated_set import write_sphyr

    out = factory.mktemp(f"sphyr-{version}")
    write_sphyr(out, n, 11, version=version, workers=1)
    for path in out.glob("*.jsonl"):
        records = [json.loads(line) for line in path.read_text().splitlines()]
        path.write_text(
            "".join(json.dumps({k: v for k, v in r.items() if k != "load_direction"}) + "\n" for r in records)
        )
    return out


@pytest.fixture(scope="session")
def sphyr_v2_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """10×10 v2-style SPhyR files (6 records per subject) in upstream's record format."""
    return _generated_v2(tmp_path_factory, "v2", 6)


@pytest.fixture(scope="session")
def sphyr_v2_20_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """20×20 v2-style SPhyR files (3 records per subject) in upstream's record format."""
    return _generated_v2(tmp_path_factory, "v2-20", 3)


@pytest.fixture(scope="session")
def seesim_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SeeSim folder in the published layout (``benchmark/``, ``data/``): mechbench's bundled generated set."""
    from mechbench.sources.resolve import bundled

    return _owned_copy(tmp_path_factory, "seesim", bundled("seesim"))


def _demo_benchmarks(session: pytest.Session) -> list[str]:
    """The benchmarks the session's demo tests ask about: a test parametrized by ``name`` names one, a test in
    ``tests/benchmarks/<name>/`` names its own, any other asks for every benchmark that has a demo."""
    from mechbench import registry

    every = {entry.name for entry in registry.specs() if entry.demo is not None}
    names: set[str] = set()
    for item in session.items:
        if "demo_run" not in getattr(item, "fixturenames", ()):
            continue
        param = getattr(getattr(item, "callspec", None), "params", {}).get("name")
        parts = Path(str(item.path)).relative_to(REPO_ROOT).parts
        if param:
            names.add(str(param))
        elif parts[:2] == ("tests", "benchmarks") and len(parts) > 3:
            names.add(parts[2])
        else:
            names |= every
    return sorted(names & every) or sorted(every)


@pytest.fixture(scope="session")
def demo_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """``mechbench demo --only …`` run once per session through the command line, for the benchmarks the selected
    tests ask about: its output folder and what it printed."""
    from typer.testing import CliRunner

    from mechbench.cli import app

    only = _demo_benchmarks(request.session)

    def build(folder: Path) -> None:
        result = CliRunner().invoke(app, ["demo", "-o", str(folder), "--only", ",".join(only)])
        assert result.exit_code == 0, f"mechbench demo exited {result.exit_code}: {result.stderr[-3000:]}"
        (folder / "stdout.txt").write_text(result.stdout)

    folder = built_once(tmp_path_factory, "demo-" + "-".join(only), build)
    return folder, (folder / "stdout.txt").read_text()


def _published_fixture(name: str):
    @pytest.fixture(scope="session")
    def fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
        return published_data(name, tmp_path_factory.getbasetemp() / "published")

    fixture.__doc__ = f"The publishers' {name} data (see :mod:`tests.published`)."
    return fixture


published_structural = _published_fixture("structural_eval")
published_sphyr = _published_fixture("sphyr")
published_sphyr_v2 = _published_fixture("sphyr_v2")
published_sphyr_v2_20 = _published_fixture("sphyr_v2_20")
published_seesim = _published_fixture("seesim")
PUBLISHED_FIXTURES = {
    "published_structural",
    "published_sphyr",
    "published_sphyr_v2",
    "published_sphyr_v2_20",
    "published_seesim",
    "recorded_sphyr_records",
}


@pytest.fixture(scope="session")
def recorded_sphyr_records(published_sphyr: Path) -> list[dict]:
    """The records of the published GPT-4.1 SPhyR results files of the recorded subjects."""
    from tests.published import RECORDED_SUBJECTS, RESULTS_MODEL

    folder = published_sphyr / "recorded_completions" / RESULTS_MODEL
    return [r for s in RECORDED_SUBJECTS for r in json.loads((folder / f"{s}_results.json").read_text())]


DURATIONS = REPO_ROOT / "tests" / "durations.json"
"""Seconds each test file took in a recorded run (``MECHBENCH_RECORD_DURATIONS=1``; DEVELOPING.md)."""


def _test_file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _recorded_seconds() -> dict[str, float]:
    return json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that reads the publishers' data is marked ``published`` (``-m "not published"`` leaves them out), and a
    ``long`` one ``slow``.

    Files run longest first, by :data:`DURATIONS` (files not in it last, in their own order): xdist's ``loadfile``
    hands out files in this order, so the longest start at once instead of leaving one worker busy at the end."""
    for item in items:
        if PUBLISHED_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.published)
        if item.get_closest_marker("long") and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)  # a long test is slow: -m "not slow" leaves it out
    seconds = _recorded_seconds()
    items.sort(key=lambda item: -seconds.get(_test_file(item.nodeid), 0.0))  # stable: a file's tests keep their order


_recorded: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """With ``MECHBENCH_RECORD_DURATIONS=1``, add up each file's setup, call and teardown times."""
    import os

    if os.environ.get("MECHBENCH_RECORD_DURATIONS") == "1":
        _recorded[_test_file(report.nodeid)] = _recorded.get(_test_file(report.nodeid), 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """With ``MECHBENCH_RECORD_DURATIONS=1``, write the files' times into :data:`DURATIONS` (merged with the files
    this run did not run; the xdist controller writes, the workers do not)."""
    if not _recorded or hasattr(session.config, "workerinput"):
        return
    seconds = _recorded_seconds()
    seconds.update({name: round(value, 1) for name, value in _recorded.items()})
    ordered = dict(sorted(seconds.items(), key=lambda kv: -kv[1]))
    DURATIONS.write_text(json.dumps(ordered, indent=1) + "\n")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say how many tests were skipped for want of the published data (and how to run them); with
    ``MECHBENCH_TEST_SUMMARY`` set, the line also goes to that file, for ``scripts/test.sh`` to end with."""
    import os

    skipped = [r for r in terminalreporter.stats.get("skipped", []) if SKIP_PREFIX in str(getattr(r, "longrepr", ""))]
    if skipped:
        line = (
            f"{len(skipped)} published-number tests skipped ({SKIP_PREFIX} offline, no local copy); "
            "MECHBENCH_PUBLISHED_DATA=DIR runs them on a local copy (DEVELOPING.md)"
        )
    else:
        line = "published-number tests: none skipped"
    terminalreporter.write_line(line, yellow=bool(skipped))
    if os.environ.get("MECHBENCH_TEST_SUMMARY"):
        Path(os.environ["MECHBENCH_TEST_SUMMARY"]).write_text(line + "\n")


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
