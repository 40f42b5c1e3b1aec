"""Printable true-size marker sheets (PDF): corner markers, figure tag stickers, and
optionally the ChArUco board for the lens calibration.

Markers are drawn as vector squares (one per marker cell), so they print sharp at exactly
their size on any printer; each page carries a 1 in / 25.4 mm check bar to measure after
printing ("actual size", no "fit to page").
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from fpdf import FPDF

from geometry.units import MM_PER_INCH
from vision.cv import cv2
from vision.errors import VisionError
from vision.layout import DEFAULT_LAYOUT, Layout
from vision.lens import DEFAULT_BOARD, BoardSpec, board_image
from vision.markers import aruco_dictionary

__all__ = ["PAPERS", "SheetOptions", "marker_sheets", "write_marker_sheets"]

#: Paper sizes in inches (portrait).
PAPERS: dict[str, tuple[float, float]] = {"A4": (210 / MM_PER_INCH, 297 / MM_PER_INCH),
                                          "Letter": (8.5, 11.0)}
MARGIN_IN = 0.5
PAPER_MARGIN_IN = 0.45  # white around a corner marker: its cut line


@dataclass(frozen=True)
class SheetOptions:
    paper: str = "A4"
    charuco: bool = False
    board: BoardSpec = DEFAULT_BOARD


def _bits(layout: Layout, marker_id: int) -> np.ndarray:
    """The marker's cells, border included, True for black (one pixel per cell)."""
    cells = 6 if layout.dictionary.startswith("DICT_4X4") else (
        7 if layout.dictionary.startswith("DICT_5X5") else 8)
    img = cv2.aruco.generateImageMarker(aruco_dictionary(layout), marker_id, cells)
    return np.asarray(img) < 128


def _draw_marker(pdf: FPDF, layout: Layout, marker_id: int, x: float, y: float,
                 size: float) -> None:
    """Marker `marker_id` with its top-left corner at (x, y) inches from the page's top-left,
    `size` inches wide (the black square, border included)."""
    bits = _bits(layout, marker_id)
    n = bits.shape[0]
    cell = size / n
    pdf.set_fill_color(0, 0, 0)
    pdf.rect(x, y, size, size, style="F")
    pdf.set_fill_color(255, 255, 255)
    for row in range(n):
        col = 0
        while col < n:
            if bits[row, col]:
                col += 1
                continue
            start = col
            while col < n and not bits[row, col]:
                col += 1
            pdf.rect(x + start * cell, y + row * cell, (col - start) * cell, cell, style="F")
    pdf.set_fill_color(0, 0, 0)


def _check_bar(pdf: FPDF, x: float, y: float) -> None:
    pdf.set_fill_color(0, 0, 0)
    pdf.rect(x, y, 1.0, 0.06, style="F")
    for tick in (0.0, 1.0):
        pdf.rect(x + tick - 0.005, y - 0.08, 0.01, 0.22, style="F")
    pdf.set_font("Helvetica", size=8)
    pdf.text(x + 1.1, y + 0.06, "this bar must measure 1 in (25.4 mm): print at actual size, "
                                "no fit-to-page")


