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

from vision import MAX_IMAGE_PIXELS
from vision.cv import cv2
from vision.errors import ImageError
from vision.types import Image

__all__ = ["read_image", "decode_image", "image_header", "write_image", "FORMATS"]

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
        raise ImageError(f"{name}: no such file", name) from None
    except IsADirectoryError:
        raise ImageError(f"{name} is a folder, not an image file", name) from None
    except OSError as error:
        raise ImageError(f"cannot read {name}: {error.strerror}", name) from None
    return decode_image(data, name, max_pixels, grey)


def decode_image(data: bytes, name: str = "image", max_pixels: int = MAX_IMAGE_PIXELS,
                 grey: bool = False) -> Image:
    """Decode PNG, JPEG or BMP bytes after checking the declared size."""
    fmt, width, height = image_header(data, name)
    if width * height > max_pixels:
        raise ImageError(f"{name} declares {width} x {height} pixels ({width * height / 1e6:.0f}"
                         f" Mpx), more than the {max_pixels / 1e6:.0f} Mpx allowed: refused "
                         "before decoding", name)
    try:
        # EXIF orientation is ignored: markers are found in any rotation, and the pixels
        # then match the header's declared size
        flag = (cv2.IMREAD_GRAYSCALE if grey else cv2.IMREAD_COLOR) | cv2.IMREAD_IGNORE_ORIENTATION
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    except cv2.error:
        image = None
    if image is None:
        raise ImageError(f"{name} is not a readable {fmt} image (corrupt or truncated)", name)
    if image.shape[1] != width or image.shape[0] != height:
        raise ImageError(f"{name} decodes to {image.shape[1]} x {image.shape[0]}, not the "
                         f"{width} x {height} its header declares", name)
    result: Image = image
    return result


def write_image(path: str | Path, image: Image) -> None:
    """Write PNG, JPEG or BMP by the file's suffix."""
    name = str(path)
    suffix = Path(name).suffix.lower()
    if suffix not in (".png", ".jpg", ".jpeg", ".bmp"):
        raise ImageError(f"{name}: write .png, .jpg or .bmp, not {suffix or 'no suffix'!r}",
                         name)
    ok, buf = cv2.imencode(suffix, image)
    if not ok:
        raise ImageError(f"cannot encode {name}", name)
    try:
        Path(name).write_bytes(bytes(buf))
    except OSError as error:
        raise ImageError(f"cannot write {name}: {error.strerror}", name) from None


def image_header(data: bytes, name: str = "image") -> tuple[str, int, int]:
    """(format, width, height) from the file's header, without decoding pixels."""
    if not data:
        raise ImageError(f"{name} is empty (0 bytes)", name)
    if data.startswith(PNG_SIGNATURE):
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise ImageError(f"{name} is a truncated PNG (no IHDR header)", name)
        width, height = struct.unpack(">II", data[16:24])
        return _checked("PNG", width, height, name)
    if data.startswith(b"\xff\xd8"):
        return _checked("JPEG", *_jpeg_size(data, name), name)
    if data.startswith(b"BM"):
        if len(data) < 26:
            raise ImageError(f"{name} is a truncated BMP", name)
        width, height = struct.unpack("<ii", data[18:26])
        return _checked("BMP", width, abs(height), name)
    raise ImageError(f"{name} is not an image in a supported format "
                     f"({', '.join(FORMATS)}); it starts with {data[:8]!r}", name)


def _checked(fmt: str, width: int, height: int, name: str) -> tuple[str, int, int]:
    if width <= 0 or height <= 0:
        raise ImageError(f"{name}: its {fmt} header declares {width} x {height} pixels", name)
    return fmt, width, height


# Start-of-frame markers carry the size; C4 (Huffman tables), C8 (reserved) and CC (arithmetic
# conditioning) share the range but are not frames.
_SOF = {m for m in range(0xC0, 0xD0) if m not in (0xC4, 0xC8, 0xCC)}


def _jpeg_size(data: bytes, name: str) -> tuple[int, int]:
    i = 2
    n = len(data)
    while i < n:
        if data[i] != 0xFF:
            raise ImageError(f"{name} is a corrupt JPEG (bad marker at byte {i})", name)
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
            raise ImageError(f"{name} is a corrupt JPEG (segment length {length})", name)
        if marker in _SOF:
            if i + 7 > n:
                break
            height, width = struct.unpack(">HH", data[i + 3:i + 7])
            return width, height
        i += length
    raise ImageError(f"{name} is a truncated or corrupt JPEG (no frame header)", name)
