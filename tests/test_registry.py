"""Loading mechbench's entry point changes nothing in the process; a mechbench task or model, when built, installs
the credential masking and the one-line usage errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import sys
import httpx
before = (httpx.HTTPTransport.handle_request, httpx.AsyncHTTPTransport.handle_async_request, sys.excepthook)
import mechbench._registry  # what Inspect imports for every evaluation, whichever tasks it runs
after_import = (httpx.HTTPTransport.handle_request, httpx.AsyncHTTPTransport.handle_async_request, sys.excepthook)
print("import changed nothing:", before == after_import)
print("heavy modules loaded:", sorted(m for m in ("numba", "matplotlib") if m in sys.modules))
from mechbench.tasks import sphyr
sys.argv = ["inspect"]  # as under the inspect command, where the usage hook applies
sphyr(data="bundled", samples="1", physics=False)
print("task installs masking:", httpx.HTTPTransport.handle_request is not before[0])
print("task installs the hook:", getattr(sys.excepthook, "_mechbench", 0) == 1)
"""


def test_importing_the_entry_point_changes_neither_httpx_nor_the_excepthook() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "import changed nothing: True" in done.stdout
    # Inspect imports the entry point for every run: no numba compiler, no plotting library until they are used.
    assert "heavy modules loaded: []" in done.stdout
    assert "task installs masking: True" in done.stdout and "task installs the hook: True" in done.stdout


def test_old_option_names_still_work_with_a_deprecation_message(caplog: pytest.LogCaptureFixture) -> None:
    from mechbench.core.errors import UsageError
    from mechbench.tasks import structural_eval

    with caplog.at_level("WARNING"):
        task = structural_eval(data="bundled", prompt="strict", debug=True, filter="beam_001")
    assert task.metadata["prompt_style"] == "strict" and task.metadata["oracle"] is True
    assert "prompt is deprecated: use prompt_style" in caplog.text and "debug is deprecated: use oracle" in caplog.text
    with pytest.raises(UsageError, match="prompt is the old name of prompt_style"):
        structural_eval(data="bundled", prompt="strict", prompt_style="reasoning")
    with pytest.raises(UsageError, match="scoring must be one of strict, legacy, got 'loose'"):
        structural_eval(data="bundled", scoring="loose")  # checked from the argument's Literal type


def test_the_benchmark_generic_tests_name_no_benchmark() -> None:
    """They hold for any benchmark: ``tests/test_template_benchmark.py`` runs them again with a fifth one."""
    import re

    from mechbench import registry
    from tests.generic import GENERIC_TESTS

    root = Path(__file__).resolve().parents[1]
    names = {entry.name for entry in registry.specs()} | {entry.title for entry in registry.specs()}
    for test_file in GENERIC_TESTS:
        text = (root / test_file).read_text(encoding="utf-8")
        named = sorted(n for n in names if re.search(rf"(?<![\w/.-]){re.escape(n)}(?![\w/.-])", text))
        assert not named, f"{test_file} names {named}: move what is about one benchmark to tests/benchmarks/<name>/"
