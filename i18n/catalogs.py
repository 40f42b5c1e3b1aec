"""The catalogs: one gettext `.po` file per language, its message ids the codes.

A code as the id (not the English sentence) keeps the code stable when the English wording
changes, and makes English a translation like French: both must be present, which
`i18n.check` verifies.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

from babel.messages.pofile import read_po

LANGS = ("fr", "en")
DEFAULT = "en"
DOMAIN = "survive_us"
LOCALE = Path(__file__).parent / "locale"


class CatalogError(RuntimeError):
    """A catalog file is missing or cannot be read."""


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.lru_cache(maxsize=len(LANGS))
def catalog(lang: str) -> dict[str, str]:
    """Code -> text for `lang` (one of LANGS); entries without a translation are left out."""
    if lang not in LANGS:
        raise CatalogError(f"no catalog for language {lang!r} (known: {', '.join(LANGS)})")
    path = po_path(lang)
    try:
        with path.open("rb") as handle:
            po = read_po(handle, locale=lang)
    except (OSError, ValueError) as exc:
        raise CatalogError(f"cannot read the {lang} catalog {path}: {exc}") from exc
    return {str(m.id): str(m.string) for m in po if m.id and isinstance(m.id, str) and m.string}


def language_of(wanted: str | Iterable[str] | None) -> str:
    """The first of `wanted` (a language tag such as "fr-FR", or several in order of
    preference) that has a catalog; English when none has."""
    tags = [wanted] if isinstance(wanted, str) else list(wanted or [])
    for tag in tags:
        base = tag.strip().replace("_", "-").split("-")[0].lower()
        if base in LANGS:
            return base
    return DEFAULT
