"""mechbench: evaluate language models on engineering-mechanics reasoning, with physics as the judge.

Importing the package imports nothing else: ``python -m mechbench`` imports it while the current folder is still
first on ``sys.path``, so a ``csv.py`` or ``email/`` lying there must not be reached before ``__main__`` takes the
folder off. The version is read when it is asked for.

It does set one default: a single BLAS thread (``OPENBLAS_NUM_THREADS``, ``MKL_NUM_THREADS``) in a process that
imports mechbench before numpy (its command line, the Inspect runs it starts, its worker pools), unless the
environment already says otherwise. mechbench's physics solves small systems, several side by side in threads:
limiting an already started OpenBLAS pool at run time (:mod:`mechbench.core.threads`) still left two judges calling
it at once spinning on a busy machine (the SPhyR judge: 61 s of CPU for 4.4 s of work beside two CPU-bound
processes).
"""

import os as _os

for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_variable, "1")

__all__ = ["__version__", "forget_current_folder"]


def forget_current_folder() -> None:
    """Take the current folder off the front of ``sys.path``, where ``python -m`` and ``python -c`` put it, so that a
    module lying where the user runs (a ``csv.py``, a dataset copy run with ``-T data=.``) is never imported in place
    of one mechbench or Inspect needs. Imports nothing beyond ``os`` and ``sys``."""
    import sys

    if sys.path and _os.path.abspath(sys.path[0] or _os.curdir) == _os.getcwd():
        del sys.path[0]


def __getattr__(name: str) -> str:
    if name != "__version__":
        raise AttributeError(f"module 'mechbench' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mechbench")
    except PackageNotFoundError:  # running from a source tree that was not installed
        return "0.0.0"
