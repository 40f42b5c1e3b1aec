"""The one place `cv2` is imported.

Importing this module imports the `vision` package first, whose `__init__` sets
OPENCV_IO_MAX_IMAGE_PIXELS, so the decode limit is in place before OpenCV loads.
"""

from __future__ import annotations

import cv2

__all__ = ["cv2"]
