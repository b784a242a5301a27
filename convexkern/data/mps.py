"""MPS / QPS files: the format of the public LP and QP test sets (Netlib, Maros-Meszaros).

:func:`read_mps` reads a free-format MPS file (Netlib LPs) or its QPS extension
(Maros-Meszaros QPs) into an :class:`MPSData`; :func:`build_problem` turns that into a
``cvxpy.Problem``.  Fields are split on white space (free format); a file that does not
read so is read again in fixed format, whose fields sit in the columns 2-3, 5-12, 15-22,
25-36, 40-47 and 50-61 and whose names may hold blanks (Maros-Meszaros QFORPLAN, ``AZ  20``).

Format as read here
-------------------
``NAME``
    the problem name (rest of the line; may be empty or contain blanks).
``OBJSENSE``
    ``MIN`` / ``MAX``, inline or on the next line (default ``MIN``).
``ROWS``
    ``N`` / ``E`` / ``L`` / ``G`` and the row name.  The first ``N`` row is the objective;
    other ``N`` rows are free rows and are dropped (as the Netlib readme does).
``COLUMNS``
    ``column row value [row value]``.  ``MARKER`` lines (``'INTORG'`` / ``'INTEND'``) are
    ignored: integer columns are read as continuous.  Repeated (column, row) entries add up.
``RHS``
    ``[set] row value [row value]``: a line with an odd number of fields names its set, an
    even one has no set name (fixed-format files with a blank set field, e.g. Netlib BLEND).
    Only the first set is read.  **Objective constant:** a right-hand side ``r`` given for
    the objective row enters the objective as ``-r`` (the objective row is read as
    ``c'x - r``).  This is the convention of the Maros-Meszaros files (HS21 has ``RHS
    OBJ.FUNC 100`` and the published optimum ``0.01 * 2**2 - 100 = -99.96``), of CPLEX
    and of HiGHS.
``RANGES``
    ``[set] row value ...`` (first set only).  With ``R = value``: an ``L`` row with
    right-hand side ``b`` becomes ``b - |R| <= a'x <= b``, a ``G`` row
    ``b <= a'x <= b + |R|``, an ``E`` row ``b <= a'x <= b + R`` for ``R > 0`` and
    ``b + R <= a'x <= b`` for ``R < 0``.
``BOUNDS``
    ``type [set] column [value]`` (first set only); default bounds ``0 <= x < inf``.
    ``UP`` (upper; an upper bound ``< 0`` on a column whose lower bound was not given also
    sets the lower bound to ``-inf``, the old MPS rule), ``LO``, ``FX`` (both),
    ``FR`` (free), ``MI`` (lower ``-inf``, upper kept), ``PL`` (upper ``+inf``),
    ``BV`` (``[0, 1]``, read as continuous), ``LI`` / ``UI`` (as ``LO`` / ``UP``, continuous).
``QUADOBJ`` / ``QSECTION``
    ``column column value``: the lower (or upper) triangle of the symmetric ``Q``; an
    off-diagonal entry stands for both ``Q[i, j]`` and ``Q[j, i]``.
``QMATRIX``
    ``column column value``: every nonzero of ``Q``, both triangles listed.

The objective is ``c'x + 1/2 x'Qx + constant`` (the Maros-Meszaros ``min c_0 + c'x +
1/2 x'Qx``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from ..errors import InvalidInputError

__all__ = ["MPSData", "MPSError", "read_mps", "build_problem", "public_file"]

SECTIONS = {"NAME", "OBJSENSE", "ROWS", "COLUMNS", "RHS", "RANGES", "BOUNDS", "QUADOBJ",
            "QSECTION", "QMATRIX", "ENDATA"}


class MPSError(InvalidInputError):
    """A file this reader does not understand (the argument named is ``path``)."""

    def __init__(self, message: str) -> None:
        super().__init__("path", message)


@dataclass
class MPSData:
    """An LP / QP read from an MPS / QPS file: minimise (or maximise)
    ``c'x + 1/2 x'Qx + constant`` s.t. ``row_lower <= A x <= row_upper`` and
    ``col_lower <= x <= col_upper``."""

    name: str
    objective_row: str
    sense: str                      # "min" or "max"
    col_names: list[str]
    row_names: list[str]            # constraint rows (free rows dropped)
    row_types: list[str]            # "E", "L" or "G"
    c: np.ndarray
    constant: float
    A: sp.csr_matrix
    row_lower: np.ndarray
    row_upper: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    Q: sp.csr_matrix | None         # symmetric, None for an LP
    dropped_free_rows: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.col_names)

    @property
    def m(self) -> int:
        return len(self.row_names)

    def size(self) -> str:
        q = "" if self.Q is None else f", Q nnz {self.Q.nnz}"
        return f"{self.m} rows x {self.n} cols, A nnz {self.A.nnz}{q}"


def _num(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        try:
            return float(text.upper().replace("D", "E"))
        except ValueError as exc:
            raise MPSError(f"not a number: {text!r}") from exc


def read_mps(path: str | Path) -> MPSData:
    """Read an MPS / QPS file, free format or else fixed format (see the module docstring
    for the rules)."""
    try:
        return _read(Path(path), fixed=False)
    except MPSError as free:
        try:
            return _read(Path(path), fixed=True)
        except MPSError as fixed:
            raise MPSError(f"{str(free).split(': ', 1)[-1]} (nor does it read as fixed-format "
                           f"MPS: {str(fixed).split(': ', 1)[-1]})") from None


#: the character ranges of the six fields of a fixed-format MPS line (0-based, half open)
_FIXED = ((1, 3), (4, 12), (14, 22), (24, 36), (39, 47), (49, 61))


def _fixed_tokens(line: str, section: str) -> list[str]:
    """The fields of a fixed-format data line, in the order :class:`_Reader` takes them
    from a free-format one (blank optional fields left out)."""
    f = [line[a:b].strip() for a, b in _FIXED]
    if section == "ROWS":
        return f[:2]
    if section == "BOUNDS":
        return [f[0]] + [v for v in f[1:4] if v]
    if section in ("RHS", "RANGES"):
        return ([f[1]] if f[1] else []) + f[2:4] + (f[4:6] if f[4] else [])
    if section == "COLUMNS":
        return f[1:4] + (f[4:6] if f[4] else [])
    if section in ("QUADOBJ", "QSECTION", "QMATRIX"):
        return f[1:4]
    return line.split()


def _read(path: Path, fixed: bool) -> MPSData:
    reader = _Reader(path, fixed)
    with open(reader.path, encoding="ascii", errors="replace") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.rstrip("\r\n")
            if not line.strip() or line.lstrip().startswith("*"):
                continue
            if not reader.line(line, lineno):
                break
    return reader.assemble()


class _Reader:
    """The state of one file being read, one method per section."""

    def __init__(self, path: Path, fixed: bool = False) -> None:
        self.path, self.name, self.sense, self.section = path, path.stem, "min", ""
        self.fixed = fixed
        self.obj_row = ""
        self.row_type: dict[str, str] = {}          # constraint rows, in order
        self.free_rows: list[str] = []
        self.cols: dict[str, int] = {}
        self.c_entries: dict[int, float] = {}
        self.a_entries: dict[tuple[str, int], float] = {}
        self.rhs: dict[str, float] = {}
        self.ranges: dict[str, float] = {}
        self.sets: dict[str, str | None] = {"RHS": None, "RANGES": None, "BOUNDS": None}
        self.lower: dict[int, float] = {}
        self.upper: dict[int, float] = {}
        self.lower_given: set[int] = set()
        self.q_entries: dict[tuple[int, int], float] = {}
        self.notes: list[str] = []
        self.at = ""

    def fail(self, what: str) -> MPSError:
        return MPSError(f"{self.path.name}{self.at}: {what}")

    def col_index(self, cname: str) -> int:
        if cname not in self.cols:
            raise self.fail(f"unknown column {cname!r}")
        return self.cols[cname]

    def line(self, line: str, lineno: int) -> bool:
        """Read one line; ``False`` at ``ENDATA``."""
        self.at = f":{lineno}"
        tok = line.split()
        if self.fixed and line[0].isspace():
            tok = _fixed_tokens(line, self.section)
        if not line[0].isspace():          # a section header
            head = tok[0].upper()
            if head not in SECTIONS:
                raise self.fail(f"unknown section {tok[0]!r}")
            self.section = head
            if head == "NAME":
                self.name = line[4:].strip() or self.name
            elif head == "OBJSENSE" and len(tok) > 1:
                self.sense = "max" if tok[1].upper().startswith("MAX") else "min"
            return head != "ENDATA"
        sec = self.section
        if sec == "OBJSENSE":
            self.sense = "max" if tok[0].upper().startswith("MAX") else "min"
        elif sec == "ROWS":
            self.rows(tok)
        elif sec == "COLUMNS":
            self.columns(tok)
        elif sec in ("RHS", "RANGES"):
            self.rhs_ranges(sec, tok)
        elif sec == "BOUNDS":
            self.bounds(tok, line)
        elif sec in ("QUADOBJ", "QSECTION", "QMATRIX"):
            if len(tok) != 3:
                raise self.fail(f"{sec} line {line!r}")
            i, j, v = self.col_index(tok[0]), self.col_index(tok[1]), _num(tok[2])
            self.q_entries[(i, j)] = self.q_entries.get((i, j), 0.0) + v
            if sec != "QMATRIX" and i != j:
                self.q_entries[(j, i)] = self.q_entries.get((j, i), 0.0) + v
        elif sec != "NAME":
            raise self.fail(f"data outside a section: {line!r}")
        return True

    def rows(self, tok: list[str]) -> None:
        kind, rname = tok[0].upper(), tok[1]
        if kind == "N":
            if not self.obj_row:
                self.obj_row = rname
            else:
                self.free_rows.append(rname)
        elif kind in ("E", "L", "G"):
            self.row_type[rname] = kind
        else:
            raise self.fail(f"row type {tok[0]!r}")

    def columns(self, tok: list[str]) -> None:
        if len(tok) >= 3 and tok[1].strip("'\"").upper() == "MARKER":
            return  # integer markers: read as continuous
        j = self.cols.setdefault(tok[0], len(self.cols))
        if len(tok) not in (3, 5):
            raise self.fail(f"COLUMNS line with {len(tok)} fields")
        for rname, val in zip(tok[1::2], tok[2::2]):
            v = _num(val)
            if rname == self.obj_row:
                self.c_entries[j] = self.c_entries.get(j, 0.0) + v
            elif rname in self.row_type:
                self.a_entries[(rname, j)] = self.a_entries.get((rname, j), 0.0) + v
            elif rname not in self.free_rows:
                raise self.fail(f"unknown row {rname!r}")

    def rhs_ranges(self, sec: str, tok: list[str]) -> None:
        if len(tok) % 2:                      # a set name is given
            set_name, pairs = tok[0], tok[1:]
        else:
            set_name, pairs = "", tok
        if self.sets[sec] is None:
            self.sets[sec] = set_name
        if set_name != self.sets[sec]:
            return  # only the first set is read
        target = self.rhs if sec == "RHS" else self.ranges
        for rname, val in zip(pairs[0::2], pairs[1::2]):
            if rname in self.free_rows:
                continue
            if rname != self.obj_row and rname not in self.row_type:
                raise self.fail(f"unknown row {rname!r}")
            target[rname] = _num(val)

    def bounds(self, tok: list[str], line: str) -> None:
        kind, rest = tok[0].upper(), tok[1:]
        value = math.nan
        if kind in ("FR", "MI", "PL"):
            set_name, cname = (rest[0], rest[1]) if len(rest) == 2 else ("", rest[0])
        elif kind == "BV":
            if len(rest) == 3 or (len(rest) == 2 and rest[1] in self.cols):
                set_name, cname = rest[0], rest[1]
            else:
                set_name, cname = "", rest[0]
        elif kind in ("UP", "LO", "FX", "LI", "UI"):
            if len(rest) == 3:
                set_name, cname, value = rest[0], rest[1], _num(rest[2])
            elif len(rest) == 2:
                set_name, cname, value = "", rest[0], _num(rest[1])
            else:
                raise self.fail(f"BOUNDS line {line!r}")
        else:
            raise self.fail(f"bound type {tok[0]!r}")
        if self.sets["BOUNDS"] is None:
            self.sets["BOUNDS"] = set_name
        if set_name != self.sets["BOUNDS"]:
            return
        j = self.col_index(cname)
        lower, upper, given = self.lower, self.upper, self.lower_given
        if kind in ("UP", "UI"):
            upper[j] = value
            if value < 0 and j not in given and lower.get(j, 0.0) == 0.0:
                lower[j] = -math.inf
                self.notes.append(f"UP {cname} {value:g} < 0 without LO: lower set to -inf")
        elif kind in ("LO", "LI"):
            lower[j] = value
            given.add(j)
        elif kind == "FX":
            lower[j] = upper[j] = value
            given.add(j)
        elif kind == "FR":
            lower[j], upper[j] = -math.inf, math.inf
            given.add(j)
        elif kind == "MI":
            lower[j] = -math.inf
            given.add(j)
        elif kind == "PL":
            upper[j] = math.inf
        else:  # BV
            lower[j], upper[j] = 0.0, 1.0
            given.add(j)
            self.notes.append(f"BV {cname}: read as continuous [0, 1]")

    def assemble(self) -> MPSData:
        self.at = ""
        if not self.obj_row:
            raise self.fail("no objective (N) row")
        n = len(self.cols)
        row_names = list(self.row_type)
        rindex = {r: i for i, r in enumerate(row_names)}
        m = len(row_names)
        if self.a_entries:
            ri, ci, vals = zip(*((rindex[r], j, v) for (r, j), v in self.a_entries.items()))
        else:
            ri, ci, vals = (), (), ()
        A = sp.csr_matrix((np.array(vals, float), (np.array(ri, int), np.array(ci, int))),
                          shape=(m, n))
        c = np.zeros(n)
        for j, v in self.c_entries.items():
            c[j] = v
        row_lower, row_upper = self.row_sides(rindex)
        col_lower = np.zeros(n)
        col_upper = np.full(n, math.inf)
        for j, v in self.lower.items():
            col_lower[j] = v
        for j, v in self.upper.items():
            col_upper[j] = v
        Q = None
        if self.q_entries:
            qi, qj, qv = zip(*((i, j, v) for (i, j), v in self.q_entries.items()))
            Q = sp.csr_matrix((np.array(qv, float), (np.array(qi), np.array(qj))),
                              shape=(n, n))
            asym = abs(Q - Q.T).max() if Q.nnz else 0.0
            if asym > 1e-12 * max(1.0, abs(Q).max()):
                raise self.fail(f"Q not symmetric (max |Q - Q'| = {asym:g})")
        return MPSData(name=self.name, objective_row=self.obj_row, sense=self.sense,
                       col_names=list(self.cols), row_names=row_names,
                       row_types=[self.row_type[r] for r in row_names], c=c,
                       constant=-self.rhs.get(self.obj_row, 0.0), A=A, row_lower=row_lower,
                       row_upper=row_upper, col_lower=col_lower, col_upper=col_upper, Q=Q,
                       dropped_free_rows=self.free_rows, notes=self.notes)

    def row_sides(self, rindex: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
        """``row_lower <= A x <= row_upper`` from the row types, RHS and RANGES."""
        m = len(rindex)
        row_lower = np.full(m, -math.inf)
        row_upper = np.full(m, math.inf)
        for r, i in rindex.items():
            b = self.rhs.get(r, 0.0)
            t = self.row_type[r]
            rng = self.ranges.get(r)
            if t == "E":
                row_lower[i] = row_upper[i] = b
                if rng is not None:
                    if rng > 0:
                        row_upper[i] = b + rng
                    else:
                        row_lower[i] = b + rng
            elif t == "L":
                row_upper[i] = b
                if rng is not None:
                    row_lower[i] = b - abs(rng)
            else:  # "G"
                row_lower[i] = b
                if rng is not None:
                    row_upper[i] = b + abs(rng)
        return row_lower, row_upper


def build_problem(data: MPSData, var_name: str = "x") -> tuple[cp.Problem, cp.Variable]:
    """The cvxpy problem ``min c'x + 1/2 x'Qx + constant`` s.t. the rows and bounds.

    One vector variable named ``var_name`` holds the columns (``data.col_names[j]`` names
    entry ``j``).  Constraints, in order: the equality rows ``A_E x == b``; the finite lower
    sides ``A_G x >= l``; the finite upper sides ``A_L x <= u`` (a ranged row gives one of
    each); then the finite column bounds ``x[J] >= l_J`` and ``x[K] <= u_K`` (a fixed column
    gives both).  ``Q`` enters as ``0.5 * quad_form(x, psd_wrap(Q))``: the test sets are
    convex, so no eigenvalue check is run.
    """
    x = cp.Variable(data.n, name=var_name)
    expr = data.c @ x + data.constant
    if data.Q is not None and data.Q.nnz:
        expr = expr + 0.5 * cp.quad_form(x, cp.psd_wrap(data.Q.tocsc()))
    cons: list[cp.Constraint] = []
    lo, up = data.row_lower, data.row_upper
    eq = np.flatnonzero(lo == up)
    ge = np.flatnonzero(np.isfinite(lo) & (lo != up))
    le = np.flatnonzero(np.isfinite(up) & (lo != up))
    A = data.A.tocsr()
    if eq.size:
        cons.append(A[eq] @ x == lo[eq])
    if ge.size:
        cons.append(A[ge] @ x >= lo[ge])
    if le.size:
        cons.append(A[le] @ x <= up[le])
    jl = np.flatnonzero(np.isfinite(data.col_lower))
    ju = np.flatnonzero(np.isfinite(data.col_upper))
    if jl.size:
        cons.append(x[jl] >= data.col_lower[jl])
    if ju.size:
        cons.append(x[ju] <= data.col_upper[ju])
    objective = cp.Minimize(expr) if data.sense == "min" else cp.Maximize(expr)
    return cp.Problem(objective, cons), x


def public_file(name: str) -> Path:
    """The local copy of a public test-set file, ``"netlib/afiro.mps"``,
    ``"maros_meszaros/HS21.QPS"`` or ``"sdplib/truss1.dat-s"`` (sources, commits and
    published optima in ``convexkern/data/public/README.md``): the shipped file, or for a
    Maros-Meszaros file not shipped (``"maros_meszaros/AUG2D.QPS"``) the one fetched on
    first use and checked against its checksum (:func:`convexkern.data.fetched.fetch`)."""
    from . import fetched

    root = fetched.public_root()
    path = (root / name).resolve()
    if root.resolve() in path.parents and path.is_file():
        return path
    if fetched.fetchable(name) is not None:
        return fetched.fetch(name)
    known = sorted(str(p.relative_to(root)) for p in root.glob("*/*") if p.is_file())
    raise InvalidInputError("name", f"{name!r} is not a shipped public file nor one of the "
                                    f"138 fetched Maros-Meszaros files; shipped: "
                                    f"{', '.join(known)}")
