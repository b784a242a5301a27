"""One exception hierarchy for convexkern.

Bad input raises a subclass of :class:`ValueError` or :class:`TypeError` that names the
offending argument; solver trouble raises :class:`SolverError` only when a solver crashes
or is missing.  An infeasible, unbounded or unconverged solve is *not* an exception: it is
a :class:`~convexkern.report.Status` in the returned report.
"""

from __future__ import annotations

__all__ = [
    "ConvexkernError",
    "InvalidInputError",
    "InvalidTypeError",
    "NotPSDError",
    "SolverError",
    "SolverNotFoundError",
    "SpecError",
]


class ConvexkernError(Exception):
    """Base class of every error raised on purpose by convexkern."""


class InvalidInputError(ConvexkernError, ValueError):
    """An argument has a bad value (shape, NaN, asymmetry, labels, hyper-parameter)."""

    def __init__(self, argument: str, message: str) -> None:
        self.argument = argument
        super().__init__(f"{argument}: {message}")


class NotPSDError(InvalidInputError):
    """A matrix that must be positive semidefinite is not, beyond the tolerance.

    ``lambda_min`` is its smallest eigenvalue (computed for the message), so callers can
    react to this case without parsing the text.
    """

    def __init__(self, argument: str, message: str, lambda_min: float) -> None:
        self.lambda_min = float(lambda_min)
        super().__init__(argument, message)


class InvalidTypeError(ConvexkernError, TypeError):
    """An argument has the wrong type."""

    def __init__(self, argument: str, message: str) -> None:
        self.argument = argument
        super().__init__(f"{argument}: {message}")


class SolverNotFoundError(ConvexkernError, ValueError):
    """A solver name is unknown, not installed, or does not apply to the formulation."""


class SolverError(ConvexkernError, RuntimeError):
    """A solver crashed (not: reported infeasibility, which is a status)."""


class SpecError(ConvexkernError, ValueError):
    """A TOML problem spec is malformed; the message names the field."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"spec field '{field}': {message}")
