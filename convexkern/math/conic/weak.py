"""The pieces of the weak-duality lower bound that the box's rounds read too: the dual
residual with its rounding bound, the bound once its box terms are known, and when the
primal box's rounds may stop; used by :mod:`convexkern.math.conic.bounds`."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.sparse as sp

from .data import _TINY, _U, ConicData, _dot, _fsum, _gamma, nonneg_rows, transposed
from .slack import abs_mv

__all__: list[str] = []  # private helpers of the convexkern.math.conic package


def _min_product(alo: np.ndarray, ahi: np.ndarray, lo: np.ndarray, hi: np.ndarray
                 ) -> np.ndarray:
    """``min a x`` over ``a in [alo, ahi]``, ``x in [lo, hi]`` elementwise, with
    ``0 * inf = 0`` (a zero coefficient or a zero bound contributes nothing)."""
    out = np.full(alo.shape, np.inf)
    for a in (alo, ahi):
        for b in (lo, hi):
            with np.errstate(invalid="ignore"):
                p = a * b
            p = np.where((a == 0) | (b == 0), 0.0, p)
            out = np.minimum(out, p)
    return out


def _dual_residual(data: ConicData, At: sp.csr_matrix, yv: np.ndarray, wv: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The dual residual ``c + A'y + Pw`` and a componentwise bound on its rounding."""
    rr = data.c + At @ yv
    mag = np.abs(data.c) + abs_mv(At, yv)
    kcol = np.diff(At.indptr) + 2
    if data.P is not None:
        rr = rr + data.P @ wv
        mag = mag + abs_mv(data.P, wv)
        kcol = kcol + np.diff(data.P.indptr) + 1
    return rr, np.where(mag > 0, _gamma(kcol) * mag + _TINY, 0.0)


def _weak_duality(data: ConicData, y: np.ndarray, w: np.ndarray, term: np.ndarray,
                  paid: float) -> float:
    """``-b'y - 1/2 w'Pw + sum(term) - paid`` rounded down with the rounding bounds of
    every sum and product (the lower bound of :func:`~convexkern.math.conic.bounds._lower` once its
    terms are known)."""
    by, ebyv = _dot(data.b, y)
    s_box, e_box = _fsum(term)
    e_box += 2 * _U * float(np.sum(np.abs(term)))  # the products' own rounding
    q, eq = (0.0, 0.0)
    if data.P is not None:
        q, eq = _dot(w, data.P @ w)
        eq += float(np.sum(np.abs(w) * _gamma(np.diff(data.P.indptr) + 2)
                           * abs_mv(data.P, w)))
    val = -by - 0.5 * q + s_box - paid
    errs = ebyv + 0.5 * eq + e_box
    return val - errs - 8 * _U * (abs(by) + abs(q) + abs(s_box) + paid) - _TINY


#: the primal box's rounds stop once the lower bound would still be enough to its caller
#: were the box's price this many times larger (a margin for what the estimate leaves
#: out: the multipliers ``_toward_bounds`` drops, the exact recomputation of undecided
#: residuals)
_BOX_MARGIN = 3.0

#: a round that cuts the box's price by less than this fraction is a slow one: the rounds
#: left (:data:`_ROUNDS` in all) are judged at that rate (:func:`_box_enough`)
_SLOW = 0.1
_ROUNDS = 20


def _box_enough(data: ConicData, x: np.ndarray, y: np.ndarray,
                good: Callable[[float], bool]) -> Callable[[np.ndarray, np.ndarray], bool]:
    """When the primal box's rounds may stop (``_primal_box``): the weak-duality bound at
    ``(y, w = x)`` would still be ``good`` were the box's price (``-sum min r_j x_j`` over
    the box) :data:`_BOX_MARGIN` times larger.  Or, once every column is boxed and the
    rounds shrink the price slowly (less than :data:`_SLOW` a round), when the rounds
    left could not make it ``good`` at that rate while the bound with the price as it is
    (and the margin) already meets the caller's ``tol`` (``good.at_tol``, where given):
    they would only tighten a bracket already within ``tol`` (Netlib SC105: 20 rounds, 4 %
    off the price each, none of them needed).  Only when to stop depends on these
    estimates; the bound itself is computed afterwards, from the box, as always."""
    n = data.c.size
    r, err = _dual_residual(data, transposed(data), y, x)
    base = _weak_duality(data, y, x, np.zeros(0), 0.0)
    at_tol = getattr(good, "at_tol", None)
    prices: list[float] = []

    def done(lo: np.ndarray, hi: np.ndarray) -> bool:
        with np.errstate(invalid="ignore", over="ignore"):
            term = _min_product(r - err, r + err, lo[:n], hi[:n])
            if not np.all(np.isfinite(term)):
                return False
            price = float(-np.sum(np.minimum(term, 0.0)))
            est = base + float(np.sum(term))
            if good(est - (_BOX_MARGIN - 1.0) * price):
                return True
        prices.append(price)
        if at_tol is None or len(prices) < 2 or not prices[-2] > 0:
            return False
        rate = price / prices[-2]
        if not 1.0 - _SLOW < rate <= 1.0:
            return False
        # the price at the end of the rounds, were each to cut it as this one did
        last = price * rate ** max(_ROUNDS - len(prices), 0)
        return bool(not good(est + price - _BOX_MARGIN * last)
                    and at_tol(est - (_BOX_MARGIN - 1.0) * price))
    return done


#: multipliers below this fraction of the largest are read as zero by :func:`_purified`,
#: and those below a gap of ``GAP`` between consecutive magnitudes (Clarabel's inactive
#: multipliers on Netlib RECIPE: 3.6e-10 and less, the active ones 1.6e-3 and more)
NEGLIGIBLE = 1e-10
GAP = 1e4


def _purified(data: ConicData, x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """``y`` with the multipliers that complementarity says are zero set to exactly zero
    (``None`` where none is): an inequality row's where ``x`` leaves the row a slack
    larger than its multiplier, and any equality or inequality row's below
    :data:`NEGLIGIBLE` of the largest or below a gap of :data:`GAP` in their magnitudes
    (the other cones' blocks are left as they are).

    An interior-point solver's multipliers are all nonzero, so the dual residual of a
    column the box leaves open sums rows that should contribute nothing: its sign is
    rounding's, and no exact correction spans it (Netlib RECIPE and cvxpy's ``lp_7`` on
    Clarabel, ECOS and QOCO; the first-order and simplex answers, whose inactive
    multipliers are exact zeros, were certified).  Any point of ``K*`` gives a valid
    bound: nothing rests on this choice."""
    z, nn = data.zero, data.nonneg
    if z + nn == 0:
        return None
    out = np.array(y, dtype=float, copy=True)
    if nn:
        seg = out[z: z + nn]
        seg[data.b[z: z + nn] - nonneg_rows(data) @ x > np.maximum(seg, 0.0)] = 0.0
    head = out[: z + nn]
    mag = np.sort(np.abs(head[head != 0]))
    cut = NEGLIGIBLE * float(mag[-1]) if mag.size else 0.0
    if mag.size > 1:  # a gap of GAP or more between the magnitudes: the small ones go
        jump = mag[1:] / mag[:-1]
        k = int(np.argmax(jump))
        if jump[k] >= GAP:
            cut = max(cut, float(mag[k]))
    head[np.abs(head) <= cut] = 0.0
    return None if np.array_equal(out, y) else out
