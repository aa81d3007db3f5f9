"""Inspect's own ``eval`` and ``eval-retry`` commands, run in ``mechbench eval``'s process, with a provider's failures
shown as one line per distinct cause instead of the whole request at every retry (the log keeps everything).

They run in the same process rather than a child: the checks before them have already imported Inspect and every
benchmark, and a second interpreter importing them again cost about 3 CPU-seconds per run (docs/speed.md). Only
those two commands are loaded, not Inspect's whole command line (its agent protocol server, viewer and sandboxes).
"""

from __future__ import annotations

import logging
import os
import sys

from mechbench import forget_current_folder
from mechbench.cli.provider_errors import ShortSampleErrors

RUN_LOGGER = "inspect_ai._eval.task.run"
"""The logger Inspect reports sample errors on."""


def run_inspect(argv: list[str]) -> int:
    """Run ``inspect eval …`` or ``inspect eval-retry …`` (``argv`` without ``inspect``) as Inspect's command line
    does; return its exit code. An exception that reaches the top is what Inspect's own command would print: a mechbench
    usage error one line with exit 2, a file-system failure one line naming the path with exit 1, anything else
    Inspect's traceback with exit 1."""
    import click
    from inspect_ai._cli.eval import eval_command, eval_retry_command
    from inspect_ai._util.dotenv import init_dotenv
    from inspect_ai._util.error import set_exception_hook

    from mechbench.harness.usage import TRACEBACK_VARIABLE, uncaught_line

    @click.group()
    def inspect() -> None:
        """Inspect's eval commands."""

    inspect.add_command(eval_command)
    inspect.add_command(eval_retry_command)
    forget_current_folder()  # python -c puts it there; Inspect loads the task next
    logging.getLogger(RUN_LOGGER).addFilter(ShortSampleErrors())
    # What Inspect's own entry point does before its commands run.
    set_exception_hook()
    init_dotenv()
    given = sys.argv
    sys.argv = ["inspect", *argv]  # what Inspect reads back (--detach restarts the run from it): the completed argv
    try:
        inspect.main(args=argv, prog_name="inspect", auto_envvar_prefix="INSPECT")
    except SystemExit as done:
        return _exit_code(done)
    except Exception as error:
        line = None if os.environ.get(TRACEBACK_VARIABLE) else uncaught_line(error)
        if line is not None:
            print(line[0], file=sys.stderr)
            return line[1]
        try:
            sys.excepthook(type(error), error, error.__traceback__)
        except SystemExit as done:
            return _exit_code(done)
        return 1
    finally:
        sys.argv = given
    return 0


def _exit_code(done: SystemExit) -> int:
    """The exit code ``sys.exit(code)`` gives: an int as it is, None 0, anything else printed and 1."""
    if done.code is None or isinstance(done.code, int):
        return done.code or 0
    print(done.code, file=sys.stderr)
    return 1
