"""Numbers written the French or English way, as Babel writes them (CLDR: "1,234.5" and
"34%"; "1 234,5" and "34 %"), without Babel.

Babel reads a language's whole locale data the first time it formats a number, which costs
about 10 ms a process: more than saying a thousand arbitration answers. Our messages use
three of its formats, which this module writes the way Babel's `NumberPattern.apply` does
(decimal rounding half to even, digits grouped by three); tests/test_i18n.py holds them equal
to Babel's over many numbers. A number outside the ordinary range is left to Babel.
"""

from __future__ import annotations

import math
from decimal import Decimal

__all__ = ["decimal_text", "percent_text"]

# The decimal sign, the group separator and the percent pattern of each language (CLDR)
_SIGNS = {"en": (".", ",", "{}%"), "fr": (",", "\u202f", "{}\u00a0%")}
_ORDINARY = 1e15  # beyond, Decimal's 28 digits of context could round as Babel does not
_QUANTUM = [Decimal(10) ** -places for places in range(4)]


def _written(number: Decimal, places: int, lang: str) -> str:
    """`number` rounded half to even to `places` decimals, grouped, in `lang`'s signs."""
    point, group, _ = _SIGNS[lang]
    negative = number.is_signed()
    rounded = abs(number).normalize().quantize(_QUANTUM[places])
    whole, _, fraction = f"{rounded:f}".partition(".")
    groups = []
    while len(whole) > 3:
        groups.append(whole[-3:])
        whole = whole[:-3]
    groups.append(whole)
    text = group.join(reversed(groups))
    if places:
        text += point + fraction
    return "-" + text if negative else text


def percent_text(value: float, lang: str) -> str | None:
    """A share as a whole percentage ("34%", "34 %"); None when Babel should write it."""
    if lang not in _SIGNS or not math.isfinite(value) or abs(value) >= _ORDINARY:
        return None
    return _SIGNS[lang][2].format(_written(Decimal(str(value)).scaleb(2), 0, lang))


def decimal_text(value: float, places: int, lang: str) -> str | None:
    """`value` with exactly `places` decimals (0 or 1: Babel's "#,##0" and "#,##0.0"); None
    when Babel should write it."""
    if (lang not in _SIGNS or places not in (0, 1) or not math.isfinite(value)
            or abs(value) >= _ORDINARY):
        return None
    return _written(Decimal(str(value)), places, lang)
