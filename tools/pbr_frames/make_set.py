"""Render the independent, physically based test set of table photos (Mitsuba 3, path traced).

    DRJIT_LIBLLVM_PATH=/usr/lib/x86_64-linux-gnu/libLLVM-19.so \\
        nice -n 10 .venv-render/bin/python tools/pbr_frames/make_set.py --out tests/data/pbr

writes, per frame, ``NAME.jpg`` and ``NAME.json`` (the ground truth) and a ``manifest.json``.
See README.md beside this file. Nothing here reads the project's own synthetic generator.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cv2  # noqa: E402
import drjit as dr  # noqa: E402
import mitsuba as mi  # noqa: E402

mi.set_variant(os.environ.get("PBR_VARIANT", "llvm_ad_rgb"))

import textures as tx  # noqa: E402
from camera import Camera, place_camera  # noqa: E402
from layout import (  # noqa: E402
    CORNER_CENTRES,
    CORNER_IDS,
    MARKER_SIZE,
    MM,
    RIM_MM,
    TAG_SIZE,
    Figure,
    Layout,
    make_layout,
)
from scene import Dressing, Hand, Lights, SceneBuilder  # noqa: E402

GENERATOR_VERSION = 1

# The tables: one layout each, dressed for both modes.
TABLES = {
    "street": dict(seed=11, n_buildings=3, n_walls=1, n_ruins=1, n_survivors=7, n_zombies=24,
                   n_civilians=2, n_props=6, row_edge="far", row_len=6),
    "field": dict(seed=22, n_buildings=1, n_walls=3, n_ruins=2, n_survivors=8, n_zombies=22,
                  n_civilians=3, n_props=6, row_edge="left", row_len=5),
    "dunes": dict(seed=33, n_buildings=2, n_walls=2, n_ruins=1, n_survivors=6, n_zombies=26,
                  n_civilians=2, n_props=5, row_edge="right", row_len=7),
    "night": dict(seed=44, n_buildings=3, n_walls=2, n_ruins=0, n_survivors=7, n_zombies=20,
                  n_civilians=3, n_props=6, row_edge="far", row_len=5),
    "crowd": dict(seed=55, n_buildings=2, n_walls=1, n_ruins=2, n_survivors=8, n_zombies=28,
                  n_civilians=3, n_props=6, row_edge="far", row_len=8),
}
MATS = {"street": "city", "field": "grass", "dunes": "sand", "night": "night", "crowd": "mud"}
DESK = {"street": True, "field": False, "dunes": True, "night": False, "crowd": True}

PHONE, WEBCAM = 70.0, 78.0
K4, HD = (3840, 2160), (1920, 1080)


@dataclass(frozen=True)
class Frame:
    name: str
    table: str
    mode: str
    size: tuple[int, int]
    fov: float
    height_cm: float
    tilt: float
    azimuth: float
    roll: float = 0.0
    lights: str = "overhead"
    hand: str | None = None  # None, "part", or "marker0".."marker3"
    spp: int = 10
    blur: float = 0.0
    noise: float = 1.0
    jpeg: int = 90
    seed: int = 0


FRAMES = [
    # tags mode, 4K (phone unless said)
    Frame("tags_street_a", "street", "tags", K4, PHONE, 124, 12, -90, 2, "overhead", None,
          jpeg=90, seed=1),
    Frame("tags_street_b", "street", "tags", K4, PHONE, 110, 32, -82, -2, "window", "marker1",
          blur=0.6, jpeg=85, seed=2),
    Frame("tags_field_a", "field", "tags", K4, PHONE, 128, 0, -90, 0, "spots", "part",
          jpeg=92, seed=3),
    Frame("tags_field_b", "field", "tags", K4, WEBCAM, 95, 25, -110, 1, "lamp", None,
          blur=0.8, jpeg=82, seed=4),
    Frame("tags_dunes_a", "dunes", "tags", K4, PHONE, 112, 22, 180, 0, "overhead", "part",
          jpeg=88, seed=5),
    Frame("tags_dunes_b", "dunes", "tags", K4, PHONE, 105, 35, -90, 3, "window", None,
          blur=0.5, jpeg=80, seed=6),
    Frame("tags_night_a", "night", "tags", K4, PHONE, 120, 26, -86, -1, "spots", "marker3",
          jpeg=90, seed=7),
    Frame("tags_night_b", "night", "tags", K4, WEBCAM, 92, 35, -68, 0, "lamp", None,
          jpeg=86, seed=8),
    Frame("tags_crowd_a", "crowd", "tags", K4, PHONE, 115, 28, -95, 1, "overhead", "marker2",
          blur=0.7, jpeg=84, seed=9),
    Frame("tags_crowd_b", "crowd", "tags", K4, PHONE, 125, 8, 0, 0, "window", "part",
          jpeg=91, seed=10),
    # colour mode, 1080p (webcam unless said)
    Frame("colour_street_a", "street", "colour", HD, WEBCAM, 100, 20, -90, 0, "overhead",
          None, spp=28, jpeg=88, seed=11),
    Frame("colour_street_b", "street", "colour", HD, PHONE, 128, 30, -98, 2, "lamp", "part",
          spp=28, blur=0.6, jpeg=82, seed=12),
    Frame("colour_field_a", "field", "colour", HD, WEBCAM, 92, 10, -90, -1, "window",
          "marker0", spp=28, jpeg=90, seed=13),
    Frame("colour_field_b", "field", "colour", HD, WEBCAM, 110, 35, -75, 0, "spots", None,
          spp=28, blur=0.8, jpeg=85, seed=14),
    Frame("colour_dunes_a", "dunes", "colour", HD, WEBCAM, 98, 25, 180, 0, "overhead", None,
          spp=28, blur=1.0, jpeg=84, seed=15),
    Frame("colour_dunes_b", "dunes", "colour", HD, PHONE, 135, 15, -90, 3, "window", "part",
          spp=28, jpeg=92, seed=16),
    Frame("colour_night_a", "night", "colour", HD, WEBCAM, 105, 28, -100, 0, "spots", None,
          spp=28, jpeg=86, seed=17),
    Frame("colour_night_b", "night", "colour", HD, WEBCAM, 95, 5, 90, 0, "lamp", "marker1",
          spp=28, jpeg=80, seed=18),
    Frame("colour_crowd_a", "crowd", "colour", HD, WEBCAM, 115, 33, -90, -2, "overhead",
          "part", spp=28, jpeg=88, seed=19),
    Frame("colour_crowd_b", "crowd", "colour", HD, WEBCAM, 125, 35, -45, 0, "window", None,
          spp=28, blur=0.5, jpeg=90, seed=20),
]


def make_hand(frame: Frame, cam: Camera, layout: Layout) -> Hand | None:
    if frame.hand is None:
        return None
    rng = np.random.default_rng(frame.seed + 100)
    if frame.hand.startswith("marker"):
        mid = int(frame.hand[-1])
        mx, my = CORNER_CENTRES[mid]
        z = float(rng.uniform(3.5, 6.0))
        # on the camera's line of sight to the marker, so the palm hides it in the photo
        c = cam.origin
        s = z / c[2]
        x, y = mx + (c[0] - mx) * s, my + (c[1] - my) * s
        heading = math.degrees(math.atan2(my - 15.75, mx - 15.75)) + 180.0
        # the palm's centre is behind the fingers: shift back so the fingers reach the marker
        x -= math.cos(math.radians(heading)) * 1.0
        y -= math.sin(math.radians(heading)) * 1.0
        return Hand(x, y, z, heading, over_marker=mid)
    side = float(rng.uniform(0, 2 * math.pi))
    reach = float(rng.uniform(6, 11))
    x = 15.75 + (15.75 - reach) * math.cos(side)
    y = 15.75 + (15.75 - reach) * math.sin(side)
    heading = math.degrees(side) + 180.0 + float(rng.uniform(-25, 25))
    return Hand(x, y, float(rng.uniform(3.0, 7.0)), heading)


def ray_visible(scene: mi.Scene, origin: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Whether each point (N, 3) is seen from `origin`: nothing in the scene between."""
    if len(pts) == 0:
        return np.zeros(0, bool)
    v = pts - origin
    dist = np.linalg.norm(v, axis=1)
    dirs = v / dist[:, None]
    o = mi.Point3f(*(np.full(len(pts), float(c), np.float32) for c in origin))
    d = mi.Vector3f(*(dirs[:, k].astype(np.float32) for k in range(3)))
    ray = mi.Ray3f(o, d)
    ray.maxt = mi.Float((dist - 0.003).astype(np.float32))
    hit = scene.ray_test(ray)
    return ~np.array(hit, bool)


