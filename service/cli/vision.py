"""`survive-us vision`: the camera pipeline (DESIGN.md, docs/vision.md).

- `vision locate IMAGE [--mode tags|colour] [--calibration FILE] [--base-height-mm MM]
  [--base-mm SIZE,...] [--json]`: figure positions.
- `vision calibrate IMAGE --out FILE`: save the table calibration of a fixed camera.
- `vision lens FRAME... --out FILE`: lens intrinsics from ChArUco board views.
- `vision watch --camera N|FILE|FOLDER --game ID [--server URL]`: follow and post positions.

Exit status: 0 done, 1 the table was not found in the image, 2 bad input (the error JSON
names the file).

Everything printed is in the command's language (`survive-us --lang fr|en`); with `--json`
each text field ``K`` has its message beside it as ``K_words`` (code and parameters).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.numbers import format_decimal

from geometry.errors import SurviveUsError
from i18n import Message, render
from service.cli.helptext import HelpText
from service.jsonio import language, print_error, print_json

if TYPE_CHECKING:
    from vision.calibfile import CalibrationFile
    from vision.hints import FigureHints

# OpenCV loads in a few hundred ms: the vision modules are imported by the subcommands that
# use them, so the other commands start as fast as before.
MODES = ("tags", "colour")
#: What the options accept: the rectified table's scale (a 4K frame of the whole table has
#: 40-70 px/in; beyond 150 the image is only upsampled, and large), a base's height and sizes.
PX_PER_IN_RANGE = (10, 150)
BASE_HEIGHT_MM_RANGE = (0, 25)
BASE_MM_RANGE = (10, 150)
SIDES = ("survivors", "zombies", "civilians")


def register(sub: Any, t: HelpText) -> None:
    p: argparse.ArgumentParser = sub.add_parser("vision", help=t("help.vision"))
    vsub = p.add_subparsers(dest="vision_command", required=True, metavar="SUBCOMMAND")

    loc = vsub.add_parser("locate", help=t("help.vision.locate"))
    loc.add_argument("image", metavar="IMAGE", help=t("help.vision.locate.image"))
    loc.add_argument("--mode", type=_mode, choices=MODES, default="tags",
                     help=t("help.vision.mode"))
    loc.add_argument("--calibration", metavar="FILE", help=t("help.vision.calibration"))
    loc.add_argument("--px-per-in", metavar="PX", help=t("help.vision.locate.px_per_in"))
    loc.add_argument("--base-height-mm", metavar="MM",
                     help=t("help.vision.locate.base_height_mm"))
    loc.add_argument("--base-mm", metavar="SIZE[,SIZE...]", help=t("help.vision.locate.base_mm"))
    loc.add_argument("--draw", metavar="OUT.png", help=t("help.vision.locate.draw"))
    loc.add_argument("--json", action="store_true", help=t("help.json"))
    loc.set_defaults(func=run_locate)

    cal = vsub.add_parser("calibrate", help=t("help.vision.calibrate"))
    cal.add_argument("image", metavar="IMAGE", help=t("help.vision.locate.image"))
    cal.add_argument("--out", required=True, metavar="FILE",
                     help=t("help.vision.calibrate.out"))
    cal.add_argument("--calibration", metavar="FILE", help=t("help.vision.start_from"))
    cal.add_argument("--json", action="store_true", help=t("help.json"))
    cal.set_defaults(func=run_calibrate)

    lens = vsub.add_parser("lens", help=t("help.vision.lens"))
    lens.add_argument("frames", nargs="+", metavar="FRAME", help=t("help.vision.lens.frames"))
    lens.add_argument("--out", required=True, metavar="FILE", help=t("help.vision.lens.out"))
    lens.add_argument("--calibration", metavar="FILE", help=t("help.vision.start_from"))
    lens.add_argument("--json", action="store_true", help=t("help.json"))
    lens.set_defaults(func=run_lens)

    w = vsub.add_parser("watch", help=t("help.vision.watch"))
    w.add_argument("--camera", required=True, metavar="N|FILE|FOLDER",
                   help=t("help.vision.watch.camera"))
    w.add_argument("--game", required=True, metavar="ID", help=t("help.vision.watch.game"))
    w.add_argument("--server", default="http://127.0.0.1:8000", metavar="URL",
                   help=t("help.vision.watch.server"))
    w.add_argument("--token", default=os.environ.get("SURVIVE_US_TOKEN"), metavar="TOKEN",
                   help=t("help.vision.watch.token"))
    w.add_argument("--mode", type=_mode, choices=MODES, default="tags",
                   help=t("help.vision.mode"))
    w.add_argument("--calibration", metavar="FILE", help=t("help.vision.calibration"))
    w.add_argument("--every", type=float, default=0.0, metavar="SECONDS",
                   help=t("help.vision.watch.every"))
    w.add_argument("--max-frames", type=int, metavar="N", help=t("help.vision.watch.max_frames"))
    w.add_argument("--json", action="store_true", help=t("help.json"))
    w.set_defaults(func=run_watch)


def _say(message: Message) -> str:
    return render(message, language())


def _inches(value: float, places: int = 2) -> str:
    """Inches with `places` decimals and the unit, the command's language's way (a position
    read off a photo is worth more than the one decimal of game distances)."""
    number = format_decimal(value, format="#,##0." + "0" * places, locale=language())
    return _say(Message("unit.inches", {"n": str(number)}))


def _decimal(value: float, places: int = 2) -> str:
    return str(format_decimal(value, format="#,##0." + "0" * places, locale=language()))


def _mode(word: str) -> str:
    """The mode as typed: American "color" is the same mode as "colour"."""
    return "colour" if word == "color" else word


def _table_line(table: dict[str, Any], corner_ids: Sequence[int]) -> str:
    """How the table was located, for a person: the corners named as the failures name them
    (bottom-left...), not by the markers' ids."""
    from vision.words import corners

    markers = corners(corner_ids, [m for m in table["markers"] if m in corner_ids])
    error = {"px": table["reprojection_px"], "mm": table["reprojection_in"] * 25.4}
    if table.get("source") == "saved":
        if not markers:
            return _say(Message("camera.cli.table_saved_blind"))
        return _say(Message("camera.cli.table_saved", {"markers": markers, **error}))
    return _say(Message("camera.cli.table", {"markers": markers, **error}))


