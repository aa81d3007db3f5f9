"""mechbench: evaluate language models on engineering-mechanics reasoning, with physics as the judge."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mechbench")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0"

__all__ = ["__version__"]
