"""cvxpy's compilation under the caller's deadline.

``ck.solve(..., time_limit=T)`` promises an answer within ``T`` (DESIGN.md, "what tol and
a report mean"), and cvxpy's compilation of a problem with large constants is a good part
of it: 0.6-0.7 s for an SVM dual with a dense 1500 x 1500 kernel, 1.4-1.6 s for the 1-norm
SVM LP on the same points.  Most of that time is spent inside single native calls (the
canonicalisation backend's matrix build, a sort of its indices), which no signal
interrupts, so a compile begun with less time left than it takes ran on to 1.3-7 T.

When the compile may not fit (:func:`may_not_fit`: the fastest rates measured per entry
of the problem's constants and per node of its expression tree, against half of what is
left), it runs in a forked child
(:mod:`.watchdog`) stopped at the deadline; what it made (cvxpy's conic data, its solving
chain and inverse data, and the notes convexkern keeps on the problem about the compile)
comes back pickled, unless it could not arrive by the deadline.  Carrying it back costs
about a tenth of the compile (0.25 s for the 1-norm SVM LP's 160 MB); the problem's own
cvxpy cache stays as it was, so a later solve compiles again.  So do the solvers' warm
starts (cvxpy's ``_solver_cache``): a solve after a watched compile may start cold where
one after a compile here would start warm, or the other way round (SCS: 75 iterations
against none); each report certifies the point its own solve returned.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable
from typing import Any

import scipy.sparse as sp
from cvxpy.atoms.quad_form import QuadForm
from cvxpy.expressions.constants import Constant, Parameter

from .cvxpy_bounds import cached_compile, compile_locks, drop_compile
from .cvxpy_written import _nodes
from .watchdog import ChildLost, Stopped, run_watched

__all__ = ["may_not_fit", "watched_compile", "CompileStopped"]

#: the rate of cvxpy's compilation per entry of the problem's constants and parameters,
#: the fastest measured (3.2e-7 on an SVM dual's dense kernel; 5-6e-7 on kernel logistic
#: regression and a dense SOCP, 6.5e-7 to 1.1e-6 on the 1-norm SVM LP), and its fixed part
COMPILE_SECONDS_PER_ENTRY = 3e-7
COMPILE_FIXED_SECONDS = 5e-3

#: the rate per node of the problem's expression tree (each distinct expression, atom,
#: variable, constant and constraint), near the fastest measured among problems with
#: many small pieces: 67-115 us on SDPLIB truss2 (2450-3070 nodes: 0.21-0.28 s), 100-210
#: on control1 and control2, up to 430 on theta1's dual form (a problem read from SDPA
#: writes one term per matrix).  Counted by entries alone, control2's dual form
#: (0.1-0.28 s) was estimated at 15 ms, not watched, and a call under T = 0.05-0.1 s
#: ended at 2-4 T.  Not the fastest: a compile runs 1.5-2.5 times slower in a process
#: that has forked before (the pages it writes fault once more); at 6e-5 control2's dual
#: form was not watched at T = 0.1-0.2 s and ended at 1.1-1.7 T, at 1e-4 (an estimate of
#: 70 ms) it is watched below T = 0.15 s and still ends at 1.2-1.4 T at T = 0.2 s.  The
#: price: a compile watched in vain costs a fork (15-45 ms), which a small limit cannot
#: pay (SDPLIB hinf1, 155 nodes, compiles in 15 ms: watched at T = 0.03 s, where
#: its solve has no time left after the fork)
COMPILE_SECONDS_PER_NODE = 1e-4

#: the compile is watched when its estimate exceeds this share of what is left
WATCH_SHARE = 0.5

#: what the compile leaves on the problem (:func:`convexkern.solvers.conic._run`), per
#: solver: carried back from the child
_NOTES = ("_convexkern_dropped", "_convexkern_factors", "_convexkern_altered")


class CompileStopped(Stopped):
    """cvxpy's compilation, run in a child, had not ended at the deadline."""


class _NotCarried(Exception):
    """What the child compiled does not pickle (it is compiled in the caller instead)."""


class _TooLate(Exception):
    """What the child compiled could not reach the caller by the deadline."""


#: seconds per byte of a pickled compile carried back and read (the pipe, then
#: ``pickle.loads``: 0.1-0.25 s for an SVM dual's 127 MB)
CARRY_SECONDS_PER_BYTE = 2e-9


def estimate(problem: Any) -> float:
    """A low estimate of the seconds cvxpy's compilation of ``problem`` takes
    (:data:`COMPILE_SECONDS_PER_ENTRY` per entry of its constants and parameters,
    :data:`COMPILE_SECONDS_PER_NODE` per node of its expression tree: :func:`tree`)."""
    try:
        nodes, entries = tree(problem)
    except (AttributeError, TypeError):
        return 0.0
    return (COMPILE_FIXED_SECONDS + COMPILE_SECONDS_PER_ENTRY * entries
            + COMPILE_SECONDS_PER_NODE * nodes)


