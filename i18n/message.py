"""A message: a stable code and its parameters; `render` puts it in words.

Parameters are plain JSON so a message can be stored in a game's log and rendered years
later in either language:

- a string is shown as it is (a person's name, "Lucas");
- a number is formatted by the catalog text's placeholder: `{d:in}` inches with one decimal
  and the unit ("5,6 ps", "5.6 in"), `{p:pct}` a chance as a percentage ("61 %", "61%"),
  `{x:num}` one decimal, `{n}` or `{n:int}` a whole number; a float without a spec has one
  decimal;
- a name in both languages is `{"fr": ..., "en": ...}` (`Name`);
- a message inside a message is `{"code": ..., "params": ...}` (or a `Message`);
- a list is rendered item by item and joined the language's way ("a, b et c").
"""

from __future__ import annotations

import decimal
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from i18n.catalogs import DEFAULT, LANGS, catalog
from i18n.numbers import decimal_text, percent_text

__all__ = ["Message", "Name", "joined", "note_text", "render", "render_text"]

Name = dict[str, str]  # {"fr": "Rôdeur", "en": "Walker"}
_FIELD = re.compile(r"\{(\w+)(?::(\w+))?\}")
# A place's name begins with its article, capitalised as a title ("La place du cratère",
# "The landing zone"); inside a sentence the article is lowercase ("va garder la place du
# cratère"), unless the name is quoted as a title.
_ARTICLE = re.compile(r"^(?:(?:Le|La|Les|The) |L'|L’)")
_TITLE_OPENERS = ("«", "“", "\"", "‘", "'")


@dataclass(frozen=True)
class Message:
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": {
            k: v if type(v) in _PLAIN else _json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        return cls(str(data["code"]), dict(data.get("params") or {}))

    def text(self, lang: str = DEFAULT) -> str:
        return render(self, lang)


_PLAIN = frozenset({str, float, int, bool, type(None)})  # parameters already JSON


