"""`survive-us markers`: printable true-size corner markers and figure tag stickers (PDF),
their words in the command's language (`survive-us --lang fr|en`)."""

from __future__ import annotations

import argparse
import math
from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message, render
from service.cli.helptext import HelpText
from service.jsonio import language, print_error, print_json
from vision.layout import DEFAULT_LAYOUT, Layout

PAPERS = ("A4", "Letter")  # vision.sheets (fpdf, OpenCV) is imported only when run
#: A table side the sheet can serve (inches): room for two corner markers with their white
#: paper on one edge (2 x 2.95 in, geometry.corners), and no larger than an arbitration takes.
TABLE_SIDE_RANGE = (6, 96)


def _side(option: str, text: str | None) -> float | None:
    """The table side given with `option`, checked (a refusal names the option)."""
    from vision.errors import VisionError

    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    lo, hi = TABLE_SIDE_RANGE
    if not lo <= value <= hi:  # NaN too
        raise VisionError(Message("camera.cli.bad_table_side", {
            "option": option, "value": text, "lo": lo, "hi": hi}), option)
    return value


def register(sub: Any, t: HelpText) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "markers", help=t("help.markers"), description=t("help.markers.description"))
    p.add_argument("--out", required=True, metavar="FILE", help=t("help.markers.out"))
    p.add_argument("--table-width", metavar="IN", help=t("help.markers.table_width"))
    p.add_argument("--table-depth", metavar="IN", help=t("help.markers.table_depth"))
    p.add_argument("--paper", choices=PAPERS, default="A4", help=t("help.markers.paper"))
    p.add_argument("--charuco", action="store_true", help=t("help.markers.charuco"))
    p.add_argument("--calibration", metavar="FILE", help=t("help.markers.calibration"))
    p.add_argument("--json", action="store_true", help=t("help.json"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.calibfile import load_calibration
    from vision.sheets import SheetOptions, write_marker_sheets

    try:
        layout = load_calibration(args.calibration).layout if args.calibration \
            else DEFAULT_LAYOUT
        sizes: dict[str, Any] = {}
        width = _side("--table-width", args.table_width)
        depth = _side("--table-depth", args.table_depth)
        if width is not None:
            sizes["table_width"] = width
        if depth is not None:
            sizes["table_depth"] = depth
        if sizes:
            overrides = {k: v for k, v in layout.to_json().items() if k != "corner_centres"}
            layout = Layout.from_json({**overrides, **sizes}, "options")
        pages = write_marker_sheets(args.out, layout,
                                    SheetOptions(paper=args.paper, charuco=args.charuco,
                                                 lang=language()))
    except SurviveUsError as error:
        return print_error(error, as_json=args.json)
    answer = {"out": args.out, "pages": pages, "paper": args.paper,
              "table": [layout.table_width, layout.table_depth],
              "corner_markers": list(layout.corner_ids),
              "tags": [layout.tag_first, layout.tag_last]}
    if args.json:
        print_json(answer)
    else:
        print(render(Message("camera.cli.markers", {
            "file": args.out, "pages": pages, "paper": args.paper}), language()))
    return 0