def square_points(cx: float, cy: float, z: float, size: float, angle_deg: float,
                  n: int = 9) -> np.ndarray:
    g = (np.arange(n) + 0.5) / n - 0.5
    gx, gy = np.meshgrid(g * size, g * size)
    a = math.radians(angle_deg)
    x = cx + gx * math.cos(a) - gy * math.sin(a)
    y = cy + gx * math.sin(a) + gy * math.cos(a)
    return np.stack([x.ravel(), y.ravel(), np.full(x.size, z)], 1)


def rim_points(f: Figure, n: int = 72) -> np.ndarray:
    r = f.radius - RIM_MM * MM / 2
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    z = f.base_height_mm * MM + 0.002
    return np.stack([f.x + r * np.cos(a), f.y + r * np.sin(a), np.full(n, z)], 1)


def seen_fraction(scene: mi.Scene, cam: Camera, pts: np.ndarray) -> float:
    px = cam.project(pts)
    ok = cam.inside(px, 1.0) & ray_visible(scene, cam.origin, pts)
    return float(ok.mean())


def truth(frame: Frame, cam: Camera, scene: mi.Scene, layout: Layout,
          hand: Hand | None) -> dict[str, object]:
    markers = []
    for mid, (cx, cy) in zip(CORNER_IDS, CORNER_CENTRES, strict=True):
        frac = seen_fraction(scene, cam, square_points(cx, cy, 0.008, MARKER_SIZE, 0.0))
        markers.append({"id": mid, "centre": [cx, cy], "visible_fraction": round(frac, 4),
                        "visible": frac == 1.0})
    figures, props = [], []
    for f in layout.figures:
        top = f.base_height_mm * MM
        entry: dict[str, object] = {
            "id": f.tag if (frame.mode == "tags" and f.tag is not None) else f.name,
            "name": f.name, "side": f.side, "base_mm": f.base_mm,
            "base_height_mm": f.base_height_mm,
            "surface_height_mm": round(f.base_height_mm + 0.1, 2),
            "x": round(f.x, 5), "y": round(f.y, 5), "group": f.group,
        }
        u, v = cam.project(np.array([[f.x, f.y, top]]))[0]
        entry["pixel"] = [round(float(u), 2), round(float(v), 2)]
        if f.side == "prop":
            entry["height_mm"] = round(f.mini.height_mm, 1) if f.mini else None
            props.append(entry)
            continue
        if frame.mode == "tags":
            entry["tag"] = f.tag
            entry["tag_rotation_deg"] = round(f.tag_rotation_deg, 2)
            frac = seen_fraction(scene, cam, square_points(f.x, f.y, top + 0.004, TAG_SIZE,
                                                           f.tag_rotation_deg))
            entry["visible_fraction"] = round(frac, 4)
            entry["visible"] = frac == 1.0
        else:
            assert f.mini is not None
            entry["mini_height_mm"] = round(f.mini.height_mm, 1)
            entry["lean_deg"] = round(f.mini.lean_deg, 1)
            frac = seen_fraction(scene, cam, rim_points(f))
            entry["visible_fraction"] = round(frac, 4)
            entry["visible"] = frac >= 0.5
        entry["hidden"] = entry["visible_fraction"] == 0.0
        figures.append(entry)
    return {
        "frame": frame.name + ".jpg", "mode": frame.mode, "table": frame.table,
        "layout_seed": layout.seed,
        "image": {"width": cam.width, "height": cam.height},
        "units": "inches; origin the bottom-left table corner, x right, y toward the far edge",
        "table_size_in": [31.4961, 31.4961],
        "visibility": ("tags: visible = every point of a 9x9 grid over the tag's black square "
                       "is in the frame and nothing lies between it and the camera (rays cast "
                       "in the rendered scene); colour: visible = at least half of 72 points "
                       "along the painted rim band are; hidden = none are"),
        "camera": cam.to_json(),
        "markers": markers, "figures": figures, "props": props,
        "terrain": [{"kind": b.kind, "centre": [round(b.cx, 3), round(b.cy, 3)],
                     "size": [round(b.sx, 3), round(b.sy, 3)], "height": round(b.h, 3),
                     "angle_deg": round(b.angle_deg, 2)} for b in layout.blocks],
        "hand": None if hand is None else {
            "palm": [round(hand.x, 2), round(hand.y, 2), round(hand.z, 2)],
            "heading_deg": round(hand.heading_deg, 1), "over_marker": hand.over_marker},
        "lights": frame.lights, "mat": MATS[frame.table], "desk": DESK[frame.table],
    }


