"""Conic Benchmark Format files (``.cbf``, ``.cbf.gz``): the format of CBLIB.

CBF is specified in H. A. Friberg, *The Conic Benchmark Format, Version 1 - Technical
Reference Manual*, DTU Wind Energy E-0047 (2014), shipped as ``cblib/docs/format.pdf`` in
``HFriberg/cblib-base``; the library is described in H. A. Friberg, "CBLIB 2014: a
benchmark library for conic mixed-integer and continuous optimization", *Math. Prog.
Comp.* 8 (2016) 191-214.  Versions 2 and 3 add the exponential and power cones; their
definitions are MOSEK's (the "CBF format" and "supported domains" pages of the MOSEK
manuals), which are the ones CBLIB uses.

The problem, with scalar variables ``x`` and symmetric PSD variables ``X_j``::

    min / max   g_obj = sum_j <Fobj_j, X_j> + aobj' x + bobj
    s.t.        g_i = sum_j <F_ij, X_j> + sum_k a_ik x_k + b_i,   g in K_con (CON)
                G_i = sum_k x_k H_ik + D_i  PSD                    (PSDCON)
                x in K_var (VAR),   X_j PSD (PSDVAR)

``<A, B> = sum_kl A_kl B_kl``.  Every matrix is symmetric and given by the coordinates of
one triangle: an off-diagonal coordinate ``(k, l, v)`` sets both ``A_kl`` and ``A_lk``
(so it contributes ``2 v X_kl`` to ``<A, X>``).  The spec makes a coordinate given twice
(or at both transposed positions) an error; so does this reader.

Cones, on consecutive coordinates ``(u_0, ..., u_{n-1})`` of ``x`` (VAR) or ``g`` (CON):

``F``  free; ``L+``  ``u >= 0``; ``L-``  ``u <= 0``; ``L=``  ``u = 0``;
``Q``  ``u_0 >= ||u_1:||_2``;  ``QR``  ``2 u_0 u_1 >= ||u_2:||^2``, ``u_0, u_1 >= 0``
(note the factor 2);
``EXP`` (n = 3)  ``u_0 >= u_1 exp(u_2 / u_1)``, ``u_0, u_1 >= 0`` (closure): the *first*
coordinate is the bound, the reverse of cvxpy's ``ExpCone(x, y, z)``
(``z >= y exp(x / y)``), so ``(u_0, u_1, u_2)`` is ``ExpCone(u_2, u_1, u_0)``;
``EXP*`` (n = 3)  the dual cone, ``u_0 >= -u_2 exp(u_1 / u_2) / e``, ``u_2 <= 0``,
``u_0 >= 0``; written here as ``ExpCone(u_2 - u_1, -u_2, u_0)``, an exact linear image;
``@k:POW`` with the ``k``-th parameter vector ``alpha`` of ``POWCONES`` (length ``p``,
``beta = alpha / sum(alpha)``): ``prod_{i<p} u_i^beta_i >= ||u_p:||_2``,
``u_0..u_{p-1} >= 0``; ``@k:POW*`` (from ``POW*CONES``): the dual,
``prod_{i<p} (u_i / beta_i)^beta_i >= ||u_p:||_2``.

Format as read here: lines whose first non-blank character is ``#`` are comments; blank
lines are skipped; carriage returns are ignored.  ``VER`` (1 to 3) comes first and
``OBJSENSE`` is required; the problem-structure keywords (``OBJSENSE POWCONES POW*CONES
PSDVAR VAR INT PSDCON CON``) come before the problem-data keywords (``OBJFCOORD OBJACOORD
OBJBCOORD FCOORD ACOORD BCOORD HCOORD DCOORD``) and no keyword appears twice.  ``CHANGE``
(a hotstart sequence) ends the first instance: the rest is not read, as the spec allows.
Integers and reals are C decimal strings; ``inf``, ``nan`` and hexadecimal floats are
refused.  Refused too: the ``SVPSD`` cone (CBF version 4, not specified in the sources
above) and files of version 4 or later.
"""

from __future__ import annotations

import gzip
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from ..errors import InvalidInputError

__all__ = ["CBFCone", "CBFData", "CBFError", "read_cbf", "build_problem"]

