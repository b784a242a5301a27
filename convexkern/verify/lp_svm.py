r"""Theorems 1–6 of Abe (ICANN 2012) as executable verdicts.

Each ``check_theorem_k`` solves the LPs of :mod:`convexkern.formulations.lp_svm` (by
default with the direct HiGHS path, solver ``"linprog"``) and returns a
:class:`TheoremVerdict`: the statement as printed in the paper (:data:`PRINTED`, quoted
verbatim in ``printed``), whether it holds on the given ``A`` (``as_printed``), whether
the corrected statement does where the printed one has an erratum (``holds``), and the
numbers behind both.  Known errata, each shown by a counterexample on real data (see
``docs/lp_svm.md``): Theorem 1's converse mapping ``C_rho = C_M J_hat`` (it is
``C_M / J_hat``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import check_positive, check_positive_sequence
from ..errors import InvalidInputError
from ..formulation import Formulation
from ..formulations.lp_svm import lp, nu_lp, nu_lp_dual
from ..math.lp_svm import c_min, check_gram, lp_value, max_abs_diff, nu_lp_value
from ..report import SolveReport

__all__ = [
    "PRINTED",
    "PRINTED_SOURCE",
    "TheoremVerdict",
    "check_theorem_1",
    "check_theorem_2",
    "check_theorem_3",
    "check_theorem_4",
    "check_theorem_5",
    "check_theorem_6",
]


#: Where :data:`PRINTED` is quoted from.
PRINTED_SOURCE = ("S. Abe, Training Mahalanobis kernels by linear programming, ICANN 2012, "
                  "LNCS 7553:339-346, Section 2 (Theorem 1) and Section 3 (Theorems 2-6); "
                  "accepted manuscript, Kobe University repository, hdl 20.500.14094/90001766")

#: Theorems 1–6 as printed (verbatim, the paper's LaTeX kept; Theorem 5's display
#: equations joined to one line).  ``ν -LP`` is the paper's spelling of ν-LP.
PRINTED: dict[int, str] = {
    1: (r"If the ν -LP SVM has the optimal solution $(\bar{\rho}, \bar{R}, \bar{\xi})$ with "
        r"$\bar{\rho} > 0$ and $\bar{J}_\rho > 0$ for C_ρ , $(\hat{R}, \hat{\xi}) = "
        r"(\bar{R}/\bar{\rho}, \bar{\xi}/\bar{\rho})$ is the optimal solution of the LP SVM "
        r"with $C_M = C_\rho/\bar{J}_\rho$. Conversely, if the LP SVM with C_M has the optimal "
        r"solution $(\hat{R}, \hat{\xi})$ with $\hat{R} \neq 0$, $(\bar{\rho}, \bar{R}, "
        r"\bar{\xi}) = (1/\sum_{i=1}^m \hat{R}_{ii}, \bar{\rho}\hat{R}, \bar{\rho}\hat{\xi})$ "
        r"is the optimal solution of the ν -LP SVM with $C_\rho = C_M\hat{J}$."),
    2: r"For $0 < C_\rho < 1/M$, the solution of the ν -LP SVM is unbounded.",
    3: (r"For $C_\rho \geq 1$ the optimal R_{ii} ($i = 1, \dots, m$) are the same for "
        r"different values of C_ρ ."),
    4: (r"If for $C_\rho = C_0 (\geq 1/M)$, the solution of the ν -LP SVM satisfies "
        r"$\rho > 0$ and $\xi = \mathbf{0}$, or $\rho = 0$, the same solution is obtained "
        r"for $C_\rho = t C_0$ ($t > 1$)."),
    5: (r"Define $$C_{\min} = \min_{\substack{i=1, \dots, m \\ \sum_{r=1}^M a_{ir} > 0}} "
        r"1 / \sum_{r=1}^M a_{ir}. \quad (18)$$ Then, if C_{\min} exists, for "
        r"$C_{\min} > C_M > 0$ the solution of the LP SVM is $$R_{ii} = 0 \quad \text{for } "
        r"i = 1, \dots, m. \quad (19)$$ Otherwise, (19) is satisfied for $C_M > 0$."),
    6: (r"There exists a positive C_0 such that for $C_M \geq C_0$ the optimal solution "
        r"(R, ξ) of the LP SVM does not change."),
}


@dataclass(frozen=True)
class TheoremVerdict:
    """The outcome of checking one of the paper's theorems on given data.

    Attributes
    ----------
    theorem : int
    statement : str
        A one-line summary of what was checked (the corrected form where the printed one
        has an erratum); the paper's own words are in ``printed``.
    holds : bool
        Whether the checked statement held on this data, to ``tol``.
    as_printed : bool or None
        Whether the statement *as printed in the paper* holds here (``None`` when the
        check does not distinguish).
    numbers : dict
        The numbers behind the verdict.
    note : str
        Conditions, counterexamples, caveats.
    printed : str
        The theorem as printed in the paper, verbatim (:data:`PRINTED`).
    """

    theorem: int
    statement: str
    holds: bool
    as_printed: bool | None
    numbers: dict[str, Any] = field(default_factory=dict)
    note: str = ""
    printed: str = ""

    def __post_init__(self) -> None:
        if not self.printed and self.theorem in PRINTED:
            object.__setattr__(self, "printed", PRINTED[self.theorem])

    def __bool__(self) -> bool:
        return self.holds

    def __str__(self) -> str:
        nums = ", ".join(f"{k}={_short(v)}" for k, v in self.numbers.items())
        printed = "" if self.as_printed is None else f"; as printed: {self.as_printed}"
        return (f"Theorem {self.theorem}: {'holds' if self.holds else 'FAILS'}{printed} "
                f"[{nums}]" + (f" -- {self.note}" if self.note else ""))


def _short(v: Any) -> str:
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.6g}"
    if isinstance(v, np.ndarray):
        return f"array{v.shape}"
    return str(v)


def _solve(f: Formulation, solver: str, tol: float) -> SolveReport:
    from ..solvers import solve

    return solve(f, solver, tol=tol)


def _rel(a: float, b: float) -> float:
    """Relative difference, scale-free (0 when equal, also when both are 0)."""
    d = abs(a - b)
    return 0.0 if d == 0 else d / max(abs(a), abs(b))


def _amax(A: np.ndarray) -> float:
    """``max |a_ir|``: the scale of margins, ``rho`` and ν-LP values (``R`` on the simplex)."""
    return float(np.abs(A).max())


def _fixed_R_best(A: np.ndarray, R: np.ndarray, C: float) -> float:
    """ν-LP value of ``R`` normalised to ``sum R = 1`` with the best ``rho >= 0``."""
    return nu_lp_value(A, R, C)[0]


def check_theorem_1(A: Any, C_rho: float, *, C_M: float | None = None,
                    solver: str = "linprog", tol: float = 1e-6) -> TheoremVerdict:
    r"""Theorem 1: equivalence of the ν-LP SVM and the LP SVM, both ways.

    Forward: if the ν-LP optimum :math:`\bar J_\rho = \bar\rho - C_\rho\sum\bar\xi` is
    **positive**, then :math:`(\bar R, \bar\xi)/\bar\rho` solves the LP SVM with
    :math:`C_M = C_\rho/\bar J_\rho` and :math:`\hat J = 1/\bar J_\rho`.  Converse: an LP
    SVM solution :math:`\hat R \ne 0` with value :math:`\hat J` gives, scaled by
    :math:`1/\sum\hat R`, a ν-LP solution for :math:`C_\rho = C_M/\hat J` — not for the
    printed :math:`C_\rho = C_M\hat J` (which agrees only when :math:`\hat J = 1`).

    Parameters
    ----------
    A : (M, m) array
    C_rho : float > 0
        ν-LP parameter of the forward direction.
    C_M : float > 0, optional
        LP SVM parameter of the converse direction; default: the forward image
        :math:`C_\rho/\bar J_\rho` (when :math:`\bar J_\rho > 0`).  Pass it to test the
        converse on its own, from an arbitrary LP SVM.
    solver, tol
        Solver of every LP, and the relative tolerance of the comparisons (``10 tol``).

    Every threshold is relative, so the verdict is invariant under ``A -> s A``
    (:math:`\bar J_\rho` and :math:`\bar\rho` scale with ``s``, ``C_M`` and :math:`\hat J`
    with ``1/s``): :math:`\bar J_\rho` counts as positive when it exceeds
    ``tol * (rho + C_rho sum xi)``, the size of the two terms it is the difference of.

    ``holds`` is the corrected statement (forward part as printed, converse with
    :math:`C_\rho = C_M/\hat J`); ``as_printed`` is the printed statement
    (:data:`PRINTED` ``[1]``): False when its converse fails here, None when it was not
    tested (the ν-LP has no optimum, or :math:`\bar J_\rho \le 0` -- the printed
    hypothesis, which the paper adds to [7]'s statement, fails -- and no ``C_M`` was
    given for the converse).
    """
    A = check_gram(A)
    C_rho = check_positive(C_rho, "C_rho")
    if C_M is not None:
        C_M = check_positive(C_M, "C_M")
    amax = _amax(A)
    nu = _solve(nu_lp(A, C_rho), solver, tol)
    nums: dict[str, Any] = {"C_rho": C_rho, "J_rho": nu.primal_value, "nu_status": nu.status.value}
    if not nu.status.has_solution:
        return TheoremVerdict(1, "equivalence needs a finite nu-LP optimum", False, None, nums,
                              f"nu-LP SVM status {nu.status.value} (C_rho < 1/M?)")
    J = nu.primal_value
    rho = float(nu.x["rho"])
    loss = C_rho * float(np.sum(nu.x["xi"]))
    nums["rho"] = rho
    notes: list[str] = []
    fwd_ok = True
    if J > tol * (rho + loss):
        C_fwd = C_rho / J
        lpr = _solve(lp(A, C_fwd), solver, tol)
        J_hat = lpr.primal_value
        mapped_val, _ = lp_value(A, nu.x["R"] / rho, C_fwd)
        fwd_ok = bool(lpr.status.has_solution and _rel(J_hat, 1.0 / J) <= 10 * tol
                      and _rel(mapped_val, J_hat) <= 10 * tol)
        nums.update({"C_M": C_fwd, "J_hat": J_hat, "1/J_rho": 1.0 / J,
                     "mapped_lp_value": mapped_val})
    else:
        C_fwd = None
        notes.append(
            f"J_rho = {J:.6g} <= 0 (rho = {rho:.3g}"
            + (", the zero-margin solution" if rho <= tol * amax else "")
            + "): the printed hypothesis J_rho > 0 fails, so the forward part says nothing "
            "here; the hypothesis is needed: C_M = C_rho/J_rho would be undefined or "
            "negative and no LP SVM is equivalent")
    C_conv = C_M if C_M is not None else C_fwd
    if C_conv is None:
        return TheoremVerdict(1, "forward direction needs J_rho > 0", True, None, nums,
                              notes[0])
    # converse from the LP SVM side, both mappings
    lpc = _solve(lp(A, C_conv), solver, tol)
    J_hat_c = lpc.primal_value
    nums.update({"C_M_converse": C_conv, "J_hat_converse": J_hat_c})
    R_hat = np.asarray(lpc.x["R"], float) if lpc.status.has_solution else np.zeros(A.shape[1])
    t = float(R_hat.sum())
    if not t > 0:  # C_M <= C_min (Theorem 5), or M C_rho = 1 exactly
        notes.append("the LP SVM solution is R = 0 (C_M <= C_min?): the converse is not "
                     "tested")
        return TheoremVerdict(1, "converse needs an LP SVM solution R != 0", fwd_ok, None,
                              nums, "; ".join(notes))
    C_right = C_conv / J_hat_c
    C_printed = C_conv * J_hat_c
    back = _solve(nu_lp(A, C_right), solver, tol)
    mapped_nu = _fixed_R_best(A, R_hat, C_right)
    conv_ok = bool(back.status.has_solution
                   and _rel(back.primal_value, 1.0 / J_hat_c) <= 10 * tol
                   and _rel(mapped_nu, back.primal_value) <= 10 * tol)
    printed = _solve(nu_lp(A, C_printed), solver, tol)
    mapped_printed = _fixed_R_best(A, R_hat, C_printed)
    printed_ok = bool(printed.status.has_solution
                      and _rel(mapped_printed, printed.primal_value) <= 10 * tol)
    nums.update({"C_rho_corrected": C_right, "J_rho_corrected": back.primal_value,
                 "mapped_value_at_corrected": mapped_nu,
                 "C_rho_printed": C_printed, "J_rho_printed": printed.primal_value,
                 "mapped_value_at_printed": mapped_printed})
    if conv_ok:
        notes.append(
            "converse with the printed C_rho = C_M*J_hat: the mapped point is "
            + ("optimal" if printed_ok else
               f"NOT optimal ({mapped_printed:.6g} < {printed.primal_value:.6g})"
               if printed.status.has_solution else
               f"NOT a solution: that C_rho = {C_printed:.6g} gives nu-LP status "
               f"{printed.status.value} (Theorem 2 when C_rho < 1/M)")
            + "; with C_rho = C_M/J_hat it is optimal")
    return TheoremVerdict(
        1, "nu-LP(C_rho) ~ LP(C_M = C_rho/J_rho) when J_rho > 0; converse C_rho = C_M/J_hat",
        fwd_ok and conv_ok, bool(fwd_ok and printed_ok), nums, "; ".join(notes))


def check_theorem_2(A: Any, C_rho: float | None = None, *,
                    solvers: tuple[str, ...] = ("linprog", "highs", "clarabel", "scs", "ecos")
                    ) -> TheoremVerdict:
    """Theorem 2: for ``C_rho < 1/M`` the ν-LP SVM is unbounded (its dual infeasible).

    ``C_rho`` defaults to ``0.5/M``.  Every installed solver of ``solvers`` is run on both
    problems; the verdict holds when each reports ``unbounded`` / ``infeasible``.  The
    ray ``rho = t, xi = t - AR`` (any simplex ``R``) has objective
    ``t (1 - M C_rho) + C_rho e'AR`` -> inf, given in ``numbers["ray_slope"]``.
    """
    from ..solvers import available_solvers

    A = check_gram(A)
    M = A.shape[0]
    C = 0.5 / M if C_rho is None else check_positive(C_rho, "C_rho")
    fp, fd = nu_lp(A, C), nu_lp_dual(A, C)
    names = [s for s in solvers if s in available_solvers(fp)]
    statuses = {}
    for s in names:
        statuses[s] = (_solve(fp, s, 1e-6).status.value, _solve(fd, s, 1e-6).status.value)
    below = C < 1.0 / M
    ok = all(p == "unbounded" and d == "infeasible" for p, d in statuses.values())
    nums = {"M": M, "C_rho": C, "1/M": 1.0 / M, "ray_slope": 1.0 - M * C, "statuses": statuses}
    if not below:
        return TheoremVerdict(2, "C_rho < 1/M => unbounded", True, True, nums,
                              "C_rho >= 1/M: the theorem says nothing")
    return TheoremVerdict(2, "C_rho < 1/M => nu-LP unbounded, dual infeasible", ok, ok, nums)


def check_theorem_3(A: Any, C_values: tuple[float, ...] = (1.0, 2.0, 10.0, 100.0), *,
                    solver: str = "linprog", tol: float = 1e-7) -> TheoremVerdict:
    r"""Theorem 3: for :math:`C_\rho \ge 1` the ν-LP SVM solution does not depend on
    :math:`C_\rho`.

    For :math:`C_\rho \ge 1` the best ``rho`` for fixed ``R`` is :math:`\min_r (AR)_r`
    (clamped at ``rho_min``) with ``xi = 0`` (see :mod:`convexkern.math.lp_svm`), so the objective
    as a function of ``R`` is the same for every :math:`C_\rho \ge 1` when the optimum
    has ``rho > 0``.  Checked: the optimal values agree, and each solver's ``R`` is
    optimal for every other :math:`C_\rho` of the list (solutions need not be unique, so
    the ``R`` vectors themselves are compared only through their values).
    """
    A = check_gram(A)
    C_values = tuple(check_positive_sequence(C_values, "C_values"))
    reps = [_solve(nu_lp(A, C), solver, tol) for C in C_values]
    vals = [r.primal_value for r in reps]
    cross = max(abs(nu_lp_value(A, ri.x["R"], C)[0] - vals[j])
                for ri in reps for j, C in enumerate(C_values))
    scale = max(abs(v) for v in vals)
    ok = all(r.ok for r in reps) and cross <= 10 * tol * scale
    rdiff = max(max_abs_diff(r.x["R"], reps[0].x["R"]) for r in reps)
    rhos = [float(r.x["rho"]) for r in reps]
    note = ""
    amax = _amax(A)
    if min(rhos) <= tol * amax and max(abs(v) for v in vals) > tol * amax:
        note = ("rho = 0 at the optimum: the objective -C_rho sum xi scales with C_rho, so "
                "the optimal value changes although the optimal R set does not")
        ok = all(r.ok for r in reps) and max(
            _rel(nu_lp_value(A, ri.x["R"], C)[0], vals[j])
            for ri in reps for j, C in enumerate(C_values)) <= 10 * tol
    return TheoremVerdict(
        3, "C_rho >= 1 => the nu-LP solution (R, rho) is independent of C_rho", ok, ok,
        {"C_values": list(C_values), "values": vals, "rho": rhos,
         "max_cross_value_error": cross, "max_R_difference": rdiff}, note)


def check_theorem_4(A: Any, C_rho: float = 1.0, *, t_values: tuple[float, ...] = (1.5, 2.0, 10.0),
                    solver: str = "linprog", tol: float = 1e-7) -> TheoremVerdict:
    r"""Theorem 4 as printed (:data:`PRINTED` ``[4]``): if for :math:`C_\rho = C_0 \ge 1/M`
    the ν-LP solution has :math:`\rho > 0` and :math:`\xi = 0`, or :math:`\rho = 0`, the
    same solution is obtained for :math:`C_\rho = tC_0`, :math:`t > 1`.

    ``C_rho`` is :math:`C_0`.  The ν-LP is solved at :math:`C_0`; its solution, completed
    with its best ``rho`` and ``xi`` for that ``R`` (:func:`~convexkern.math.lp_svm.
    nu_lp_value`), is evaluated at every :math:`tC_0` (``t_values``) as the same point,
    :math:`\bar\rho - tC_0\sum\bar\xi`, and compared with the certified optimum there.
    (Why it holds: :math:`f_{tC_0} = t f_{C_0} - (t-1)\rho`, so a point optimal for
    :math:`C_0` with :math:`\rho = 0`, or with :math:`\xi = 0`, stays optimal.)

    ``as_printed`` (= ``holds``) is None when the hypothesis fails (:math:`\rho > 0` and
    :math:`\xi \ne 0`): the theorem says nothing then, and the paper notes that the optimal
    ``R`` may change; whether it stayed optimal is in ``numbers["still_optimal"]``.

    Also in ``numbers``: the separability margin :math:`\gamma = \max_{R\in\Delta}\min_r
    (AR)_r` (an LP; :math:`\gamma \le 0` gives the zero-margin solution of the abstract for
    :math:`C_\rho \ge 1`) and the ν-property counts :math:`\#\{\xi_r > 0\} \le 1/C_\rho \le
    \#\{\delta_r > 0\}` (which hold whenever ``rho > 0``).
    """
    A = check_gram(A)
    C0 = check_positive(C_rho, "C_rho")
    t_values = tuple(check_positive_sequence(t_values, "t_values"))
    if any(t <= 1 for t in t_values):
        raise InvalidInputError("t_values", f"must all be > 1, got {list(t_values)}")
    M = A.shape[0]
    thr = tol * _amax(A)  # margins, rho, gamma and xi all scale with A
    sep = _solve(nu_lp(A, max(C0, 1.0), rho_min=None), solver, tol)
    r = _solve(nu_lp(A, C0), solver, tol)
    nums: dict[str, Any] = {"C_0": C0, "1/M": 1.0 / M, "gamma": sep.primal_value,
                            "status": r.status.value}
    if C0 < 1.0 / M or not r.status.has_solution:
        return TheoremVerdict(4, "C_0 >= 1/M needed", True, None, nums,
                              "C_0 < 1/M or no nu-LP optimum: the theorem says nothing")
    J0, pt = nu_lp_value(A, r.x["R"], C0)
    rho, xi = float(pt["rho"]), np.asarray(pt["xi"])
    delta = np.asarray(r.x.get("delta", np.zeros(0)))
    nums.update({"J_rho": J0, "solver_J_rho": r.primal_value, "rho": rho,
                 "sum_xi": float(xi.sum()), "margin_errors": int(np.sum(xi > thr)),
                 "1/C_rho": 1.0 / C0, "support_triplets": int(np.sum(delta > 1e-7 * C0))})
    if rho <= thr:
        case = "rho = 0"
    elif float(xi.max(initial=0.0)) <= thr:
        case = "rho > 0 and xi = 0"
    else:
        case = None
    still, optima, same = {}, {}, {}
    for t in t_values:
        rt = _solve(nu_lp(A, t * C0), solver, tol)
        Jt = rt.primal_value
        val = rho - t * C0 * float(xi.sum())  # the same point at C_rho = t C_0
        optima[t], same[t] = Jt, val
        still[t] = bool(rt.status.has_solution and val >= Jt - 10 * tol * (abs(Jt) + _amax(A)))
    nums.update({"case": case, "optimum_at_tC0": optima, "same_point_at_tC0": same,
                 "still_optimal": still})
    if case is None:
        changed = [t for t, ok in still.items() if not ok]
        return TheoremVerdict(
            4, "hypothesis not met (rho > 0 and xi != 0): nothing claimed", True, None, nums,
            "rho > 0 and xi != 0 at C_0: the theorem says nothing; the C_0 solution is "
            + (f"no longer optimal at t = {changed} (the paper: the optimal R may change)"
               if changed else "still optimal at every t tried"))
    ok = all(still.values())
    return TheoremVerdict(4, f"{case} at C_0 => the same solution for C_rho = t C_0, t > 1",
                          ok, ok, nums)


def check_theorem_5(A: Any, *, factor: float = 1e-2, solver: str = "linprog",
                    tol: float = 1e-8) -> TheoremVerdict:
    r"""Theorem 5, (18)-(19) (:data:`PRINTED` ``[5]``): ``R = 0`` for
    :math:`0 < C_M < C_{\min}`, :math:`C_{\min} = \min_{i: b_i > 0} 1/b_i = 1/\max_i b_i`
    (``b`` the column sums of ``A``), and for every :math:`C_M > 0` when no :math:`b_i > 0`;
    with Section 3.3's converse (:math:`C_{\min}` is the lower bound of :math:`C_M` that
    gives ``R != 0``): ``R != 0`` above it.

    Solved at :math:`C_{\min}(1 \mp \text{factor})`.  Below, ``R = 0`` is the unique
    optimum (any ``R != 0`` costs :math:`\sum_i R_i(1 - C_M b_i) > 0` more, ``b`` the
    column sums); above, ``R = eps e_{i*}`` improves on ``R = 0``.  Without a positive
    column sum the LP is solved at :math:`C_M = s/\max|a_{ir}|`, ``s`` in {1e-2, 1, 1e2,
    1e4}.  ``as_printed`` is the printed part (below :math:`C_{\min}`, or the "otherwise"
    case); ``holds`` adds the part above :math:`C_{\min}`.
    """
    A = check_gram(A)
    c0 = c_min(A)
    # R scales with 1/A: a weight counts as nonzero above 1e-7 / max|a_ir| (1e-7 of the
    # weight one input needs to give the largest triplet margin 1); values scale with 1/A
    r_thr = 1e-7 / _amax(A)
    if not math.isfinite(c0):
        maxR = {}
        for s in (1e-2, 1.0, 1e2, 1e4):
            rep = _solve(lp(A, s / _amax(A)), solver, tol)
            maxR[s / _amax(A)] = (float(np.abs(rep.x["R"]).max())
                                  if rep.status.has_solution else math.nan)
        ok = all(v <= r_thr for v in maxR.values())
        return TheoremVerdict(5, "no column sum > 0 => R = 0 for every C_M > 0", ok, ok,
                              {"C_min": c0, "max_R_at_C_M": maxR},
                              "every column sum <= 0: C_min does not exist")
    lo = _solve(lp(A, c0 * (1 - factor)), solver, tol)
    hi = _solve(lp(A, c0 * (1 + factor)), solver, tol)
    M = A.shape[0]
    R_lo = float(np.abs(lo.x["R"]).max()) if lo.status.has_solution else math.nan
    R_hi = float(np.abs(hi.x["R"]).max()) if hi.status.has_solution else math.nan
    at_zero = M * c0 * (1 + factor)  # the value of R = 0 above C_min
    printed_ok = bool(lo.status.has_solution and R_lo <= r_thr
                      and _rel(lo.primal_value, M * c0 * (1 - factor)) <= 10 * tol)
    ok = bool(printed_ok and hi.status.has_solution and R_hi > r_thr
              and hi.primal_value < at_zero * (1 - 10 * tol))
    return TheoremVerdict(
        5, "R = 0 iff C_M <= C_min = 1/max_i sum_r a_ir", ok, printed_ok,
        {"C_min": c0, "max_R_below": R_lo, "max_R_above": R_hi,
         "value_above": hi.primal_value, "M*C_M_above": M * c0 * (1 + factor)})


def check_theorem_6(A: Any, *, solver: str = "linprog", tol: float = 1e-8) -> TheoremVerdict:
    r"""Theorem 6: there is a :math:`C_0` beyond which the LP SVM solution no longer changes.

    Found exactly: the limit solution :math:`R_\infty` minimises :math:`\sum\xi` first and
    :math:`\sum R` second (two LPs); it is optimal for :math:`C_M` iff some dual-feasible
    ``alpha`` attains its value, so

    .. math:: C_0 = \min\{C : 0 \le \alpha \le C,\ A^\top\alpha \le e,\
              e^\top\alpha - C\sum\xi_\infty = \sum R_\infty\},

    one more LP in :math:`(\alpha, C)`.  Checked: :math:`R_\infty` is optimal at
    :math:`C_0`, :math:`2C_0` and :math:`100C_0` (the LP optimum equals its value) and not
    at :math:`C_0/2`.
    """
    import scipy.sparse as sp
    from scipy.optimize import linprog

    A = check_gram(A)
    M, m = A.shape
    As = sp.csr_matrix(A)
    # phase 1: min sum xi  s.t. A R + xi >= 1
    c1 = np.concatenate([np.zeros(m), np.ones(M)])
    Aub = sp.hstack([-As, -sp.identity(M)], format="csr")
    r1 = linprog(c1, A_ub=Aub, b_ub=-np.ones(M), bounds=(0, None), method="highs")
    s_inf = float(r1.fun)
    # phase 2: min sum R  s.t. the same and sum xi <= s_inf (+ round-off)
    c2 = np.concatenate([np.ones(m), np.zeros(M)])
    Aub2 = sp.vstack([Aub, sp.csr_matrix(c1[None, :])], format="csr")
    b2 = np.concatenate([-np.ones(M), [s_inf + 1e-9 * max(1.0, s_inf)]])
    r2 = linprog(c2, A_ub=Aub2, b_ub=b2, bounds=(0, None), method="highs")
    R_inf = r2.x[:m]
    xi_inf = np.maximum(1 - A @ R_inf, 0)
    t_inf, s_inf = float(R_inf.sum()), float(xi_inf.sum())
    # C_0 LP in (alpha, C): min C s.t. A'alpha <= 1, alpha <= C, e'alpha - C s_inf >= t_inf
    # (weak duality makes ">=" an equality; a relative slack of 1e-9 absorbs round-off)
    c3 = np.concatenate([np.zeros(M), [1.0]])
    A_ub = sp.vstack([
        sp.hstack([As.T, sp.csr_matrix((m, 1))]),
        sp.hstack([sp.identity(M), sp.csr_matrix(-np.ones((M, 1)))]),
        sp.csr_matrix(np.concatenate([-np.ones(M), [s_inf]])[None, :]),
    ], format="csr")
    b_ub = np.concatenate([np.ones(m), np.zeros(M), [-t_inf * (1 - 1e-9)]])
    r3 = linprog(c3, A_ub=A_ub, b_ub=b_ub, bounds=(0, None), method="highs")
    if r3.status != 0:
        return TheoremVerdict(6, "a C_0 exists", False, None, {"linprog_status": r3.status},
                              "the C_0 LP failed")
    C0 = float(r3.x[-1])
    checks = {}
    for label, C in (("C0/2", C0 / 2), ("C0", C0), ("2C0", 2 * C0), ("100C0", 100 * C0)):
        if C <= 0:
            continue
        rep = _solve(lp(A, C), solver, tol)
        f_inf = t_inf + C * s_inf
        checks[label] = (rep.primal_value, f_inf)
    ok = all(_rel(v, f) <= 100 * tol for k, (v, f) in checks.items() if k != "C0/2")
    if "C0/2" in checks:  # strictly better than the limit point, beyond solver accuracy
        v, f = checks["C0/2"]
        ok = ok and v < f - 10 * tol * abs(f)
    return TheoremVerdict(
        6, "exists C_0: LP SVM solution constant for C_M >= C_0", ok, ok,
        {"C_0": C0, "sum_R_inf": t_inf, "sum_xi_inf": s_inf, "separable": s_inf <= 1e-9,
         "value_vs_limit": checks})
