"""What a mechbench run installs in its process, and only a mechbench run: credential masking of HTTP responses
(:mod:`mechbench.harness.redaction`) and one-line usage errors under the ``inspect`` and ``mechbench`` commands
(:mod:`mechbench.harness.usage`).

Nothing happens when Inspect merely loads mechbench's entry point (it does so for every evaluation in an environment
where mechbench is installed): the tasks and the built-in models call :func:`guard_run` when they are built.
"""

from __future__ import annotations


def guard_run() -> None:
    """Install the masking and the usage-error hook (idempotent)."""
    from mechbench.harness import redaction, usage

    redaction.install()
    usage.install_usage_hook()
