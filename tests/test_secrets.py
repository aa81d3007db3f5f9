"""A recognisable fake API key and hub token never reach logs, reports, messages, printed commands or cache keys."""

from __future__ import annotations

import json
import os
import re
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from mechbench.core.errors import DataSourceError
from mechbench.sources.download import fetch_url
from mechbench.sources.resolve import bundled, resolve_source
from tests import forked_command as forked
from tests.fault_server import FaultServer
from tests.test_api_faults import FAKE_KEY, MECHBENCH, MODEL, sphyr_answer

pytestmark = pytest.mark.slow  # whole Inspect runs, servers or simulations: left out of -m 'not slow'

FAKE_TOKEN = "hf_mechbenchFAKEtoken0042"


def everything_under(folder: Path) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every file under ``folder``, the members of zip archives (Inspect's .eval) included."""
    for path in folder.rglob("*"):
        yield str(path), str(path).encode()
        if not path.is_file():
            continue
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                for member in archive.namelist():
                    yield f"{path}!{member}", archive.read(member)
        else:
            yield str(path), path.read_bytes()


def assert_absent(secret: str, folder: Path) -> int:
    checked = 0
    for name, content in everything_under(folder):
        assert secret.encode() not in content, f"secret found in {name}"
        checked += 1
    return checked


@pytest.mark.long
def test_api_key_stays_out_of_logs_reports_and_output(tmp_path: Path) -> None:
    logs, report = tmp_path / "logs", tmp_path / "report"
    env = {k: v for k, v in os.environ.items() if k != "FAULT_API_KEY"}
    task = ["sphyr", "-T", "data=bundled", "-T", "subject=full_easy", "-T", "samples=3", "-T", "physics=false"]
    with FaultServer(sphyr_answer, [("rate_limit",), ("http_500",), ("drop",)]) as server:
        # The key given as a model argument (the riskiest way: it is part of the command line).
        key, out = ["-M", f"api_key={FAKE_KEY}"], ["--log-dir", str(logs), "--display", "plain"]
        ran = forked.run(
            [*MECHBENCH, "eval", *task, "--model", MODEL, "--model-base-url", server.url, *key, *out],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert ran.returncode == 0, ran.stderr[-2000:]
        assert all(s.authorization == f"Bearer {FAKE_KEY}" for s in server.log.served)  # it was really used
        assert {"rate_limit", "http_500", "drop"} <= set(server.log.injected())
    # A failing run: the server accepts every connection and drops it, so every request fails and errors are
    # printed (an address where nothing listens is refused before Inspect starts: see test_readme_evaluate).
    with FaultServer(sphyr_answer, [("drop",) * 50] * 10) as dropping:
        nowhere = ["--model-base-url", dropping.url, "--max-retries", "0", "--retry-on-error", "0"]
        failed = forked.run(
            [*MECHBENCH, "eval", *task, "--model", MODEL, *nowhere, *key, *out],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert "APIConnectionError" in failed.stdout + failed.stderr  # the error was printed
    assert failed.returncode == 1 and "the run ended in error" in failed.stderr  # and the run is not called done
    reported = forked.run([*MECHBENCH, "report", str(logs), "-o", str(report)], capture_output=True, text=True)
    assert reported.returncode == 0, reported.stderr
    for output in (ran.stdout, ran.stderr, failed.stdout, failed.stderr, reported.stdout, reported.stderr):
        assert FAKE_KEY not in output
    assert "api_key=***" in ran.stderr  # the printed command is masked, not dropped
    assert assert_absent(FAKE_KEY, logs) > 2 and assert_absent(FAKE_KEY, report) > 2


def serve(handler: type[BaseHTTPRequestHandler]) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture
def hub_server() -> Iterator[tuple[str, list[str], list[str]]]:
    """A hub stand-in on 127.0.0.1 with one dataset ``owner/data`` whose ``big.bin`` redirects to a storage
    host (another port); yields (hub URL, Authorization headers the hub saw, those the storage host saw)."""
    seen: list[str] = []
    seen_by_storage: list[str] = []

    class Storage(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            seen_by_storage.append(self.headers.get("Authorization", ""))
            self.send_response(200)
            self.send_header("Content-Length", "4")
            self.end_headers()
            self.wfile.write(b"blob")

    storage, storage_url = serve(Storage)

    class Hub(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            seen.append(self.headers.get("Authorization", ""))
            path = self.path.split("?")[0]
            if path == "/datasets/owner/data/resolve/main/big.bin":
                self.send_response(302)
                self.send_header("Location", f"{storage_url}/blobs/big.bin")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if path == "/api/datasets/owner/data/tree/main":
                body = json.dumps([{"type": "file", "path": "full_easy.jsonl"}]).encode()
            elif path == "/datasets/owner/data/resolve/main/full_easy.jsonl":
                body = b'{"x": 1}\n'
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server, url = serve(Hub)
    yield url, seen, seen_by_storage
    for s in (server, storage):
        s.shutdown()
        s.server_close()


def test_hub_token_is_a_header_only(
    hub_server: tuple[str, list[str], list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    endpoint, seen, seen_by_storage = hub_server
    monkeypatch.setenv("HF_TOKEN", FAKE_TOKEN)
    cache = tmp_path / "cache"
    folder = resolve_source("owner/data", hub_paths=None, endpoint=endpoint, cache=cache)
    assert (folder / "full_easy.jsonl").read_bytes() == b'{"x": 1}\n'
    assert seen and set(seen) == {f"Bearer {FAKE_TOKEN}"}
    # A redirect to another host (hubs keep files on storage hosts) does not carry the token along.
    folder = resolve_source("owner/data", hub_paths=["big.bin"], endpoint=endpoint, cache=cache)
    assert (folder / "big.bin").read_bytes() == b"blob"
    assert seen_by_storage == [""]
    with pytest.raises(DataSourceError) as missing:
        resolve_source("owner/other", hub_paths=["a.jsonl"], endpoint=endpoint, cache=cache)
    assert "404" in str(missing.value) and FAKE_TOKEN not in str(missing.value)
    # A token in a URL (signed links, ?token=) is masked in messages and kept out of the cache key.
    with pytest.raises(DataSourceError) as failed:
        fetch_url(f"{endpoint}/nothing.zip?token={FAKE_TOKEN}", cache)
    assert "token=***" in str(failed.value) and FAKE_TOKEN not in str(failed.value)
    fetch_url(f"{endpoint}/datasets/owner/data/resolve/main/full_easy.jsonl?token={FAKE_TOKEN}", cache)
    assert assert_absent(FAKE_TOKEN, cache) >= 3


@pytest.mark.long
@pytest.mark.parametrize("how", ["environment", "model argument"])
def test_a_server_echoing_the_key_does_not_leak_it(tmp_path: Path, how: str) -> None:
    """Error bodies (401, 400, 429, 500) and a reply that repeat the request headers: the key is masked."""
    logs, report = tmp_path / "logs", tmp_path / "report"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    key: list[str] = []
    if how == "environment":
        env["FAULT_API_KEY"] = FAKE_KEY
    else:
        key = ["-M", f"api_key={FAKE_KEY}"]
    task = ["sphyr", "-T", "data=bundled", "-T", "subject=full_easy", "-T", "samples=5", "-T", "physics=false"]
    schedule = [("echo_401",), ("echo_400",), ("echo_429",), ("echo_500",), ("echo_reply",)]
    with FaultServer(sphyr_answer, schedule) as server:
        ran = forked.run(
            [
                *MECHBENCH,
                "eval",
                *task,
                "--model",
                MODEL,
                "--model-base-url",
                server.url,
                *key,
                "--log-dir",
                str(logs),
                "--display",
                "plain",
                "--retry-on-error",
                "1",
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert {"echo_401", "echo_400", "echo_429", "echo_500", "echo_reply"} <= set(server.log.injected())
        assert all(s.authorization == f"Bearer {FAKE_KEY}" for s in server.log.served)
    reported = forked.run([*MECHBENCH, "report", str(logs), "-o", str(report)], capture_output=True, text=True)
    for output in (ran.stdout, ran.stderr, reported.stdout, reported.stderr):
        assert FAKE_KEY not in output
    assert assert_absent(FAKE_KEY, logs) > 2 and assert_absent(FAKE_KEY, report) > 2
    # The echoes did reach mechbench, masked: the evidence is in the log.
    masked = b"".join(content for _, content in everything_under(logs))
    assert re.search(rb'authorization\\*": \\*"\*\*\*', masked.lower())


@pytest.mark.long
def test_a_run_started_with_an_api_key_argument_resumes_with_the_key_in_the_environment(tmp_path: Path) -> None:
    """eval-retry takes no -M; the provider reads its key variable (here FAULT_API_KEY) instead, never from disk."""
    logs = tmp_path / "logs"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    task = ["sphyr", "-T", "data=bundled", "-T", "subject=full_easy", "-T", "samples=3", "-T", "physics=false"]
    schedule = [("echo_401",), ("echo_401",), ()]  # two samples fail for good in the first run
    with FaultServer(sphyr_answer, schedule) as server:
        first = forked.run(
            [*MECHBENCH, "eval", *task, "--model", MODEL, "--model-base-url", server.url, "-M", f"api_key={FAKE_KEY}",
             "--log-dir", str(logs), "--retry-on-error", "0", "--display", "plain"],
            env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        (log_file,) = logs.glob("*.eval")
        assert FAKE_KEY not in first.stdout + first.stderr
        resumed = forked.run(
            [*MECHBENCH, "eval-retry", str(log_file), "--log-dir", str(logs), "--display", "plain"],
            # the address the log names is the one the environment names: the key may go there
            env={**env, "FAULT_API_KEY": FAKE_KEY, "FAULT_BASE_URL": server.url}, capture_output=True, text=True,
            timeout=300,
        )  # fmt: skip
        assert resumed.returncode == 0, resumed.stderr[-2000:]
        assert f"endpoint: {server.url} (from the log and FAULT_BASE_URL)" in resumed.stderr
        assert all(s.authorization == f"Bearer {FAKE_KEY}" for s in server.log.served)
    from inspect_ai.log import read_eval_log

    newest = max(logs.glob("*.eval"), key=lambda p: p.stat().st_mtime)
    log = read_eval_log(str(newest))
    assert log.status == "success" and len(log.samples) == 3 and all(s.error is None for s in log.samples)
    assert FAKE_KEY not in resumed.stdout + resumed.stderr
    assert assert_absent(FAKE_KEY, logs) > 2


def test_a_token_in_a_data_url_reaches_the_download_but_not_the_log_or_report(tmp_path: Path) -> None:
    secret = "urltoken-mechbench-SECRET-0091"
    archive = tmp_path / "sphyr.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(bundled("sphyr") / "full_easy.jsonl", "sphyr/full_easy.jsonl")
    asked: list[str] = []

    class Gated(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            asked.append(self.path)
            if f"token={secret}" not in self.path:
                self.send_error(403)
                return
            body = archive.read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server, url = serve(Gated)
    logs, report = tmp_path / "logs", tmp_path / "report"
    env = {**os.environ, "MECHBENCH_CACHE": str(tmp_path / "cache")}
    try:
        ran = forked.run(
            [*MECHBENCH, "eval", "sphyr", "-T", f"data={url}/sphyr.zip?token={secret}", "-T", "subject=full_easy",
             "-T", "samples=2", "-T", "physics=false", "--model", "mechbench/solid", "--log-dir", str(logs)],
            env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:
        server.shutdown()
        server.server_close()
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert asked and all(f"token={secret}" in path for path in asked)  # the real URL was used
    reported = forked.run([*MECHBENCH, "report", str(logs), "-o", str(report)], capture_output=True, text=True)
    assert reported.returncode == 0, reported.stderr
    for output in (ran.stdout, ran.stderr, reported.stdout, reported.stderr):
        assert secret not in output
    assert assert_absent(secret, logs) > 2 and assert_absent(secret, report) > 2
    assert "token=***" in (report / "report.md").read_text()
