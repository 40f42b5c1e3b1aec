"""Reading frames from files safely: the size is read from the header before decoding.

A small PNG can declare 12000 x 12000 pixels and decode to 400+ MB (NOTES.md), so PNG (IHDR),
JPEG (SOF) and BMP headers are parsed first and anything over `MAX_IMAGE_PIXELS` is refused
without decoding; OpenCV's own limit (OPENCV_IO_MAX_IMAGE_PIXELS, set in `vision/__init__`)
stays as a second guard. Every failure is an `ImageError` naming the file.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from i18n import Message
from vision import MAX_IMAGE_PIXELS
from vision.cv import cv2
from vision.errors import ImageError
from vision.types import Image
from vision.words import os_reason

__all__ = ["read_image", "decode_image", "image_header", "write_image", "too_many_pixels",
           "FORMATS"]

FORMATS = ("PNG", "JPEG", "BMP")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def read_image(path: str | Path, max_pixels: int = MAX_IMAGE_PIXELS,
               grey: bool = False) -> Image:
    """The BGR frame in the file at `path` (single-channel grey with `grey`: tags mode needs
    no colour, and JPEG decodes faster without it)."""
    name = str(path)
    try:
        data = Path(name).read_bytes()
    except FileNotFoundError:
        raise ImageError(Message("camera.image.missing", {"file": name}), name) from None
    except IsADirectoryError:
        raise ImageError(Message("camera.image.folder", {"file": name}), name) from None
    except OSError as error:
        raise ImageError(Message("camera.file.unreadable",
                                 {"file": name, "reason": os_reason(error)}), name) from None
    return decode_image(data, name, max_pixels, grey)


def decode_image(data: bytes, name: str = "image", max_pixels: int = MAX_IMAGE_PIXELS,
                 grey: bool = False) -> Image:
    """Decode PNG, JPEG or BMP bytes after checking the declared size."""
    fmt, width, height = image_header(data, name)
    if width * height > max_pixels:
        raise ImageError(too_many_pixels(name, width, height, max_pixels), name)
    try:
        # EXIF orientation is ignored: markers are found in any rotation, and the pixels
        # then match the header's declared size
        flag = (cv2.IMREAD_GRAYSCALE if grey else cv2.IMREAD_COLOR) | cv2.IMREAD_IGNORE_ORIENTATION
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    except cv2.error:
        image = None
    if image is None:
        raise ImageError(Message("camera.image.corrupt", {"file": name, "format": fmt}), name)
    if image.shape[1] != width or image.shape[0] != height:
        raise ImageError(Message("camera.image.size_mismatch", {
            "file": name, "w": str(image.shape[1]), "h": str(image.shape[0]),
            "width": str(width), "height": str(height)}), name)
    result: Image = image
    return result


def write_image(path: str | Path, image: Image) -> None:
    """Write PNG, JPEG or BMP by the file's suffix."""
    name = str(path)
    suffix = Path(name).suffix.lower()
    if suffix not in (".png", ".jpg", ".jpeg", ".bmp"):
        raise ImageError(Message("camera.image.write_suffix", {
            "file": name, "suffix": suffix or Message("camera.image.no_suffix")}), name)
    ok, buf = cv2.imencode(suffix, image)
    if not ok:
        raise ImageError(Message("camera.image.cannot_encode", {"file": name}), name)
    try:
        Path(name).write_bytes(bytes(buf))
    except OSError as error:
        raise ImageError(Message("camera.file.cannot_write",
                                 {"file": name, "reason": os_reason(error)}), name) from None


def image_header(data: bytes, name: str = "image") -> tuple[str, int, int]:
    """(format, width, height) from the file's header, without decoding pixels."""
    if not data:
        raise ImageError(Message("camera.image.empty", {"file": name}), name)
    if data.startswith(PNG_SIGNATURE):
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise _truncated(name, "PNG")
        width, height = struct.unpack(">II", data[16:24])
        return _checked("PNG", width, height, name)
    if data.startswith(b"\xff\xd8"):
        return _checked("JPEG", *_jpeg_size(data, name), name)
    if data.startswith(b"BM"):
        if len(data) < 26:
            raise _truncated(name, "BMP")
        width, height = struct.unpack("<ii", data[18:26])
        return _checked("BMP", width, abs(height), name)
    raise ImageError(Message("camera.image.format", {"file": name}), name)


def too_many_pixels(name: str, width: int, height: int, max_pixels: int) -> Message:
    """The refusal of a frame whose header declares more than `max_pixels`."""
    return Message("camera.image.too_many_pixels", {
        "file": name, "width": str(width), "height": str(height),
        "mpx": round(width * height / 1e6), "max": round(max_pixels / 1e6)})


def _truncated(name: str, fmt: str) -> ImageError:
    return ImageError(Message("camera.image.truncated", {"file": name, "format": fmt}), name)


def _checked(fmt: str, width: int, height: int, name: str) -> tuple[str, int, int]:
    if width <= 0 or height <= 0:
        raise ImageError(Message("camera.image.bad_size", {
            "file": name, "format": fmt, "width": str(width), "height": str(height)}), name)
    return fmt, width, height


# Start-of-frame markers carry the size; C4 (Huffman tables), C8 (reserved) and CC (arithmetic
# conditioning) share the range but are not frames.
_SOF = {m for m in range(0xC0, 0xD0) if m not in (0xC4, 0xC8, 0xCC)}


def _jpeg_size(data: bytes, name: str) -> tuple[int, int]:
    i = 2
    n = len(data)
    while i < n:
        if data[i] != 0xFF:
            raise ImageError(Message("camera.image.corrupt_jpeg", {"file": name}), name)
        while i < n and data[i] == 0xFF:  # fill bytes
            i += 1
        if i >= n:
            break
        marker = data[i]
        i += 1
        if marker in (0x01, *range(0xD0, 0xD8)):  # standalone markers
            continue
        if marker in (0xD9, 0xDA):  # end of image / start of scan before any frame header
            break
        if i + 2 > n:
            break
        (length,) = struct.unpack(">H", data[i:i + 2])
        if length < 2:
            raise ImageError(Message("camera.image.corrupt_jpeg", {"file": name}), name)
        if marker in _SOF:
            if i + 7 > n:
                break
            height, width = struct.unpack(">HH", data[i + 3:i + 7])
            return width, height
        i += length
    raise _truncated(name, "JPEG")
