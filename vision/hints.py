"""What the caller knows of the figures before the photo is read: their base sizes and heights.

In a game the service knows every figure (its side, tag, `base_mm`, and the base height set
per figure or per band); alone (`vision locate`) nothing is known and the pipeline looks for
the common sizes and assumes the usual height. The hints only narrow the search and set the
parallax correction: a figure is never reported because a hint says it should be there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

MM_PER_INCH = 25.4

#: Round bases sold under 28-40 mm miniatures (mm across); what `vision locate` looks for
#: when no game says which sizes are on the table.
COMMON_BASE_MM: tuple[float, ...] = (25.0, 28.0, 30.0, 32.0, 40.0, 50.0)

#: Height of a plastic base (mm) when nothing says otherwise (most 25-32 mm bases are 3-3.5).
DEFAULT_BASE_HEIGHT_MM = 3.2

#: Heights bases come in (mm): an unknown height may be anything in this range, and the
#: uncertainty says how far that could move a position.
BASE_HEIGHT_RANGE_MM: tuple[float, float] = (2.0, 5.0)


@dataclass(frozen=True)
class FigureHints:
    """Sizes and heights of the bases expected on the table.

    `base_mm`: per side (``"survivors"``, ``"zombies"``, ``"civilians"``), the base sizes
    (mm across) of that side's figures in play; a side absent means "any common size".
    `height_mm_by_tag`: a tagged figure's base height when the game knows it.
    `height_mm_by_side`: a side's base height when the player set one (colour bases are
    known by side before anyone knows which figure they are).
    `default_height_mm`: the height of any other base; `height_known` says whether it was set
    by the player (a band's setting) or is the default guess, which widens the uncertainty to
    cover `BASE_HEIGHT_RANGE_MM`.
    """

    base_mm: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    height_mm_by_tag: Mapping[int, float] = field(default_factory=dict)
    height_mm_by_side: Mapping[str, float] = field(default_factory=dict)
    default_height_mm: float = DEFAULT_BASE_HEIGHT_MM
    height_known: bool = False

    def sizes_for(self, side: str) -> tuple[float, ...]:
        """The base sizes to look for on `side` (the common sizes when the game is silent)."""
        sizes = self.base_mm.get(side)
        return tuple(sorted(set(sizes))) if sizes else COMMON_BASE_MM

    def height_for(self, tag: int | None, side: str | None = None) -> tuple[float, bool]:
        """(height in mm, known?) of the base carrying `tag`, or of a colour-mode base of
        `side` (tag None)."""
        if tag is not None and tag in self.height_mm_by_tag:
            return self.height_mm_by_tag[tag], True
        if side is not None and side in self.height_mm_by_side:
            return self.height_mm_by_side[side], True
        return self.default_height_mm, self.height_known


NO_HINTS = FigureHints()