def _corner_page(pdf: FPDF, layout: Layout, paper: tuple[float, float]) -> None:
    pdf.add_page()
    pdf.set_font("Helvetica", style="B", size=12)
    pdf.text(MARGIN_IN, MARGIN_IN, f"Survive Us corner markers ({layout.dictionary}), table "
             f"{layout.table_width:.2f} x {layout.table_depth:.2f} in")
    _check_bar(pdf, MARGIN_IN, MARGIN_IN + 0.25)
    names = ("bottom-left", "bottom-right", "top-right", "top-left")
    box = layout.corner_size + 2 * PAPER_MARGIN_IN
    col_w = (paper[0] - 2 * MARGIN_IN) / 2
    row_h = (paper[1] - 2 * MARGIN_IN - 0.7) / 2
    # top row of the page: the far corners (3, 2); bottom row: the near ones (0, 1)
    order = (3, 2, 0, 1)
    for slot, n in enumerate(order):
        mid = layout.corner_ids[n]
        cx, cy = layout.corner_centres[n]
        left = MARGIN_IN + (slot % 2) * col_w + (col_w - box) / 2
        top = MARGIN_IN + 0.7 + (slot // 2) * row_h + 0.1
        pdf.set_draw_color(150, 150, 150)
        pdf.set_line_width(0.01)
        pdf.set_dash_pattern(dash=0.08, gap=0.06)
        pdf.rect(left, top, box, box, style="D")
        pdf.set_dash_pattern()
        _draw_marker(pdf, layout, mid, left + PAPER_MARGIN_IN, top + PAPER_MARGIN_IN,
                     layout.corner_size)
        pdf.set_font("Helvetica", size=9)
        lines = [f"id {mid}: {names[n] if n < 4 else ''} corner",
                 f"centre at x = {cx:.2f} in, y = {cy:.2f} in",
                 "lay it upright: the top of the marker toward the far edge (+y)"]
        for k, line in enumerate(lines):
            pdf.text(left, top + box + 0.2 + 0.16 * k, line)


def _tag_pages(pdf: FPDF, layout: Layout, paper: tuple[float, float]) -> None:
    diameter = layout.base_mm / MM_PER_INCH
    pitch_x = diameter + 0.15
    pitch_y = diameter + 0.22
    cols = int((paper[0] - 2 * MARGIN_IN) // pitch_x)
    rows = int((paper[1] - 2 * MARGIN_IN - 0.7) // pitch_y)
    if cols < 1 or rows < 1:
        raise VisionError(f"a {layout.base_mm} mm base does not fit on the page", "base_mm")
    ids = list(layout.tag_ids)
    per_page = cols * rows
    for page in range(math.ceil(len(ids) / per_page)):
        pdf.add_page()
        pdf.set_font("Helvetica", style="B", size=12)
        pdf.text(MARGIN_IN, MARGIN_IN, f"Survive Us figure tags {ids[0]}-{ids[-1]}: "
                 f"{layout.tag_size} in tags on {layout.base_mm:g} mm base stickers")
        _check_bar(pdf, MARGIN_IN, MARGIN_IN + 0.25)
        for k, tag in enumerate(ids[page * per_page:(page + 1) * per_page]):
            cx = MARGIN_IN + (k % cols) * pitch_x + pitch_x / 2
            cy = MARGIN_IN + 0.7 + (k // cols) * pitch_y + diameter / 2 + 0.05
            pdf.set_draw_color(120, 120, 120)
            pdf.set_line_width(0.008)
            r = diameter / 2
            pdf.ellipse(cx - r, cy - r, diameter, diameter, style="D")
            h = layout.tag_size / 2
            _draw_marker(pdf, layout, tag, cx - h, cy - h, layout.tag_size)
            pdf.set_font("Helvetica", size=7)
            pdf.text(cx - 0.08, cy + r + 0.14, str(tag))


def _charuco_page(pdf: FPDF, board: BoardSpec) -> None:
    w, h = board.squares_x * board.square_in, board.squares_y * board.square_in
    pdf.add_page(orientation="L")
    pdf.set_font("Helvetica", style="B", size=12)
    pdf.text(MARGIN_IN, MARGIN_IN, f"ChArUco board for the lens calibration: "
             f"{board.squares_x} x {board.squares_y} squares of {board.square_in} in, "
             f"{board.dictionary}")
    _check_bar(pdf, MARGIN_IN, MARGIN_IN + 0.25)
    img = cv2.cvtColor(board_image(board, 300.0), cv2.COLOR_GRAY2RGB)
    ok, png = cv2.imencode(".png", img)
    if not ok:
        raise VisionError("cannot draw the ChArUco board", "board")
    pdf.image(io.BytesIO(bytes(png)), x=MARGIN_IN, y=MARGIN_IN + 0.6, w=w, h=h)


def marker_sheets(layout: Layout = DEFAULT_LAYOUT, options: SheetOptions = SheetOptions()) -> bytes:
    """The PDF's bytes."""
    return bytes(_build(layout, options).output())


def _build(layout: Layout, options: SheetOptions) -> FPDF:
    if options.paper not in PAPERS:
        raise VisionError(f"unknown paper {options.paper!r} (known: {', '.join(PAPERS)})",
                          "paper")
    paper = PAPERS[options.paper]
    pdf = FPDF(orientation="P", unit="in", format=paper)
    pdf.set_auto_page_break(False)
    pdf.set_creator("survive-us markers")
    _corner_page(pdf, layout, paper)
    _tag_pages(pdf, layout, paper)
    if options.charuco:
        _charuco_page(pdf, options.board)
    return pdf


def write_marker_sheets(path: str | Path, layout: Layout = DEFAULT_LAYOUT,
                        options: SheetOptions = SheetOptions()) -> int:
    """Write the PDF; returns its page count."""
    pdf = _build(layout, options)
    data = bytes(pdf.output())
    try:
        Path(path).write_bytes(data)
    except OSError as error:
        raise VisionError(f"cannot write {path}: {error.strerror}", str(path)) from None
    return int(pdf.pages_count)
