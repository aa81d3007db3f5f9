"""What a mechbench run installs in its process, and only a mechbench run: credential masking of HTTP responses
(:mod:`mechbench.harness.redaction`), one-line usage errors under the ``inspect`` and ``mechbench`` commands
(:mod:`mechbench.harness.usage`) and a watchdog that ends the process within seconds of SIGTERM
(:mod:`mechbench.core.termination`).

Nothing happens when Inspect merely loads mechbench's entry point (it does so for every evaluation in an environment
where mechbench is installed): the tasks and the built-in models call :func:`guard_run` when they are built.
"""

from __future__ import annotations


def guard_run() -> None:
    """Install the masking, the usage-error hook and the SIGTERM watchdog (idempotent)."""
    from mechbench.core.termination import install_sigterm_watchdog
    from mechbench.harness import redaction, usage

    redaction.install()
    usage.install_usage_hook()
    install_sigterm_watchdog()
