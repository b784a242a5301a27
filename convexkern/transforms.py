r"""Transformations of images as polynomial trajectories (Graepel & Herbrich, NIPS 2003, §5).

An image :math:`x` (a 16x16 USPS digit, flattened row-major) is smoothed by a Gaussian
filter (variance ``sigma2 = 0.09`` pixels², the paper's value) and rotated by an angle
:math:`\theta` (radians) about its centre: :math:`x(\theta)`.  Its second-order Taylor
expansion at :math:`\theta = 0`

.. math:: \tilde x(\theta) = x(0) + \theta\, x'(0) + \tfrac12\theta^2 x''(0)

is the trajectory fed to the SDPM: ``X_traj[i] = [x, x', x''/2]`` (row ``k`` = coefficient
of :math:`\theta^k`).  The derivatives are central finite differences of true rotations
(``scipy.ndimage.rotate``, cubic spline, ``mode="grid-constant"`` so that pixels rotated in
from outside the frame are zeros *inside* a smooth interpolant; ``mode="constant"`` clips
the spline at the frame and the difference quotients pick up a kink).
:func:`taylor_error` measures the approximation against true rotations.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import ndimage

from .errors import InvalidInputError, InvalidTypeError

__all__ = [
    "SIGMA2",
    "smooth",
    "rotate",
    "rotation_trajectories",
    "taylor_error",
    "half_means",
]

#: Variance (pixels²) of the Gaussian smoothing applied before rotating (the paper's).
SIGMA2 = 0.09
#: Step (radians) of the central differences: 1 degree.
_H = math.pi / 180
_MODES = ("grid-constant", "constant")


def _check_images(images: Any, shape: tuple[int, int]) -> np.ndarray:
    if isinstance(images, (str, bytes)):
        raise InvalidTypeError("images", "expected an array of images")
    try:
        X = np.asarray(images, dtype=float)
    except (TypeError, ValueError):
        raise InvalidTypeError("images", "expected an array of numbers") from None
    if X.ndim == 1:
        X = X[None, :]
    p = shape[0] * shape[1]
    if X.ndim != 2 or X.shape[1] != p:
        raise InvalidInputError(
            "images", f"expected shape (m, {p}) (flattened {shape[0]}x{shape[1]} images), "
                      f"got {X.shape}")
    if not np.all(np.isfinite(X)):
        bad = int(np.size(X) - np.count_nonzero(np.isfinite(X)))
        raise InvalidInputError("images", f"contains {bad} non-finite pixel(s) (NaN or inf)")
    return X


def smooth(images: Any, *, sigma2: float = SIGMA2, shape: tuple[int, int] = (16, 16)) -> np.ndarray:
    """Gaussian smoothing (variance ``sigma2`` pixels²) of flattened images; zero outside."""
    X = _check_images(images, shape)
    if sigma2 < 0 or not math.isfinite(sigma2):
        raise InvalidInputError("sigma2", f"must be a finite number >= 0, got {sigma2!r}")
    if sigma2 == 0:
        return X.copy()
    s = math.sqrt(sigma2)
    imgs = X.reshape(-1, *shape)
    out = ndimage.gaussian_filter(imgs, sigma=(0, s, s), mode="constant", cval=0.0)
    return out.reshape(X.shape)


def _check_mode(mode: Any) -> str:
    if mode not in _MODES:
        raise InvalidInputError("mode", f"must be one of {_MODES}, got {mode!r}")
    return mode


def rotate(
    images: Any, theta: float, *, sigma2: float = SIGMA2, shape: tuple[int, int] = (16, 16),
    smoothed: bool = False, mode: str = "grid-constant",
) -> np.ndarray:
    """Rotate flattened images by ``theta`` radians (counter-clockwise) after smoothing.

    ``smoothed=True`` skips the smoothing (the images already are).  ``mode``: boundary
    handling of ``scipy.ndimage.rotate``; ``"grid-constant"`` (default, smooth) or
    ``"constant"`` (for comparison only: it clips the spline at the frame).
    """
    X = _check_images(images, shape) if smoothed else smooth(images, sigma2=sigma2, shape=shape)
    mode = _check_mode(mode)
    if not math.isfinite(float(theta)):
        raise InvalidInputError("theta", f"must be finite, got {theta!r}")
    imgs = X.reshape(-1, *shape)
    out = ndimage.rotate(imgs, math.degrees(float(theta)), axes=(2, 1), reshape=False,
                         order=3, mode=mode, cval=0.0, prefilter=True)
    return out.reshape(X.shape)


def rotation_trajectories(
    images: Any, *, degree: int = 2, sigma2: float = SIGMA2, shape: tuple[int, int] = (16, 16),
    h: float = _H, mode: str = "grid-constant",
) -> np.ndarray:
    """``X_traj`` of shape ``(m, degree+1, p)``: Taylor coefficients of the rotation at 0.

    Parameters
    ----------
    images : (m, p) array of flattened images
    degree : 1 or 2
    sigma2 : Gaussian smoothing variance (pixels²)
    h : finite-difference step in radians (default 1 degree)
    mode : boundary handling of the rotations (see :func:`rotate`)

    Returns
    -------
    ndarray
        ``[x, x', x''/2]`` per image (smoothed ``x``), angles in radians.
    """
    if degree not in (1, 2):
        raise InvalidInputError("degree", f"must be 1 or 2, got {degree!r}")
    x0 = smooth(images, sigma2=sigma2, shape=shape)
    xp = rotate(x0, h, shape=shape, smoothed=True, mode=mode)
    xm = rotate(x0, -h, shape=shape, smoothed=True, mode=mode)
    rows = [x0, (xp - xm) / (2 * h)]
    if degree == 2:
        rows.append((xp - 2 * x0 + xm) / (2 * h * h))
    return np.stack(rows, axis=1)


def taylor_error(
    images: Any, angles: Any, *, sigma2: float = SIGMA2, shape: tuple[int, int] = (16, 16),
    mode: str = "grid-constant",
) -> dict[str, np.ndarray]:
    """Relative error of the Taylor trajectories against true rotations.

    For each angle: ``||x(theta) - x_tilde(theta)|| / ||x(theta) - x(0)||`` (median over the
    images) for degree 1 and degree 2, so that a useful expansion scores well below 1.
    ``mode`` is used for the derivatives and the true rotations alike.
    """
    X = _check_images(images, shape)
    T = rotation_trajectories(X, degree=2, sigma2=sigma2, shape=shape, mode=mode)
    x0 = T[:, 0]
    out = {"angles": np.asarray(angles, float), "rel_err_1": [], "rel_err_2": []}
    for a in out["angles"]:
        true = rotate(x0, a, shape=shape, smoothed=True, mode=mode)
        ref = np.linalg.norm(true - x0, axis=1)
        e1 = np.linalg.norm(true - (x0 + a * T[:, 1]), axis=1)
        e2 = np.linalg.norm(true - (x0 + a * T[:, 1] + a * a * T[:, 2]), axis=1)
        out["rel_err_1"].append(float(np.median(e1 / np.maximum(ref, 1e-300))))
        out["rel_err_2"].append(float(np.median(e2 / np.maximum(ref, 1e-300))))
    out["rel_err_1"] = np.asarray(out["rel_err_1"])
    out["rel_err_2"] = np.asarray(out["rel_err_2"])
    return out


def half_means(shape: tuple[int, int] = (16, 16)) -> np.ndarray:
    """``(p, 2)`` matrix of the two features of Figure 2(a): mean intensity of the top and
    of the bottom half of the image (features are linear, so trajectories map exactly:
    ``X_traj @ half_means()``)."""
    h, wdt = shape
    P = np.zeros((h, wdt, 2))
    P[: h // 2, :, 0] = 1.0 / ((h // 2) * wdt)
    P[h // 2:, :, 1] = 1.0 / ((h - h // 2) * wdt)
    return P.reshape(h * wdt, 2)