STRUCTURE = ("OBJSENSE", "POWCONES", "POW*CONES", "PSDVAR", "VAR", "INT", "PSDCON", "CON")
DATA = ("OBJFCOORD", "OBJACOORD", "OBJBCOORD", "FCOORD", "ACOORD", "BCOORD", "HCOORD",
        "DCOORD")
KEYWORDS = ("VER", *STRUCTURE, *DATA, "CHANGE")
LINEAR = ("F", "L+", "L-", "L=")
CONE_NAMES = (*LINEAR, "Q", "QR", "EXP", "EXP*", "@k:POW", "@k:POW*")
MAX_VERSION = 3

_INT = re.compile(r"[+-]?\d+\Z")
_REAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")
_POW = re.compile(r"@(\d+):(POW\*?)\Z")


class CBFError(InvalidInputError):
    """A file this reader does not understand (the argument named is ``path``)."""

    def __init__(self, message: str) -> None:
        super().__init__("path", message)


@dataclass(frozen=True)
class CBFCone:
    """One cone of a ``VAR`` or ``CON`` list: its CBF name (``"F"``, ``"L+"``, ``"L-"``,
    ``"L="``, ``"Q"``, ``"QR"``, ``"EXP"``, ``"EXP*"``, ``"POW"``, ``"POW*"``), its
    dimension and, for a power cone, the index of its parameter vector."""

    name: str
    dim: int
    param: int = -1


@dataclass
class CBFData:
    """A conic problem read from a CBF file (see the module docstring for the meaning).

    Matrices are stored in full symmetric form; a PSD variable ``X_j`` of order ``d``
    enters through ``vec(X_j)``, column-major (entry ``(k, l)`` at ``k + l d``).
    """

    name: str
    version: int
    sense: str                                   # "min" or "max"
    var_cones: list[CBFCone]
    con_cones: list[CBFCone]
    int_vars: np.ndarray                         # indices of integer scalar variables
    psd_var_dims: list[int]
    psd_con_dims: list[int]
    pow_alphas: list[np.ndarray]                 # POWCONES parameter vectors
    dpow_alphas: list[np.ndarray]                # POW*CONES parameter vectors
    obj_a: np.ndarray                            # (n,)
    obj_b: float
    obj_F: list[sp.csr_matrix]                   # per PSD variable, (d, d) symmetric
    A: sp.csr_matrix                             # (m, n)
    b: np.ndarray                                # (m,)
    F: list[sp.csr_matrix]                       # per PSD variable, (m, d*d)
    H: list[sp.csr_matrix]                       # per PSD constraint, (d*d, n)
    D: list[sp.csr_matrix]                       # per PSD constraint, (d, d) symmetric
    notes: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        """The number of scalar variables."""
        return int(self.obj_a.size)

    @property
    def m(self) -> int:
        """The number of scalar constraints (rows of ``g``)."""
        return int(self.b.size)

    def cone_names(self) -> list[str]:
        """The distinct cone names used, in ``CONE_NAMES`` order (``"PSD"`` last)."""
        used = {c.name for c in (*self.var_cones, *self.con_cones)}
        if self.psd_var_dims or self.psd_con_dims:
            used.add("PSD")
        order = [*LINEAR, "Q", "QR", "EXP", "EXP*", "POW", "POW*", "PSD"]
        return [c for c in order if c in used]

    def size(self) -> str:
        extra = f", {self.int_vars.size} integer" if self.int_vars.size else ""
        psd = ""
        if self.psd_var_dims or self.psd_con_dims:
            psd = f", PSD vars {self.psd_var_dims}, PSD cons {self.psd_con_dims}"
        return (f"n = {self.n}{extra}, m = {self.m}, A nnz {self.A.nnz}{psd}; cones "
                f"{' '.join(self.cone_names())}")


def read_cbf(path: str | Path) -> CBFData:
    """Read a CBF file, plain or gzip-compressed (see the module docstring)."""
    path = Path(path)
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise CBFError(f"{path.name}: not a readable gzip file ({exc})") from None
    text = raw.decode("utf-8", errors="replace")
    name = path.name
    for suffix in (".gz", ".cbf", ".CBF"):
        name = name[: -len(suffix)] if name.endswith(suffix) else name
    return _Reader(path.name, name, text).read()