def render(scene: mi.Scene, spp: int, pixels: int, seed: int) -> np.ndarray:
    per_pass = max(1, min(spp, 12_000_000 // pixels))
    acc, done, k = None, 0, 0
    while done < spp:
        n = min(per_pass, spp - done)
        img = np.array(mi.render(scene, spp=n, seed=seed * 1000 + k), np.float64)
        acc = img * n if acc is None else acc + img * n
        done += n
        k += 1
        dr.flush_malloc_cache()
    assert acc is not None
    return acc / spp


def develop(linear: np.ndarray, frame: Frame, cam: Camera) -> np.ndarray:
    """Exposure from the table's bright pixels, lens blur, sensor noise, sRGB, 8 bits (BGR)."""
    rng = np.random.default_rng(frame.seed + 7)
    lum = linear @ np.array([0.2126, 0.7152, 0.0722])
    corners = cam.project(np.array([[0, 0, 0], [31.5, 0, 0], [31.5, 31.5, 0], [0, 31.5, 0]]))
    mask = np.zeros(lum.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1)
    ref = np.percentile(lum[mask > 0], 99.0)
    img = linear * (0.88 / max(ref, 1e-6))
    # the lens and the phone's processing soften every photo a little; some frames more
    img = cv2.GaussianBlur(img, (0, 0), max(frame.blur, 0.45))
    shot, read = 0.0004 * frame.noise, 0.002 * frame.noise
    sigma = np.sqrt(np.clip(img, 0, None) * shot + read ** 2)
    img = img + rng.normal(0.0, 1.0, img.shape) * sigma
    out = np.round(tx.linear_to_srgb(img) * 255.0).astype(np.uint8)
    return np.ascontiguousarray(out[..., ::-1])


def marker_check(bgr: np.ndarray, cam: Camera) -> dict[str, object]:
    """Where OpenCV finds the corner markers in the photo against where the camera model puts
    them: the ground truth is only worth something if these agree."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                  params)
    corners, ids, _ = det.detectMarkers(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY))
    out: dict[str, object] = {"found": [], "centre_error_px": {}}
    if ids is None:
        return out
    for c, i in zip(corners, ids.ravel(), strict=True):
        i = int(i)
        if i not in CORNER_IDS:
            continue
        cx, cy = CORNER_CENTRES[i]
        h = MARKER_SIZE / 2
        true = cam.project(np.array([[cx - h, cy + h, 0.008], [cx + h, cy + h, 0.008],
                                     [cx + h, cy - h, 0.008], [cx - h, cy - h, 0.008]]))
        p = c.reshape(4, 2)
        # diagonals' crossing: the projected centre, exact under perspective
        a1, a2, b1, b2 = p[0], p[2], p[1], p[3]
        m = np.array([a2 - a1, b1 - b2]).T
        s = np.linalg.solve(m, b1 - a1)[0]
        centre = a1 + s * (a2 - a1)
        want = cam.project(np.array([[cx, cy, 0.008]]))[0]
        out["found"].append(i)  # type: ignore[union-attr]
        out["centre_error_px"][str(i)] = [round(float(v), 3) for v in centre - want]  # type: ignore[index]
        out.setdefault("corner_error_px", {})[str(i)] = round(  # type: ignore[union-attr]
            float(np.linalg.norm(p - true, axis=1).mean()), 3)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path("tests/data/pbr"))
    ap.add_argument("--work", type=Path, default=Path("/tmp/pbr/work"))
    ap.add_argument("--only", nargs="*", help="frame names (default: all)")
    ap.add_argument("--scale", type=float, default=1.0, help="resolution factor (previews)")
    ap.add_argument("--spp", type=int, default=0, help="samples per pixel for every frame")
    ap.add_argument("--variant", type=int, default=0,
                    help="another set of the same kind: every table, camera shift, hand, "
                         "light and noise seed moved by 1000 x N (0: the committed set); "
                         "a set to tune on, so the committed one stays unseen")
    args = ap.parse_args()
    if args.variant:
        shift = 1000 * args.variant
        for kw in TABLES.values():
            kw["seed"] = int(kw["seed"]) + shift  # type: ignore[call-overload]
        FRAMES[:] = [replace(f, seed=f.seed + shift) for f in FRAMES]
    args.out.mkdir(parents=True, exist_ok=True)
    frames = [f for f in FRAMES if not args.only or f.name in args.only]
    layouts = {name: make_layout(**kw) for name, kw in TABLES.items()}  # type: ignore[arg-type]
    builders: dict[str, SceneBuilder] = {}
    if args.variant:
        args.work = args.work / f"variant{args.variant}"
    manifest_path = args.out / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    entries = {e["frame"]: e for e in manifest.get("frames", [])}
    for frame in frames:
        if args.spp:
            frame = replace(frame, spp=args.spp)
        size = (int(frame.size[0] * args.scale), int(frame.size[1] * args.scale))
        t0 = time.time()
        layout = layouts[frame.table]
        builder = builders.setdefault(frame.table, SceneBuilder(
            layout, args.work / frame.table, layout.seed))
        cam = place_camera(size[0], size[1], frame.fov, frame.height_cm, frame.tilt,
                           frame.azimuth, frame.roll,
                           shift=tuple(np.random.default_rng(frame.seed).uniform(-1, 1, 2)))
        hand = make_hand(frame, cam, layout)
        dress = Dressing(frame.mode, MATS[frame.table], DESK[frame.table],
                         Lights(frame.lights, frame.seed), hand)
        scene = mi.load_dict(builder.build(cam, dress))
        cache = args.work / f"{frame.name}_{size[0]}x{size[1]}_{frame.spp}spp.npy"
        if cache.exists():  # a re-run only develops the photo again (noise, JPEG)
            linear = np.load(cache).astype(np.float64)
            t_render = float(entries.get(frame.name + ".jpg", {}).get("render_seconds", 0.0))
        else:
            linear = render(scene, frame.spp, size[0] * size[1], frame.seed)
            t_render = time.time() - t0
            np.save(cache, linear)  # float64: a re-run develops exactly the same photo
        bgr = develop(linear, frame, cam)
        jpg = args.out / f"{frame.name}.jpg"
        ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, frame.jpeg])
        assert ok
        jpg.write_bytes(buf.tobytes())
        gt = truth(frame, cam, scene, layout, hand)
        check = marker_check(bgr, cam)
        gt["render"] = {"renderer": f"mitsuba {mi.__version__} ({mi.variant()})",
                        "integrator": "path, max_depth 3", "spp": frame.spp,
                        "seconds": round(t_render, 1), "lens_blur_px": frame.blur,
                        "noise": frame.noise, "jpeg_quality": frame.jpeg,
                        "generator_version": GENERATOR_VERSION,
                        "marker_check": check}
        (args.out / f"{frame.name}.json").write_text(json.dumps(gt, indent=1) + "\n")
        figs = gt["figures"]
        assert isinstance(figs, list)
        entries[frame.name + ".jpg"] = {
            "frame": frame.name + ".jpg", "truth": frame.name + ".json", "mode": frame.mode,
            "table": frame.table, "width": size[0], "height": size[1],
            "sha256": hashlib.sha256(buf.tobytes()).hexdigest(), "bytes": len(buf),
            "figures": len(figs), "visible": sum(1 for f in figs if f["visible"]),
            "render_seconds": round(t_render, 1)}
        errs = check.get("centre_error_px", {})
        assert isinstance(errs, dict)
        print(f"{frame.name}: {size[0]}x{size[1]} {frame.spp} spp {t_render:.0f} s, "
              f"{entries[frame.name + '.jpg']['visible']}/{len(figs)} visible, markers "
              f"{check['found']} centre error px {errs} corner {check.get('corner_error_px')}",
              flush=True)
        manifest = {"generator": "tools/pbr_frames/make_set.py",
                    "generator_version": GENERATOR_VERSION,
                    "renderer": f"mitsuba {mi.__version__}",
                    "frames": sorted(entries.values(), key=lambda e: e["frame"])}
        manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
