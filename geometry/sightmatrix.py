"""A live observers x targets sight matrix that follows figures as they move.

Moving an observer recomputes its view and its row; moving a target recomputes its
column from the views already held. Nothing else changes, so nothing else is redone.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from geometry.sight import SightField, View

__all__ = ["SightMatrix"]

FloatArray = npt.NDArray[np.float64]


class SightMatrix:
    def __init__(
        self, field: SightField, observers: FloatArray, targets: FloatArray, radii: FloatArray
    ) -> None:
        self.field = field
        self.observers = np.array(observers, dtype=np.float64)
        self.targets = np.array(targets, dtype=np.float64)
        self.radii = np.array(radii, dtype=np.float64)
        self.views: list[View] = [field.view((float(x), float(y))) for x, y in self.observers]
        self.visible, self.fraction = field.matrix(
            self.observers, self.targets, self.radii, self.views
        )

    def move_observer(self, i: int, x: float, y: float) -> None:
        self.observers[i] = (x, y)
        self.views[i] = self.field.view((x, y))
        n = self.targets.shape[0]
        got = self.field.answers(
            [self.views[i]], np.zeros(n, dtype=np.intp), self.targets, self.radii
        )
        self.visible[i], self.fraction[i] = got.visible, got.fraction

    def move_target(self, j: int, x: float, y: float) -> None:
        self.targets[j] = (x, y)
        m = self.observers.shape[0]
        got = self.field.answers(
            self.views,
            np.arange(m, dtype=np.intp),
            np.repeat(self.targets[j : j + 1], m, axis=0),
            np.repeat(self.radii[j : j + 1], m),
        )
        self.visible[:, j], self.fraction[:, j] = got.visible, got.fraction
