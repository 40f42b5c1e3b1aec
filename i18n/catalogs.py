"""The catalogs: gettext `.po` files, one folder per language, their message ids the codes.

Each language's folder holds one file per part of the service (`page.po` for the page's own
words, `ai.po`, `engine.po`, ...): the same file names in every language, and a code in one
file only. A language's catalog is all its files together.

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
LOCALE = Path(__file__).parent / "locale"


class CatalogError(RuntimeError):
    """A catalog file is missing or cannot be read."""


def po_files(lang: str, locale: Path = LOCALE) -> list[Path]:
    """The catalog files of `lang`, by name."""
    return sorted((locale / lang / "LC_MESSAGES").glob("*.po"))


def read_file(path: Path, lang: str) -> dict[str, str]:
    """Every entry of one file, code -> text (empty when not translated)."""
    try:
        with path.open("rb") as handle:
            po = read_po(handle, locale=lang)
    except (OSError, ValueError) as exc:
        raise CatalogError(f"cannot read the {lang} catalog {path}: {exc}") from exc
    return {str(m.id): str(m.string or "") for m in po if m.id and isinstance(m.id, str)}


@functools.lru_cache(maxsize=len(LANGS))
def catalog(lang: str) -> dict[str, str]:
    """Code -> text for `lang` (one of LANGS); entries without a translation are left out."""
    if lang not in LANGS:
        raise CatalogError(f"no catalog for language {lang!r} (known: {', '.join(LANGS)})")
    files = po_files(lang)
    if not files:
        raise CatalogError(f"no catalog file for {lang} in {LOCALE / lang / 'LC_MESSAGES'}")
    texts: dict[str, str] = {}
    for path in files:
        texts.update({code: text for code, text in read_file(path, lang).items() if text})
    return texts


def language_of(wanted: str | Iterable[str] | None) -> str:
    """The first of `wanted` (a language tag such as "fr-FR", or several in order of
    preference) that has a catalog; English when none has."""
    tags = [wanted] if isinstance(wanted, str) else list(wanted or [])
    for tag in tags:
        base = tag.strip().replace("_", "-").split("-")[0].lower()
        if base in LANGS:
            return base
    return DEFAULT
