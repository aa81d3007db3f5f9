"""Inspect AI entry point (``[project.entry-points.inspect_ai]``).

Inspect imports this module to find mechbench's tasks and built-in model providers, so that
``inspect eval mechbench/<task>`` and ``--model mechbench/<name>`` work once those modules register
them. Importing must stay cheap: nothing here runs at import time beyond registration.
"""
