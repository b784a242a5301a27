r"""Semidefinite Programming Machines (Graepel & Herbrich, NIPS 2003).

Notation (the paper's, formulas reconstructed; see ``docs/sdpm.md``).  Training example
``i`` is a polynomial trajectory :math:`\tilde x_i(\theta) = \tilde X_i^\top(1, \theta,
\dots, \theta^r)^\top`, :math:`\tilde X_i \in \mathbb R^{(r+1)\times n}` (``X_traj[i]``,
row ``k`` = coefficient of :math:`\theta^k`), label :math:`y_i \in \{-1,+1\}`, and
:math:`S` is the real line or a segment :math:`[-\tau, \tau]`.  The margin polynomial of
example ``i`` is

.. math:: g_i(\theta) = y_i\,(w^\top\tilde x_i(\theta) + b) - 1 + \xi_i
          = \sum_{k=0}^r g_{ik}\theta^k,\quad
          g_{ik} = y_i w^\top\tilde x_{ik} + [k = 0](y_i b - 1 + \xi_i).

* Primal (6): :math:`\min_{w,b,\xi}\ \tfrac12\|w\|^2 (+\,C\textstyle\sum_i\xi_i)` s.t.
  :math:`g_i(\theta) \ge 0\ \forall\theta\in S` (and :math:`\xi\ge0`).  Each constraint is a
  positive semidefinite Gram matrix (:mod:`convexkern.math.sos`): for :math:`r = 2` on
  :math:`\mathbb R`, :math:`\begin{pmatrix} g_{i0} & g_{i1}/2\\ g_{i1}/2 & g_{i2}
  \end{pmatrix}\succeq 0`, a second-order cone.
* Dual (8): with moment vectors :math:`\mu_i = (\mu_{i0},\dots,\mu_{ir})` (the dual matrices
  :math:`M_i = H(\mu_i)` are their Hankel matrices),

  .. math:: \max_{\mu}\ \sum_i \mu_{i0} - \tfrac12\Big\|\sum_i y_i \tilde X_i^\top\mu_i\Big\|^2
      \ \text{s.t.}\ \mu_i \in \mathcal M_r(S),\ \mu_{i0}\le C,\ \sum_i y_i\mu_{i0} = 0,

  :math:`\mathcal M_r(S)` the (closed) cone of moment vectors of nonnegative measures on
  :math:`S`: :math:`H(\mu_i)\succeq0` (and :math:`(\tau^2\mu_{i,a+b}-\mu_{i,a+b+2})\succeq0`
  on the segment).  At the optimum :math:`w = \sum_i y_i\tilde X_i^\top\mu_i`.
* Virtual support vectors (Propositions 2, 3): a measure with moments :math:`\mu_i` is a
  sum of atoms :math:`\alpha_{ij}\delta_{\theta_{ij}}`, so
  :math:`w = \sum_{ij}\alpha_{ij}y_i\tilde x_i(\theta_{ij})`: an ordinary SVM expansion on
  the *truly virtual* examples :math:`\tilde x_i(\theta_{ij})`, which lie on the margin.
  Rank 1 gives one atom :math:`\theta_i = \mu_{i1}/\mu_{i0}`; on a segment rank 2 gives
  atoms at both ends :math:`\pm\tau` (:func:`convexkern.math.sos.atoms`).

Certificate (valid for any point, recomputed from the data).  Upper bound: for any
:math:`w` the worst-case margin :math:`c_i = \min_{\theta\in S} y_i w^\top\tilde
x_i(\theta)` is exact (polynomial roots, :func:`convexkern.math.sos.poly_min`); the best bias
is then closed-form (hard margin: :math:`(w,b)/\gamma` with :math:`\gamma = \max_b\min_i
c_i + y_ib`) or a 1-D piecewise-linear minimisation (soft margin, slack = exact worst-case
hinge), giving a primal-feasible point.  Lower bound: any :math:`\mu` is moved into the
dual feasible set (:func:`convexkern.math.sos.moment_repair`, then scaled for
:math:`\mu_{i0}\le C` and balanced for :math:`y^\top\mu_0 = 0`) and the dual objective
evaluated.  A finite set of virtual points with SVM multipliers is a particular
:math:`\mu` (a discrete measure), so the exchange method is certified the same way.

Layout: :mod:`.builders` (primal, dual, moment cone), :mod:`.certificate` (the bounds
above), :mod:`.multi` (several parameters), :mod:`.virtual` (virtual support vectors);
the trajectory check and the kernel on derivative pairs are pure mathematics and live in
:mod:`convexkern.math.sdpm`.
"""

from ...math.sdpm import check_trajectories, trajectory_kernel
from ._common import DEFAULT_SEGMENT, GRAM_RTOL, SOURCE
from .builders import dual, moment_cone, primal
from .certificate import certificate, certify_point, dual_objective, worst_case
from .multi import certificate_multi, primal_multi
from .virtual import VirtualSupport, virtual_support_vectors

__all__ = [
    "DEFAULT_SEGMENT",
    "GRAM_RTOL",
    "SOURCE",
    "primal",
    "dual",
    "moment_cone",
    "primal_multi",
    "certificate_multi",
    "certificate",
    "certify_point",
    "worst_case",
    "dual_objective",
    "VirtualSupport",
    "virtual_support_vectors",
    "trajectory_kernel",
    "check_trajectories",
]
