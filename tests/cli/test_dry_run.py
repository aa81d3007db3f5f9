"""``mechbench eval … --dry-run``: the samples, the most model calls, the media and a token estimate of every
benchmark, printed without a single connection."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from typer.testing import CliRunner

from mechbench import registry
from mechbench.cli import app
from mechbench.cli.dry_run import image_tokens, no_network

runner = CliRunner()
NAMES = [entry.name for entry in registry.specs()]


@pytest.fixture
def counting_server() -> Iterator[tuple[str, list[str]]]:
    """A local server that records every request it gets (and answers 404)."""
    seen: list[str] = []

    class Counting(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            self.send_error(404)

        do_HEAD = do_GET

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("name", NAMES)
def test_every_benchmark_prints_its_estimate_for_two_models(name: str) -> None:
    shortcut = registry.spec(name).shortcuts[0]  # type: ignore[union-attr]
    models = f"mechbench/random,mechbench/{shortcut}"
    result = runner.invoke(app, ["eval", name, "-T", "data=bundled", "--model", models, "--limit", "3", "--dry-run"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "nothing was sent, no network used" in out
    assert "samples: 3 × 1 epoch × 2 models = 6 sample runs" in out
    calls = int(re.search(r"at most (\d+) per sample", out).group(1))  # type: ignore[union-attr]
    assert calls >= 1 and f"→ at most {6 * calls};" in out
    assert re.search(r"input ~[\d,]+ on the first call", out) and "Multiply by your provider's prices" in out


def test_feedback_rounds_and_tool_budgets_raise_the_most_calls() -> None:
    def calls(*task_args: str) -> int:
        argv = ["eval", "structural_eval", "-T", "data=bundled", "--model", "mechbench/random", "--dry-run"]
        for arg in task_args:
            argv += ["-T", arg]
        result = runner.invoke(app, argv)
        assert result.exit_code == 0, result.output
        return int(re.search(r"at most (\d+) per sample", result.stdout).group(1))  # type: ignore[union-attr]

    assert calls("max_retries=0") == 1 and calls("max_retries=2") == 3
    assert calls("tools=true", "tool_budget=5") == 5 + 2  # one turn per call, a last one, one more to submit


def test_a_run_on_the_publishers_data_is_estimated_without_a_connection(
    counting_server: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, seen = counting_server
    for variable in ("MECHBENCH_GITHUB", "MECHBENCH_GITHUB_RAW", "HF_ENDPOINT"):
        monkeypatch.setenv(variable, url)
    result = runner.invoke(app, ["eval", "structural_eval", "--model", "mechbench/random", "--dry-run"])
    assert result.exit_code == 2
    assert "dry run (no network)" in result.stderr and "-T data=bundled" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert seen == []  # without the guard the data would have been asked for here


def test_the_guard_refuses_connections_and_restores_them() -> None:
    import socket

    with no_network(), pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", 9))
    assert socket.create_connection.__name__ == "create_connection"


def test_images_are_counted_by_the_tile_rule() -> None:
    assert image_tokens((512, 512)) == 85 + 170  # one tile
    assert image_tokens((1024, 1024)) == 85 + 4 * 170  # brought to 768 × 768: four tiles
    assert image_tokens((4096, 1024)) == image_tokens((2048, 512))  # fitted in 2048 first


def test_no_command_module_imports_one_that_imports_it() -> None:
    """The dry run and ``plan`` share the offline task through a module of their own: no circle of imports runs
    through the command line (grimp counts imports inside functions too)."""
    import grimp

    graph = grimp.build_graph("mechbench")
    circles = [
        (module, imported)
        for module in sorted(m for m in graph.modules if m.startswith("mechbench.cli"))
        for imported in graph.find_modules_directly_imported_by(module)
        if graph.find_shortest_chain(importer=imported, imported=module)
    ]
    assert circles == []
    assert graph.find_shortest_chain(importer="mechbench.cli.plan", imported="mechbench.cli.dry_run") is None
