r"""TrIK-SVM: an active-set solver for SVMs with indefinite kernels (Loosli, ESANN 2019).

The kernel matrix :math:`K` (indefinite, smallest eigenvalue :math:`\lambda_{\min} < 0`) is
split as :math:`K = K_+ - K_-` with :math:`K_+ = K - \lambda I`, :math:`K_- = -\lambda I`
for a shift :math:`\lambda \le \lambda_{\min}`.  The associated Hilbert space has the
positive definite kernel :math:`\tilde K = K_+ + K_- = K - 2\lambda I`, and the
*stabilization* problem in the Kreĭn space is solved as the ordinary SVM dual with
:math:`\tilde K`,

.. math::

    \max_{\tilde\alpha}\; e^\top\tilde\alpha - \tfrac12\tilde\alpha^\top Y\tilde KY\tilde\alpha
    \quad\text{s.t. } y^\top\tilde\alpha = 0,\; 0 \le \tilde\alpha \le C,

followed by the transition back to the Kreĭn space (paper eq. 6).

Coefficient convention (the one used everywhere in convexkern)
---------------------------------------------------------------
Both coefficient vectors are *unlabelled*: the decision functions are

.. math::

    \tilde f(x) = \sum_i \tilde\alpha_i y_i \tilde k(x_i, x) + b, \qquad
    f(x) = \sum_i \alpha_i y_i k(x_i, x) + b,

with the *original* (indefinite) kernel :math:`k` in :math:`f`.  :math:`\tilde\alpha` is in
the box :math:`[0, C]`; the Kreĭn coefficients :math:`\alpha` have no sign constraint.
With :math:`W` the free support vectors (:math:`0 < \tilde\alpha_i < C`),
:math:`G = YKY`:

.. math::

    \alpha_W = (I - 2\lambda G_{WW}^{-1})\,\tilde\alpha_W, \qquad
    \alpha_i = C \text{ on bounded support vectors}, \qquad \alpha_i = 0 \text{ elsewhere},

which makes :math:`f = \tilde f` on the free support vectors (the paper mixes labelled and
unlabelled coefficients; this is eq. 6 in the unlabelled form).

Algorithm (paper Algorithm 1, after SimpleSVM, Vishwanathan, Smola & Murty, ICML 2003)
------------------------------------------------------------------------------------
The points are split into free (``W``), bounded (``α̃ = C``) and zero (``α̃ = 0``) sets.
Each iteration

1. solves the KKT system of the QP restricted to ``W`` (margins equal to 1 on ``W``,
   ``y'α̃ = 0``) with the Cholesky factor of :math:`\tilde K_{WW}`;
2. **dual admissibility**: if the solution leaves the box, steps from the current
   feasible :math:`\tilde\alpha` towards it until the first coefficient hits a bound, moves
   that point out of ``W`` (a Cholesky *downdate*, Givens rotations on the trailing
   block) and solves again;
3. **primal optimality**: otherwise checks the margins of the points outside ``W`` —
   with the Hilbert-space decision function :math:`\tilde f` (``optimality="hilbert"``:
   the KKT conditions of the QP, so the result is its optimum) or with the Kreĭn-space
   decision function :math:`f` (``optimality="krein"``, the paper's rule) — and adds the
   most violating points to ``W`` (a block Cholesky *update*).  With the Kreĭn check a
   violator that does not also violate its Hilbert margin would be pushed out again at
   once (its :math:`\tilde\alpha` would have to leave the box): such points are not
   added, and when only such violators remain the solver stops with status
   ``"stalled"`` (the paper's algorithm would cycle there).

Blocks grow (doubling) while additions stay admissible and shrink when they are not;
all checks are vectorised.

**Block exchanges** (``exchange="block"``, the default for ``optimality="hilbert"`` with a
precomputed ``K``): before the one-point-at-a-time loop, primal-dual active-set rounds
(Hintermüller, Ito & Kunisch, SIAM J. Optim. 13(3), 2003) start with every point free and
move *all* box-leaving free points to their bound and *all* margin violators into ``W`` at
once, with a fresh Cholesky factor per round (one LAPACK call).  When most points end up
support vectors this takes a handful of rounds instead of one iteration per point
(blobs, n = 3000, 2746 support vectors: 4 rounds instead of 898 iterations).  The rounds
are not monotone, so they only warm-start the loop above: it takes over from their last
working set (projected onto the feasible set if needed) and its optimality check, not the
rounds, decides when to stop.  With a kernel *function* only the columns of points that ever
enter the support-vector set are computed (and cached); the full matrix is never formed.

Modules: :mod:`.solver` (:func:`trik`: input checks, working-set state, the loop),
:mod:`.factor` (Cholesky up/down-dates and the pivot test), :mod:`.columns` (kernel
columns on demand, the up/down-dated ``K_WW^{-1}``), :mod:`.block_exchange` (the warm
start), :mod:`.result` (:class:`TrIKResult`) and :mod:`.adapter` (what the solver table
runs for ``trik``, ``trik-krein`` and ``smo`` on a Kreĭn stabilization formulation).
"""

from ...math.krein import krein_coefficients
from .result import TrIKResult
from .solver import min_eigenvalue, trik

__all__ = ["TrIKResult", "trik", "krein_coefficients", "min_eigenvalue"]
