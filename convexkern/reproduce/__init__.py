"""Paper reproductions behind ``convexkern reproduce PAPER`` (see :mod:`.harness`)."""

from .harness import Context, ReproductionResult, available, register, run

__all__ = ["Context", "ReproductionResult", "available", "register", "run"]
