"""The Mitsuba 3 scene of one frame: the table, its markers and figures, terrain, a hand,
lights and the camera, as a scene dictionary for ``mi.load_dict``.

Units are table inches. Tags mode dresses each figure's base with a white sticker carrying
its ArUco tag (no miniature on it: it would cover the tag); colour mode paints the base top's
outer band with the side's colour and stands a miniature in the middle. Tagless miniatures
("props") stand among the figures in both modes, leaning over their neighbours.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import mitsuba as mi
import numpy as np
import textures as tx
from camera import Camera
from layout import (
    CORNER_CENTRES,
    CORNER_IDS,
    MARKER_SIZE,
    MM,
    PAPER_SIZE,
    RIM_MM,
    TABLE,
    TAG_SIZE,
    Block,
    Figure,
    Layout,
)

T = mi.ScalarTransform4f

RIM_SRGB = {"survivors": (0.08, 0.30, 0.85), "zombies": (0.80, 0.07, 0.07),
            "civilians": (0.92, 0.78, 0.08)}
BODY_SRGB = [(0.25, 0.22, 0.20), (0.45, 0.42, 0.30), (0.28, 0.31, 0.36), (0.42, 0.48, 0.38),
             (0.35, 0.24, 0.16), (0.50, 0.50, 0.50), (0.50, 0.12, 0.10), (0.75, 0.72, 0.66)]
HEAD_SRGB = [(0.76, 0.57, 0.45), (0.50, 0.55, 0.42), (0.15, 0.12, 0.10)]
STONE_SRGB = [(0.55, 0.53, 0.50), (0.52, 0.42, 0.36), (0.60, 0.60, 0.58)]
SKIN_SRGB = (0.80, 0.60, 0.48)


@dataclass
class Hand:
    """A rough hand and forearm: the palm's centre (table inches, z above the mat), the
    direction the fingers point (degrees in the table plane)."""

    x: float
    y: float
    z: float
    heading_deg: float
    over_marker: int | None = None


@dataclass
class Lights:
    preset: str  # overhead, window, spots, lamp
    seed: int = 0


@dataclass
class Dressing:
    mode: str  # tags or colour
    mat: str
    desk: bool
    lights: Lights
    hand: Hand | None = None
    extra: dict[str, float] = field(default_factory=dict)


def rgb(c: tuple[float, float, float]) -> dict[str, object]:
    return {"type": "rgb", "value": [float(v) for v in tx.srgb_to_linear(c)]}


def _bitmap(arr: np.ndarray, nearest: bool = False) -> dict[str, object]:
    return {"type": "bitmap", "bitmap": mi.Bitmap(np.ascontiguousarray(arr, np.float32)),
            "raw": True, "filter_type": "nearest" if nearest else "bilinear",
            "wrap_mode": "clamp"}


def _upright(pattern: np.ndarray) -> np.ndarray:
    """Mitsuba's rectangle puts a bitmap's first row at its local -y: flip the rows so the
    printed top edge lies toward +y (checked by detecting the rendered markers)."""
    return pattern[::-1]


def ring_ply(path: Path, r_out: float, r_in: float, segments: int = 160) -> None:
    a = np.linspace(0, 2 * math.pi, segments, endpoint=False)
    outer = np.stack([r_out * np.cos(a), r_out * np.sin(a), np.zeros_like(a)], 1)
    inner = np.stack([r_in * np.cos(a), r_in * np.sin(a), np.zeros_like(a)], 1)
    verts = np.concatenate([outer, inner])
    faces = []
    for i in range(segments):
        j = (i + 1) % segments
        faces += [(i, j, segments + j), (i, segments + j, segments + i)]
    lines = ["ply", "format ascii 1.0", f"element vertex {len(verts)}", "property float x",
             "property float y", "property float z", f"element face {len(faces)}",
             "property list uchar int vertex_indices", "end_header"]
    lines += [f"{x:.6f} {y:.6f} {z:.6f}" for x, y, z in verts]
    lines += [f"3 {a_} {b} {c}" for a_, b, c in faces]
    path.write_text("\n".join(lines) + "\n")


def _cyl(p0: np.ndarray, p1: np.ndarray, r: float, bsdf: str) -> dict[str, object]:
    return {"type": "cylinder", "p0": [float(v) for v in p0], "p1": [float(v) for v in p1],
            "radius": float(r), "bsdf": {"type": "ref", "id": bsdf}}


def _sphere(c: np.ndarray, r: float, bsdf: str) -> dict[str, object]:
    return {"type": "sphere", "center": [float(v) for v in c], "radius": float(r),
            "bsdf": {"type": "ref", "id": bsdf}}


def _disk(x: float, y: float, z: float, r: float, bsdf: str) -> dict[str, object]:
    return {"type": "disk", "to_world": T().translate([x, y, z]).scale([r, r, 1]),
            "bsdf": {"type": "ref", "id": bsdf}}


def _rect(x: float, y: float, z: float, half: float, bsdf: object, angle: float = 0.0,
          half_y: float | None = None) -> dict[str, object]:
    return {"type": "rectangle",
            "to_world": T().translate([x, y, z]).rotate([0, 0, 1], angle).scale(
                [half, half if half_y is None else half_y, 1]),
            "bsdf": bsdf}


class SceneBuilder:
    """Builds the scene dictionary; keeps the textures it made so frames of one table share
    them (the mat and desk of a layout are made once)."""

    def __init__(self, layout: Layout, work: Path, seed: int) -> None:
        self.layout, self.work = layout, work
        self.rng = np.random.default_rng(seed)
        work.mkdir(parents=True, exist_ok=True)
        self._mats: dict[str, np.ndarray] = {}
        self.wood = tx.wood_texture(2048, 1536, self.rng)
        self.stones = [tx.stone_texture(512, self.rng, c) for c in STONE_SRGB]
        self.markers = {i: tx.aruco_pattern(i, 16) for i in range(50)}
        for f in layout.figures:
            p = self._ring_path(f.base_mm)
            if not p.exists():
                ring_ply(p, f.radius - 0.0015, f.radius - RIM_MM * MM)

    def _ring_path(self, base_mm: int) -> Path:
        return self.work / f"ring_{base_mm}.ply"

    def mat(self, style: str) -> np.ndarray:
        if style not in self._mats:
            self._mats[style] = tx.mat_texture(style, 3072, np.random.default_rng(
                self.layout.seed * 31 + len(style)))
        return self._mats[style]

    def build(self, cam: Camera, dress: Dressing, max_depth: int = 3) -> dict[str, object]:
        d: dict[str, object] = {"type": "scene",
                                "integrator": {"type": "path", "max_depth": max_depth}}
        d["sensor"] = {
            "type": "perspective", "fov": cam.fov_diag_deg, "fov_axis": "diagonal",
            "near_clip": 1.0, "far_clip": 1000.0,
            "to_world": T().look_at(origin=[float(v) for v in cam.origin],
                                    target=[float(v) for v in cam.target],
                                    up=[float(v) for v in cam.up]),
            "film": {"type": "hdrfilm", "width": cam.width, "height": cam.height,
                     "pixel_format": "rgb", "rfilter": {"type": "box"}},
            "sampler": {"type": "independent", "sample_count": 4},
        }
        self._materials(d)
        self._table(d, dress)
        self._markers(d)
        for i, f in enumerate(self.layout.figures):
            self._figure(d, i, f, dress.mode)
        for i, b in enumerate(self.layout.blocks):
            self._block(d, i, b)
        if dress.hand is not None:
            self._hand(d, dress.hand)
        self._lights(d, dress.lights, cam)
        return d

    def _materials(self, d: dict[str, object]) -> None:
        d["paper"] = {"type": "diffuse", "id": "paper",
                      "reflectance": {"type": "rgb", "value": tx.PAPER}}
        d["base_side"] = {"type": "roughplastic", "id": "base_side", "alpha": 0.25,
                          "diffuse_reflectance": rgb((0.06, 0.06, 0.06))}
        d["base_top"] = {"type": "roughplastic", "id": "base_top", "alpha": 0.35,
                         "diffuse_reflectance": rgb((0.45, 0.38, 0.28))}
        d["prop_rim"] = {"type": "roughplastic", "id": "prop_rim", "alpha": 0.3,
                         "diffuse_reflectance": rgb((0.32, 0.31, 0.30))}
        for side, c in RIM_SRGB.items():
            d[f"rim_{side}"] = {"type": "roughplastic", "id": f"rim_{side}", "alpha": 0.3,
                                "diffuse_reflectance": rgb(c)}
        for i, c in enumerate(BODY_SRGB):
            d[f"body{i}"] = {"type": "roughplastic", "id": f"body{i}", "alpha": 0.4,
                             "diffuse_reflectance": rgb(c)}
        for i, c in enumerate(HEAD_SRGB):
            d[f"head{i}"] = {"type": "roughplastic", "id": f"head{i}", "alpha": 0.4,
                             "diffuse_reflectance": rgb(c)}
        for i, s in enumerate(self.stones):
            d[f"stone{i}"] = {"type": "diffuse", "id": f"stone{i}", "reflectance": _bitmap(s)}
        d["skin"] = {"type": "roughplastic", "id": "skin", "alpha": 0.5,
                     "diffuse_reflectance": rgb(SKIN_SRGB)}

    def _table(self, d: dict[str, object], dress: Dressing) -> None:
        half = TABLE / 2
        d["mat"] = _rect(half, half, 0.0, half, {"type": "diffuse",
                                                   "reflectance": _bitmap(self.mat(dress.mat))})
        if dress.desk:
            d["desk"] = _rect(half, half + 6.0, -0.08, 36.0, {
                "type": "roughplastic", "alpha": 0.2,
                "diffuse_reflectance": _bitmap(self.wood)}, half_y=27.0)
        else:
            d["board"] = _rect(half, half, -0.08, half + 0.6, {
                "type": "diffuse", "reflectance": rgb((0.22, 0.22, 0.23))})
            d["floor"] = _rect(half, half, -30.0, 200.0, {
                "type": "diffuse", "reflectance": rgb((0.30, 0.28, 0.26))})

    def _markers(self, d: dict[str, object]) -> None:
        for mid, (cx, cy) in zip(CORNER_IDS, CORNER_CENTRES, strict=True):
            d[f"sheet{mid}"] = _rect(cx, cy, 0.004, PAPER_SIZE / 2, {"type": "ref", "id": "paper"})
            pattern = _bitmap(_upright(self.markers[mid]), nearest=True)
            d[f"marker{mid}"] = _rect(cx, cy, 0.008, MARKER_SIZE / 2, {
                "type": "diffuse", "reflectance": pattern})

    def _figure(self, d: dict[str, object], i: int, f: Figure, mode: str) -> None:
        hb = f.base_height_mm * MM
        d[f"f{i}_side"] = _cyl(np.array([f.x, f.y, 0.0]), np.array([f.x, f.y, hb]), f.radius,
                               "base_side")
        tagged = mode == "tags" and f.tag is not None
        if tagged:
            d[f"f{i}_sticker"] = _disk(f.x, f.y, hb + 0.002, f.radius - 0.004, "paper")
            d[f"f{i}_tag"] = _rect(f.x, f.y, hb + 0.004, TAG_SIZE / 2, {
                "type": "diffuse",
                "reflectance": _bitmap(_upright(self.markers[int(f.tag)]), nearest=True)},
                angle=f.tag_rotation_deg)
            d[f"f{i}_top"] = _disk(f.x, f.y, hb, f.radius, "base_top")
            return
        d[f"f{i}_top"] = _disk(f.x, f.y, hb, f.radius, "base_top")
        rim = "prop_rim" if f.side == "prop" else f"rim_{f.side}"
        d[f"f{i}_rim"] = {"type": "ply", "filename": str(self._ring_path(f.base_mm)),
                          "to_world": T().translate([f.x, f.y, hb + 0.002]),
                          "bsdf": {"type": "ref", "id": rim}}
        if f.mini is not None:
            self._mini(d, i, f, hb)

    def _mini(self, d: dict[str, object], i: int, f: Figure, hb: float) -> None:
        m = f.mini
        assert m is not None
        k = 1.5 if f.base_mm >= 40 else 1.0
        foot = np.array([f.x, f.y, hb])
        plinth = 0.42 * f.radius
        d[f"f{i}_plinth"] = _cyl(foot, foot + [0, 0, 0.07], plinth, "base_top")
        d[f"f{i}_plinth_top"] = _disk(f.x, f.y, hb + 0.07, plinth, "base_top")
        lean, a = math.radians(m.lean_deg), math.radians(m.lean_dir_deg)
        axis = np.array([math.sin(lean) * math.cos(a), math.sin(lean) * math.sin(a),
                         math.cos(lean)])
        tall = m.height_mm * MM
        base = foot + [0, 0, 0.07]
        hip, neck = base + axis * 0.45 * tall, base + axis * 0.84 * tall
        d[f"f{i}_legs"] = _cyl(base, hip, 0.14 * k, f"body{m.body}")
        d[f"f{i}_torso"] = _cyl(hip, neck, 0.21 * k, f"body{(m.body + 3) % len(BODY_SRGB)}")
        d[f"f{i}_shoulders"] = _sphere(neck, 0.21 * k, f"body{(m.body + 3) % len(BODY_SRGB)}")
        d[f"f{i}_head"] = _sphere(base + axis * 0.93 * tall, 0.13 * k, f"head{m.head}")
        b = math.radians(m.arm_deg)
        reach = np.array([math.cos(b), math.sin(b), -0.35])
        d[f"f{i}_arm"] = _cyl(neck, neck + reach * 0.45 * k, 0.06 * k, f"head{m.head}")

    def _block(self, d: dict[str, object], i: int, b: Block) -> None:
        d[f"block{i}"] = {
            "type": "cube",
            "to_world": T().translate([b.cx, b.cy, b.h / 2]).rotate([0, 0, 1], b.angle_deg)
            .scale([b.sx / 2, b.sy / 2, b.h / 2]),
            "bsdf": {"type": "ref", "id": f"stone{b.texture}"}}

    def _hand(self, d: dict[str, object], h: Hand) -> None:
        a = math.radians(h.heading_deg)
        fwd = np.array([math.cos(a), math.sin(a), 0.0])
        left = np.array([-math.sin(a), math.cos(a), 0.0])
        palm = np.array([h.x, h.y, h.z])
        d["hand_palm"] = {"type": "cube", "to_world": T().translate(palm.tolist()).rotate(
            [0, 0, 1], h.heading_deg).rotate([0, 1, 0], -8).scale([1.7, 1.6, 0.45]),
            "bsdf": {"type": "ref", "id": "skin"}}
        for k, off in enumerate((-1.15, -0.38, 0.38, 1.15)):
            root = palm + fwd * 1.5 + left * off
            tip = root + fwd * (2.4 - 0.25 * abs(off)) + np.array([0, 0, -0.5])
            d[f"hand_finger{k}"] = _cyl(root, tip, 0.33, "skin")
            d[f"hand_tip{k}"] = _sphere(tip, 0.33, "skin")
        thumb0 = palm + left * 1.5 - fwd * 0.3
        thumb1 = thumb0 + left * 1.2 + fwd * 1.2 + np.array([0, 0, -0.3])
        d["hand_thumb"] = _cyl(thumb0, thumb1, 0.38, "skin")
        d["hand_thumb_tip"] = _sphere(thumb1, 0.38, "skin")
        wrist = palm - fwd * 1.6
        elbow = wrist - fwd * 14.0 + np.array([0, 0, 5.0])
        d["hand_arm"] = _cyl(wrist, elbow, 1.1, "skin")
        d["hand_wrist"] = _sphere(wrist, 1.1, "skin")
        d["hand_elbow"] = _sphere(elbow, 1.4, "skin")

    def _lights(self, d: dict[str, object], lights: Lights, cam: Camera) -> None:
        rng = np.random.default_rng(lights.seed)
        c = TABLE / 2
        d["ambient"] = {"type": "constant", "radiance": {"type": "rgb", "value": 0.05}}

        def area(name: str, x: float, y: float, z: float, size: float, power: float,
                 tilt: tuple[float, float] = (0.0, 0.0)) -> None:
            d[name] = {"type": "rectangle",
                       "to_world": T().translate([x, y, z]).rotate([1, 0, 0], 180 + tilt[0])
                       .rotate([0, 1, 0], tilt[1]).scale([size / 2, size / 2, 1]),
                       "emitter": {"type": "area", "radiance": {"type": "rgb", "value": power}}}

        def spot(name: str, x: float, y: float, z: float, power: float, cone: float) -> None:
            aim = [c + float(rng.uniform(-5, 5)), c + float(rng.uniform(-5, 5)), 0.0]
            d[name] = {"type": "spot", "intensity": {"type": "rgb", "value": power},
                       "cutoff_angle": cone, "beam_width": cone * 0.6,
                       "to_world": T().look_at(origin=[x, y, z], target=aim, up=[0, 0, 1]
                                               if abs(x - aim[0]) + abs(y - aim[1]) > 1
                                               else [0, 1, 0])}

        high = float(cam.origin[2]) + 12.0
        if lights.preset == "overhead":
            area("light0", c + rng.uniform(-8, 8), c + rng.uniform(-8, 8), high + 10, 30, 3.0)
            d["ambient"] = {"type": "constant", "radiance": {"type": "rgb", "value": 0.12}}
        elif lights.preset == "window":
            side = float(rng.choice([-1.0, 1.0]))
            area("light0", c + side * 45, c + rng.uniform(-10, 10), 45.0, 40, 6.0,
                 (0.0, side * 55.0))
            area("light1", c, c, high + 20, 20, 1.0)
        elif lights.preset == "spots":
            ang = float(rng.uniform(0, 2 * math.pi))
            for k in range(2):
                aa = ang + k * math.pi * float(rng.uniform(0.6, 1.0))
                spot(f"spot{k}", c + 30 * math.cos(aa), c + 30 * math.sin(aa), 60.0,
                     float(rng.uniform(3000, 4500)), 40.0)
            d["ambient"] = {"type": "constant", "radiance": {"type": "rgb", "value": 0.04}}
        else:  # lamp: one spot from high on one side and a small soft panel
            ang = float(rng.uniform(0, 2 * math.pi))
            spot("spot0", c + 22 * math.cos(ang), c + 22 * math.sin(ang), 55.0, 4000.0, 45.0)
            area("light0", c - 20 * math.cos(ang), c - 20 * math.sin(ang), high + 15, 16, 2.0)
