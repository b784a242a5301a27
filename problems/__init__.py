"""The shipped problem specs (TOML), a data package: installed as ``convexkern.problems``
from the repository's top-level ``problems/`` (``package-dir`` in pyproject.toml) and read
through :mod:`importlib.resources` (:func:`convexkern.specs.available_specs`)."""
