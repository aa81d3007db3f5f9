"""Exceptions raised by mechbench, one class per kind of failure.

Every message says what was wrong and where (``link L3: point P9 does not exist``), so that the
text can be shown to a user or fed back to a model as is.
"""

from __future__ import annotations


class MechbenchError(Exception):
    """Base class of every error mechbench raises on purpose."""


class ModelFormatError(MechbenchError, ValueError):
    """A structural model does not follow the FrameCalc format.

    ``problems`` holds one line per problem found, each naming the element concerned.
    """

    def __init__(self, problems: list[str] | str):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        if len(self.problems) == 1:
            message = self.problems[0]
        else:
            message = f"{len(self.problems)} problems: " + "; ".join(self.problems)
        super().__init__(message)


class ModelTooLargeError(ModelFormatError):
    """A model exceeds the documented size limits of the solver."""


class UnstableStructureError(MechbenchError):
    """The structure is a mechanism: some part of it can move without deforming.

    ``moving`` lists the points (by id) that take part in the mechanism, largest motion first.
    """

    def __init__(self, message: str, moving: list[str] | None = None):
        self.moving = list(moving or [])
        super().__init__(message)


class UsageError(MechbenchError, ValueError):
    """A task argument, model argument or option that cannot be used; the message names the valid ones."""


class BaselineInputError(MechbenchError, ValueError):
    """A built-in baseline was given a prompt that does not hold what it needs (for example no SPhyR grid)."""


class DataSourceError(MechbenchError):
    """A data source could not be found, downloaded or read, or is past mechbench's input limits."""


class OfficialDataUnavailable(DataSourceError):
    """The publisher's data could not be fetched; ``reason`` is why, without the hint the message adds."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple:  # raised in a worker process, it must arrive whole
        return type(self), (str(self), self.reason)


def reason_of(error: Exception) -> str:
    """What went wrong, without the ``-T data=bundled`` hint the publisher's data failing to arrive carries."""
    return error.reason if isinstance(error, OfficialDataUnavailable) else str(error)


def with_hint(error: Exception, hint: str) -> str:
    """``error``'s message for a command whose own way to other data is ``hint``: the publisher's data failing to
    arrive names ``-T data=bundled``, which only ``mechbench eval`` takes, so ``hint`` replaces it there."""
    return f"{error.reason}; {hint}" if isinstance(error, OfficialDataUnavailable) else str(error)
