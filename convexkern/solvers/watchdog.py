"""A solve stopped at the caller's deadline from outside the solver.

``ck.solve(..., time_limit=T)`` promises an answer within ``T`` (DESIGN.md, "what tol and
a report mean").  Some solvers cannot keep that promise themselves: ECOS, QOCO, PIQP and
CVXOPT have no clock (or none convexkern can set).  For those solvers
(``ConicSolverSpec.watched``) the solve runs in a forked child process; the parent waits
until the deadline and, past it, kills the child and reports a time limit.  The child's
answer comes back pickled; an answer object that cannot be pickled is copied into a plain
namespace of its public attributes first (:func:`portable`).

A solver with a clock of its own may ask to be watched too, when the work before its
first clock read may not fit (``ConicSolverSpec.watch``: SCS's and Clarabel's set-up, a
factorisation of the KKT system, on a dense 1500 x 600 SOCP).

A fork copies only the calling thread: a solver that keeps a pool of worker threads
between solves runs in the child with settings that use none
(``ConicSolverSpec.child_settings``).  Clarabel does: once the process has run a large
enough Clarabel solve (a 40 x 40 SDP; kernel logistic regression's 600 exponential
cones), a forked child's Clarabel solve of the same kind waits forever on the parent's
workers, unless it runs with ``max_threads=1``.  On PSD blocks, whose factorisations are
counted (``ConicSolverSpec.clock_work``), Clarabel is not started when its first steps
cannot fit, and its own limit ends a step before the deadline.

Only where ``os.fork`` exists (POSIX); elsewhere the solve runs in the caller's process,
as without a time limit.
"""

from __future__ import annotations

import faulthandler
import os
import pickle
import select
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

__all__ = ["ChildLost", "Stopped", "can_watch", "portable", "run_watched"]


class ChildLost(RuntimeError):
    """The child ended without an answer (killed from outside, crashed), or raised an
    exception that could not be carried back (its type and text are in the message)."""


class Stopped(Exception):
    """The watched solve did not return within its time: the child was killed."""

    def __init__(self, waited: float) -> None:
        super().__init__(f"stopped after {waited:.3g} s")
        self.waited = waited


def can_watch() -> bool:
    """Whether a solve can run in a forked child here (POSIX)."""
    return hasattr(os, "fork")


def portable(raw: Any) -> Any:
    """``raw`` itself when it pickles, else a namespace of its public attributes (lists
    and numbers as they are, anything else that does not pickle by its ``str``: a
    solver's status enumeration keeps its name, which is what is read of it)."""
    try:
        pickle.dumps(raw)
        return raw
    except (pickle.PicklingError, TypeError, AttributeError):
        pass
    if isinstance(raw, dict):
        return {k: _plain(v) for k, v in raw.items()}
    out = SimpleNamespace()
    for name in dir(raw):
        if name.startswith("_"):
            continue
        try:
            value = getattr(raw, name)
        except Exception:  # a property the solver refuses to give: not read by anyone
            continue
        if not callable(value):
            setattr(out, name, _plain(value))
    return out


def _plain(value: Any) -> Any:
    try:
        pickle.dumps(value)
        return value
    except (pickle.PicklingError, TypeError, AttributeError):
        return portable(value) if hasattr(value, "__dict__") or isinstance(
            value, dict) else str(value)


