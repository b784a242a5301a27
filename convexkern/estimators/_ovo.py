"""One-vs-one multiclass SVMs in LIBSVM's layout, the layout of :class:`sklearn.svm.SVC`.

With ``k`` classes (indices ``0..k-1`` into ``classes_``) one binary SVM is trained per pair
``(a, b)``, ``a < b``, in the order ``(0, 1), (0, 2), ..., (0, k-1), (1, 2), ...``; its
decision value is positive for class ``a`` (LIBSVM's convention; the binary estimator flips
it so that ``classes_[1]`` is positive, as scikit-learn does).  The fitted model is stored
as LIBSVM stores it (Chang & Lin, *LIBSVM: a library for support vector machines*, ACM
TIST 2011, §7 and the ``sv_coef`` layout of its ``svm_model``):

* ``support``: the support vectors of every pair, grouped by class (class 0 first) and in
  increasing sample index within a class; a sample is a support vector when it is one in
  any of the ``k - 1`` pairs of its class;
* ``n_support[c]``: the number of support vectors of class ``c``;
* ``dual_coef`` of shape ``(k - 1, n_SV)``: the coefficient ``alpha_i y_i`` of a support
  vector ``i`` of class ``c`` in the pair of ``c`` with ``d`` sits in row ``d - 1`` if
  ``d > c`` and in row ``d`` if ``d < c`` (zero where ``i`` is no support vector of that
  pair).

The functions here are pure numpy on that layout: building it from the pairs' solutions,
the pairs' decision values, the linear ``coef_``, the vote and scikit-learn's ``"ovr"``
transformation of the one-vs-one values.
"""

from __future__ import annotations

import numpy as np

__all__ = ["pairs", "libsvm_layout", "ovo_decision", "ovo_coef", "ovr_decision", "vote"]


def pairs(k: int) -> list[tuple[int, int]]:
    """The ``k (k - 1) / 2`` class pairs ``(a, b)``, ``a < b``, in LIBSVM's order."""
    return [(a, b) for a in range(k) for b in range(a + 1, k)]


def libsvm_layout(
    k: int, y_idx: np.ndarray, solutions: list[tuple[np.ndarray, np.ndarray]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(support, n_support, dual_coef)`` from the pairs' solutions.

    ``solutions[p]`` is ``(sv, coef)`` for pair ``p`` of :func:`pairs`: the sample indices
    of its support vectors and their coefficients ``alpha_i y_i`` (any sign convention;
    it is kept).
    """
    in_sv = np.zeros(y_idx.size, dtype=bool)
    for sv, _ in solutions:
        in_sv[sv] = True
    support = np.concatenate(
        [np.flatnonzero(in_sv & (y_idx == c)) for c in range(k)]).astype(np.int32)
    n_support = np.array([np.count_nonzero(in_sv & (y_idx == c)) for c in range(k)],
                         dtype=np.int32)
    column = np.full(y_idx.size, -1, dtype=np.intp)
    column[support] = np.arange(support.size)
    dual_coef = np.zeros((k - 1, support.size))
    for (a, b), (sv, coef) in zip(pairs(k), solutions):
        of_a = y_idx[sv] == a
        dual_coef[b - 1, column[sv[of_a]]] = coef[of_a]
        dual_coef[a, column[sv[~of_a]]] = coef[~of_a]
    return support, n_support, dual_coef


def _blocks(n_support: np.ndarray) -> list[slice]:
    start = np.concatenate([[0], np.cumsum(n_support)])
    return [slice(int(start[c]), int(start[c + 1])) for c in range(n_support.size)]


def ovo_decision(K_sv: np.ndarray, dual_coef: np.ndarray, intercept: np.ndarray,
                 n_support: np.ndarray) -> np.ndarray:
    """``(n, k (k-1) / 2)`` decision values of the pairs from the kernel ``K_sv`` between
    the points and the support vectors (columns in ``support`` order)."""
    blk = _blocks(n_support)
    out = np.empty((K_sv.shape[0], len(intercept)))
    for p, (a, b) in enumerate(pairs(n_support.size)):
        sa, sb = blk[a], blk[b]
        out[:, p] = (K_sv[:, sa] @ dual_coef[b - 1, sa] + K_sv[:, sb] @ dual_coef[a, sb]
                     + intercept[p])
    return out


def ovo_coef(support_vectors: np.ndarray, dual_coef: np.ndarray,
             n_support: np.ndarray) -> np.ndarray:
    """The primal weights ``w`` of every pair, ``(k (k-1) / 2, n_features)``, for the
    linear kernel: ``w = sum_i alpha_i y_i x_i`` over the pair's support vectors."""
    blk = _blocks(n_support)
    rows = []
    for a, b in pairs(n_support.size):
        sa, sb = blk[a], blk[b]
        rows.append(dual_coef[b - 1, sa] @ support_vectors[sa]
                    + dual_coef[a, sb] @ support_vectors[sb])
    return np.array(rows).reshape(len(rows), support_vectors.shape[1])


def ovr_decision(dec: np.ndarray, k: int) -> np.ndarray:
    """scikit-learn's ``"ovr"`` shape of one-vs-one values ``dec`` (LIBSVM signs):
    per class, its votes plus its summed confidences mapped into ``(-1/3, 1/3)`` by
    ``x / (3 (|x| + 1))``, so the confidences break ties without overturning a vote.

    Pair ``(a, b)`` votes for ``a`` when its value is ``>= 0`` (scikit-learn's rule here,
    where LIBSVM's vote in :func:`vote` needs ``> 0``); its value adds to ``a``'s
    confidence and subtracts from ``b``'s.
    """
    votes = np.zeros((dec.shape[0], k))
    conf = np.zeros((dec.shape[0], k))
    for p, (a, b) in enumerate(pairs(k)):
        d = dec[:, p]
        conf[:, a] += d
        conf[:, b] -= d
        votes[:, a] += d >= 0
        votes[:, b] += d < 0
    return votes + conf / (3.0 * (np.abs(conf) + 1.0))


def vote(dec: np.ndarray, k: int) -> np.ndarray:
    """LIBSVM's prediction from one-vs-one values: pair ``(a, b)`` votes for ``a`` when
    its value is ``> 0``, else for ``b``; the class with most votes wins, the lowest
    index among ties."""
    votes = np.zeros((dec.shape[0], k), dtype=np.intp)
    rows = np.arange(dec.shape[0])
    for p, (a, b) in enumerate(pairs(k)):
        votes[rows, np.where(dec[:, p] > 0, a, b)] += 1
    return np.argmax(votes, axis=1)
