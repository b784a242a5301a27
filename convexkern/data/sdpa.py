"""SDPA sparse files (``.dat-s``): the format of SDPLIB (Borchers 1999).

The SDPA standard form, with symmetric block-diagonal ``F_0, ..., F_m``::

    (P)  minimize  c'x            subject to  X = sum_i x_i F_i - F_0  PSD
    (D)  maximize  <F_0, Y>       subject to  <F_i, Y> = c_i,  Y  PSD

Both have the same optimal value when either is strictly feasible; SDPLIB's table lists it
(:func:`build_problem` writes either form as a ``cvxpy.Problem``).  A negative block size
is a diagonal block: its PSD constraint is a vector of nonnegative entries.

Format as read here: lines starting with ``"`` or ``*`` before the data are comments;
then ``m``; the number of blocks; the block sizes; ``c``; then one entry per line,
``matno blkno i j value`` (``matno`` 0 is ``F_0``; ``i <= j``: the upper triangle, the
matrix is symmetric).  The characters ``, ( ) { }`` are punctuation and read as blanks;
text after the numbers a line needs is ignored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from ..errors import InvalidInputError

__all__ = ["SDPAData", "SDPAError", "read_sdpa", "build_problem"]

_PUNCT = str.maketrans({ch: " " for ch in ",(){}"})


class SDPAError(InvalidInputError):
    """A file this reader does not understand (the argument named is ``path``)."""

    def __init__(self, message: str) -> None:
        super().__init__("path", message)


@dataclass
class SDPAData:
    """An SDP read from an SDPA sparse file: ``c`` and, per block, the matrices
    ``F[k][b]`` (``k = 0..m``, block ``b``; sparse, symmetric; a diagonal block is stored
    as a diagonal matrix)."""

    name: str
    c: np.ndarray
    blocks: list[int]                        # sizes; negative: a diagonal block
    F: list[list[sp.csr_matrix]]

    @property
    def m(self) -> int:
        return int(self.c.size)

    def size(self) -> str:
        return f"m = {self.m}, blocks {self.blocks}"


def read_sdpa(path: str | Path) -> SDPAData:
    """Read an SDPA sparse file (see the module docstring)."""
    path = Path(path)
    with open(path, encoding="ascii", errors="replace") as fh:
        lines = [ln.translate(_PUNCT) for ln in fh]
    body = [(k + 1, ln.split()) for k, ln in enumerate(lines)
            if ln.strip() and not ln.lstrip().startswith(('"', "*"))]
    if len(body) < 4:
        raise SDPAError(f"{path.name}: fewer than the four header lines")

    def number(tok: str, lineno: int) -> float:
        try:
            return float(tok.upper().replace("D", "E"))
        except ValueError:
            raise SDPAError(f"{path.name}:{lineno}: not a number: {tok!r}") from None

    (l1, t1), (l2, t2) = body[0], body[1]
    m, nb = int(number(t1[0], l1)), int(number(t2[0], l2))
    # the block sizes and c may run over several lines: read numbers until there are enough
    rest = [(lineno, tok) for lineno, toks in body[2:] for tok in toks]
    pos = 0

    def take(count: int) -> list[float]:
        nonlocal pos
        if pos + count > len(rest):
            raise SDPAError(f"{path.name}: the file ends inside its header")
        vals = [number(tok, lineno) for lineno, tok in rest[pos: pos + count]]
        pos += count
        return vals

    blocks = [int(v) for v in take(nb)]
    if any(b == 0 for b in blocks) or m < 1:
        raise SDPAError(f"{path.name}: m = {m} and block sizes {blocks} (none may be 0)")
    c = np.array(take(m))
    # the entries: whole lines after the header's last number
    header_end = rest[pos - 1][0]
    entries: list[list[list[tuple[int, int, float]]]] = [[[] for _ in blocks]
                                                          for _ in range(m + 1)]
    for lineno, toks in body:
        if lineno <= header_end:
            continue
        if len(toks) < 5:
            raise SDPAError(f"{path.name}:{lineno}: an entry needs 'matno blkno i j value'")
        k, b, i, j = (int(number(t, lineno)) for t in toks[:4])
        v = number(toks[4], lineno)
        if not (0 <= k <= m and 1 <= b <= nb):
            raise SDPAError(f"{path.name}:{lineno}: matrix {k} or block {b} out of range")
        size = abs(blocks[b - 1])
        if not (1 <= i <= size and 1 <= j <= size) or (blocks[b - 1] < 0 and i != j):
            raise SDPAError(f"{path.name}:{lineno}: entry ({i}, {j}) outside block {b}")
        if not math.isfinite(v):
            raise SDPAError(f"{path.name}:{lineno}: entry {toks[4]!r} is not finite")
        entries[k][b - 1].append((i - 1, j - 1, v))
    F = [[_symmetric(e, abs(blocks[b])) for b, e in enumerate(per)] for per in entries]
    return SDPAData(name=path.name.split(".")[0], c=c, blocks=blocks, F=F)


def _symmetric(entries: list[tuple[int, int, float]], size: int) -> sp.csr_matrix:
    """The symmetric matrix whose upper (or lower) triangle ``entries`` lists; an entry
    given twice is summed, as SDPA reads it."""
    if not entries:
        return sp.csr_matrix((size, size))
    i, j, v = (np.array(t) for t in zip(*entries))
    off = i != j
    rows = np.concatenate([i, j[off]])
    cols = np.concatenate([j, i[off]])
    vals = np.concatenate([v, v[off]]).astype(float)
    return sp.csr_matrix((vals, (rows, cols)), shape=(size, size))


def build_problem(data: SDPAData, form: str = "primal") -> cp.Problem:
    """The SDP as a ``cvxpy.Problem``: ``form="primal"`` is SDPA's (P) (variables ``x``,
    one linear matrix inequality per block), ``"dual"`` its (D) (one PSD variable
    ``Y<b>`` per block, a nonnegative vector for a diagonal block).  Both have SDPLIB's
    optimal value."""
    if form not in ("primal", "dual"):
        raise InvalidInputError("form", f"must be 'primal' or 'dual', got {form!r}")
    m = data.m
    if form == "primal":
        x = cp.Variable(m, name="x")
        cons: list[cp.Constraint] = []
        for b, size in enumerate(data.blocks):
            if size < 0:
                diag = np.vstack([data.F[k][b].diagonal() for k in range(1, m + 1)])
                cons.append(x @ diag - data.F[0][b].diagonal() >= 0)
            else:
                lmi = sum(x[k - 1] * data.F[k][b] for k in range(1, m + 1)
                          if data.F[k][b].nnz) - data.F[0][b]
                cons.append(lmi >> 0)
        return cp.Problem(cp.Minimize(data.c @ x), cons)
    Ys, objective, rows = [], 0, [0] * m
    for b, size in enumerate(data.blocks):
        if size < 0:
            Y = cp.Variable(-size, nonneg=True, name=f"Y{b + 1}")
            objective = objective + data.F[0][b].diagonal() @ Y
            for k in range(1, m + 1):
                if data.F[k][b].nnz:
                    rows[k - 1] = rows[k - 1] + data.F[k][b].diagonal() @ Y
        else:
            Y = cp.Variable((size, size), PSD=True, name=f"Y{b + 1}")
            if data.F[0][b].nnz:
                objective = objective + cp.sum(cp.multiply(data.F[0][b].toarray(), Y))
            for k in range(1, m + 1):
                if data.F[k][b].nnz:
                    rows[k - 1] = rows[k - 1] + cp.sum(cp.multiply(data.F[k][b].toarray(), Y))
        Ys.append(Y)
    for k in range(m):
        if isinstance(rows[k], int):
            raise SDPAError(f"{data.name}: F_{k + 1} is zero, so (D) has the constraint "
                            f"0 = {data.c[k]:g}")
    cons = [rows[k] == data.c[k] for k in range(m)]
    return cp.Problem(cp.Maximize(objective), cons)
