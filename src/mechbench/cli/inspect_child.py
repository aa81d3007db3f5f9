"""The Inspect process ``mechbench eval`` runs: Inspect's own command line, with a provider's failures shown as one
line per distinct cause instead of the whole request at every retry (the log keeps everything)."""

from __future__ import annotations

import logging

from mechbench.cli.provider_errors import ShortSampleErrors
from mechbench.core.text import tolerant_streams

RUN_LOGGER = "inspect_ai._eval.task.run"
"""The logger Inspect reports sample errors on."""


def main() -> None:
    """Run Inspect's command line with the short sample-error filter installed, on streams that print any text."""
    tolerant_streams()
    logging.getLogger(RUN_LOGGER).addFilter(ShortSampleErrors())
    from inspect_ai._cli.main import main as inspect_main

    inspect_main()


if __name__ == "__main__":
    main()