def _settings(path: str | None) -> CalibrationFile:
    from vision.calibfile import CalibrationFile, load_calibration

    return load_calibration(path) if path else CalibrationFile()


class _EverySide(Mapping[str, tuple[float, ...]]):
    """The same base sizes for every side, a colour file's own sides included."""

    def __init__(self, sizes: tuple[float, ...]) -> None:
        self.sizes = sizes

    def __getitem__(self, side: str) -> tuple[float, ...]:
        return self.sizes

    def __iter__(self) -> Iterator[str]:
        return iter(SIDES)

    def __len__(self) -> int:
        return len(SIDES)


def _number(text: str | None, bounds: tuple[int, int]) -> float | None:
    """`text` as a finite number within `bounds`, None if absent; ValueError otherwise."""
    if text is None:
        return None
    value = float(text.strip())  # ValueError for words; "nan" and "inf" are refused below
    if not (bounds[0] <= value <= bounds[1]):
        raise ValueError(text)
    return value


def _size(text: str) -> float:
    value = _number(text, BASE_MM_RANGE)
    if value is None:
        raise ValueError(text)
    return value


def _option_error(code: str, option: str, value: str, bounds: tuple[int, int]) -> Exception:
    from vision.errors import VisionError

    return VisionError(Message(code, {"value": value, "lo": bounds[0], "hi": bounds[1]}),
                       option)


def _locate_options(args: argparse.Namespace) -> tuple[float | None, FigureHints]:
    """The scale and the hints `vision locate` was given, checked: each bad value is refused
    with the option named (exit 2), never a traceback."""
    from vision.hints import FigureHints

    try:
        ppi = _number(args.px_per_in, PX_PER_IN_RANGE)
    except ValueError:
        raise _option_error("camera.cli.bad_px_per_in", "--px-per-in", args.px_per_in,
                            PX_PER_IN_RANGE) from None
    try:
        height = _number(args.base_height_mm, BASE_HEIGHT_MM_RANGE)
    except ValueError:
        raise _option_error("camera.cli.bad_base_height", "--base-height-mm",
                            args.base_height_mm, BASE_HEIGHT_MM_RANGE) from None
    sizes: tuple[float, ...] = ()
    if args.base_mm is not None:
        try:
            sizes = tuple(_size(part) for part in args.base_mm.split(","))
        except ValueError:
            raise _option_error("camera.cli.bad_base_mm", "--base-mm", args.base_mm,
                                BASE_MM_RANGE) from None
    hints = FigureHints(base_mm=_EverySide(sizes) if sizes else {},
                        default_height_mm=height if height is not None else
                        FigureHints().default_height_mm, height_known=height is not None)
    return ppi, hints


