"""Circle fits for base rims seen in part: RANSAC with a known radius, then least squares.

The miniature hides the middle of a base and terrain may hide part of its rim, so a rim shows
as an arc, with stray edge points (the rim's inner edge, the cut where terrain hides it, paint
on the miniature). Two points and the known radius give a centre (two, one each side of their
chord); the hypothesis with the most boundary points at that radius wins, and a Gauss-Newton
geometric fit (free radius when enough of the circle is seen, else the known radius) refines
it. The covariance of the centre comes from the fit's Jacobian, so an arc seen from one side
only is honestly less sure across its chord.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["CircleFit", "ransac_centre", "refine", "coverage", "radius_sensitivity", "radius_sigma",
           "facing"]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

COVERAGE_BINS = 36  # 10 degree sectors
MIN_FACING = 0.5  # cosine between a rim point's outward normal and the radius through it
CONVERGED_PX = 0.005  # a Gauss-Newton step this small (pixels) ends the fit
GN_STEPS = 4  # Gauss-Newton steps per round (from a start within a pixel or two, 2-3 do)


def facing(points: FloatArray, cx: float | FloatArray, cy: float | FloatArray) -> BoolArray:
    """Whether each point's outward boundary normal (columns 2-3) points away from the centre.

    A base's outer rim edge faces out from its centre; the rim's inner edge, the edge where a
    miniature or terrain cuts the rim and a touching neighbour's rim do not, so they cannot
    pull the circle. Points without normals (two columns) all pass. Broadcasts over centres
    given as column vectors.
    """
    if points.shape[1] < 4:
        shape = np.broadcast(np.asarray(cx), points[:, 0]).shape
        return np.ones(shape, dtype=bool)
    dx, dy = points[:, 0] - cx, points[:, 1] - cy
    dot = dx * points[:, 2] + dy * points[:, 3]
    ok: BoolArray = dot >= MIN_FACING * np.hypot(dx, dy)
    return ok


@dataclass(frozen=True)
class CircleFit:
    """A fitted circle in pixels: centre, radius, inlier mask, rms residual and the 2 x 2
    covariance of the centre (pixels squared)."""

    cx: float
    cy: float
    radius: float
    inliers: BoolArray
    rms: float
    cov: FloatArray
    free_radius: bool


def ransac_centre(points: FloatArray, radius: float, tol: float, rng: np.random.Generator,
                  trials: int = 40) -> tuple[float, float, BoolArray] | None:
    """Best centre for a circle of known `radius` through the most `points` (within `tol`)."""
    n = len(points)
    if n < 3:
        return None
    trials = max(trials, min(n // 2, 3 * trials))  # bigger blobs (touching bases): more pairs
    i = rng.integers(0, n, trials)
    j = rng.integers(0, n, trials)
    p, q = points[i, :2], points[j, :2]
    chord = q - p
    d = np.hypot(chord[:, 0], chord[:, 1])
    ok = (d > 0.5 * radius) & (d < 2.0 * radius)
    if not np.any(ok):
        ok = (d > 1.0) & (d < 2.0 * radius)
        if not np.any(ok):
            return None
    p, chord, d = p[ok], chord[ok], d[ok]
    mid = p + chord / 2.0
    h = np.sqrt(np.maximum(radius * radius - (d / 2.0) ** 2, 0.0))
    normal = np.column_stack((-chord[:, 1], chord[:, 0])) / d[:, None]
    centres = np.concatenate((mid + normal * h[:, None], mid - normal * h[:, None]))
    dx = points[None, :, 0] - centres[:, None, 0]
    dy = points[None, :, 1] - centres[:, None, 1]
    dist = np.sqrt(dx * dx + dy * dy)
    good = np.abs(dist - radius) <= tol
    if points.shape[1] >= 4:  # the same test as `facing`, sharing dx, dy and dist
        good &= dx * points[None, :, 2] + dy * points[None, :, 3] >= MIN_FACING * dist
    votes = good.sum(axis=1)
    best = int(np.argmax(votes))
    if votes[best] < 3:
        return None
    return float(centres[best, 0]), float(centres[best, 1]), good[best]


def refine(points: FloatArray, cx: float, cy: float, radius: float, tol: float,
           free_radius: bool, noise_floor: float = 0.35, rounds: int = 2) -> CircleFit:
    """Geometric least-squares circle through the points near the start circle.

    Inliers are re-selected each round (within `tol` of the current circle, and facing away
    from its centre); `noise_floor` (pixels) bounds the residual used for the covariance from
    below, since boundary pixels of a thresholded mask are quantised to half a pixel whatever
    the fit says.

    Called some 75 times a frame on a few hundred points: the cost is numpy's per-call
    overhead, so each step makes as few array operations as it can (same arithmetic; the
    `.dot` method is the `@` product without the matmul dispatch).
    """
    x, y = points[:, 0], points[:, 1]
    c0, c1, r = float(cx), float(cy), float(radius)
    inl: BoolArray | None = None
    px, py = x, y
    for _ in range(rounds):
        dx, dy = x - c0, y - c1
        dist = np.sqrt(dx * dx + dy * dy)
        new = np.abs(dist - r) <= tol
        if points.shape[1] >= 4:
            new &= dx * points[:, 2] + dy * points[:, 3] >= MIN_FACING * dist
        # the same inliers as the round before: the fit would not move
        if np.count_nonzero(new) < 3 or (inl is not None and new.tobytes() == inl.tobytes()):
            break
        inl = new
        px, py = x[inl], y[inl]
        c0, c1, r = _gauss_newton(px, py, c0, c1, r, free_radius)
    if inl is None:
        inl = np.zeros(len(points), dtype=bool)
    rms, cov = _centre_covariance(px, py, c0, c1, r, free_radius, noise_floor)
    return CircleFit(c0, c1, r, inl, rms, cov, free_radius)


def _radial(px: FloatArray, py: FloatArray, c0: float, c1: float, r: float
            ) -> tuple[FloatArray, FloatArray, FloatArray, float, float, float]:
    """The points' unit directions from the centre (ux, uy), their residuals from the circle,
    and the centre block of J^T J (ux.ux, ux.uy, uy.uy)."""
    ex, ey = px - c0, py - c1
    rho = np.sqrt(ex * ex + ey * ey)
    np.maximum(rho, 1e-9, out=rho)
    ux, uy = ex / rho, ey / rho
    return ux, uy, rho - r, float(ux.dot(ux)), float(ux.dot(uy)), float(uy.dot(uy))


def _gauss_newton(px: FloatArray, py: FloatArray, c0: float, c1: float, r: float,
                  free_radius: bool) -> tuple[float, float, float]:
    """Up to `GN_STEPS` Gauss-Newton steps of the geometric circle fit, each solved in closed
    form (2 x 2) or by Cramer's rule (3 x 3): these small systems cost more to hand to LAPACK
    than to solve. Stops early once a step moves less than `CONVERGED_PX`."""
    n = float(len(px))
    for _ in range(GN_STEPS):
        ux, uy, res, a, b, d = _radial(px, py, c0, c1, r)
        gx, gy = float(ux.dot(res)), float(uy.dot(res))
        if not free_radius:
            det = a * d - b * b
            if abs(det) < 1e-12:
                break
            s0, s1 = (d * gx - b * gy) / det, (a * gy - b * gx) / det
            c0, c1 = c0 + s0, c1 + s1
            if max(abs(s0), abs(s1)) < CONVERGED_PX:
                break
            continue
        e, f, g = float(ux.sum()), float(uy.sum()), float(res.sum())
        det = a * (d * n - f * f) - b * (b * n - f * e) + e * (b * f - d * e)
        if abs(det) < 1e-12:
            break
        s0 = (gx * (d * n - f * f) - b * (gy * n - f * g) + e * (gy * f - d * g)) / det
        s1 = (a * (gy * n - f * g) - gx * (b * n - f * e) + e * (b * g - gy * e)) / det
        s2 = (a * (d * g - gy * f) - b * (b * g - gy * e) + gx * (b * f - d * e)) / det
        c0, c1, r = c0 + s0, c1 + s1, r + s2
        if max(abs(s0), abs(s1), abs(s2)) < CONVERGED_PX:
            break
    return c0, c1, r


def _centre_covariance(px: FloatArray, py: FloatArray, c0: float, c1: float, r: float,
                       free_radius: bool, noise_floor: float) -> tuple[float, FloatArray]:
    """The rms residual of the points from the circle and the 2 x 2 covariance of its centre:
    sigma^2 times the centre block of the inverse of J^T J (by its adjugate), sigma the rms
    bounded below by `noise_floor`; a singular J^T J gives a huge covariance."""
    ux, uy, res, a, b, d = _radial(px, py, c0, c1, r)
    m = len(px)
    rms = math.sqrt(float(res.dot(res)) / max(m - (3 if free_radius else 2), 1))
    if free_radius:  # J^T J = [[a, b, e], [b, d, f], [e, f, n]]
        e, f, n = float(ux.sum()), float(uy.sum()), float(m)
        det = a * (d * n - f * f) - b * (b * n - f * e) + e * (b * f - d * e)
        adj = (d * n - f * f, e * f - b * n, f * e - b * n, a * n - e * e)
    else:
        det = a * d - b * b
        adj = (d, -b, -b, a)
    block = np.full((2, 2), 1e6) if abs(det) < 1e-12 else np.array(
        [[adj[0] / det, adj[1] / det], [adj[2] / det, adj[3] / det]])
    cov: FloatArray = max(rms, noise_floor) ** 2 * block
    return rms, cov


def coverage(points: FloatArray, cx: float, cy: float) -> float:
    """Share of the circle's 10 degree sectors holding at least one of `points`."""
    if len(points) == 0:
        return 0.0
    ang = np.arctan2(points[:, 1] - cy, points[:, 0] - cx)
    bins = np.floor((ang + math.pi) / (2 * math.pi) * COVERAGE_BINS).astype(np.intp)
    seen = np.bincount(np.minimum(bins, COVERAGE_BINS - 1), minlength=COVERAGE_BINS)  # >= 0
    return float(np.count_nonzero(seen)) / COVERAGE_BINS


