"""Fast purpose-built solvers for the formulations in :mod:`convexkern.formulations`.

Each module implements one method (e.g. :mod:`convexkern.algorithms.smo`, sequential
minimal optimisation for the SVM dual) on plain NumPy arrays and returns its own result
object, and an adapter that the solver table (:mod:`convexkern.solvers.table`) names and
that turns it into a certified ``SolveReport``.  Numerics that a formulation's certificate
needs too (SMO's, for the robust SVM's bound) live in :mod:`convexkern.math`.
"""
