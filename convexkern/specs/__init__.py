"""Declarative problem specs: one TOML file describes one instance, end to end.

A spec names the data set, the preprocessing and train/test split, the kernel and its
parameters, the formulation and its hyper-parameters, and the solvers to run::

    name = "svm_usps_3v5_rbf"
    description = "Soft-margin SVM dual, USPS digits 3 vs 5 (real data), RBF kernel"

    [data]
    dataset = "usps"            # a shipped data set (convexkern.data.available_datasets())
    positive = 3                # class(es) -> +1
    negative = 5                # class(es) -> -1 ("rest": every other class)

    [split]                     # optional; omitted: train on everything, no test set
    test_size = 0.5             # fraction held out, stratified by class (stratify = true)
    seed = 0                    # random_state of the split (convexkern.splits: the same
                                # split as the reproductions' for the same seed)

    [preprocess]                # optional
    standardize = false         # z-score every feature with the *training* statistics

    [kernel]                    # needed by builders that take a kernel matrix K / K0
    name = "rbf"                # convexkern.kernels.make_kernel name
    gamma = 0.025               # kernel parameters; gamma = "scale" -> 1/(d * X_train.var())

    [formulation]
    name = "svm.dual"           # <module>.<builder> in convexkern.formulations, or your
                                # own "module:function" (docs/plugins.md)
    C = 1.0                     # keyword arguments of the builder

    [solve]                     # optional
    solvers = ["clarabel", "scs", "smo"]
    tol = 1e-6                  # also max_iter, time_limit

The three data sources of ``[data]`` (exactly one):

* ``dataset = "<name>"`` with ``positive`` / ``negative`` (a class label, a list of
  labels, or ``negative = "rest"``), through :func:`convexkern.data.load_binary`;
* ``csv = "path.csv"`` (one header row; relative paths resolve against the folder of the
  spec file), with ``label_column`` (default: the last), ``delimiter``, and
  ``positive`` / ``negative`` (optional when the labels already are -1/+1);
* ``generator = "blobs" | "moons" | "circles"`` (scikit-learn ``make_*``) with
  ``n_samples``, ``seed`` and ``noise`` (moons, circles), ``factor`` (circles),
  ``n_features``, ``cluster_std`` and ``centers`` (blobs: a list of two points); class 1
  becomes +1 and class 0 becomes -1.  ``n_samples`` is capped so that the ``n x n``
  float64 kernel matrix (``8 n^2`` bytes) stays within
  :data:`~convexkern.specs.validate.MAX_GRAM_BYTES` = 4 GiB (``n_samples <= 23170``); a
  larger value is refused with the estimate, naming ``data.n_samples``.

``task = "regression"`` (dataset or CSV) keeps the label column as a real target (no
``positive``/``negative``; the split is then not stratified) and reports the test RMSE of a
formulation's declared rule instead of an accuracy.  A spec without ``[data]`` (and so
without ``[split]``, ``[preprocess]`` and ``[kernel]``) builds a problem from the
formulation's own parameters alone (an SDP given its size).

Seeds (``data.seed``, ``split.seed``) lie in ``[0, 2**32 - 1]``, the range numpy and
scikit-learn accept; a builder parameter whose default is a boolean (``psd_check``,
``bias``) takes a TOML boolean only (``"no"`` or ``0`` is an error, not ``true``).

Validation
----------
:func:`load_spec` checks every field and raises :class:`~convexkern.errors.SpecError`
naming it (``"kernel.gamma"``, ``"data.dataset"``, ``"formulation.name"``, ...): unknown
sections and keys (typos), wrong types, unknown data set / kernel / formulation / solver
names (the message lists the valid ones), ``positive == negative``, ``test_size`` outside
``(0, 1)``...  What can only be checked against the data (a class that does not exist, a
kernel matrix that is not PSD, a builder rejecting ``C = -1``) is checked by
:meth:`ProblemSpec.build`, which raises a :class:`SpecError` naming the field as well.

Extension point: formulation dispatch
-------------------------------------
There is no table of formulations here.  ``formulation.name = "<module>.<builder>"``
resolves to ``getattr(convexkern.formulations.<module>, "<builder>")``, and the
builder's signature says what it needs:

* a parameter named ``K`` or ``K0`` receives the training kernel matrix (the
  ``[kernel]`` section is then required);
* a parameter named ``X`` receives the (preprocessed) training features;
* a parameter named ``y`` receives the training labels in {-1, +1};
* every other key of ``[formulation]`` is passed as a keyword argument, checked against
  the signature (an unknown key is a :class:`SpecError` naming ``formulation.<key>``;
  a required parameter left out is one too).

A builder is any public function of the module (listed in its ``__all__``) returning a
:class:`~convexkern.Formulation`.  So a new module such as
``robust_indefinite.dual(K0, y, C, rho)`` or ``krein.stabilization(K, y, C,
decomposition)`` is usable from a spec as soon as it exists, with no change here.
Builder errors (``InvalidInputError`` naming an argument) are re-raised as
``SpecError("formulation.<argument>")``.

A user's own builder is named ``"module:function"`` (or ``"package.module:function"``):
the module is looked for in the spec file's folder, then the current directory, then as
a ``convexkern.formulations`` entry point, then as an installed module, and imported by
location without touching ``sys.path``; a bare ``"name"`` is an installed package's
builder offered under that entry-point name (:mod:`convexkern.specs.plugins`,
docs/plugins.md).  It is fed and checked exactly as a built-in builder; anything it
raises becomes a :class:`SpecError` naming ``formulation.name`` (``formulation`` for a
``ValueError``), with its exception chained.

Prediction follows the rule the formulation declares (:attr:`Formulation.decision`,
:meth:`Instance.decision_function`), never one guessed from variable names: with
``"dual_expansion"`` a formulation that keeps the spec's training kernel as ``data["K"]``
(and labels as ``data["y"]``) predicts with ``f(x) = sum_i alpha_i y_i k(x_i, x) + b`` (the
SVM dual), with ``"expansion"`` with ``sum_i alpha_i k(x_i, x) + b`` (kernel logistic
regression), and with ``"linear"`` one that keeps the features as ``data["X"]`` predicts
with ``f(x) = w'x + b``.  A formulation that declares no rule, or that transforms the
kernel (a learned proxy, a stabilised ``K~``), gets no accuracy from the spec.

Shipped specs
-------------
The specs of the top-level ``problems/*.toml`` (kept there only, installed as the data
package ``convexkern.problems``) are package data, read through
:mod:`importlib.resources`, so an installed package has them: :func:`available_specs` lists
them, and :func:`load_spec` (like ``convexkern compare``) accepts a bare name
(``load_spec("svm_usps_3v5_rbf")``) as well as a path, a dict or TOML text already parsed.
"""

from __future__ import annotations

from .files import available_specs, load_spec, spec_path
from .model import DataSpec, FormulationSpec, KernelSpec, PreprocessSpec, SolveSpec, SplitSpec
from .problem import Instance, ProblemSpec
from .validate import GENERATORS

__all__ = [
    "ProblemSpec",
    "DataSpec",
    "SplitSpec",
    "PreprocessSpec",
    "KernelSpec",
    "FormulationSpec",
    "SolveSpec",
    "Instance",
    "load_spec",
    "available_specs",
    "spec_path",
    "GENERATORS",
]
