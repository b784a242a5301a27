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
computed from ``K`` by the caller.  A step that would not raise the dual (an indefinite
:math:`K_{FF}`, a singular system) is not taken.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.linalg

__all__ = ["face_step"]

#: At most this many faces per call (a cut step moves on to the face without the
#: variables it brought to their bounds).
_ROUNDS = 3

#: a few units in the last place (a coefficient this close to a bound, relative to the
#: step and the box, is the bound)
_U = 8 * np.finfo(float).eps


def face_step(rows: Any, y: np.ndarray, alpha: np.ndarray, v: np.ndarray,
              C: float | np.ndarray, budget: float) -> int:
    """Move ``alpha`` (in place) to the optimum of the dual on its current face, keeping
    ``v = y - K(y * alpha)`` (in place) up to date; return how many rounds moved it (0:
    nothing changed).

    ``rows`` is SMO's row access (:mod:`convexkern.math.smo_rows`: ``row(i)`` and
    ``times``); ``budget`` the floating-point operations the caller allows (a face of
    ``f`` free variables costs about ``f**3 / 3 + 2 f n``; a larger one is not tried).
    Memory: the ``(f + 1)**2`` bordered matrix, beside the rows SMO's cache holds."""
    n = y.size
    moved = 0
    for _ in range(_ROUNDS):
        F = np.flatnonzero((alpha > 0) & (alpha < C))
        f = F.size
        if f < 2 or f ** 3 / 3.0 + 2.0 * f * n > budget:
            return moved
        M = np.ones((f + 1, f + 1))  # the bordered matrix: K_FF, then a row of ones
        for k, i in enumerate(F.tolist()):
            M[k, :f] = rows.row(i)[F]  # through SMO's row cache
        M[f, f] = 0.0
        rhs = np.append(v[F], 0.0)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", scipy.linalg.LinAlgWarning)
                sol = scipy.linalg.solve(M, rhs, assume_a="sym", check_finite=False)
        except (np.linalg.LinAlgError, scipy.linalg.LinAlgWarning, ValueError):
            return moved
        d = sol[:f]
        rise, curve = float(v[F] @ d), float(d @ (M[:f, :f] @ d))
        if not (np.all(np.isfinite(d)) and rise > 0.0 and curve >= 0.0):
            return moved
        # alpha_F moves by t * y_F * d; the largest t <= 1 that keeps it in [0, C]
        a, s = alpha[F], y[F] * d
        CF = C[F] if np.ndim(C) else np.full(f, float(C))
        with np.errstate(divide="ignore", invalid="ignore"):
            room = np.where(s > 0, (CF - a) / s, np.where(s < 0, -a / s, np.inf))
        k = int(np.argmin(room))
        t = min(1.0, float(room[k]))
        if not t > 0.0 or t * rise - 0.5 * t * t * curve <= 0.0:
            return moved
        new = np.clip(a + t * s, 0.0, CF)
        # the variables that stop the step sit at their bounds exactly, and so do those
        # the solve left within rounding of one (a support vector of the optimum's face
        # whose coefficient there is 0: 4e-17 is no support vector)
        near = (np.abs(t * s) + np.abs(a) + np.where(np.isfinite(CF), CF, 0.0)) * _U
        new[new <= near] = 0.0
        new[new >= CF - near] = CF[new >= CF - near]
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
