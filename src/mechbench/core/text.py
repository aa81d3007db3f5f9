"""Text from outside made safe to show: no lone surrogates or terminal escapes, no credentials in URLs, and no
mathtext when a figure draws it.

Figures draw every label as plain text: model names, task arguments, point ids and report labels come from users,
logs and model replies, and matplotlib would parse ``$...$`` in them as mathtext (an unknown command such as
``$\\undefinedcommand{x}$`` raises and no figure, or no report, is written).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
PLAIN_TEXT = {"text.parse_math": False, "text.usetex": False}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Repetitions are bounded so that matching stays linear on any text (unbounded ones backtrack quadratically
# on long runs of letters: 124 s on 100,000 characters).
# Not anchored at ? or &: whatever precedes a "…token=" / "…key=" / "sig=" pair, its value is masked (a masker
# errs on the side of masking).
_SECRET_QUERY = re.compile(r"(?i)((?:token|key|sig|signature|x-amz-[a-z-]{1,40})=)[^&#\s]*")
_URL_CREDENTIALS = re.compile(r"(?i)([a-z][a-z0-9+.-]{0,30}://)[^/@\s]{0,512}@")


def redact_url(url: str) -> str:
    """``url`` fit for messages: credentials in the authority and secret-looking query values masked."""
    url = _URL_CREDENTIALS.sub(r"\1***@", url)
    return _SECRET_QUERY.sub(r"\1***", url)


def clean(text: str) -> str:
    """``text`` that any writer accepts and no terminal interprets: lone surrogates replaced, control and ANSI
    escape characters shown as ``\\xNN``."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def plain_text(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` (which creates figures) with mathtext and TeX parsing off for every text it draws."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        import matplotlib  # imported when a figure is drawn, not when a module that draws one is imported

        with matplotlib.rc_context(PLAIN_TEXT):
            return fn(*args, **kwargs)

    return wrapper


def tolerant_streams() -> None:
    """Let standard output and error print any text: a character the terminal's encoding cannot hold (an ASCII
    locale, a lone surrogate in a model's reply) is written as an escape instead of ending the run in a traceback."""
    import sys

    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def plural(noun: str) -> str:
    """The English plural of a cluster's unit (``drawing`` → ``drawings``, ``truss`` → ``trusses``; a note in
    brackets stays: ``item (its drawing and its text)`` → ``items (its drawing and its text)``)."""
    head, bracket, note = noun.partition(" (")
    if head.endswith(("s", "x", "z", "ch", "sh")):
        head += "es"
    elif head.endswith("y") and head[-2:-1] not in ("a", "e", "i", "o", "u"):
        head = head[:-1] + "ies"
    else:
        head += "s"
    return head + bracket + note