def run_locate(args: argparse.Namespace) -> int:
    from vision.imageio import read_image, write_image
    from vision.locate import locate
    from vision.overlay import draw_located
    from vision.words import say, side

    try:
        ppi, hints = _locate_options(args)
        settings = _settings(args.calibration)
        image = read_image(args.image, grey=args.mode == "tags" and not args.draw)
        result = locate(image, args.mode, settings, ppi, hints=hints)
        if args.draw and result.calibration is not None:
            write_image(args.draw, draw_located(image, result.calibration, result.figures))
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    answer = say({"image": {"file": args.image, **result.answer.pop("image")},
                  **result.answer}, language())
    if args.json:
        print_json(answer)
    else:
        table = answer["table"]
        if not table["found"]:
            print(_say(Message("camera.cli.no_table", {
                "reason": table.get("reason_words") or table["reason"]})))
        else:
            print(_table_line(table, settings.layout.corner_ids))
            for f in answer["figures"]:
                where = {"x": _inches(f["x"]), "y": _inches(f["y"]),
                         "u": _inches(f.get("uncertainty", 0.0))}
                if "tag" in f:
                    line = Message("camera.cli.tag_at", {"tag": str(f["tag"]), **where})
                elif "base_mm" in f:  # colour mode says the size it found
                    line = Message("camera.cli.base_sized", {
                        "side": side(str(f.get("side", ""))), "mm": f"{f['base_mm']:g}", **where})
                else:
                    line = Message("camera.cli.base_at", {"side": side(str(f.get("side", ""))),
                                                          **where})
                print("  " + _say(line))
            for r in answer.get("rejected", []):
                reason = r.get("reason_words") or r["reason"]
                print("  " + _say(Message("camera.cli.rejected", {
                    "tag": str(r["tag"]), "reason": reason}) if "tag" in r else Message(
                    "camera.cli.rejected_mark", {"side": side(str(r.get("side", ""))),
                                                 "x": _inches(r["x"]), "y": _inches(r["y"]),
                                                 "reason": reason})))
            # a count, or a word on why nothing was seen (most often: the other mode's photo)
            print(_say(Message("camera.cli.count", {"n": len(answer["figures"])}))
                  if answer["figures"] else _say(Message(f"camera.cli.none_{args.mode}")))
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
        return print_error(error, as_json=args.json)
    answer = {"out": args.out, "table": table_json(cal)}
    if args.json:
        print_json(answer)
    else:
        print(_say(Message("camera.cli.calibrated", {
            "file": args.out, "markers": [str(m) for m in cal.markers],
            "px": cal.reprojection_px, "mm": cal.reprojection_in * 25.4})))
    return 0


def run_lens(args: argparse.Namespace) -> int:
    from vision.imageio import read_image
    from vision.lens import calibrate_lens

    try:
        settings = _settings(args.calibration)
        intr = calibrate_lens(read_image(f) for f in args.frames)
        settings.with_intrinsics(intr).save(args.out)
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    answer = {"out": args.out, "intrinsics": intr.to_json()}
    if args.json:
        print_json(answer)
    else:
        print(_say(Message("camera.cli.lens", {
            "file": args.out, "focal": float(intr.camera_matrix[0, 0]),
            "rms": _decimal(intr.rms_px or 0.0), "n": len(args.frames)})))
    return 0


def run_watch(args: argparse.Namespace) -> int:
    from vision.errors import VisionError
    from vision.watch import HttpPoster, watch

    poster = HttpPoster(args.server, args.game, token=args.token, lang=language())
    source = args.camera
    if not source.isdigit() and not Path(source).exists():
        return print_error(VisionError(Message("camera.watch.no_source", {"source": source}),
                                       source), as_json=args.json)

    def log(message: Message) -> None:
        print(f"survive-us vision watch: {_say(message)}", file=sys.stderr)

    try:
        stats = watch(source, poster, _settings(args.calibration), args.mode,
                      args.max_frames, args.every, log=log)
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    except KeyboardInterrupt:
        return 130
    answer = {"frames": stats.frames, "located": stats.located, "posted": stats.posted,
              "skipped": [_say(m) for m in stats.skipped],
              "skipped_words": [m.to_json() for m in stats.skipped], "url": poster.url}
    if args.json:
        print_json(answer)
    else:
        print(_say(Message("camera.cli.watched", {
            "frames": stats.frames, "located": stats.located, "posted": stats.posted,
            "url": poster.url})))
    return 0
