"""The conformance suite every registered benchmark passes (as scikit-learn's ``check_estimator`` does for
estimators): :func:`check_benchmark` runs a benchmark through what mechbench promises of every benchmark, offline.

- its ``eval.yaml`` is in the register's schema and names the code that is really there;
- its bundled set loads offline and the oracle reaches the top of its scale;
- every built-in model it serves (``random``, the shortcut panel) runs and scores within [0, 1];
- replay by Inspect's own sample id reproduces the oracle's scores;
- the report draws its section and a leaderboard row for every run;
- bad input is refused at the door with one line (an empty folder, a file for a folder, an unknown choice or
  argument).

``mechbench check [NAME ...]`` prints the results; ``tests/test_conformance.py`` asserts them for every benchmark.
"""

from mechbench.conformance.checks import Check, check_benchmark

__all__ = ["Check", "check_benchmark"]