class _Reader:
    """The state of one file being read; one method per keyword."""

    def __init__(self, fname: str, name: str, text: str) -> None:
        self.fname, self.name = fname, name
        self.lines = [(k + 1, ln.split()) for k, ln in enumerate(text.split("\n"))
                      if ln.strip() and not ln.lstrip().startswith("#")]
        self.pos = 0
        self.seen: dict[str, int] = {}
        self.version = 0
        self.sense = ""
        self.n = self.m = 0
        self.var_cones: list[CBFCone] = []
        self.con_cones: list[CBFCone] = []
        self.int_vars = np.zeros(0, dtype=np.int64)
        self.psd_var_dims: list[int] = []
        self.psd_con_dims: list[int] = []
        self.alphas: dict[str, list[np.ndarray]] = {"POW": [], "POW*": []}
        self.coords: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.obj_b = 0.0
        self.notes: list[str] = []

    # -- tokens -------------------------------------------------------------------------

    def fail(self, message: str, lineno: int | None = None) -> CBFError:
        where = f"{self.fname}:{lineno}" if lineno is not None else self.fname
        return CBFError(f"{where}: {message}")

    def line(self, keyword: str, what: str, count: int) -> tuple[int, list[str]]:
        """The next line, which must hold ``count`` fields described by ``what``."""
        if self.pos >= len(self.lines):
            raise self.fail(f"the file ends inside {keyword} (expected {what})",
                            self.lines[-1][0])
        lineno, toks = self.lines[self.pos]
        self.pos += 1
        if toks[0] in KEYWORDS:
            raise self.fail(f"{keyword}: expected {what}, found the keyword {toks[0]} "
                            f"(fewer lines than {keyword}'s count)", lineno)
        if len(toks) != count:
            raise self.fail(f"{keyword}: expected {count} field(s) '{what}', got "
                            f"{len(toks)}: {' '.join(toks)!r}", lineno)
        return lineno, toks

    def integer(self, tok: str, lineno: int, keyword: str, low: int = 0) -> int:
        if not _INT.match(tok):
            raise self.fail(f"{keyword}: not an integer: {tok!r}", lineno)
        value = int(tok)
        if value < low:
            raise self.fail(f"{keyword}: {value} is below {low}", lineno)
        return value

    def real(self, tok: str, lineno: int, keyword: str) -> float:
        if not _REAL.match(tok):
            raise self.fail(f"{keyword}: not a finite decimal number: {tok!r}", lineno)
        value = float(tok)
        if not math.isfinite(value):
            raise self.fail(f"{keyword}: {tok!r} overflows a double", lineno)
        return value

    # -- the file -----------------------------------------------------------------------

    def read(self) -> CBFData:
        handlers = {
            "VER": self.ver, "OBJSENSE": self.objsense, "POWCONES": self.powcones,
            "POW*CONES": self.powcones, "PSDVAR": self.psdvar, "VAR": self.var,
            "INT": self.int_, "PSDCON": self.psdcon, "CON": self.con,
            "OBJBCOORD": self.objbcoord,
        }
        group = 0                                   # 0 file format, 1 structure, 2 data
        while self.pos < len(self.lines):
            lineno, toks = self.lines[self.pos]
            self.pos += 1
            key = toks[0]
            if key not in KEYWORDS:
                raise self.fail(f"unknown keyword {key!r} (known: {', '.join(KEYWORDS)})",
                                lineno)
            if len(toks) != 1:
                raise self.fail(f"the keyword {key} must stand alone on its line", lineno)
            if key == "CHANGE":
                self.notes.append(f"line {lineno}: CHANGE (a hotstart sequence) ends the "
                                  "instance; the changes after it were not read")
                break
            if not self.seen and key != "VER":
                raise self.fail(f"the first keyword must be VER, found {key}", lineno)
            if key in self.seen:
                raise self.fail(f"{key} appears twice (lines {self.seen[key]} and "
                                f"{lineno})", lineno)
            self.seen[key] = lineno
            kgroup = 0 if key == "VER" else 1 if key in STRUCTURE else 2
            if kgroup < group:
                raise self.fail(f"{key} (problem structure) after the problem data: "
                                "CBF puts VER, then the structure, then the data", lineno)
            group = kgroup
            if key in handlers:
                handlers[key](key, lineno)
            else:
                self.coordinates(key, lineno)
        if "VER" not in self.seen:
            raise self.fail("no VER keyword (the file is empty or all comments)")
        if "OBJSENSE" not in self.seen:
            raise self.fail("no OBJSENSE keyword (the spec requires it)")
        return self.assemble()

    def ver(self, key: str, _: int) -> None:
        lineno, toks = self.line(key, "version", 1)
        self.version = self.integer(toks[0], lineno, key, 1)
        if self.version > MAX_VERSION:
            raise self.fail(f"CBF version {self.version} is not supported (this reader "
                            f"knows versions 1 to {MAX_VERSION})", lineno)

    def objsense(self, key: str, _: int) -> None:
        lineno, toks = self.line(key, "MIN or MAX", 1)
        if toks[0] not in ("MIN", "MAX"):
            raise self.fail(f"OBJSENSE must be MIN or MAX, got {toks[0]!r}", lineno)
        self.sense = toks[0].lower()

    def powcones(self, key: str, _: int) -> None:
        lineno, toks = self.line(key, "cones parameters", 2)
        count = self.integer(toks[0], lineno, key)
        total = self.integer(toks[1], lineno, key)
        vectors, given = [], 0
        for _k in range(count):
            ln, t = self.line(key, "number of parameters", 1)
            size = self.integer(t[0], ln, key, 1)
            alpha = np.array([self.real(t[0], ln, key) for ln, t in
                              (self.line(key, "parameter", 1) for _i in range(size))])
            if not np.all(alpha > 0):
                raise self.fail(f"{key}: a power-cone parameter is not positive: "
                                f"{alpha.tolist()}", ln)
            vectors.append(alpha)
            given += size
        if given != total:
            raise self.fail(f"{key}: the header announces {total} parameters, the cones "
                            f"list {given}", lineno)
        self.alphas["POW" if key == "POWCONES" else "POW*"] = vectors

    def cone_list(self, key: str) -> tuple[int, list[CBFCone]]:
        """The body of VAR or CON: a header ``total count`` and ``count`` cone lines."""
        lineno, toks = self.line(key, "total number-of-cones", 2)
        total = self.integer(toks[0], lineno, key)
        count = self.integer(toks[1], lineno, key)
        cones = [self.cone(key, *self.line(key, "cone dimension", 2)) for _k in range(count)]
        given = sum(c.dim for c in cones)
        if given != total:
            raise self.fail(f"{key}: the header announces {total} scalars, the cones add "
                            f"up to {given}", lineno)
        return total, cones

    def cone(self, key: str, lineno: int, toks: list[str]) -> CBFCone:
        name, dim = toks[0], self.integer(toks[1], lineno, key)
        pow_match = _POW.match(name)
        if pow_match:
            kind, k = pow_match.group(2), int(pow_match.group(1))
            params = self.alphas[kind]
            source = "POWCONES" if kind == "POW" else "POW*CONES"
            if k >= len(params):
                raise self.fail(f"{key}: cone {name} refers to parameter vector {k}, but "
                                f"{source} defines {len(params)} (it must come first)",
                                lineno)
            if dim < params[k].size:
                raise self.fail(f"{key}: cone {name} of dimension {dim} is shorter than "
                                f"its {params[k].size} parameters", lineno)
            return CBFCone(kind, dim, k)
        if name == "SVPSD":
            raise self.fail(f"{key}: the cone SVPSD (CBF version 4) is not supported by "
                            "this reader", lineno)
        if name not in CONE_NAMES[:-2]:
            raise self.fail(f"{key}: unknown cone {name!r} (known: "
                            f"{', '.join(CONE_NAMES)})", lineno)
        least = {"Q": 1, "QR": 2, "EXP": 3, "EXP*": 3}.get(name, 0)
        if dim < least or (name in ("EXP", "EXP*") and dim != 3):
            need = "3" if name.startswith("EXP") else f">= {least}"
            raise self.fail(f"{key}: cone {name} needs dimension {need}, got {dim}", lineno)
        return CBFCone(name, dim)

    def var(self, key: str, _: int) -> None:
        self.n, self.var_cones = self.cone_list(key)

    def con(self, key: str, _: int) -> None:
        self.m, self.con_cones = self.cone_list(key)

    def int_(self, key: str, lineno: int) -> None:
        if "VAR" not in self.seen:
            raise self.fail("INT before VAR (the spec puts it after)", lineno)
        ln, toks = self.line(key, "count", 1)
        count = self.integer(toks[0], ln, key)
        idx = []
        for _k in range(count):
            ln, t = self.line(key, "variable index", 1)
            j = self.integer(t[0], ln, key)
            if j >= self.n:
                raise self.fail(f"INT: variable index {j} out of range (VAR has "
                                f"{self.n})", ln)
            idx.append(j)
        if len(set(idx)) != len(idx):
            raise self.fail("INT: a variable is listed twice", lineno)
        self.int_vars = np.array(sorted(idx), dtype=np.int64)

    def dims(self, key: str) -> list[int]:
        lineno, toks = self.line(key, "count", 1)
        count = self.integer(toks[0], lineno, key)
        return [self.integer(t[0], ln, key, 1) for ln, t in
                (self.line(key, "matrix order", 1) for _k in range(count))]

    def psdvar(self, key: str, _: int) -> None:
        self.psd_var_dims = self.dims(key)

    def psdcon(self, key: str, _: int) -> None:
        self.psd_con_dims = self.dims(key)

    def objbcoord(self, key: str, _: int) -> None:
        lineno, toks = self.line(key, "value", 1)
        self.obj_b = self.real(toks[0], lineno, key)

    # -- coordinates --------------------------------------------------------------------

    def coordinates(self, key: str, _: int) -> None:
        """A sparse coordinate list: its indices are checked against the structure read
        so far (keyword by keyword, so the first bad line is the one named)."""
        spec = {   # index names; "row" and "col" index the matrix named before them
            "OBJACOORD": ("var",), "ACOORD": ("con", "var"), "BCOORD": ("con",),
            "OBJFCOORD": ("psdvar", "row", "col"), "FCOORD": ("con", "psdvar", "row", "col"),
            "HCOORD": ("psdcon", "var", "row", "col"), "DCOORD": ("psdcon", "row", "col"),
        }[key]
        sizes = {"var": self.n, "con": self.m, "psdvar": len(self.psd_var_dims),
                 "psdcon": len(self.psd_con_dims)}
        matrix = "psdvar" if "psdvar" in spec else "psdcon"
        owner_col = spec.index(matrix) if matrix in spec else -1
        orders = self.psd_var_dims if matrix == "psdvar" else self.psd_con_dims
        lineno, toks = self.line(key, "count", 1)
        count = self.integer(toks[0], lineno, key)
        what = " ".join(spec) + " value"
        idx = np.zeros((count, len(spec)), dtype=np.int64)
        vals = np.zeros(count)
        where = np.zeros(count, dtype=np.int64)
        for r in range(count):
            ln, t = self.line(key, what, len(spec) + 1)
            where[r] = ln
            for c, kind in enumerate(spec):
                i = self.integer(t[c], ln, key)
                bound = sizes[kind] if kind in sizes else orders[idx[r, owner_col]]
                if i >= bound:
                    valid = f"0 to {bound - 1}" if bound else "there are none"
                    raise self.fail(f"{key}: {kind} index {i} out of range ({valid})", ln)
                idx[r, c] = i
            vals[r] = self.real(t[-1], ln, key)
        if "row" in spec:                              # one triangle: (k, l) ~ (l, k)
            k, l_ = spec.index("row"), spec.index("col")
            lo, hi = np.minimum(idx[:, k], idx[:, l_]), np.maximum(idx[:, k], idx[:, l_])
            idx[:, k], idx[:, l_] = hi, lo
        self.duplicates(key, idx, where)
        self.coords[key] = (idx, vals)

    def duplicates(self, key: str, idx: np.ndarray, where: np.ndarray) -> None:
        if idx.shape[0] < 2:
            return
        _, first, counts = np.unique(idx, axis=0, return_index=True, return_counts=True)
        if np.all(counts == 1):
            return
        rep = idx[first[np.argmax(counts > 1)]]
        lines = where[np.all(idx == rep, axis=1)]
        note = ("; transposed positions of a symmetric matrix count as one"
                if key in ("OBJFCOORD", "FCOORD", "HCOORD", "DCOORD") else "")
        raise self.fail(f"{key}: coordinate {tuple(int(v) for v in rep)} given twice "
                        f"(lines {', '.join(str(v) for v in lines)}{note})", int(lines[1]))

    # -- assembly -----------------------------------------------------------------------

    def coo(self, key: str) -> tuple[np.ndarray, np.ndarray]:
        return self.coords.get(key, (np.zeros((0, 5), dtype=np.int64), np.zeros(0)))

    def assemble(self) -> CBFData:
        n, m = self.n, self.m
        idx, vals = self.coo("OBJACOORD")
        obj_a = np.zeros(n)
        obj_a[idx[:, 0]] = vals
        idx, vals = self.coo("ACOORD")
        A = sp.csr_matrix((vals, (idx[:, 0], idx[:, 1])), shape=(m, n))
        idx, vals = self.coo("BCOORD")
        b = np.zeros(m)
        b[idx[:, 0]] = vals
        obj_F, F = [], []
        oidx, ovals = self.coo("OBJFCOORD")
        fidx, fvals = self.coo("FCOORD")
        for j, d in enumerate(self.psd_var_dims):
            sel = oidx[:, 0] == j
            obj_F.append(_symmetric(oidx[sel, 1], oidx[sel, 2], ovals[sel], d))
            sel = fidx[:, 1] == j
            F.append(_vec_rows(fidx[sel, 0], fidx[sel, 2], fidx[sel, 3], fvals[sel], m, d))
        H, D = [], []
        hidx, hvals = self.coo("HCOORD")
        didx, dvals = self.coo("DCOORD")
        for i, d in enumerate(self.psd_con_dims):
            sel = hidx[:, 0] == i
            H.append(_vec_rows(hidx[sel, 1], hidx[sel, 2], hidx[sel, 3], hvals[sel], n, d).T
                     .tocsr())
            sel = didx[:, 0] == i
            D.append(_symmetric(didx[sel, 1], didx[sel, 2], dvals[sel], d))
        return CBFData(
            name=self.name, version=self.version, sense=self.sense,
            var_cones=self.var_cones, con_cones=self.con_cones, int_vars=self.int_vars,
            psd_var_dims=self.psd_var_dims, psd_con_dims=self.psd_con_dims,
            pow_alphas=self.alphas["POW"], dpow_alphas=self.alphas["POW*"],
            obj_a=obj_a, obj_b=self.obj_b, obj_F=obj_F, A=A, b=b, F=F, H=H, D=D,
            notes=self.notes)


