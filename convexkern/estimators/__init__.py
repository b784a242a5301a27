"""scikit-learn estimators on top of convexkern's certified formulations.

One module per family, all over one base class (:mod:`convexkern.estimators._base`:
kernel handling, label encoding, solving with a certified report, tags); the one use of
scikit-learn internals sits in :mod:`convexkern.estimators._compat`.

=========================  ==========================================================
estimator                  formulation
=========================  ==========================================================
:class:`SVMClassifier`     soft-margin SVM, lecture notes §11.2-11.3 (``svm.dual``)
:class:`RobustSVMClassifier`  Luss & d'Aspremont 2007 (``robust_indefinite.dual``)
:class:`KreinSVC`          Loosli 2019, TrIK / KSVM (``krein.stabilization``)
:class:`SDPMClassifier`    Graepel & Herbrich 2003 (``sdpm.primal`` / ``sdpm.dual``)
:class:`LPMahalanobis`     Abe 2012, a transformer (``lp_svm`` nu-LP / LP)
=========================  ==========================================================
"""

from __future__ import annotations

from ._base import KERNELS
from .krein import KreinSVC
from .mahalanobis import LPMahalanobis, covariance_weights, learn_weights
from .robust import RobustSVMClassifier
from .sdpm import SDPMClassifier
from .svm import SVMClassifier

__all__ = [
    "KERNELS",
    "KreinSVC",
    "LPMahalanobis",
    "RobustSVMClassifier",
    "SDPMClassifier",
    "SVMClassifier",
    "covariance_weights",
    "learn_weights",
]
