"""The conic form and the floating-point error bounds that the certificate of
:mod:`convexkern.math.conic` is built on (Higham, *Accuracy and Stability of Numerical
Algorithms*, 2nd ed., Section 3.1: ``|fl(a'b) - a'b| <= gamma_k |a|'|b|``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..budget import fits
from ..rounding import UNIT_ROUNDOFF, gamma

__all__ = ["ConicData", "ConicBounds"]

_U = UNIT_ROUNDOFF
_TINY = 1e-300  # absorbs underflow in the error terms
_gamma = gamma  # Higham's gamma_k, elementwise


def _up(v: float) -> float:
    return float(np.nextafter(v, math.inf)) if math.isfinite(v) else v


def _down(v: float) -> float:
    return float(np.nextafter(v, -math.inf)) if math.isfinite(v) else v


def _fsum(values: np.ndarray) -> tuple[float, float]:
    """A correctly rounded sum of ``values`` and the bound on its error (half an ulp);
    ``(nan, inf)`` where the terms hold infinities of both signs or their exact sum
    overflows (no value is known: a bound built on it is open)."""
    try:
        s = math.fsum(np.asarray(values, dtype=float).ravel().tolist())
    except (ValueError, OverflowError):  # inf - inf, an intermediate overflow
        return math.nan, math.inf
    return s, 0.5 * math.ulp(s) if math.isfinite(s) else 0.0


def _two_product(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(p, e)`` with ``p = fl(a b)`` and ``a b = p + e`` exactly (Dekker's TwoProduct
    with Veltkamp's split; Higham, Section 4.4), valid where no operand or product is
    near overflow or underflow (the caller checks)."""
    factor = 134217729.0  # 2**27 + 1

    def split(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        c = factor * v
        hi = c - (c - v)
        return hi, v - hi

    p = a * b
    ah, al = split(a)
    bh, bl = split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


#: seconds per stored entry of :func:`_exact_rows` (the 1-norm SVM LP's 3001 dual rows, 2.25e6
#: entries: 0.54-0.71 s on this project's 2-core machine, rounded up)
EXACT_SECONDS = 4e-7


def exact_rows_fit(M: sp.csr_matrix, rows: np.ndarray) -> bool:
    """Whether :func:`_exact_rows` on ``rows`` of ``M`` ends by the deadline (always
    without one): it cannot be interrupted, and the rows it would refine keep their
    rounding bounds (valid, only looser)."""
    rows = np.asarray(rows, dtype=int)
    return fits(EXACT_SECONDS * float(np.sum(M.indptr[rows + 1] - M.indptr[rows])))


def _exact_rows(M: sp.csr_matrix, v: np.ndarray, rows: np.ndarray,
                const: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``const[i] + (M v)_i`` for ``i`` in ``rows``, each correctly rounded from the exact
    value (every product split exactly by :func:`_two_product`, every row summed by
    ``math.fsum``), with the bound on its error: 0 where the exact value is a float (in
    particular an exact 0, which no rounding can fake), else half an ulp.  A row whose
    terms are near overflow or underflow keeps ``inf`` as its error bound.  The products
    are split for all rows at once; rows of up to 128 entries are summed in bulk by
    error-free sweeps (:func:`_short_sums`, the same values and bounds where they
    decide), the others by ``math.fsum`` row by row."""
    M = M if sp.isspmatrix_csr(M) or isinstance(M, sp.csr_array) else sp.csr_matrix(M)
    rows = np.asarray(rows, dtype=int)
    starts, stops = M.indptr[rows], M.indptr[rows + 1]
    counts = stops - starts
    cvals = np.zeros(rows.size) if const is None else np.asarray(const, dtype=float)[rows]
    # the nonzeros of the chosen rows, row after row
    offsets = np.concatenate([[0], np.cumsum(counts)])
    idx = np.arange(offsets[-1]) - np.repeat(offsets[:-1] - starts, counts)
    a, x = M.data[idx], v[M.indices[idx]]
    p, e = _two_product(a, x)
    # per row: the largest magnitude among its data, point, terms and constant, and its
    # smallest nonzero product
    mag = np.maximum(np.maximum(np.abs(a), np.abs(x)), np.maximum(np.abs(p), np.abs(e)))
    big = np.abs(cvals)
    small = np.full(rows.size, np.inf)
    has = counts > 0
    if idx.size:
        first = offsets[:-1][has]
        big[has] = np.maximum(big[has], np.maximum.reduceat(mag, first))
        with np.errstate(invalid="ignore"):
            nz = np.where(p != 0, np.abs(p), np.inf)
        small[has] = np.minimum.reduceat(nz, first)
    risky = (big > 2.0 ** 500) | (small < 2.0 ** -500)
    vals = np.zeros(rows.size)
    errs = np.zeros(rows.size)
    todo = np.ones(rows.size, dtype=bool)  # the rows left to the exact sums below
    owner = None
    for low, high in _SHORT:  # rows of similar lengths by array operations, in bulk
        short = ~risky & (counts > low) & (counts <= high)
        if np.count_nonzero(short) < _SHORT_ROWS:
            continue
        if owner is None:
            owner = np.repeat(np.arange(rows.size), counts)  # each product's row
            pos = np.arange(idx.size) - offsets[:-1][owner]  # its place in its row
        at = np.flatnonzero(short)
        local = np.full(rows.size, -1)
        local[at] = np.arange(at.size)
        width = int(counts[at].max(initial=0))
        T = np.zeros((at.size, 2 * width + 1))
        T[:, -1] = cvals[at]
        mine = short[owner]
        T[local[owner[mine]], pos[mine]] = p[mine]
        T[local[owner[mine]], width + pos[mine]] = e[mine]
        sv, se, decided = _short_sums(T)
        vals[at[decided]], errs[at[decided]] = sv[decided], se[decided]
        todo[at[decided]] = False
    left = np.flatnonzero(todo)
    if not left.size:
        return vals, errs
    if left.size < rows.size:  # only the rows left: their products
        keep = todo[np.repeat(np.arange(rows.size), counts)]
        p, e = p[keep], e[keep]
    bounds = np.concatenate([[0], np.cumsum(counts[left])]).tolist()
    pl, el, cl = p.tolist(), e.tolist(), cvals.tolist()
    fsum, ulp = math.fsum, math.ulp
    for q, k in enumerate(left.tolist()):
        lo, hi = bounds[q], bounds[q + 1]
        terms = pl[lo:hi] + el[lo:hi]
        terms.append(cl[k])
        if risky[k]:
            vals[k], errs[k] = float(np.sum(terms)), math.inf
            continue
        total = fsum(terms)
        vals[k] = total
        # exact iff the rounded total minus the terms sums to 0 exactly
        terms.append(-total)
        errs[k] = 0.0 if fsum(terms) == 0.0 else 0.5 * ulp(total)
    return vals, errs


#: rows with a number of entries in one of these ranges are summed by array operations
#: (:func:`_short_sums`), a range at a time, when it holds at least ``_SHORT_ROWS`` rows:
#: a sweep costs four array operations per entry of the longest row in its range, about
#: 0.3-3 ms before the first row is decided, against 1-4 us a row for ``math.fsum``
#: (measured on 4 to 128 entries a row: the bulk sums paid from about 600 rows on; at 64,
#: Netlib BANDM's 195 active rows cost 1.3 ms in sweeps against 0.3 ms summed one by one).
#: Both give the same value and bound (the correctly rounded sum; 0 error iff exact)
_SHORT = ((0, 8), (8, 32), (32, 128))
_SHORT_ROWS = 600


def _short_sums(T: np.ndarray, passes: int = 4) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows of ``T`` summed exactly where that can be decided by error-free
    transformations alone, all rows at once: left-to-right sweeps of Knuth's TwoSum
    (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., Alg. 4.4; Ogita,
    Rump & Oishi 2005, VecSum) keep each row's exact sum, its last entry ``s`` the
    floating-point sum and the others ``E`` the errors.  A row is decided when ``E`` is
    all zero (the sum is ``s``, exactly: error 0) or when ``E`` has one entry larger
    than all the others together (its sum is not 0, so the row's is not ``s``) and their
    magnitudes add to less than half of ``s``'s smaller neighbour gap (so ``s`` is the
    correctly rounded sum: error half an ulp).  From the second sweep on, the decided
    rows are set aside and the others swept again, ``passes`` sweeps at most.  Returns
    ``(values, errors, decided)``, as :func:`_exact_rows` gives them; the undecided rows
    are left to ``math.fsum``.  No entry may be near overflow (the caller's ``risky``
    rows are not passed)."""
    T = np.array(T, dtype=float, copy=True)
    n, width = T.shape
    vals, errs, decided = np.zeros(n), np.zeros(n), np.zeros(n, dtype=bool)
    live = np.arange(n)
    for k in range(passes):
        for j in range(1, width):
            a, b = T[:, j - 1], T[:, j]
            s = a + b
            bb = s - a
            T[:, j - 1] = (a - (s - bb)) + (b - bb)
            T[:, j] = s
        if k == 0 and passes > 1:
            continue
        s, err, done = _decide(T)
        at = live[done]
        vals[at], errs[at], decided[at] = s[done], err[done], True
        live, T = live[~done], T[~done]
        if not live.size:
            break
    return vals, errs, decided


def _decide(T: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_short_sums`'s decision on rows ``(E, s)`` (the errors, then the sum):
    ``(s, error, decided)``."""
    s, E = T[:, -1], np.abs(T[:, :-1])
    exact = ~np.any(E != 0, axis=1)
    total = np.sum(E, axis=1) * (1.0 + 4 * T.shape[1] * _U)  # >= the sum of |E|
    top = np.max(E, axis=1, initial=0.0)
    with np.errstate(invalid="ignore"):
        gap = np.minimum(s - np.nextafter(s, -np.inf), np.nextafter(s, np.inf) - s)
        done = exact | ((2.0 * top > total) & (total < 0.5 * gap) & np.isfinite(s))
    return s, np.where(exact, 0.0, 0.5 * np.spacing(np.abs(s))), done


#: terms summed exactly at most by one call of :func:`_worst_first`'s caller
_EXACT_TERMS = 4_000_000


def _worst_first(M: sp.csr_matrix, rows: np.ndarray, err: np.ndarray, limit: int
                 ) -> np.ndarray:
    """Of ``rows`` (sorted), those worth an exact recomputation by :func:`_exact_rows`:
    all of them when there are at most ``limit``, else the ``limit`` with the largest
    rounding bound ``err`` (a column with 20,000 entries carries 1e4 times the bound of
    one with two, and may come last: Huber regression's ``x`` after its 40,000 auxiliary
    columns), in either case no more than ``_EXACT_TERMS`` entries of ``M`` in all,
    largest bounds first.  Returned sorted."""
    if rows.size == 0:
        return rows
    order = np.argsort(-err, kind="stable")[:limit] if rows.size > limit else None
    pick = rows if order is None else rows[order]
    nnz = np.diff(M.indptr)[pick]
    if int(nnz.sum()) > _EXACT_TERMS:
        if order is None:
            order = np.argsort(-err, kind="stable")
            pick, nnz = rows[order], nnz[order]
        pick = pick[np.cumsum(nnz) <= _EXACT_TERMS]
    return pick if order is None else np.sort(pick)


def _dot(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """``a'b`` with every product rounded once and the sum exact-rounded: value, error."""
    p = np.asarray(a, dtype=float) * np.asarray(b, dtype=float)
    s, e = _fsum(p)
    return s, e + _U * float(np.sum(np.abs(p))) + _TINY


@dataclass
class ConicData:
    """A conic program in cvxpy's solver form (see the module docstring).

    ``soc`` lists second-order cone sizes (head first); ``psd`` lists PSD cone sides, each
    block an svec of its triangle with off-diagonal entries scaled by sqrt(2) (an isometry,
    so the cone is self-dual in these coordinates); ``psd_lower`` says which triangle is
    listed column by column (SCS: lower; Clarabel: upper); ``exp`` counts exponential cones
    ``(x, y, z): y exp(x/y) <= z`` in that order; ``p3d`` lists the exponents ``alpha`` of 3-d
    power cones ``(x, y, z): x^alpha y^(1-alpha) >= |z|, x, y >= 0``.
    ``lb``/``ub`` are native variable bounds (``None``: none).
    """

    c: np.ndarray
    A: sp.csr_matrix
    b: np.ndarray
    P: sp.csr_matrix | None = None
    offset: float = 0.0
    zero: int = 0
    nonneg: int = 0
    soc: list[int] = field(default_factory=list)
    psd: list[int] = field(default_factory=list)
    exp: int = 0
    p3d: list[float] = field(default_factory=list)
    psd_lower: bool = True
    lb: np.ndarray | None = None
    ub: np.ndarray | None = None
    #: where each row here sits in the solver's own row order (``None``: the same); a
    #: solver's row vector ``v`` reads here as ``v[solver_rows]`` (:meth:`rows_of`)
    solver_rows: np.ndarray | None = None
    #: the quadratic forms given to the solver through a factor
    #: (:class:`~convexkern.math.conic.factored.QuadFactor`): the bracket is then the
    #: written problem's (:func:`~convexkern.math.conic.factored.factored_bounds`)
    factors: tuple = ()
    #: work the certificate keeps for this form across points (``"equality"``: the basis
    #: of the equality correction; ``"interior"``: the phase-one point; ``"slacks"``: the
    #: last points' slacks); a copy made with :func:`dataclasses.replace` starts empty.  A
    #: form is not changed in place once certified (the cache would not know): a changed
    #: form is a new one (:func:`dataclasses.replace`)
    cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def rows_of(self, v: np.ndarray | None) -> np.ndarray | None:
        """A row vector of the solver (its dual ``y``, a Farkas ray) in this form's order."""
        if v is None or self.solver_rows is None:
            return v
        v = np.asarray(v, dtype=float)
        return v[self.solver_rows] if v.size == self.solver_rows.size else v

    def __post_init__(self) -> None:
        self.c = np.asarray(self.c, dtype=float).ravel()
        self.b = np.asarray(self.b, dtype=float).ravel()
        A = sp.csr_matrix(self.A, dtype=float)
        if A.nnz and (not A.has_canonical_format or not A.data.all()):
            # sorted, duplicates summed, no stored zeros: on a copy when the arrays are
            # the caller's (a CSR of floats is taken as it is)
            if sp.issparse(self.A) and np.shares_memory(A.data, self.A.data):
                A = A.copy()
            A.sum_duplicates()
            A.eliminate_zeros()
        self.A = A
        if self.P is not None:
            self.P = _upper_mirrored(self.P)
        m, n = self.A.shape
        sizes = (self.zero + self.nonneg + sum(self.soc)
                 + sum(k * (k + 1) // 2 for k in self.psd) + 3 * self.exp + 3 * len(self.p3d))
        if self.c.size != n or self.b.size != m or sizes != m:
            raise ValueError(f"inconsistent conic data: A {self.A.shape}, c {self.c.size}, "
                             f"b {self.b.size}, cones {sizes}")

    def same_form(self, other: ConicData) -> bool:
        """Whether ``other`` is this very conic program (every array equal, bit for bit):
        its certificate may then share this one's :attr:`cache` (a refining re-solve of
        the same problem: the phase-one point and the exact searches are not redone)."""
        def same(a: Any, b: Any) -> bool:
            if a is None or b is None:
                return a is None and b is None
            if sp.issparse(a):
                return (sp.issparse(b) and a.shape == b.shape and a.nnz == b.nnz
                        and all(np.array_equal(getattr(a, k), getattr(b, k))
                                for k in ("indptr", "indices", "data")))
            return np.array_equal(a, b)
        return ((self.zero, self.nonneg, self.soc, self.psd, self.exp, self.p3d,
                 self.psd_lower, self.offset)
                == (other.zero, other.nonneg, other.soc, other.psd, other.exp, other.p3d,
                    other.psd_lower, other.offset)
                and all(same(getattr(self, k), getattr(other, k))
                        for k in ("c", "b", "A", "P", "lb", "ub", "solver_rows")))

    @property
    def blocks(self) -> list[tuple[str, int, int]]:
        """``(kind, start, size)`` of every cone block after the zero and nonneg rows;
        for ``psd`` the size is the side."""
        out, i = [], self.zero + self.nonneg
        for k in self.soc:
            out.append(("soc", i, k))
            i += k
        for k in self.psd:
            out.append(("psd", i, k))
            i += k * (k + 1) // 2
        for _ in range(self.exp):
            out.append(("exp", i, 3))
            i += 3
        for _ in self.p3d:
            out.append(("pow", i, 3))
            i += 3
        return out


def cached(data: ConicData, key: str, make):
    """``data.cache[key]``, made by ``make()`` at the first use: the pieces of the form
    that every point's certificate reads alike (a slice of ``A``, its structure)."""
    out = data.cache.get(key)
    if out is None:
        out = data.cache[key] = make()
    return out


#: the points whose work :func:`kept_for` keeps per form and kind (the upper bound reads
#: one point's slack and correction again and again: its plain try, its active try,
#: their clips, each new dual box)
KEPT_POINTS = 4


def kept_for(data: ConicData, kind: str, key: Any, make):
    """``make()`` for ``key`` (a point's bytes, bit for bit), kept in ``data.cache[kind]``
    for the last :data:`KEPT_POINTS` keys: what a certificate computes again for the same
    point on the same form.  The caller copies what it hands out."""
    kept = data.cache.setdefault(kind, {})
    got = kept.get(key)
    if got is None:
        got = make()
        if len(kept) >= KEPT_POINTS:
            kept.pop(next(iter(kept)))
        kept[key] = got
    return got


#: the most stored entries of a matrix that the certificate reads from its arrays (a sort
#: or a ``bincount`` in NumPy) rather than by SciPy's conversions, whose fixed cost of
#: 25-130 us dominates a small form and whose cost per entry is lower (the crossovers
#: measured: 300 entries for ``transposed`` and ``abs_mv``'s products, 1000-1500 for the
#: others)
ARRAYS_NNZ = 500


def _upper_mirrored(P: Any) -> sp.csr_matrix | None:
    """The symmetric matrix of ``P``'s upper triangle, mirrored (what the solvers read), as
    canonical CSR without stored zeros; ``None`` when it is zero.  A canonical CSR or CSC
    ``P`` (cvxpy's) is read from its arrays, with one sort; another is converted by SciPy,
    its duplicate entries summed."""
    entries_ = canonical_entries(P)
    if entries_ is None:
        Pc = sp.coo_matrix(sp.csr_matrix(P, dtype=float))
        keep = Pc.row <= Pc.col
        r, c, d = Pc.row[keep], Pc.col[keep], Pc.data[keep]
        off = r < c
        out = sp.csr_matrix((np.concatenate([d, d[off]]),
                             (np.concatenate([r, c[off]]), np.concatenate([c, r[off]]))),
                            shape=Pc.shape)
        out.eliminate_zeros()
        return out if out.nnz else None
    r, c, d = entries_
    keep = (r <= c) & (d != 0)
    r, c, d = r[keep], c[keep], np.asarray(d[keep], dtype=float)
    if d.size == 0:
        return None
    off = r < c  # a mirrored entry lands below the diagonal: no two share a place
    return csr_of_entries(np.concatenate([r, c[off]]), np.concatenate([c, r[off]]),
                          np.concatenate([d, d[off]]), P.shape)


def csr_of_entries(rows: np.ndarray, cols: np.ndarray, vals: np.ndarray,
                   shape: tuple[int, int]) -> sp.csr_matrix:
    """The CSR matrix of entries at distinct places ``(rows[k], cols[k])``, each row's in
    increasing column order (entries of one place in a row keep their given order: a
    stable sort), built by one sort of the places (SciPy's COO conversion costs more on a
    few entries)."""
    rows = np.asarray(rows, dtype=np.int64)
    order = np.lexsort((cols, rows))
    indptr = np.zeros(shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=shape[0]), out=indptr[1:])
    return sp.csr_matrix((np.asarray(vals)[order], np.asarray(cols)[order], indptr),
                         shape=shape)


def canonical_entries(M: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(row, col, value)`` of the stored entries of a CSR or CSC matrix in canonical
    format (indices sorted, no duplicates) with at most :data:`ARRAYS_NNZ` of them, read
    from its arrays (a few array operations, where SciPy's conversions cost ~50 us each on
    a small form); ``None`` for any other matrix (dense ones included)."""
    if not (sp.issparse(M) and M.format in ("csr", "csc") and M.nnz <= ARRAYS_NNZ
            and M.has_canonical_format):
        return None
    outer = np.repeat(np.arange(M.shape[0 if M.format == "csr" else 1]), np.diff(M.indptr))
    return (outer, M.indices, M.data) if M.format == "csr" else (M.indices, outer, M.data)


def row_positions(M: sp.csr_matrix, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the stored entries of ``rows`` of the CSR matrix ``M`` are in ``M.data`` and
    ``M.indices`` (row by row, in ``rows``' order; a row given twice, twice) and the new
    ``indptr`` of those rows: the selection SciPy's ``M[rows]`` makes, without its
    checks (several times the cost of the arithmetic on a small form)."""
    rows = np.asarray(rows, dtype=np.intp)
    starts = M.indptr[rows]
    lens = M.indptr[rows + 1] - starts
    indptr = np.zeros(rows.size + 1, dtype=M.indices.dtype)
    np.cumsum(lens, out=indptr[1:])
    return np.repeat(starts - indptr[:-1], lens) + np.arange(indptr[-1]), indptr


def take(M: sp.csr_matrix, rows: np.ndarray, cols: np.ndarray | None = None
         ) -> sp.csr_matrix:
    """``M[rows]`` (and ``[:, cols]`` for distinct ``cols``, in their order) as CSR, the
    same entries SciPy's indexing gives, built from the selected positions directly."""
    pos, indptr = row_positions(M, rows)
    data, idx = M.data[pos], M.indices[pos]
    n = M.shape[1]
    if cols is not None:
        where = np.full(n, -1, dtype=np.intp)
        where[cols] = np.arange(len(cols))
        idx = where[idx].astype(M.indices.dtype)
        keep = idx >= 0
        owner = np.repeat(np.arange(len(rows)), np.diff(indptr))
        indptr = np.zeros(len(rows) + 1, dtype=M.indices.dtype)
        np.cumsum(np.bincount(owner[keep], minlength=len(rows)), out=indptr[1:])
        data, idx, n = data[keep], idx[keep], len(cols)
    return sp.csr_matrix((data, idx, indptr), shape=(len(rows), n))


def rows_dot(M: sp.csr_matrix, rows: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``(M @ v)[rows]`` from the stored entries of ``rows`` alone, each row's products
    summed in storage order (a recursive sum: :func:`_gamma` bounds its rounding)."""
    pos, indptr = row_positions(M, rows)
    owner = np.repeat(np.arange(len(rows)), np.diff(indptr))
    return np.bincount(owner, weights=M.data[pos] * v[M.indices[pos]], minlength=len(rows))


def entries(M: sp.csr_matrix, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``M[rows[k], cols[k]]`` for each ``k`` (0 where nothing is stored; duplicate entries
    summed, as SciPy does), from the stored entries of ``rows``."""
    pos, indptr = row_positions(M, rows)
    owner = np.repeat(np.arange(len(rows)), np.diff(indptr))
    hit = M.indices[pos] == np.asarray(cols)[owner]
    return np.bincount(owner[hit], weights=M.data[pos[hit]], minlength=len(rows)).astype(
        float, copy=False)  # (bincount of nothing counts in integers)


def nonneg_rows(data: ConicData) -> sp.csr_matrix:
    """The nonnegative rows of ``A`` (CSR), sliced once per form."""
    return cached(data, "nonneg_rows", lambda: row_range(data.A, data.zero,
                                                         data.zero + data.nonneg))


def row_range(M: sp.csr_matrix, start: int, stop: int) -> sp.csr_matrix:
    """``M[start:stop]`` for a CSR ``M``, as CSR sharing ``M``'s arrays' entries (views),
    built from them directly (SciPy's slicing machinery costs more on a small form)."""
    lo, hi = int(M.indptr[start]), int(M.indptr[stop])
    return sp.csr_matrix((M.data[lo:hi], M.indices[lo:hi], M.indptr[start: stop + 1] - lo),
                         shape=(stop - start, M.shape[1]))


def transposed(data: ConicData) -> sp.csr_matrix:
    """``A'`` as CSR, built once per conic form (every bound and box reads it)."""
    def make() -> sp.csr_matrix:  # a small A's entries with row and column swapped
        A = data.A
        if A.nnz > ARRAYS_NNZ:
            return A.T.tocsr()
        rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
        return csr_of_entries(A.indices, rows, A.data, (A.shape[1], A.shape[0]))
    return cached(data, "At", make)


def soc_groups(data: ConicData) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """The second-order blocks by size ``k``: ``(k, heads, tails)``, ``tails`` of shape
    ``(blocks, k - 1)``, once per form: one array operation per size instead of a Python
    step per block (ECOS's form of a Huber regression with 20,000 rows has 20,000 blocks
    of size 3)."""
    def make() -> list[tuple[int, np.ndarray, np.ndarray]]:
        sizes = np.asarray(data.soc, dtype=np.intp)
        if sizes.size == 0:
            return []
        starts = data.zero + data.nonneg + np.concatenate([[0], np.cumsum(sizes)[:-1]])
        out = []
        for k in np.unique(sizes).tolist():
            heads = starts[sizes == k]
            out.append((k, heads, heads[:, None] + np.arange(1, k)[None, :]))
        return out
    return cached(data, "soc_groups", make)


def other_blocks(data: ConicData) -> list[tuple[str, int, int]]:
    """``data.blocks`` without the second-order ones (those go by :func:`soc_groups`)."""
    return cached(data, "other_blocks", lambda: [b for b in data.blocks if b[0] != "soc"])


def norm_up(v: np.ndarray) -> float:
    """An upper bound on the 2-norm (Frobenius for a matrix) of ``v``, scaled as
    :func:`norms_up` scales a row: ``np.linalg.norm`` squares the entries unscaled, so
    below about 1e-154 it returns 0 (a ray's PSD correction of 1e-176 read as none: a
    false "infeasible" on an SDP scaled by 2^600) and above 1e154 inf."""
    flat = np.asarray(v, dtype=float).reshape(1, -1)
    return float(norms_up(flat, flat.shape[1] + 1)[0])


def norms_up(T: np.ndarray, k: int) -> np.ndarray:
    """An upper bound on the 2-norm of each row of ``T`` (a second-order block of size
    ``k``'s tails): scaled by the row's largest magnitude, so that no square underflows or
    overflows, then ``gamma_{k+4}`` for the divisions, squares, sum, square root and
    product, rounded up; an all-zero row gives 0 exactly.  A row holding NaN gives NaN,
    one holding inf gives inf or NaN (never a finite bound)."""
    if T.shape[1] == 0:
        nrm = np.zeros(T.shape[0])
    else:
        A = np.abs(T)
        m = np.max(A, axis=1)
        safe = np.where((m > 0) & np.isfinite(m), m, 1.0)
        S = A / safe[:, None]
        nrm = np.sqrt(np.einsum("ij,ij->i", S, S)) * safe
        nrm = np.where(np.isfinite(m), nrm, m)  # inf stays inf (NaN stays NaN)
    # a 0 is exact (every entry 0: scaled as above, a nonzero row has nrm >= its largest
    # entry); rounded up it would put the cone's apex outside the cone by 5e-324. A
    # subnormal result's last product rounds by up to half of 5e-324 absolutely, which
    # the relative gamma does not cover there: k + 4 of them are added
    with np.errstate(over="ignore"):  # a norm near 1e308 rounds up to inf: a bound still
        up = np.nextafter(nrm * (1.0 + float(_gamma(k + 4))), np.inf) + (k + 4) * 5e-324
    return np.where(nrm == 0.0, 0.0, up)


@dataclass
class ConicBounds:
    """A certified bracket on the conic optimum (``d`` included) and how it was obtained."""

    lower: float
    upper: float
    lower_reason: str = ""
    upper_reason: str = ""
    residuals: dict[str, float] = field(default_factory=dict)

