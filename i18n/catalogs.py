"""The catalogs: gettext `.po` files, one folder per language, their message ids the codes.

Each language's folder holds one file per part of the service (`page.po` for the page's own
words, `ai.po`, `engine.po`, ...): the same file names in every language, and a code in one
file only. A language's catalog is all its files together.

A code as the id (not the English sentence) keeps the code stable when the English wording
changes, and makes English a translation like French: both must be present, which
`i18n.check` verifies.

Reading the `.po` files with Babel takes longer than most commands' own work, so a
language's catalog is also kept as JSON in `i18n/__pycache__/` (or the user's cache folder
when the package's is read-only), keyed by a hash of the `.po` files' bytes: any change to
a file reads the files again.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

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
    from babel.messages.pofile import read_po  # here: Babel is slow to import

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
    digest = hashlib.sha256()
    for path in files:
        try:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        except OSError as exc:
            raise CatalogError(f"cannot read the {lang} catalog {path}: {exc}") from exc
    key = digest.hexdigest()
    for folder in _cache_folders():
        try:
            kept = json.loads((folder / f"catalog-{lang}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(kept, dict) and kept.get("key") == key and isinstance(
                kept.get("texts"), dict):
            return {str(k): str(v) for k, v in kept["texts"].items()}
    texts: dict[str, str] = {}
    for path in files:
        texts.update({code: text for code, text in read_file(path, lang).items() if text})
    _keep({"key": key, "texts": texts}, f"catalog-{lang}.json")
    return texts


def _cache_folders() -> list[Path]:
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return [Path(__file__).parent / "__pycache__", Path(home) / "survive-us"]


def _keep(data: dict[str, object], name: str) -> None:
    """Write the cache file in the first folder that takes it (atomically: another process
    may read it meanwhile); nowhere when none does."""
    text = json.dumps(data, ensure_ascii=False)
    for folder in _cache_folders():
        temp: str | None = None
        try:
            folder.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(dir=folder, prefix=".catalog-", suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.chmod(temp, 0o644)  # as a compiled module would be
            os.replace(temp, folder / name)
            return
        except OSError:
            if temp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temp)


def language_of(wanted: str | Iterable[str] | None) -> str:
    """The first of `wanted` (a language tag such as "fr-FR", or several in order of
    preference) that has a catalog; English when none has."""
    tags = [wanted] if isinstance(wanted, str) else list(wanted or [])
    for tag in tags:
        base = tag.strip().replace("_", "-").split("-")[0].lower()
        if base in LANGS:
            return base
    return DEFAULT
