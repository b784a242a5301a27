"""The papers' mathematics that a builder's certificate and an algorithm both need.

numpy and scipy only (plus the errors and the input checks): objectives, gradients and
bounds that a formulation's certificate evaluates and an algorithm iterates on, so that
neither side imports the other.  The general-purpose math modules (``kernels``,
``spectral``, ``projections``, ``transforms``) sit beside this package at the top of
``convexkern``, where users import them from.

One module per paper, named as its formulation module; ``sos`` (nonnegative univariate
polynomials as Gram forms) is the SDPM's and the exchange method's, and sits here beside
them; the ``conic*`` modules are the generic certificate.
"""
