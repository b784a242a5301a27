"""The constants of floating-point error analysis that bounds across the package share
(Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., Section 3.1)."""

from __future__ import annotations

import numpy as np

__all__ = ["UNIT_ROUNDOFF", "E_DOWN", "gamma"]

#: unit roundoff of IEEE double precision, round to nearest
UNIT_ROUNDOFF = 2.0 ** -53

#: Euler's number rounded down (the double nearest e lies below it)
E_DOWN = 2.718281828459045


def gamma(k: int | np.ndarray) -> float | np.ndarray:
    """Higham's ``gamma_k = k u / (1 - k u)``, the relative error bound of a ``k``-term sum
    or dot product (Lemma 3.1); elementwise for an array of ``k``."""
    ku = np.asarray(k, dtype=float) * UNIT_ROUNDOFF
    out = ku / (1.0 - ku)
    return float(out) if out.ndim == 0 else out