def _json(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


def is_message(value: Any) -> bool:
    return isinstance(value, Message) or (
        isinstance(value, Mapping) and isinstance(value.get("code"), str)
        and set(value) <= {"code", "params"})


def _is_name(value: Any) -> bool:
    return isinstance(value, Mapping) and bool(value) and set(value) <= set(LANGS)


@functools.lru_cache(maxsize=4096, typed=True)  # answers repeat their numbers
def _number(value: float, spec: str | None, lang: str) -> str:
    # Written as Babel would (i18n.numbers), which leaves it the numbers out of the ordinary.
    if spec == "pct":
        return percent_text(value, lang) or _babel_number(value, spec, lang)
    if spec == "int" or (spec is None and isinstance(value, int)):
        return decimal_text(round(value), 0, lang) or _babel_number(value, spec, lang)
    text = decimal_text(value, 1, lang) or _babel_number(value, spec, lang)
    if spec == "in":
        return render_text("unit.inches", {"n": text}, lang)
    return text


def _babel_number(value: float, spec: str | None, lang: str) -> str:
    """Babel's writing of the numbers out of the ordinary. Its decimal arithmetic keeps 28
    digits by default, too few for 1e27 and beyond (a figure sent at x = 1e29 made the
    error that names it fail): a float has at most 309 digits, an int as many as it has."""
    from babel.numbers import format_decimal, format_percent  # here: its data loads slowly

    with decimal.localcontext() as context:
        context.prec = max(400, len(str(value)) + 10) if isinstance(value, int) else 400
        if spec == "pct":
            return str(format_percent(value, locale=lang))
        if spec == "int" or (spec is None and isinstance(value, int)):
            return str(format_decimal(round(value), locale=lang))
        return str(format_decimal(value, format="#,##0.0", locale=lang))


def _list(items: list[str], lang: str) -> str:
    from babel.lists import format_list  # here: Babel is slow to import and to load

    return str(format_list(items, locale=lang))


def _value(value: Any, spec: str | None, lang: str) -> str:
    if type(value) is str:  # the most common parameter, a name already in words
        return value
    if isinstance(value, Message):
        return render(value, lang)
    if isinstance(value, bool):
        return render_text("word.yes", {}, lang) if value else render_text("word.no", {}, lang)
    if isinstance(value, int | float):
        return _number(value, spec, lang)
    if is_message(value):
        return render(Message.from_json(value), lang)
    if _is_name(value):
        return str(value.get(lang) or value.get(DEFAULT) or next(iter(value.values())))
    if isinstance(value, list | tuple):
        return _list([_value(v, spec, lang) for v in value], lang)
    return "" if value is None else str(value)


# A template's placeholders: the text before each, its name, spec and own text, and whether
# it stands inside a sentence; then the text after the last.
_Parts = tuple[tuple[tuple[str, str, str | None, str, bool], ...], str]


@functools.lru_cache(maxsize=8192)  # a catalog has about 1,500 texts a language
def _parts(template: str) -> _Parts:
    """`template` cut at its placeholders once, not at every rendering (a thousand answers
    share a few templates)."""
    fields = []
    last = 0
    for match in _FIELD.finditer(template):
        fields.append((template[last:match.start()], match.group(1), match.group(2),
                       match.group(0), _inside_sentence(template[:match.start()])))
        last = match.end()
    return tuple(fields), template[last:]


def render_text(code: str, params: Mapping[str, Any], lang: str = DEFAULT) -> str:
    """The catalog text of `code` in `lang` with its placeholders filled. A code missing
    from `lang` (which `python -m i18n check` reports) falls back to English, then to the
    code itself, so a person never gets an empty line."""
    lang = lang if lang in LANGS else DEFAULT
    template = catalog(lang).get(code) or catalog(DEFAULT).get(code) or code
    fields, tail = _parts(template)
    out: list[str] = []
    for before, name, spec, own, inside in fields:
        if name not in params:
            out += (before, own)
            continue
        value = params[name]
        text = _value(value, spec, lang)
        # a name (or a list that begins with one) inside a sentence: "le garage", "du
        # garage", "d'Inès et Rôdeur 1"
        if inside and type(value) is not str and (_is_name(value) or (
                isinstance(value, list | tuple) and value and _is_name(value[0]))):
            text = _lower_article(text)
            if lang == "fr":
                before, text = _contract(before, text)
        out += (before, text)
    out.append(tail)
    return "".join(out)


# French contracts "de le" and "à le" (and their plurals) before a place's name
_CONTRACTIONS = {("de", "le"): "du", ("de", "les"): "des", ("à", "le"): "au",
                 ("à", "les"): "aux"}
_VOWELS = set("aeiouyàâéèêëîïôûüœ")
_PREPOSITION = re.compile(r"(?:^|(?<=\s))(de|à) $")


def _contract(before: str, name: str) -> tuple[str, str]:
    """"de " + "le garage" -> "du " + "garage", "de " + "Inès" -> "d'" + "Inès"; other
    text as it is."""
    prep = _PREPOSITION.search(before)
    if prep is None:
        return before, name
    article, _, rest = name.partition(" ")
    joined = _CONTRACTIONS.get((prep.group(1), article))
    if joined is not None and rest:
        return before[:prep.start()] + joined + " ", rest
    if prep.group(1) == "de" and name[:1].lower() in _VOWELS:
        return before[:prep.start()] + "d'", name
    return before, name


def _inside_sentence(before: str) -> bool:
    """Whether a placeholder preceded by `before` stands inside a sentence (not first, not
    after a full stop or a colon, which may introduce a title, not opening a quotation)."""
    before = before.rstrip(" ")
    return bool(before) and not before.endswith((".", "!", "?", ":", *_TITLE_OPENERS))


def _lower_article(text: str) -> str:
    if _ARTICLE.match(text):
        return text[0].lower() + text[1:]
    return text


def render(message: Message | Mapping[str, Any], lang: str = DEFAULT) -> str:
    """`message` (a Message or its JSON) in words, in `lang`."""
    if not isinstance(message, Message):
        message = Message.from_json(message)
    return render_text(message.code, message.params, lang)


def joined(messages: Iterable[Message], lang: str = DEFAULT) -> str:
    """Messages said one after another in `lang` ("...; ..." / "... ; ...")."""
    texts = [render(m, lang) for m in messages]
    if len(texts) == 1:  # most answers: no separator to look up
        return texts[0]
    return render_text("word.separator", {}, lang).join(texts)


def note_text(note: Any, lang: str = DEFAULT) -> str:
    """A log note in words: a message's JSON rendered; text (older records) as it is."""
    return render(Message.from_json(note), lang) if is_message(note) else str(note)
