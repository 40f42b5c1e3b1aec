"""Printable true-size marker sheets (PDF): corner markers, figure tag stickers, and
optionally the ChArUco board for the lens calibration, their words in `SheetOptions.lang`.

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

from geometry.corners import QUIET_ZONE  # white around a corner marker: its cut line
from geometry.units import MM_PER_INCH
from i18n import Message, render
from vision.cv import cv2
from vision.errors import VisionError
from vision.layout import DEFAULT_LAYOUT, Layout
from vision.lens import DEFAULT_BOARD, BoardSpec, board_image
from vision.markers import aruco_dictionary
from vision.words import corner, os_reason

__all__ = ["PAPERS", "SheetOptions", "marker_sheets", "write_marker_sheets"]

#: Paper sizes in inches (portrait).
PAPERS: dict[str, tuple[float, float]] = {"A4": (210 / MM_PER_INCH, 297 / MM_PER_INCH),
                                          "Letter": (8.5, 11.0)}
MARGIN_IN = 0.5


@dataclass(frozen=True)
class SheetOptions:
    paper: str = "A4"
    charuco: bool = False
    board: BoardSpec = DEFAULT_BOARD
    lang: str = "en"  # the language of the words printed on the sheets


def _text(message: Message, lang: str) -> str:
    """A message as the PDF's core fonts can print it (Latin-1: Babel's narrow no-break
    space between thousands becomes a plain one)."""
    return render(message, lang).replace("\u202f", " ")


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


def _check_bar(pdf: FPDF, x: float, y: float, lang: str) -> None:
    pdf.set_fill_color(0, 0, 0)
    pdf.rect(x, y, 1.0, 0.06, style="F")
    for tick in (0.0, 1.0):
        pdf.rect(x + tick - 0.005, y - 0.08, 0.01, 0.22, style="F")
    pdf.set_font("Helvetica", size=8)
    pdf.text(x + 1.1, y + 0.06, _text(Message("camera.sheet.check_bar"), lang))


def _corner_page(pdf: FPDF, layout: Layout, paper: tuple[float, float], lang: str) -> None:
    pdf.add_page()
    pdf.set_font("Helvetica", style="B", size=12)
    pdf.text(MARGIN_IN, MARGIN_IN, _text(Message("camera.sheet.corners_title", {
        "dictionary": layout.dictionary, "width": float(layout.table_width),
        "depth": float(layout.table_depth)}), lang))
    _check_bar(pdf, MARGIN_IN, MARGIN_IN + 0.25, lang)
    box = layout.corner_size + 2 * QUIET_ZONE
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
        _draw_marker(pdf, layout, mid, left + QUIET_ZONE, top + QUIET_ZONE,
                     layout.corner_size)
        pdf.set_font("Helvetica", size=9)
        lines = [Message("camera.sheet.corner", {"corner": corner(layout.corner_ids, mid),
                                                 "id": str(mid)}),
                 Message("camera.sheet.centre", {"x": float(cx), "y": float(cy)}),
                 Message("camera.sheet.upright")]
        for k, line in enumerate(lines):
            pdf.text(left, top + box + 0.2 + 0.16 * k, _text(line, lang))


def _tag_pages(pdf: FPDF, layout: Layout, paper: tuple[float, float], lang: str) -> None:
    diameter = layout.base_mm / MM_PER_INCH
    pitch_x = diameter + 0.15
    pitch_y = diameter + 0.22
    cols = int((paper[0] - 2 * MARGIN_IN) // pitch_x)
    rows = int((paper[1] - 2 * MARGIN_IN - 0.7) // pitch_y)
    if cols < 1 or rows < 1:
        raise VisionError(Message("camera.sheet.base_too_big", {"base": float(layout.base_mm)}),
                          "base_mm")
    ids = list(layout.tag_ids)
    per_page = cols * rows
    for page in range(math.ceil(len(ids) / per_page)):
        pdf.add_page()
        pdf.set_font("Helvetica", style="B", size=12)
        pdf.text(MARGIN_IN, MARGIN_IN, _text(Message("camera.sheet.tags_title", {
            "first": str(ids[0]), "last": str(ids[-1]), "tag": layout.tag_size * MM_PER_INCH,
            "base": float(layout.base_mm)}), lang))
        _check_bar(pdf, MARGIN_IN, MARGIN_IN + 0.25, lang)
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


def _charuco_page(pdf: FPDF, board: BoardSpec, lang: str) -> None:
    w, h = board.squares_x * board.square_in, board.squares_y * board.square_in
    pdf.add_page(orientation="L")
    pdf.set_font("Helvetica", style="B", size=12)
    pdf.text(MARGIN_IN, MARGIN_IN, _text(Message("camera.sheet.charuco_title", {
        "across": str(board.squares_x), "down": str(board.squares_y),
        "square": float(board.square_in), "dictionary": board.dictionary}), lang))
    _check_bar(pdf, MARGIN_IN, MARGIN_IN + 0.25, lang)
    img = cv2.cvtColor(board_image(board, 300.0), cv2.COLOR_GRAY2RGB)
    ok, png = cv2.imencode(".png", img)
    if not ok:
        raise VisionError(Message("camera.sheet.board"), "board")
    pdf.image(io.BytesIO(bytes(png)), x=MARGIN_IN, y=MARGIN_IN + 0.6, w=w, h=h)


def marker_sheets(layout: Layout = DEFAULT_LAYOUT, options: SheetOptions = SheetOptions()) -> bytes:
    """The PDF's bytes."""
    return bytes(_build(layout, options).output())


def _build(layout: Layout, options: SheetOptions) -> FPDF:
    if options.paper not in PAPERS:
        raise VisionError(Message("camera.sheet.paper", {"paper": options.paper,
                                                         "known": list(PAPERS)}), "paper")
    paper = PAPERS[options.paper]
    pdf = FPDF(orientation="P", unit="in", format=paper)
    pdf.set_auto_page_break(False)
    pdf.set_creator("survive-us markers")
    _corner_page(pdf, layout, paper, options.lang)
    _tag_pages(pdf, layout, paper, options.lang)
    if options.charuco:
        _charuco_page(pdf, options.board, options.lang)
    return pdf


def write_marker_sheets(path: str | Path, layout: Layout = DEFAULT_LAYOUT,
                        options: SheetOptions = SheetOptions()) -> int:
    """Write the PDF; returns its page count."""
    pdf = _build(layout, options)
    data = bytes(pdf.output())
    try:
        Path(path).write_bytes(data)
    except OSError as error:
        raise VisionError(Message("camera.file.cannot_write", {
            "file": str(path), "reason": os_reason(error)}), str(path)) from None
    return int(pdf.pages_count)
