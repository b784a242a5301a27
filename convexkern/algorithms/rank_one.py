"""The secular-equation eigen-update of the robust SVM's oracle (re-exported).

The numerics live in :mod:`convexkern.math.rank_one`, below both the algorithms and the
certificate of :mod:`convexkern.formulations.robust_indefinite`, because the certificate
reuses the decomposition of ``K0`` that the solver computed (one ``eigh`` per solve); they
are re-exported here, where users, tests and benchmarks have imported them from.
"""

from __future__ import annotations

from ..math.rank_one import PositivePart, RankOneUpdate, secular_roots

__all__ = ["RankOneUpdate", "PositivePart", "secular_roots"]
