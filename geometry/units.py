"""Units and fixed measures of the game (DESIGN.md, Conventions)."""

from __future__ import annotations

__all__ = ["MM_PER_INCH", "TABLE_INCHES", "CONTACT_INCHES", "DEFAULT_BASE_MM", "base_radius"]

MM_PER_INCH = 25.4
TABLE_INCHES = 800.0 / MM_PER_INCH  # the 80 cm table: 31.4961 in
CONTACT_INCHES = 0.05  # base contact: edge-to-edge distance at most this
DEFAULT_BASE_MM = 25.0


def base_radius(base_mm: float) -> float:
    """Radius in inches of a round base `base_mm` millimetres across."""
    return base_mm / MM_PER_INCH / 2.0
