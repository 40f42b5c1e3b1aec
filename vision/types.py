"""Array aliases shared by the vision modules."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["FloatArray", "Image"]

FloatArray = npt.NDArray[np.float64]
#: A frame as OpenCV gives it: H x W x 3 BGR or H x W grey, normally uint8.
Image = npt.NDArray[Any]
