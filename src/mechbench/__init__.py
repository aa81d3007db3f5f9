"""mechbench: evaluate language models on engineering-mechanics reasoning, with physics as the judge.

Importing the package imports nothing else: ``python -m mechbench`` imports it while the current folder is still
first on ``sys.path``, so a ``csv.py`` or ``email/`` lying there must not be reached before ``__main__`` takes the
folder off. The version is read when it is asked for.
"""

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    if name != "__version__":
        raise AttributeError(f"module 'mechbench' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mechbench")
    except PackageNotFoundError:  # running from a source tree that was not installed
        return "0.0.0"