def _symmetric(k: np.ndarray, l_: np.ndarray, v: np.ndarray, d: int) -> sp.csr_matrix:
    """The symmetric ``d x d`` matrix whose one triangle the coordinates give."""
    off = k != l_
    rows = np.concatenate([k, l_[off]])
    cols = np.concatenate([l_, k[off]])
    return sp.csr_matrix((np.concatenate([v, v[off]]), (rows, cols)), shape=(d, d))


def _vec_rows(r: np.ndarray, k: np.ndarray, l_: np.ndarray, v: np.ndarray, nrows: int,
              d: int) -> sp.csr_matrix:
    """``(nrows, d*d)``: row ``r`` holds the column-major ``vec`` of a symmetric matrix
    whose triangle coordinates are ``(k, l, v)``."""
    off = k != l_
    rows = np.concatenate([r, r[off]])
    cols = np.concatenate([k + l_ * d, l_[off] + k[off] * d])
    return sp.csr_matrix((np.concatenate([v, v[off]]), (rows, cols)), shape=(nrows, d * d))


# -- the cvxpy problem --------------------------------------------------------------------


def build_problem(data: CBFData) -> cp.Problem:
    """The CBF problem as a ``cvxpy.Problem``: one vector variable ``x`` (the scalar
    variables, when there are any), one symmetric PSD variable ``X<j>`` per ``PSDVAR``;
    constraints in the order: the VAR cones, the CON cones, the PSDCON matrices.

    An integer problem (``INT``) is refused with a :class:`CBFError`: convexkern certifies
    continuous problems only, and a relaxation would have another optimum than the one
    CBLIB publishes.
    """
    if data.int_vars.size:
        raise CBFError(f"{data.name}: {data.int_vars.size} integer variable(s) (INT); "
                       "convexkern builds and certifies continuous problems only")
    x = cp.Variable(data.n, name="x") if data.n else None
    Xs = [cp.Variable((d, d), PSD=True, name=f"X{j}") for j, d in enumerate(data.psd_var_dims)]
    vecs = [cp.vec(X, order="F") for X in Xs]
    cons: list[cp.Constraint] = []
    if x is not None:
        cons += _cone_constraints(x, data.var_cones, data)
    if data.m:
        g = cp.Constant(data.b)
        if x is not None and data.A.nnz:
            g = data.A @ x + g
        for Fj, v in zip(data.F, vecs):
            if Fj.nnz:
                g = g + Fj @ v
        cons += _cone_constraints(g, data.con_cones, data)
    for Hi, Di, d in zip(data.H, data.D, data.psd_con_dims):
        G = cp.Constant(Di.toarray())
        if x is not None and Hi.nnz:
            G = G + cp.reshape(Hi @ x, (d, d), order="F")
        cons.append(G >> 0)
    objective = cp.Constant(data.obj_b)
    if x is not None and np.any(data.obj_a):
        objective = objective + data.obj_a @ x
    for Fo, v in zip(data.obj_F, vecs):
        if Fo.nnz:
            objective = objective + Fo.toarray().ravel(order="F") @ v
    sense = cp.Minimize if data.sense == "min" else cp.Maximize
    return cp.Problem(sense(objective), cons)


