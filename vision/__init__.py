"""Camera pipeline: calibration from corner markers, figure tags and colour bases, tracking.

Importing the package first caps the image size OpenCV will decode (a small PNG can declare
12000 x 12000 pixels), so the limit is in place before `cv2` is imported by any module here.
Only this package imports `cv2` (through `vision.cv`).
"""

from __future__ import annotations

import os

#: Largest image (in pixels) we agree to decode: 50 Mpx, well above a 4K frame (8.3 Mpx).
MAX_IMAGE_PIXELS = 50_000_000

os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_IMAGE_PIXELS))
# OpenCV's own warnings (a camera index that does not open...) would repeat our clearer errors
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
