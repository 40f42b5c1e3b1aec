"""Words for people, in French or English (DESIGN.md: messages are codes and parameters,
rendered at the edge).

A `Message` is a stable code and its parameters. It stays language-neutral in logs, event
streams and API answers; `render(message, lang)` puts it in words with the catalogs in
`i18n/locale/LANG/LC_MESSAGES/*.po`, one file per part of the service (read with Babel),
and formats its numbers as Babel does (French "5,6 ps", English "5.6 in"; `i18n.numbers`).
The page reads the same catalogs (`GET /i18n/LANG.json`). `python -m i18n check` finds a
code without both translations. This package depends on nothing else of the project, so
every layer may use it.
"""

from i18n.catalogs import LANGS, catalog, language_of
from i18n.message import Message, Name, joined, note_text, render, render_text

__all__ = ["LANGS", "Message", "Name", "catalog", "joined", "language_of", "note_text",
           "render", "render_text"]
