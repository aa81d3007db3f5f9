"""The benchmarks mechbench runs, one folder each, found by the registry (:mod:`mechbench.registry`)."""
