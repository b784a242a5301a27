"""Paper reproductions behind ``convexkern reproduce PAPER``: the table of them as data
(:mod:`.table`, each run imported when it runs) and the shared harness (:mod:`.harness`)."""

from .harness import Context, ReproductionResult, available, register, run

__all__ = ["Context", "ReproductionResult", "available", "register", "run"]