def _cone_constraints(u: cp.Expression, cones: list[CBFCone],
                      data: CBFData) -> list[cp.Constraint]:
    """``u[block] in cone`` for each cone of the list (the blocks are consecutive)."""
    linear: dict[str, list[int]] = {"L+": [], "L-": [], "L=": []}
    exp_blocks: dict[str, list[int]] = {"EXP": [], "EXP*": []}
    out: list[cp.Constraint] = []
    start = 0
    for cone in cones:
        stop = start + cone.dim
        if cone.name in linear:
            linear[cone.name].extend(range(start, stop))
        elif cone.name in exp_blocks:
            exp_blocks[cone.name].append(start)
        elif cone.name == "Q":
            out.append(cp.SOC(u[start], u[start + 1: stop]) if cone.dim > 1
                       else u[start] >= 0)
        elif cone.name == "QR":
            out += _rotated(u, start, stop)
        elif cone.name in ("POW", "POW*"):
            out += _power(u, start, stop, cone, data)
        start = stop
    for name, rows in linear.items():
        if rows:
            idx = np.array(rows)
            part = u[idx]
            out.append(part >= 0 if name == "L+" else part <= 0 if name == "L-"
                       else part == 0)
    for name, starts in exp_blocks.items():
        if starts:
            s = np.array(starts)
            u0, u1, u2 = u[s], u[s + 1], u[s + 2]
            # EXP: u0 >= u1 exp(u2/u1); EXP*: its dual, the image (u2 - u1, -u2, u0)
            out.append(cp.ExpCone(u2, u1, u0) if name == "EXP"
                       else cp.ExpCone(u2 - u1, -u2, u0))
    return out