def run_watched(call: Callable[[], Any], wait: float, hold: tuple = ()) -> Any:
    """``portable(call())``, computed in a forked child (``bytes`` come back as they are,
    a :class:`memoryview` of them); :class:`Stopped` when it has not come back within
    ``wait`` seconds (the child is killed; ``inf``: no limit).  An exception raised by
    ``call`` in the child is raised again here (as it was when it pickles, else as a
    :class:`ChildLost` naming it); an answer cut short (a child that died while sending)
    is a :class:`ChildLost` too.  ``hold``: locks taken, in order, around the fork, so
    that no other thread is inside what they guard when the child is made (a lock held
    by another thread at the fork stays held in the child for ever)."""
    for stream in (sys.stdout, sys.stderr):  # the child must not print the parent's
        try:                                  # unflushed buffer a second time
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    t0 = time.perf_counter()
    _reap_ended()
    taken = []
    for lock in hold:
        limit = max(t0 + wait - time.perf_counter(), 0.0) if wait < _LONGEST_WAIT else -1
        if not lock.acquire(timeout=limit):
            for held in reversed(taken):
                held.release()
            raise Stopped(time.perf_counter() - t0)
        taken.append(lock)
    try:
        rfd, wfd = os.pipe()
        _widen(wfd)
        with warnings.catch_warnings():
            # JAX, once imported (MPAX), warns at every fork that a child running JAX code
            # may deadlock; a watched child runs one solver's native code (not JAX)
            warnings.filterwarnings("ignore", message=r"os\.fork\(\) was called",
                                    category=RuntimeWarning)
            pid = os.fork()
    finally:
        for held in reversed(taken):  # in the child too: its copies are this thread's
            held.release()
    if pid == 0:  # the child: solve, send, and leave without the parent's exit handlers
        code = 0
        try:
            # a solver that crashes the child is what the child is for: the parent reports
            # it (ChildLost), so no "Fatal Python error" dump of a handled crash
            faulthandler.disable()
            os.close(rfd)
            try:
                value = call()
                # bytes (a payload pickled by the caller's own rules) go as they are,
                # after a one-byte mark: no copy of a compile's hundred megabytes
                parts = ([_RAW, len(value).to_bytes(8, "little"), value]
                         if isinstance(value, bytes)
                         else [_PICKLED, pickle.dumps((True, portable(value)))])
            except BaseException as exc:  # noqa: BLE001 - carried to the parent
                parts = [_PICKLED, _pickled_error(exc)]
            _write_all(wfd, *parts)
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (AttributeError, OSError, ValueError):
                    pass
        except BaseException:  # noqa: BLE001 - nothing may escape a forked child
            code = 1
        finally:
            os._exit(code)
    os.close(wfd)
    try:
        # no deadline (wait = inf: a solve isolated for safety only): wait for it; a
        # deadline past what select takes (time_t: time_limit=1e10 raised OverflowError)
        # is no deadline either; counted from before the fork (a process of a few hundred
        # megabytes takes 5-15 ms to fork, 5-15 % of a limit of 0.1 s)
        timeout = max(t0 + wait - time.perf_counter(), 0.0) if wait < _LONGEST_WAIT else None
        ready = bool(select.select([rfd], [], [], timeout)[0])
        data = _read_all(rfd) if ready else b""  # a finished solve is read to the end
    except BaseException:  # interrupted while waiting (Ctrl-C): the child goes too
        _kill(pid)
        raise
    finally:
        os.close(rfd)
    if not ready:
        _kill(pid)
        raise Stopped(time.perf_counter() - t0)
    # the child has written its answer and is leaving: reaped at the next watched solve
    # (waiting for its exit here cost 6-8 ms, past a deadline of 0.05-0.1 s)
    _UNREAPED.append(pid)
    if not data:
        raise ChildLost("the solver's process ended without an answer (killed or "
                        "crashed)")
    if data[:1] == _RAW:
        if len(data) < 9 or int.from_bytes(data[1:9], "little") != len(data) - 9:
            raise ChildLost("the child's answer was cut short")
        return memoryview(data)[9:]
    try:
        ok, value = pickle.loads(memoryview(data)[1:])
    except (pickle.UnpicklingError, EOFError, ValueError) as exc:
        raise ChildLost(f"the child's answer was cut short ({exc})") from None
    if ok:
        return value
    raise value


#: the first byte of what a child sends: its bytes as they are, or a pickle of
#: ``(ok, value or exception)``
_RAW, _PICKLED = b"R", b"P"


def _widen(fd: int) -> None:
    """The pipe's buffer at its largest (Linux: 64 KB by default, 1 MB allowed): a
    compile's 127 MB came through in 0.4 s, a context switch each 64 KB."""
    try:
        import fcntl  # noqa: PLC0415 (POSIX only; the watchdog runs only where fork does)

        setsize = getattr(fcntl, "F_SETPIPE_SZ", None)
        if setsize is not None:
            fcntl.fcntl(fd, setsize, 1 << 20)
    except (ImportError, OSError):
        pass


#: the longest wait handed to ``select`` (about 31 years); a longer one is no deadline
_LONGEST_WAIT = 1e9


def _pickled_error(exc: BaseException) -> bytes:
    try:
        out = pickle.dumps((False, exc))
        pickle.loads(out)
        return out
    except Exception:  # an exception that does not travel: its type and text do
        return pickle.dumps((False, ChildLost(f"{type(exc).__name__}: {exc}")))


def _write_all(fd: int, *parts: bytes) -> None:
    for data in parts:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    os.close(fd)


def _read_all(fd: int) -> bytes:
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _kill(pid: int) -> None:
    """Kill the child; the kernel's release of a large one takes a while (0.07 s for a
    solver workspace of about a gigabyte), so it is reaped later: at the next watched
    solve, or by a thread started then (starting one here cost 2-7 ms of the caller's
    deadline, a few per cent of a limit of 0.1 s)."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    _UNREAPED.append(pid)


#: children that have ended or been killed, not yet reaped
_UNREAPED: list[int] = []


def _reap_ended() -> None:
    """Reap the children left so far that have ended; those still leaving (a large one's
    release takes a while) are left to a thread (daemon: nothing waits on it)."""
    while _UNREAPED:
        pid = _UNREAPED.pop()
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        if not done:
            threading.Thread(target=_reap, args=(pid,), daemon=True).start()


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
