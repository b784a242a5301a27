r"""One Newton step of the SVM dual on the face SMO has found (:mod:`convexkern.math.smo`).

Near the end of an SMO run the set of *free* variables :math:`F = \{t : 0 < \alpha_t <
C_t\}` usually stops changing long before the duality gap is small: SMO then spends its
steps on an equality-constrained quadratic over :math:`F` with the other variables at
their bounds.  That quadratic is solved exactly by one linear system.  In the notation
of :mod:`convexkern.math.smo` (:math:`v = y - K(y\circ\alpha)`,
:math:`D(\alpha) = e^\top\alpha - \frac12\alpha^\top YKY\alpha`), with
:math:`\beta = y\circ\alpha` and a move :math:`\Delta\beta` on :math:`F` only, the KKT
conditions of the dual restricted to the face (Mansour, *SVM lecture notes*, 2013, §11.2:
:math:`y_t f(x_t) = 1` on every free support vector) are

.. math::

    \begin{pmatrix} K_{FF} & \mathbf 1 \\ \mathbf 1^\top & 0 \end{pmatrix}
    \begin{pmatrix} \Delta\beta_F \\ b \end{pmatrix}
    = \begin{pmatrix} v_F \\ 0 \end{pmatrix},

after which :math:`v_F` is the constant :math:`b` (the bias) and :math:`y^\top\alpha`
is unchanged.  Along :math:`t\,\Delta\beta` the dual rises by
:math:`t\,v_F^\top\Delta\beta - \tfrac{t^2}{2}\,\Delta\beta^\top K_{FF}\Delta\beta`
(the gradient of :math:`D` is :math:`y\circ v`).  The step is cut where a variable
reaches its bound (that variable is set to the bound and leaves :math:`F`, and the step
is taken again on the smaller face, at most :data:`_ROUNDS` times).

Nothing rests on the step being exact: it is a proposal, and SMO goes on from it
whenever the gap it leaves is still too large (a variable at a bound that should be
free, or the other way round, shows in the gap and SMO moves it).  The certificate is
computed from ``K`` by the caller.  A step that would not raise the dual
(:math:`v_F^\top\Delta\beta \le 0`, which an indefinite :math:`K_{FF}` can give) and a
singular system are not taken.
"""

from __future__ import annotations

import math
import time
import warnings
from typing import Any

import numpy as np
import scipy.linalg

__all__ = ["face_step"]

#: At most this many faces per call (a cut step moves on to the face without the
#: variables it brought to their bounds).
_ROUNDS = 3

#: a few units in the last place (a coefficient this close to a bound, relative to its
#: own value and its step, is the bound)
_U = 8 * np.finfo(float).eps

#: the most free variables a step is tried on (its bordered matrix: 72 MiB)
_MAX_FREE = 3000

#: flop/s assumed when checking a step against a deadline (a pessimistic rate for the
#: dense factorisation and the products: the step is not begun when it might not end)
_RATE = 1e9


def face_step(rows: Any, y: np.ndarray, alpha: np.ndarray, v: np.ndarray,
              C: float | np.ndarray, budget: float, deadline: float = math.inf) -> int:
    """Move ``alpha`` (in place) to the optimum of the dual on its current face, keeping
    ``v = y - K(y * alpha)`` (in place) up to date; return how many rounds moved it (0:
    nothing changed).

    ``rows`` is SMO's row access (:mod:`convexkern.math.smo_rows`: ``row(i)`` and
    ``times``); ``budget`` the floating-point operations the caller allows (a face of
    ``f`` free variables costs about ``f**3 / 3 + 2 f n``; a larger one is not tried,
    nor one that would not end by ``deadline`` (``time.perf_counter``) at
    :data:`_RATE`, nor one of more free variables than SMO's row cache holds rows or
    than :data:`_MAX_FREE`).  Memory: the ``(f + 1)**2`` bordered matrix, beside the rows
    SMO's cache holds."""
    n = y.size
    moved = 0
    cap = min(_MAX_FREE, int(getattr(rows, "capacity", _MAX_FREE)))
    for _ in range(_ROUNDS):
        F = np.flatnonzero((alpha > 0) & (alpha < C))
        f = F.size
        work = f ** 3 / 3.0 + 2.0 * f * n
        if f < 2 or f > cap or work > budget or time.perf_counter() + work / _RATE > deadline:
            return moved
        M = np.ones((f + 1, f + 1))  # the bordered matrix: K_FF, then a row of ones
        for k, i in enumerate(F.tolist()):
            M[k, :f] = rows.row(i)[F]  # through SMO's row cache
        M[f, f] = 0.0
        rhs = np.append(v[F], 0.0)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", scipy.linalg.LinAlgWarning)
                sol = scipy.linalg.solve(M, rhs, assume_a="sym", overwrite_a=True,
                                         check_finite=False)
        except (np.linalg.LinAlgError, scipy.linalg.LinAlgWarning, ValueError):
            return moved
        d = sol[:f]
        # the system gives K_FF d = v_F - b 1 and 1'd = 0, so the curvature d'K_FF d is
        # the slope v_F'd itself: along t d the dual rises by (t - t^2 / 2) v_F'd, a rise
        # for every t in (0, 1] exactly when v_F'd > 0 (an indefinite K_FF included)
        rise = float(v[F] @ d)
        if not (np.all(np.isfinite(d)) and rise > 0.0):
            return moved
        # alpha_F moves by t * y_F * d; the largest t <= 1 that keeps it in [0, C]
        a, s = alpha[F], y[F] * d
        CF = C[F] if np.ndim(C) else np.full(f, float(C))
        with np.errstate(divide="ignore", invalid="ignore"):
            room = np.where(s > 0, (CF - a) / s, np.where(s < 0, -a / s, np.inf))
        t = min(1.0, float(np.min(room)))
        if not t > 0.0:
            return moved
        new = np.clip(a + t * s, 0.0, CF)
        # the variables that stop the step sit at their bounds exactly, and so do those
        # the solve left within the rounding of their own update of one (a support vector
        # of the optimum's face whose coefficient there is 0: 4e-17 is no support vector)
        near = (np.abs(t * s) + np.abs(a)) * _U
        new[new <= near] = 0.0
        top = new >= CF - near
        new[top] = CF[top]
        if t < 1.0:
            hit = room <= t
            new[hit] = np.where(s[hit] > 0, CF[hit], 0.0)
        step = new - a  # what alpha moved by, after the clipping
        alpha[F] = new
        coef = np.zeros(n)
        coef[F] = y[F] * step
        v -= rows.times(coef)  # K (y * step): the rows just read, from the cache
        moved += 1
        if t >= 1.0:
            return moved
    return moved