def radius_sensitivity(points: FloatArray, cx: float, cy: float) -> float:
    """How far (in pixels) the centre of a known-radius fit moves per pixel of radius error.

    Linearised: with residuals -s cos(phi) - dr along the arc's mean direction, the least-squares
    shift is s = -dr * sum(cos) / sum(cos^2): 0 for a full circle, about 1.3 for a half circle.
    """
    if len(points) < 3:
        return 1.0
    ang = np.arctan2(points[:, 1] - cy, points[:, 0] - cx)
    mean = math.atan2(float(np.sin(ang).sum()), float(np.cos(ang).sum()))
    cos = np.cos(ang - mean)
    return float(abs(cos.sum()) / max(float((cos**2).sum()), 1e-9))


def radius_sigma(points: FloatArray, cx: float, cy: float, radius: float,
                 noise_floor: float = 0.35) -> float:
    """Standard deviation (pixels) of a free-radius circle fit's radius through `points`: the
    radius entry of sigma^2 (J^T J)^-1, sigma the rms residual bounded below by `noise_floor`.
    A short arc leaves the radius loose (it trades against the centre along the arc's
    middle); a whole rim pins it. Infinite for fewer than four points or a degenerate arc."""
    if len(points) < 4:
        return math.inf
    ux, uy, res, a, b, d = _radial(points[:, 0], points[:, 1], cx, cy, radius)
    e, f, n = float(ux.sum()), float(uy.sum()), float(len(points))
    det = a * (d * n - f * f) - b * (b * n - f * e) + e * (b * f - d * e)
    if abs(det) < 1e-12:
        return math.inf
    rms = math.sqrt(float(res.dot(res)) / max(len(points) - 3, 1))
    return max(rms, noise_floor) * math.sqrt(max((a * d - b * b) / det, 0.0))
