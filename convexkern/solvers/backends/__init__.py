"""The conic solvers, one module each: :class:`~.base.ConicSolverSpec` and its subclasses.

Each module defines ``SOLVER``, the instance the solver table lists
(:data:`convexkern.solvers.table.CONIC_MODULES`).  A module imports no solver: whether a
solver is installed is read with :func:`importlib.util.find_spec`.
"""
