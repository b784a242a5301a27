"""Fast purpose-built solvers for the formulations in :mod:`convexkern.formulations`.

Each module implements one method (e.g. :mod:`convexkern.algorithms.smo`, sequential
minimal optimisation for the SVM dual) on plain NumPy arrays and returns its own result
object; the solver registry turns that into a certified ``SolveReport``.
"""
