"""Synthetic camera frames of the table, with exact ground truth (for tests and benchmarks).

A full pinhole camera looks at the table from a tilted pose, so parallax is real: tag stickers
are drawn on top of their bases (`Layout.base_height`), terrain blocks stand up and hide what
is behind them. The table plane (mat, corner markers on white paper) is drawn top-down as a
texture and warped into the frame; bases and blocks are projected in 3-D.

API (stable; extend, don't break):

- ``Figure(x, y, tag=None, base_mm=25.0, angle_deg=0.0, rim_bgr=None, rim_width_in=0.09,
  body_bgr=None, body_fraction=0.55)``: a base centred at (x, y) inches. `tag` puts an
  ArUco tag sticker on it; `rim_bgr` paints a coloured rim (colour mode); `body_bgr` draws the
  miniature as a blob of that colour over the middle `body_fraction` of the base's diameter.
- ``Block(x0, y0, x1, y1, height=2.0, shade=110)``: a grey terrain box.
- ``Camera(width=3840, height=2160, tilt_deg=20.0, yaw_deg=0.0, roll_deg=0.0, fill=0.92,
  focal_px=None)``: where the camera is; it looks at the table centre from `tilt_deg` off the
  vertical, toward +y, at the distance where the table fills `fill` of the frame.
- ``Effects(blur_sigma=0.0, noise_sigma=0.0, gradient=0.0, jpeg_quality=None)``: Gaussian
  blur (px), Gaussian noise (grey levels), light falloff across the frame (0..1), JPEG.
- ``render(figures, blocks=(), camera=Camera(), effects=Effects(), layout=DEFAULT_LAYOUT,
  hidden_markers=(), seed=0, texture_ppi=None) -> Frame``; `hidden_markers` lays a hand over
  those corner markers. ``Frame.image`` is BGR uint8; ``Frame.truth`` maps tag -> (x, y) of
  the base centre; ``Frame.project(points_xyz)`` gives pixels; ``Frame.table_to_image`` is the
  exact z = 0 homography; ``Frame.camera_centre`` is in table inches.
- ``random_figures(n, rng, layout=DEFAULT_LAYOUT, blocks=(), first_tag=None, base_mm=25.0,
  gap=0.2)``: `n` non-overlapping tagged figures clear of blocks and corner papers.
- ``encode_png(image)`` / ``encode_jpeg(image, quality)`` give file bytes.
- ``distort(image, camera_matrix, dist_coeffs)`` shows a frame through a lens with OpenCV's
  distortion model; ``distort_points`` maps ideal pixels the same way.
- ``camera_pose(camera, layout) -> (K, R, t)`` is the pinhole camera `render` uses.

`Figure.angle_deg` turns the tag counter-clockwise as seen from above (table y up), the same
convention as `vision.tags.TagFix.angle_deg`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from geometry.units import MM_PER_INCH
from vision.cv import cv2
from vision.layout import DEFAULT_LAYOUT, Layout
from vision.markers import aruco_dictionary
from vision.types import FloatArray, Image

MAT_BGR = (96, 122, 108)  # a grey-green game mat
FLOOR_BGR = (50, 45, 40)  # what is around the table
PAPER_MARGIN_IN = 0.45  # white paper around each corner marker
BASE_SIDE_BGR = (40, 40, 40)
SKIN_BGR = (120, 150, 205)


@dataclass(frozen=True)
class Figure:
    x: float
    y: float
    tag: int | None = None
    base_mm: float = 25.0
    angle_deg: float = 0.0
    rim_bgr: tuple[int, int, int] | None = None
    rim_width_in: float = 0.09
    body_bgr: tuple[int, int, int] | None = None
    body_fraction: float = 0.55

    @property
    def radius(self) -> float:
        return self.base_mm / MM_PER_INCH / 2.0


@dataclass(frozen=True)
class Block:
    x0: float
    y0: float
    x1: float
    y1: float
    height: float = 2.0
    shade: int = 110


@dataclass(frozen=True)
class Camera:
    width: int = 3840
    height: int = 2160
    tilt_deg: float = 20.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    fill: float = 0.92
    focal_px: float | None = None  # default: 0.8 x width (about 64 degrees across)


@dataclass(frozen=True)
class Effects:
    blur_sigma: float = 0.0
    noise_sigma: float = 0.0
    gradient: float = 0.0
    jpeg_quality: int | None = None


@dataclass
class Frame:
    image: Image
    truth: dict[int, tuple[float, float]]
    figures: list[Figure]
    camera_matrix: FloatArray
    rotation: FloatArray  # world (table inches) -> camera
    tvec: FloatArray
    layout: Layout
    blocks: list[Block] = field(default_factory=list)

    @property
    def camera_centre(self) -> FloatArray:
        centre: FloatArray = -self.rotation.T @ self.tvec
        return centre

    @property
    def table_to_image(self) -> FloatArray:
        return self.plane_homography(0.0)

    @property
    def px_per_in(self) -> float:
        """Pixels per inch at the table centre."""
        c = np.array([[self.layout.table_width / 2, self.layout.table_depth / 2, 0.0],
                      [self.layout.table_width / 2 + 1, self.layout.table_depth / 2, 0.0],
                      [self.layout.table_width / 2, self.layout.table_depth / 2 + 1, 0.0]])
        p = self.project(c)
        a, b = p[1] - p[0], p[2] - p[0]
        return math.sqrt(abs(a[0] * b[1] - a[1] * b[0]))

    def plane_homography(self, z: float) -> FloatArray:
        """Table (x, y) on the plane at height z -> pixels."""
        r = self.rotation
        m = self.camera_matrix @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z + self.tvec])
        out: FloatArray = m / m[2, 2]
        return out

    def project(self, points: FloatArray) -> FloatArray:
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        cam = pts @ self.rotation.T + self.tvec
        uvw = cam @ self.camera_matrix.T
        out: FloatArray = uvw[:, :2] / uvw[:, 2:3]
        return out


# -- camera ---------------------------------------------------------------------------------
def camera_pose(camera: Camera, layout: Layout) -> tuple[FloatArray, FloatArray, FloatArray]:
    """K, R (world -> camera) and t for `camera` looking at the table centre."""
    f = camera.focal_px or 0.8 * camera.width
    k = np.array([[f, 0.0, camera.width / 2.0], [0.0, f, camera.height / 2.0], [0, 0, 1.0]])
    tilt, yaw, roll = (math.radians(a) for a in (camera.tilt_deg, camera.yaw_deg,
                                                 camera.roll_deg))
    target = np.array([layout.table_width / 2, layout.table_depth / 2, 0.0])
    # Seen from above, the camera sits toward -y (the player's side) rotated by yaw.
    away = np.array([math.sin(yaw) * math.sin(tilt), -math.cos(yaw) * math.sin(tilt),
                     math.cos(tilt)])
    fwd = -away
    right = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    right = right - fwd * (right @ fwd)
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    if roll:
        c, s = math.cos(roll), math.sin(roll)
        right, down = c * right + s * down, -s * right + c * down
    rot = np.vstack([right, down, fwd])
    corners = np.array([[0, 0, 0], [layout.table_width, 0, 0],
                        [layout.table_width, layout.table_depth, 0],
                        [0, layout.table_depth, 0]], dtype=np.float64)

    def overflow(dist: float) -> float:
        t = -rot @ (target + away * dist)
        uvw = (corners @ rot.T + t) @ k.T
        uv = uvw[:, :2] / uvw[:, 2:3]
        span = uv.max(axis=0) - uv.min(axis=0)
        ext = np.abs(uv - [camera.width / 2, camera.height / 2]).max(axis=0) * 2
        return float(max(max(span[0], ext[0]) / (camera.fill * camera.width),
                         max(span[1], ext[1]) / (camera.fill * camera.height)))

    lo, hi = 1.0, 1000.0
    for _ in range(60):
        mid = math.sqrt(lo * hi)
        if overflow(mid) > 1.0:
            lo = mid
        else:
            hi = mid
    tvec = -rot @ (target + away * hi)
    return k, rot, tvec


# -- drawing --------------------------------------------------------------------------------
def _texture_matrix(layout: Layout, ppi: float) -> FloatArray:
    """Table inches -> texture pixels (same convention as the rectified image)."""
    return np.array([[ppi, 0.0, 0.0], [0.0, -ppi, layout.table_depth * ppi], [0.0, 0.0, 1.0]])


def _marker_image(layout: Layout, marker_id: int, px: int) -> Image:
    img: Image = cv2.aruco.generateImageMarker(aruco_dictionary(layout), marker_id, px)
    return img


def _table_texture(layout: Layout, ppi: float, rng: np.random.Generator) -> Image:
    w = int(math.ceil(layout.table_width * ppi)) + 1
    h = int(math.ceil(layout.table_depth * ppi)) + 1
    tex = np.empty((h, w, 3), np.uint8)
    tex[:] = MAT_BGR
    # faint low-frequency mottling, like a printed mat
    small = rng.normal(0.0, 6.0, (max(2, h // 64), max(2, w // 64))).astype(np.float32)
    mottle = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    tex = np.clip(tex.astype(np.float32) + mottle[..., None], 0, 255).astype(np.uint8)
    to_tex = _texture_matrix(layout, ppi)
    for n, mid in enumerate(layout.corner_ids):
        cx, cy = layout.corner_centres[n]
        half = layout.corner_size / 2
        paper = half + PAPER_MARGIN_IN
        p0 = (to_tex @ [cx - paper, cy + paper, 1])[:2]
        p1 = (to_tex @ [cx + paper, cy - paper, 1])[:2]
        cv2.rectangle(tex, (int(round(p0[0])), int(round(p0[1]))),
                      (int(round(p1[0])), int(round(p1[1]))), (245, 245, 245), -1)
        side = int(round(layout.corner_size * ppi))
        marker = cv2.cvtColor(_marker_image(layout, mid, side), cv2.COLOR_GRAY2BGR)
        # exact placement: warp the marker image onto its square (sub-pixel correct)
        src = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
        dst = np.array([(to_tex @ [x, y, 1])[:2] for x, y in layout.corner_points(mid)],
                       dtype=np.float32)
        _paste_warped(tex, marker, cv2.getPerspectiveTransform(src, dst))
    return tex


def _paste_warped(dst: Image, src: Image, m: FloatArray, alpha: FloatArray | None = None) -> None:
    """Warp `src` by `m` into `dst` in place, only over the warped area's bounding box."""
    h, w = src.shape[:2]
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], dtype=np.float64), m).reshape(-1, 2)
    x0 = max(0, int(math.floor(corners[:, 0].min())) - 2)
    y0 = max(0, int(math.floor(corners[:, 1].min())) - 2)
    x1 = min(dst.shape[1], int(math.ceil(corners[:, 0].max())) + 2)
    y1 = min(dst.shape[0], int(math.ceil(corners[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]]) @ m
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(src, shift, size, flags=cv2.INTER_LINEAR)
    a = alpha if alpha is not None else np.full((h, w), 1.0, np.float32)
    wa = cv2.warpPerspective(a.astype(np.float32), shift, size, flags=cv2.INTER_LINEAR)
    roi = dst[y0:y1, x0:x1].astype(np.float32)
    mixed = roi * (1.0 - wa[..., None]) + warped.astype(np.float32) * wa[..., None]
    dst[y0:y1, x0:x1] = np.clip(mixed + 0.5, 0, 255).astype(np.uint8)


def _sticker(fig: Figure, layout: Layout, ppi: float) -> tuple[Image, FloatArray]:
    """The top of a base seen from above (BGR) and its alpha, `ppi` pixels per inch,
    centred on the patch; the patch spans 2 * radius."""
    r = fig.radius
    size = int(math.ceil(2 * r * ppi)) + 2
    c = (size - 1) / 2.0
    top = np.zeros((size, size, 3), np.uint8)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    dist = np.hypot(xx - c, yy - c) / ppi
    alpha = np.clip(r * ppi - dist * ppi + 0.5, 0.0, 1.0).astype(np.float32)
    top[:] = (235, 235, 235) if fig.tag is not None else (70, 70, 70)
    if fig.rim_bgr is not None:
        top[dist > r - fig.rim_width_in] = fig.rim_bgr
    if fig.tag is not None:
        side = layout.tag_size * ppi
        cells = 6
        px = max(cells * 8, int(round(side / cells)) * cells * 2)
        marker = cv2.cvtColor(_marker_image(layout, fig.tag, px), cv2.COLOR_GRAY2BGR)
        a = math.radians(fig.angle_deg)
        # marker corners (TL, TR, BR, BL) around the centre, turned by angle (y up on table,
        # so a positive angle turns counter-clockwise as seen from above)
        half = side / 2
        local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
        dst = (local @ rot.T + c).astype(np.float32)
        src = np.array([[0, 0], [px, 0], [px, px], [0, px]], dtype=np.float32)
        _paste_warped(top, marker, cv2.getPerspectiveTransform(src, dst))
    if fig.body_bgr is not None:
        body_r = fig.body_fraction * r
        top[dist < body_r] = fig.body_bgr
    return top, alpha


def _hand(image: Image, frame: Frame, layout: Layout, marker_id: int) -> None:
    """A hand (skin-coloured blob and forearm) over a corner marker, off toward the edge."""
    cx, cy = layout.corner_centres[layout.corner_ids.index(marker_id)]
    sx = -1.0 if cx < layout.table_width / 2 else 1.0
    sy = -1.0 if cy < layout.table_depth / 2 else 1.0
    h = 3.0  # inches above the table
    palm = [(cx + 1.8 * math.cos(t), cy + 1.8 * math.sin(t), h)
            for t in np.linspace(0, 2 * math.pi, 24, endpoint=False)]
    arm = [(cx - 0.9 * sy, cy + 0.9 * sx, h), (cx + 0.9 * sy, cy - 0.9 * sx, h),
           (cx + 0.9 * sy + 8 * sx, cy - 0.9 * sx + 8 * sy, h + 2),
           (cx - 0.9 * sy + 8 * sx, cy + 0.9 * sx + 8 * sy, h + 2)]
    for poly in (palm, arm):
        pts = frame.project(np.array(poly))
        cv2.fillPoly(image, [np.round(pts).astype(np.int32)], SKIN_BGR, lineType=cv2.LINE_AA)


def render(figures: Sequence[Figure], blocks: Sequence[Block] = (), camera: Camera = Camera(),
           effects: Effects = Effects(), layout: Layout = DEFAULT_LAYOUT,
           hidden_markers: Iterable[int] = (), seed: int = 0,
           texture_ppi: float | None = None) -> Frame:
    """Draw one frame (see the module docstring)."""
    rng = np.random.default_rng(seed)
    k, rot, tvec = camera_pose(camera, layout)
    frame = Frame(np.empty((camera.height, camera.width, 3), np.uint8), {}, list(figures), k,
                  rot, tvec, layout, list(blocks))
    ppi = texture_ppi or min(160.0, 2.0 * frame.px_per_in)
    # 1. the table plane, anti-aliased: texture blurred to the frame's scale, then warped
    tex = _table_texture(layout, ppi, rng)
    sigma = 0.5 * ppi / frame.px_per_in
    if sigma > 0.3:
        tex = cv2.GaussianBlur(tex, (0, 0), sigma)
    to_img = frame.table_to_image @ np.linalg.inv(_texture_matrix(layout, ppi))
    img = cv2.warpPerspective(tex, to_img, (camera.width, camera.height), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=FLOOR_BGR)
    # 2. bases, farthest from the camera first: dark side at z = 0, then the top at z = height
    centre = frame.camera_centre
    order = sorted(figures, key=lambda f: -math.hypot(f.x - centre[0], f.y - centre[1]))
    base_h = layout.base_height
    for fig in order:
        top, alpha = _sticker(fig, layout, ppi)
        if sigma > 0.3:
            top = cv2.GaussianBlur(top, (0, 0), sigma)
        size = top.shape[0]
        c = (size - 1) / 2.0
        patch_to_table = np.array([[1 / ppi, 0, fig.x - c / ppi], [0, -1 / ppi, fig.y + c / ppi],
                                   [0, 0, 1]])
        side = np.zeros_like(top)
        side[:] = BASE_SIDE_BGR
        _paste_warped(img, side, frame.plane_homography(0.0) @ patch_to_table, alpha)
        _paste_warped(img, top, frame.plane_homography(base_h) @ patch_to_table, alpha)
    # 3. terrain boxes (the camera is above them all: silhouette, then the lit top)
    for b in blocks:
        bottom = [(b.x0, b.y0, 0), (b.x1, b.y0, 0), (b.x1, b.y1, 0), (b.x0, b.y1, 0)]
        top_face = [(x, y, b.height) for x, y, _ in bottom]
        sil = frame.project(np.array(bottom + top_face))
        hull = cv2.convexHull(np.round(sil * 16).astype(np.int32))
        cv2.fillConvexPoly(img, hull, (b.shade - 35,) * 3, lineType=cv2.LINE_AA, shift=4)
        tp = np.round(frame.project(np.array(top_face)) * 16).astype(np.int32)
        cv2.fillConvexPoly(img, tp, (b.shade,) * 3, lineType=cv2.LINE_AA, shift=4)
    for mid in hidden_markers:
        _hand(img, frame, layout, mid)
    frame.image = _effects(img, effects, rng)
    frame.truth = {f.tag: (f.x, f.y) for f in figures if f.tag is not None}
    return frame


def _effects(img: Image, fx: Effects, rng: np.random.Generator) -> Image:
    out = img.astype(np.float32)
    if fx.gradient:
        h, w = img.shape[:2]
        gx = np.linspace(1.0, 1.0 - fx.gradient, w, dtype=np.float32)
        gy = np.linspace(1.0 - fx.gradient / 2, 1.0, h, dtype=np.float32)
        out *= (gy[:, None] * gx[None, :])[..., None]
    if fx.blur_sigma:
        out = cv2.GaussianBlur(out, (0, 0), fx.blur_sigma)
    if fx.noise_sigma:
        out += rng.normal(0.0, fx.noise_sigma, out.shape).astype(np.float32)
    result = np.clip(out + 0.5, 0, 255).astype(np.uint8)
    if fx.jpeg_quality is not None:
        data = encode_jpeg(result, fx.jpeg_quality)
        result = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return result


def encode_png(image: Image) -> bytes:
    ok, buf = cv2.imencode(".png", image)
    assert ok
    return bytes(buf)


def encode_jpeg(image: Image, quality: int = 90) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    assert ok
    return bytes(buf)


# -- scenes ---------------------------------------------------------------------------------
def random_figures(n: int, rng: random.Random, layout: Layout = DEFAULT_LAYOUT,
                   blocks: Sequence[Block] = (), first_tag: int | None = None,
                   base_mm: float = 25.0, gap: float = 0.2) -> list[Figure]:
    """`n` tagged figures at random, not overlapping each other, the blocks (with `gap`) or the
    corner papers; tags numbered from `first_tag` (default the layout's first tag id)."""
    r = base_mm / MM_PER_INCH / 2
    tag = layout.tag_first if first_tag is None else first_tag
    papers = [(cx, cy, layout.corner_size / 2 + PAPER_MARGIN_IN)
              for cx, cy in layout.corner_centres]
    figs: list[Figure] = []
    tries = 0
    while len(figs) < n:
        tries += 1
        if tries > 20000:
            raise ValueError(f"cannot place {n} figures on this table")
        x = rng.uniform(r + gap, layout.table_width - r - gap)
        y = rng.uniform(r + gap, layout.table_depth - r - gap)
        if any(abs(x - px) < ph + r + gap and abs(y - py) < ph + r + gap for px, py, ph in papers):
            continue
        if any(b.x0 - r - gap < x < b.x1 + r + gap and b.y0 - r - gap < y < b.y1 + r + gap
               for b in blocks):
            continue
        if any(math.hypot(x - f.x, y - f.y) < 2 * r + gap for f in figs):
            continue
        figs.append(Figure(x, y, tag=tag + len(figs), base_mm=base_mm,
                           angle_deg=rng.uniform(0.0, 360.0)))
    return figs


# -- lens distortion ------------------------------------------------------------------------
def distort(image: Image, camera_matrix: FloatArray, dist_coeffs: Sequence[float]) -> Image:
    """`image` as a lens with these distortion coefficients (OpenCV's model) would show it:
    each output pixel samples the ideal image where its ray would land without distortion."""
    h, w = image.shape[:2]
    k = np.asarray(camera_matrix, dtype=np.float64)
    d = np.asarray(dist_coeffs, dtype=np.float64)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    pts = np.stack([xx.ravel(), yy.ravel()], axis=1).reshape(-1, 1, 2)
    ideal = cv2.undistortPoints(pts, k, d, R=None, P=k,
                                criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20,
                                          1e-6))
    ideal = np.asarray(ideal, dtype=np.float32).reshape(h, w, 2)
    out: Image = cv2.remap(image, ideal[..., 0], ideal[..., 1], cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=FLOOR_BGR)
    return out


def distort_points(points: FloatArray, camera_matrix: FloatArray,
                   dist_coeffs: Sequence[float]) -> FloatArray:
    """Where ideal pixels land through the lens (the forward model, for ground truth)."""
    k = np.asarray(camera_matrix, dtype=np.float64)
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    norm = np.column_stack([(pts[:, 0] - k[0, 2]) / k[0, 0], (pts[:, 1] - k[1, 2]) / k[1, 1],
                            np.ones(len(pts))])
    out, _ = cv2.projectPoints(norm, np.zeros(3), np.zeros(3), k,
                               np.asarray(dist_coeffs, dtype=np.float64))
    result: FloatArray = np.asarray(out, dtype=np.float64).reshape(-1, 2)
    return result
