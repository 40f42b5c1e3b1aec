"""`python -m i18n add FILE CODE --en TEXT --fr TEXT`: a new code in both languages.

The entry is appended to `FILE.po` of each language (the file is made, with its header, when
it is new); a code already in a catalog is refused, so two parts of the service never give
one code two meanings. Correcting a text is editing its `msgstr` in the `.po` file.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import normalize

from i18n.catalogs import LANGS, LOCALE, po_files, read_file

HEADER = """# {title}
# The message id is a stable code (used in logs, API answers and the page); the text is
# what a player reads. Placeholders: {{name}} as given, {{d:in}} inches with the unit,
# {{p:pct}} a percentage, {{x:num}} one decimal, {{n:int}} a whole number (docs/translation.md).
# `python -m i18n check` reports a code without a text in both languages.
msgid ""
msgstr ""
"Project-Id-Version: Survive Us 1\\n"
"Language: {lang}\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"""


class EditError(ValueError):
    """The entry cannot be added as asked."""


def add(name: str, code: str, texts: dict[str, str], title: str = "",
        locale: Path = LOCALE) -> None:
    """Append `code` with its text in every language to `name`.po."""
    if set(texts) != set(LANGS) or not all(t.strip() for t in texts.values()):
        raise EditError(f"{code}: give a text in each of {', '.join(LANGS)}")
    if not name.isidentifier():
        raise EditError(f"{name!r}: a catalog file is named like a Python identifier")
    for lang in LANGS:
        for path in po_files(lang, locale):
            if code in read_file(path, lang):
                raise EditError(f"{code} is already in {path}")
    for lang in LANGS:
        path = locale / lang / "LC_MESSAGES" / f"{name}.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        start = "" if path.exists() else HEADER.format(
            title=title or f"The {name} messages.", lang=lang)
        entry = f"\nmsgid {normalize(code, width=0)}\nmsgstr {normalize(texts[lang], width=92)}\n"
        with path.open("a", encoding="utf-8") as handle:
            handle.write(start + entry)
