"""The one door to scikit-learn internals.

scikit-learn's parameter constraints (``Interval``, ``StrOptions``) live in a private module
that may change without deprecation; every estimator imports them from here, so a change
in scikit-learn is mended in one place.
"""

from __future__ import annotations

from sklearn.utils._param_validation import Interval, StrOptions

__all__ = ["Interval", "StrOptions"]
