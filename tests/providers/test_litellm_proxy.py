"""Provider failures through a real third-party OpenAI-compatible server (LiteLLM's proxy, a test extra): a wrong
key, a wrong model name, an upstream that closes mid-reply and a server that is down each end in one ``error:``
line naming the cause, the model, the address and what to check — not hundreds of lines of request dumps."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import forked_command as forked
from tests.fault_server import FaultServer

LITELLM_VARIABLE = "MECHBENCH_LITELLM"
"""The proxy's executable, in a virtual environment of its own (scripts/test.sh, tests/litellm-proxy.txt)."""
MASTER_KEY = "sk-right-key-0123456789"
RUN = ["eval", "seesim", "-T", "data=bundled", "-T", "modality=text", "--limit", "2"]
FAST_FAILURE = ["--retry-on-error", "0", "--max-retries", "1"]  # the user's choices win over mechbench's defaults
MAX_LINES = 60
"""All the run prints when every call fails: the command, one line per distinct cause, Inspect's summary box."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """LiteLLM's proxy on 127.0.0.1 with a mock model and one whose upstream hangs up mid-reply."""
    binary = os.environ.get(LITELLM_VARIABLE) or shutil.which("litellm")
    if not binary or not Path(binary).is_file():
        if os.environ.get("CI"):
            pytest.fail(f"LiteLLM's proxy is missing: scripts/test.sh installs it and sets {LITELLM_VARIABLE}")
        pytest.skip(
            f"LiteLLM's proxy is not installed: run the tests with scripts/test.sh (it sets {LITELLM_VARIABLE})"
        )
    folder = tmp_path_factory.mktemp("litellm")
    with FaultServer(lambda messages: "True", [("drop",) * 1000]) as upstream:
        (folder / "config.yaml").write_text(
            "model_list:\n"
            "  - model_name: mock-vlm\n"
            "    litellm_params: {model: openai/mock-vlm, mock_response: 'True'}\n"
            "  - model_name: hangs-up\n"
            f"    litellm_params: {{model: openai/hangs-up, api_base: '{upstream.url}', api_key: dummy,"
            " max_retries: 0}\n"
            f"general_settings: {{master_key: {MASTER_KEY}}}\n"
            "litellm_settings: {num_retries: 0}\n"
        )
        port = _free_port()
        env = {**os.environ, "LITELLM_TELEMETRY": "False", "NO_DOCS": "True"}
        server = subprocess.Popen(
            [binary, "--config", str(folder / "config.yaml"), "--host", "127.0.0.1", "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=open(folder / "proxy.log", "wb"),  # noqa: SIM115 (closed with the process)
            env=env,
            cwd=folder,
        )
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert server.poll() is None, (folder / "proxy.log").read_text()[-2000:]
                    time.sleep(0.5)
            else:
                pytest.fail("LiteLLM's proxy did not start in 120 s")
            yield f"http://127.0.0.1:{port}/v1"
        finally:
            server.terminate()
            server.wait(timeout=30)


def _mechbench(args: list[str], url: str, key: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LOCAL_BASE_URL": url, "LOCAL_API_KEY": key}
    return forked.run(
        [sys.executable, "-m", "mechbench", *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=600
    )


def _the_error(done: subprocess.CompletedProcess[str]) -> str:
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, done.stderr[-3000:]
    assert "Traceback" not in done.stderr + done.stdout
    assert len((done.stdout + done.stderr).splitlines()) <= MAX_LINES, done.stdout + done.stderr
    return errors[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("model", "key", "cause", "check"),
    [
        ("mock-vlm", "sk-wrong-key-9876543210", "400", "check the key in LOCAL_API_KEY"),
        ("no-such-model", MASTER_KEY, "Invalid model name", "check the model name"),
        ("hangs-up", MASTER_KEY, "onnection", "is up and answers whole replies"),
    ],
)
@pytest.mark.long
def test_a_failing_provider_is_one_line_with_its_cause(
    proxy: str, tmp_path: Path, model: str, key: str, cause: str, check: str
) -> None:
    done = _mechbench([*RUN, "--model", f"openai-api/local/{model}", *FAST_FAILURE], proxy, key, tmp_path)
    assert done.returncode == 1
    line = _the_error(done)
    assert f"openai-api/local/{model} at {proxy}" in line and cause in line and check in line, line
    assert "wrong-key" not in done.stdout + done.stderr  # the key is never echoed
    assert "mechbench eval-retry" in line and list((tmp_path / "logs").glob("*.eval"))  # the log is kept to resume


def test_a_server_that_is_down_is_one_line_before_any_sample(proxy: str, tmp_path: Path) -> None:
    down = f"http://127.0.0.1:{_free_port()}/v1"
    done = _mechbench([*RUN, "--model", "openai-api/local/mock-vlm"], down, MASTER_KEY, tmp_path)
    assert done.returncode == 2
    line = _the_error(done)
    assert "cannot reach 127.0.0.1" in line and "LOCAL_BASE_URL" in line and "mechbench/random" in line
    assert not (tmp_path / "logs").exists()


def test_the_right_key_and_model_run_through_the_same_proxy(proxy: str, tmp_path: Path) -> None:
    done = _mechbench([*RUN, "--model", "openai-api/local/mock-vlm"], proxy, MASTER_KEY, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert not [line for line in done.stderr.splitlines() if line.startswith("error:")]
