"""Figures draw every label as plain text: model names, task arguments, point ids and report labels come
from users, logs and model replies, and matplotlib would parse ``$...$`` in them as mathtext (an unknown
command such as ``$\\undefinedcommand{x}$`` raises and no figure, or no report, is written)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
PLAIN_TEXT = {"text.parse_math": False, "text.usetex": False}


def plain_text(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` (which creates figures) with mathtext and TeX parsing off for every text it draws."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        import matplotlib  # imported when a figure is drawn, not when a module that draws one is imported

        with matplotlib.rc_context(PLAIN_TEXT):
            return fn(*args, **kwargs)

    return wrapper
