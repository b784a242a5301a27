r"""ν-LP and LP SVMs that train a diagonal Mahalanobis kernel (Abe, ICANN 2012).

Notation (the paper's): ``m`` inputs, ``M`` triplets, :math:`R = \mathrm{diag}(R_{11}..R_{mm})`.
For training sample ``r``, ``j`` is its nearest neighbour of the same class and ``k`` its
nearest neighbour of another class (§2, see :func:`triplets`), and

.. math:: a_{ir} = (x_{ir} - x_{ik})^2 - (x_{ir} - x_{ij})^2

(the paper's (4) prints the second term with a wrong index).  ``A`` is the (M, m) matrix
whose row ``r`` is :math:`(a_{1r}, \dots, a_{mr})`, so :math:`(AR)_r = \sum_i a_{ir}R_{ii}`
is the squared-distance margin of triplet ``r`` under the metric ``R``.

* **ν-LP SVM** (5)–(9), :func:`nu_lp`:
  :math:`\max\ \rho - C_\rho\sum_r\xi_r` s.t. :math:`\sum_i R_{ii} = 1,\ R \ge 0,\
  AR \ge \rho e - \xi,\ \xi \ge 0,\ \rho > 0`.
* **its dual** (14)–(17), :func:`nu_lp_dual`:
  :math:`\min\ z` s.t. :math:`\sum_r\delta_r \ge 1,\ A^\top\delta \le z e,\
  0 \le \delta \le C_\rho`.
* **LP SVM** (10)–(13), :func:`lp`:
  :math:`\min\ \sum_i R_{ii} + C_M\sum_r\xi_r` s.t. :math:`R \ge 0,\ AR \ge e - \xi,\ \xi\ge 0`.
* **its dual** (derived here; not in the paper), :func:`lp_dual`:
  :math:`\max\ \sum_r\alpha_r` s.t. :math:`A^\top\alpha \le e,\ 0 \le \alpha \le C_M`.
  (Lagrangian :math:`e^\top R + C_M e^\top\xi - \alpha^\top(AR - e + \xi)`; the infimum over
  ``R >= 0`` is finite iff :math:`e - A^\top\alpha \ge 0`, over ``xi >= 0`` iff
  :math:`\alpha \le C_M`.)

**The strict ρ > 0.**  An LP cannot state a strict inequality.  ``rho_min`` chooses what
is solved instead:

* ``rho_min=0.0`` (default): the closure ``rho >= 0``.  Its Lagrange dual is exactly the
  paper's (14)–(17) (the multiplier of ``rho >= 0`` turns :math:`\sum\delta = 1` into
  :math:`\sum\delta \ge 1`).  When the optimum has ``rho = 0`` (the "zero-margin
  solution", Theorem 4), the strict problem has no solution: its supremum is approached
  but the set ``rho > 0`` does not contain a maximiser that beats it.
* ``rho_min=None``: ``rho`` free; the dual then has :math:`\sum_r\delta_r = 1`.  Negative
  margins become possible for non-separable data.
* ``rho_min=eps > 0``: ``rho >= eps``; the dual objective becomes
  :math:`z + \varepsilon(1 - \sum_r\delta_r)` with :math:`\sum_r\delta_r \ge 1`.

**Certificates** (recomputed from ``A`` for every solver): the closed-form values of
:mod:`convexkern.math.lp_svm`.  The multipliers they need are read from the conic solver's
constraint duals (cvxpy) or from HiGHS's marginals (solver ``"linprog"``, the direct sparse
path of :mod:`convexkern.algorithms.linprog_direct`).

Theorems 1–6 are checked numerically by :mod:`convexkern.verify.lp_svm`.

==================  ================================================================
module              what
==================  ================================================================
``triplets``        the triplets ``(r, j, k)`` and the coefficient matrix ``A``
``builders``        ``nu_lp``, ``nu_lp_dual``, ``lp``, ``lp_dual`` and their certificates;
                    ``lp_from_data``, ``nu_lp_from_data`` for TOML specs
==================  ================================================================
"""

from __future__ import annotations

from ...math.lp_svm import (
    THRESHOLD_RTOL,
    c_min,
    lp_dual_value,
    lp_value,
    nu_lp_dual_value,
    nu_lp_value,
)
from .builders import (
    KINDS,
    SOURCE,
    lp,
    lp_dual,
    lp_from_data,
    nu_lp,
    nu_lp_dual,
    nu_lp_from_data,
)
from .triplets import TIE_RTOL, coefficients, triplet_matrix, triplets

__all__ = [
    "triplets",
    "coefficients",
    "triplet_matrix",
    "nu_lp",
    "nu_lp_dual",
    "lp",
    "lp_dual",
    "lp_from_data",
    "nu_lp_from_data",
    "nu_lp_value",
    "nu_lp_dual_value",
    "lp_value",
    "lp_dual_value",
    "c_min",
    "KINDS",
    "SOURCE",
    "THRESHOLD_RTOL",
    "TIE_RTOL",
]