def tree(problem: Any) -> tuple[int, int]:
    """``(nodes, entries)`` of ``problem``'s expression tree (:func:`.cvxpy_written._nodes`:
    each node once, however often it is shared), and the entries of its constants and
    parameters.  A sparse constant counts its stored nonzeros (Netlib BANDM's 305 x 472
    matrix holds 2,500 and compiles in 7 ms; counted as 145,000 entries it was estimated at
    49 ms), except the matrix of a ``quad_form``, which cvxpy may factor densely (for a
    second-order cone solver): a sparse 4000 x 4000 one with 20,000 nonzeros took seconds."""
    nodes, leaves, dense = 0, [], set()
    for node in _nodes(problem):
        nodes += 1
        if isinstance(node, (Constant, Parameter)):
            leaves.append(node)
        elif isinstance(node, QuadForm) and len(node.args) == 2:
            stack = [node.args[1]]  # P, or an atom of it (psd_wrap)
            while stack:
                below = stack.pop()
                dense.add(id(below))
                stack.extend(getattr(below, "args", ()))
    entries = 0
    for leaf in leaves:
        value = leaf.value if isinstance(leaf, Constant) else None
        sparse = sp.issparse(value) and id(leaf) not in dense
        entries += int(value.nnz) if sparse else int(leaf.size)
    return nodes, entries


def may_not_fit(problem: Any, left: float) -> bool:
    """Whether the compile of ``problem`` may take more than :data:`WATCH_SHARE` of the
    ``left`` seconds: it is then watched."""
    return estimate(problem) > WATCH_SHARE * left


def watched_compile(compile_: Callable[[], tuple[Any, Any, Any]], problem: Any,
                    cvxpy_name: str, wait: float) -> tuple[Any, Any, Any]:
    """``compile_()`` run in a forked child stopped after ``wait`` seconds
    (:class:`CompileStopped`): its ``(data, chain, inverse_data)``, with the notes the
    compile leaves on ``problem`` for ``cvxpy_name`` set here as the child set them, and
    cvxpy's id counter moved past the ids the child gave its new variables (so that no
    later variable of this process shares one).  An answer that does not pickle, or a
    child lost, is compiled here instead (:class:`~.watchdog.ChildLost` is not raised)."""
    counter = _id_counter()
    ends = time.perf_counter() + wait

    def in_child() -> bytes:
        before = cached_compile(problem)
        out = compile_()
        notes = {k: problem.__dict__.get(k, {}).get(cvxpy_name) for k in _NOTES}
        last = None if counter is None else counter.count
        fresh = before is None or cached_compile(problem) is not before
        try:  # pickled here, strictly: a namespace in place of cvxpy's objects would
            # not solve
            out = pickle.dumps((out, notes, last, fresh), protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            raise _NotCarried(str(exc)) from None
        # the parent's wait ends at the first byte: a compile done just before the
        # deadline would reach it well after (an SVM dual's, 1.2-1.5 T under T = 1)
        if time.perf_counter() + CARRY_SECONDS_PER_BYTE * len(out) > ends:
            raise _TooLate
        return out

    t0 = time.perf_counter()
    try:
        payload = run_watched(in_child, wait, hold=compile_locks())
    except Stopped as exc:
        raise CompileStopped(exc.waited) from None
    except _TooLate:
        raise CompileStopped(time.perf_counter() - t0) from None
    except (ChildLost, _NotCarried):
        return compile_()
    out, notes, last, fresh = pickle.loads(payload)
    if not fresh:  # the child used cvxpy's cached compile of this process: so do its notes
        return out
    for key, value in notes.items():
        if value is not None:
            problem.__dict__.setdefault(key, {})[cvxpy_name] = value
    if counter is not None and last is not None and last > counter.count:
        counter.count = last
    # cvxpy's cache here holds no compile of the child's: one it holds from before is
    # dropped, so that the next compile canonicalises again and leaves notes of its own
    # (the child's name the epigraph variables of its compile)
    if cached_compile(problem) is not None:
        drop_compile(problem)
    return out


def _id_counter() -> Any:
    """cvxpy's counter of expression ids (``None`` where it is not found)."""
    try:
        from cvxpy.lin_ops import lin_utils
    except ImportError:  # pragma: no cover - a cvxpy without it
        return None
    counter = getattr(lin_utils, "ID_COUNTER", None)
    return counter if isinstance(getattr(counter, "count", None), int) else None
