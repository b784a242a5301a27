"""The real data sets used by the seed papers, shipped with the package, and their loaders.

Every data set is read from the package itself (``convexkern/datasets/*.csv.gz``) through
:mod:`importlib.resources`; none is ever downloaded.  (Of the public LP / QP / SDP test
files, :mod:`convexkern.data.mps` and :mod:`convexkern.data.sdpa` read the shipped ones;
only the Maros-Meszaros files beyond the 16 shipped are fetched on first use, checked
against their checksums: :mod:`convexkern.data.fetched`.)  The files are the CSV copies of
``shared/data`` (one header row, label in the last column), gzip-compressed; their
provenance, citations, licences and SHA-256 checksums are in
``convexkern/datasets/README.md``, which is installed next to them.

Names accepted by :func:`load` (see :func:`available_datasets`):

==================  =============  ==========================================================
name                rows x feats   label ``y``
==================  =============  ==========================================================
``usps_train``      7291 x 256     ``digit`` 0-9 (int)
``usps_test``       2007 x 256     ``digit`` 0-9 (int)
``usps``            9298 x 256     train then test; ``split_index == 7291``
``pima``            768 x 8        ``class`` 0/1 (int; 1 = tested positive for diabetes)
``bupa``            345 x 6        ``selector`` 1/2 (int; see the caveat in :func:`load`)
``balance``         625 x 4        ``class`` "L", "B", "R" (str)
``thyroid_train``   3772 x 21      ``class`` 1, 2, 3 (int; 3 = normal)
``thyroid_test``    3428 x 21      ``class`` 1, 2, 3 (int)
``thyroid``         7200 x 21      train then test; ``split_index == 3772``
``abalone``         4177 x 10      ``rings`` 1-29 (int); ``sex`` one-hot as M, F, I
``satimage_train``  4435 x 36      ``class`` 1, 2, 3, 4, 5, 7 (int; there is no class 6)
``satimage_test``   2000 x 36      ``class`` as above
``satimage``        6435 x 36      train then test; ``split_index == 4435``
``letter``          20000 x 16     ``letter`` "A"-"Z" (str)
==================  =============  ==========================================================

Rows are in the order of the source files: nothing is shuffled, scaled, de-duplicated or
imputed (Pima's missing values are still coded as 0).  For a random split use
scikit-learn, seeded, e.g.
``sklearn.model_selection.train_test_split(X, y, test_size=0.25, random_state=0,
stratify=y)``; for the given (or conventional) split use :meth:`Dataset.train_test`.

Parsed files are cached in memory (read-only); every loader returns fresh copies, so a
caller may modify what it gets without affecting later calls.

Examples
--------
>>> from convexkern import data
>>> ds = data.load("pima")
>>> ds.X.shape, ds.y.shape
((768, 8), (768,))
>>> X, y = data.load_binary("usps", 3, 5)      # digits 3 (+1) and 5 (-1), train + test
>>> X.shape, int((y == 1).sum())
((1540, 256), 824)
"""

from __future__ import annotations

from ._table import Dataset
from .binary import load_binary
from .files import load_csv
from .shipped import (
    available_datasets,
    load,
    load_abalone,
    load_satimage,
    load_thyroid,
    load_usps,
)

__all__ = [
    "Dataset",
    "available_datasets",
    "load",
    "load_usps",
    "load_thyroid",
    "load_satimage",
    "load_abalone",
    "load_binary",
    "load_csv",
]