def _rotated(u: cp.Expression, start: int, stop: int) -> list[cp.Constraint]:
    """``2 u0 u1 >= ||u2:||^2, u0, u1 >= 0`` as ``u0 + u1 >= ||(u0 - u1, sqrt2 u2:)||``."""
    p, q = u[start], u[start + 1]
    if stop - start == 2:
        return [p >= 0, q >= 0]
    rest = cp.hstack([p - q, math.sqrt(2.0) * u[start + 2: stop]])
    return [cp.SOC(p + q, rest)]


def _power(u: cp.Expression, start: int, stop: int, cone: CBFCone,
           data: CBFData) -> list[cp.Constraint]:
    """MOSEK's (dual) power cone: ``prod w_i^beta_i >= ||u_p:||`` with ``w = u[:p]``
    (primal) or ``w = u[:p] / beta`` (dual), ``beta = alpha / sum(alpha)``."""
    alpha = (data.pow_alphas if cone.name == "POW" else data.dpow_alphas)[cone.param]
    beta = alpha / alpha.sum()
    p = alpha.size
    w = u[start: start + p]
    if cone.name == "POW*":
        w = cp.multiply(1.0 / beta, w)
    rest = stop - start - p
    if rest == 0:
        return [w >= 0]
    if rest == 1:
        z = u[start + p]
        out = []
    else:
        z = cp.Variable(name=f"t_pow{start}")
        out = [cp.SOC(z, u[start + p: stop])]
    if p == 1:                          # beta = 1: w >= |z|
        return out + [w[0] >= cp.abs(z)]
    if p == 2:
        return out + [cp.PowCone3D(w[0], w[1], z, beta[0])]
    return out + [cp.PowConeND(w, z, beta)]
