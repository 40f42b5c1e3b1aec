"""`survive-us vision`: the camera pipeline (DESIGN.md, docs/vision.md).

- `vision locate IMAGE [--mode tags|colour] [--calibration FILE] [--json]`: figure positions.
- `vision calibrate IMAGE --out FILE`: save the table calibration of a fixed camera.
- `vision lens FRAME... --out FILE`: lens intrinsics from ChArUco board views.
- `vision watch --camera N|FILE|FOLDER --game ID [--server URL]`: follow and post positions.

Exit status: 0 done, 1 the table was not found in the image, 2 bad input (the error JSON
names the file).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from geometry.errors import SurviveUsError
from service.jsonio import print_error, print_json

if TYPE_CHECKING:
    from vision.calibfile import CalibrationFile

# OpenCV loads in a few hundred ms: the vision modules are imported by the subcommands that
# use them, so the other commands start as fast as before.
MODES = ("tags", "colour")


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "vision", help="camera pipeline: locate figures, calibrate, watch a camera")
    vsub = p.add_subparsers(dest="vision_command", required=True, metavar="SUBCOMMAND")

    loc = vsub.add_parser("locate", help="figure positions in one image, in table inches")
    loc.add_argument("image", metavar="IMAGE", help="PNG, JPEG or BMP frame of the table")
    loc.add_argument("--mode", choices=MODES, default="tags")
    loc.add_argument("--calibration", metavar="FILE",
                     help="calibration file (layout, lens, saved table of a fixed camera)")
    loc.add_argument("--px-per-in", type=float, metavar="PX",
                     help="resolution of the rectified table (default: the frame's own)")
    loc.add_argument("--draw", metavar="OUT.png",
                     help="also write the frame with the table and each figure drawn on it")
    loc.add_argument("--json", action="store_true")
    loc.set_defaults(func=run_locate)

    cal = vsub.add_parser("calibrate", help="save the table calibration of a fixed camera")
    cal.add_argument("image", metavar="IMAGE")
    cal.add_argument("--out", required=True, metavar="FILE",
                     help="calibration file to write (its layout and lens are kept)")
    cal.add_argument("--calibration", metavar="FILE", help="start from this file")
    cal.add_argument("--json", action="store_true")
    cal.set_defaults(func=run_calibrate)

    lens = vsub.add_parser("lens", help="lens calibration from ChArUco board views")
    lens.add_argument("frames", nargs="+", metavar="FRAME")
    lens.add_argument("--out", required=True, metavar="FILE")
    lens.add_argument("--calibration", metavar="FILE", help="start from this file")
    lens.add_argument("--json", action="store_true")
    lens.set_defaults(func=run_lens)

    w = vsub.add_parser("watch", help="follow a camera or recording, post positions")
    w.add_argument("--camera", required=True, metavar="N|FILE|FOLDER",
                   help="camera index, video file, or folder of images")
    w.add_argument("--game", required=True, metavar="ID")
    w.add_argument("--server", default="http://127.0.0.1:8000")
    w.add_argument("--token", default=os.environ.get("SURVIVE_US_TOKEN"), metavar="TOKEN",
                   help="the game's token (default: $SURVIVE_US_TOKEN); the service needs it")
    w.add_argument("--mode", choices=MODES, default="tags")
    w.add_argument("--calibration", metavar="FILE")
    w.add_argument("--every", type=float, default=0.0, metavar="SECONDS",
                   help="pause between frames (live camera)")
    w.add_argument("--max-frames", type=int, metavar="N")
    w.add_argument("--json", action="store_true")
    w.set_defaults(func=run_watch)


def _settings(path: str | None) -> CalibrationFile:
    from vision.calibfile import CalibrationFile, load_calibration

    return load_calibration(path) if path else CalibrationFile()


def run_locate(args: argparse.Namespace) -> int:
    from vision.imageio import read_image, write_image
    from vision.locate import locate
    from vision.overlay import draw_located

    try:
        settings = _settings(args.calibration)
        image = read_image(args.image, grey=args.mode == "tags" and not args.draw)
        result = locate(image, args.mode, settings, args.px_per_in)
        if args.draw and result.calibration is not None:
            write_image(args.draw, draw_located(image, result.calibration, result.figures))
    except SurviveUsError as error:
        return print_error(error)
    answer = {"image": {"file": args.image, **result.answer.pop("image")}, **result.answer}
    if args.json:
        print_json(answer)
    else:
        table = answer["table"]
        if not table["found"]:
            print(f"table not found: {table['reason']}")
        else:
            print(f"table: markers {table['markers']} ({table['source']}), "
                  f"reprojection {table['reprojection_px']} px / {table['reprojection_in']} in")
            for f in answer["figures"]:
                who = f"tag {f['tag']}" if "tag" in f else f.get("side", "?")
                print(f"  {who}: x {f['x']:.2f} in, y {f['y']:.2f} in "
                      f"(+/- {f.get('uncertainty', 0):.3f})")
            for r in answer.get("rejected", []):
                print(f"  rejected tag {r['tag']}: {r['reason']}")
    return 0 if result.found else 1


def run_calibrate(args: argparse.Namespace) -> int:
    from vision.calibration import calibrate
    from vision.imageio import read_image
    from vision.locate import table_json

    try:
        settings = _settings(args.calibration)
        image = read_image(args.image)
        cal = calibrate(image, settings.layout, settings.intrinsics)
        settings.with_table(cal).save(args.out)
    except SurviveUsError as error:
        return print_error(error)
    answer = {"out": args.out, "table": table_json(cal)}
    if args.json:
        print_json(answer)
    else:
        print(f"wrote {args.out}: markers {list(cal.markers)}, reprojection "
              f"{cal.reprojection_px:.2f} px / {cal.reprojection_in:.4f} in")
    return 0


def run_lens(args: argparse.Namespace) -> int:
    from vision.imageio import read_image
    from vision.lens import calibrate_lens

    try:
        settings = _settings(args.calibration)
        intr = calibrate_lens(read_image(f) for f in args.frames)
        settings.with_intrinsics(intr).save(args.out)
    except SurviveUsError as error:
        return print_error(error)
    answer = {"out": args.out, "intrinsics": intr.to_json()}
    if args.json:
        print_json(answer)
    else:
        print(f"wrote {args.out}: focal {intr.camera_matrix[0, 0]:.1f} px, RMS "
              f"{intr.rms_px:.3f} px over {len(args.frames)} frames")
    return 0


def run_watch(args: argparse.Namespace) -> int:
    from vision.errors import VisionError
    from vision.watch import HttpPoster, watch

    poster = HttpPoster(args.server, args.game, token=args.token)
    source = args.camera
    if not source.isdigit() and not Path(source).exists():
        return print_error(VisionError(f"{source}: no such camera, file or folder", source))

    def log(message: str) -> None:
        print(f"survive-us vision watch: {message}", file=sys.stderr)

    try:
        stats = watch(source, poster, _settings(args.calibration), args.mode,
                      args.max_frames, args.every, log=log)
    except SurviveUsError as error:
        return print_error(error)
    except KeyboardInterrupt:
        return 130
    answer = {"frames": stats.frames, "located": stats.located, "posted": stats.posted,
              "skipped": stats.skipped, "url": poster.url}
    if args.json:
        print_json(answer)
    else:
        print(f"{stats.frames} frames, table located in {stats.located}, {stats.posted} "
              f"changes posted to {poster.url}")
    return 0
