"""The test files that hold for any registered benchmark (they iterate the registry and name none), which
``tests/test_template_benchmark.py`` runs again in a copy of the repository with the template as a fifth benchmark.
Each benchmark's own tests live in ``tests/benchmarks/<name>/``."""

GENERIC_TESTS = (
    "tests/test_conformance.py",
    "tests/test_listing.py",
    "tests/cli/test_demo_command.py",
    "tests/test_docs_lists.py",
)
