"""The Inspect process ``mechbench eval`` runs: Inspect's own ``eval`` and ``eval-retry`` commands, with a provider's
failures shown as one line per distinct cause instead of the whole request at every retry (the log keeps everything).

Only those two commands are loaded, not Inspect's whole command line: its other commands (the agent protocol server,
the viewer, sandboxes) cost about half a second of imports at every run and are never asked for here.
"""

from __future__ import annotations

import logging

from mechbench.cli.provider_errors import ShortSampleErrors
from mechbench.core.text import tolerant_streams

RUN_LOGGER = "inspect_ai._eval.task.run"
"""The logger Inspect reports sample errors on."""


def main() -> None:
    """Run Inspect's ``eval`` or ``eval-retry`` as its command line does, with the short sample-error filter installed,
    on streams that print any text."""
    tolerant_streams()
    logging.getLogger(RUN_LOGGER).addFilter(ShortSampleErrors())
    import click
    from inspect_ai._cli.eval import eval_command, eval_retry_command
    from inspect_ai._util.dotenv import init_dotenv
    from inspect_ai._util.error import set_exception_hook

    @click.group()
    def inspect() -> None:
        """Inspect's eval commands."""

    inspect.add_command(eval_command)
    inspect.add_command(eval_retry_command)
    # What Inspect's own entry point does before its commands run.
    set_exception_hook()
    init_dotenv()
    inspect(auto_envvar_prefix="INSPECT")


if __name__ == "__main__":
    main()
