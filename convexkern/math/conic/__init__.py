"""The generic certificate: rigorous bounds on a conic program's optimum from any solver's
approximate primal-dual pair, and the checks of its "no solution" claims.

The conic form is the one cvxpy hands its solvers (SCS's convention): ``minimize c'x +
1/2 x'Px + d`` subject to ``Ax + s = b``, ``s`` in a product of zero, nonnegative,
second-order, PSD, exponential and 3-d power cones.  The modules, in the order a bound is
computed:

* :mod:`.data`: the form (:class:`ConicData`) and the floating-point error bounds every
  sum and product carries (Higham's ``gamma_k``, exact row sums);
* :mod:`.cones`: moving a point into each cone and its dual with a proven margin, the
  cone moves a primal slack needs, the phase-one points (primal and dual);
* :mod:`.boxes`: boxes on the primal and dual variables by interval propagation;
* :mod:`.slack`: the primal slack ``b - Ax`` with its rounding bound, once per point;
* :mod:`.fix`: the exact corrections (equality rows, active rows, free columns' dual
  residuals) enclosed by Rump's bound;
* :mod:`.bounds`: the bracket itself (:func:`conic_bounds`, weak duality with the box,
  after Neumaier & Shcherbina 2004 and Jansson's VSDP);
* :mod:`.rays`: Farkas and improving rays checked as rigorously as a bracket;
* :mod:`.factored`: the written problem's bracket where a quadratic form reached the
  solver through a factor exact only to rounding.

Other packages import from here only (the names below); the modules share their private
helpers among themselves.
"""

from __future__ import annotations

from .bounds import conic_bounds
from .cones import dual_interior_point, interior_point, psd_shift
from .data import ConicBounds, ConicData
from .factored import QuadFactor, claim_forms, factored_bounds
from .rays import (
    diverging_point_proof,
    farkas_proof,
    feasible_point_proof,
    improving_ray_proof,
    phase_one_problem,
)

__all__ = ["ConicData", "ConicBounds", "conic_bounds", "interior_point",
           "dual_interior_point", "psd_shift", "farkas_proof", "improving_ray_proof",
           "feasible_point_proof", "diverging_point_proof", "phase_one_problem",
           "QuadFactor", "factored_bounds", "claim_forms"]
