"""Finding a thing the command line names: by its id, or by its French or English name.

A player types what they read (`--attacker "Ex-cop (M)"`, `--target Rôdeur`, `scenario show
"The last helicopter"`); a script types the id (`--attacker ex_flic_h`). `resolve` accepts
any of them, ignoring case, accents and extra spaces, and fails with the command's own error
when nothing (or more than one thing) answers to the value: its message lists the known
names in the command's language, each with its id ("Rôdeur (rodeur)", `known`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from geometry.errors import SurviveUsError
from i18n import Message, Name

__all__ = ["Choice", "fold", "find", "resolve", "known", "named", "profiles", "items",
           "weapons", "skills", "cards", "tables", "bands", "town", "band_file_or_example"]


@dataclass(frozen=True)
class Choice:
    """Something the command line can name: its id, its names, other spellings it answers
    to (a skill's feminine form, an archetype's name without its sex)."""

    id: str
    names: Name
    aliases: tuple[str, ...] = ()

    def spellings(self) -> tuple[str, ...]:
        return (self.id, *self.names.values(), *self.aliases)


def fold(text: str) -> str:
    """`text` as compared: no case, no accents, single spaces ("Rôdeur " -> "rodeur")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.split())


def find(value: str, choices: Iterable[Choice]) -> str | None:
    """The id of the one choice whose id, name or alias is `value`; None when none is, or
    when several are (an alias shared by two archetypes: the player must say which). An
    exact id or name wins over an alias."""
    wanted = fold(value)
    listed = list(choices)
    for spellings in (lambda c: (c.id, *c.names.values()), Choice.spellings):
        ids = {c.id for c in listed if wanted in {fold(s) for s in spellings(c)}}
        if len(ids) == 1:
            return ids.pop()
        if ids:
            return None
    return None


def named(choice: Choice) -> Message:
    """A thing by its name with its id beside it: "Rôdeur (rodeur)" / "Walker (rodeur)"."""
    return Message("cli.lookup.named", {"name": choice.names, "id": choice.id})


def known(choices: Iterable[Choice]) -> list[Message]:
    """Every choice by its name and id, for an error's list of what exists."""
    return [named(c) for c in choices]


def resolve(value: str, choices: Sequence[Choice],
            fail: Callable[[list[Message]], SurviveUsError]) -> str:
    """The id `value` names among `choices`; else the error `fail` builds from the list of
    known names (each with its id), raised."""
    found = find(value, choices)
    if found is None:
        raise fail(known(choices))
    return found


# -- what the commands name ---------------------------------------------------------------


def profiles() -> list[Choice]:
    """Archetypes ("Ex-flic (H)" / "Ex-cop (M)", also "Ex-flic" when only one has that
    name) and zombie types."""
    from rules.catalog import load_catalog

    catalog = load_catalog()
    return [*(Choice(a.id, {"fr": a.label, "en": a.label_en}, (a.name, a.name_en))
              for a in catalog.archetypes.values()),
            *(Choice(z.id, z.names) for z in catalog.zombies.values())]


def items() -> list[Choice]:
    """Every item of equipment."""
    from rules.catalog import load_catalog

    return [Choice(e.id, e.names) for e in load_catalog().equipment.values()]


def weapons() -> list[Choice]:
    """The items one attacks with."""
    from rules.catalog import load_catalog

    return [Choice(e.id, e.names) for e in load_catalog().equipment.values() if e.is_weapon]


def skills() -> list[Choice]:
    """Every skill, also by its other spellings."""
    from rules.catalog import load_catalog

    return [Choice(s.id, s.names, s.aliases) for s in load_catalog().skills.values()]


def cards() -> list[Choice]:
    """The scenario cards."""
    from scenarios.cards import load_cards

    return [Choice(c.id, {"fr": c.name.fr, "en": c.name.en}) for c in load_cards().values()]


def tables() -> list[Choice]:
    """The bundled demo tables, by the names in their files."""
    import json

    from scenarios.tables import TABLES_DIR, table_names

    out = []
    for stem in table_names():
        data = json.loads((TABLES_DIR / f"{stem}.json").read_text(encoding="utf-8"))
        fr = str(data.get("name") or stem)
        out.append(Choice(stem, {"fr": fr, "en": str(data.get("name_en") or fr)}))
    return out


def town() -> Choice:
    """The town of tiles a scenario may be played on instead of a demo table."""
    from i18n import render_text

    return Choice("town", {lang: render_text("cli.lookup.town", {}, lang)
                           for lang in ("fr", "en")})


def bands() -> list[Choice]:
    """The example bands, by file stem and by the band's own name."""
    from rules.warband import example_bands

    return [Choice(stem, {"fr": roster.name, "en": roster.name_en or roster.name})
            for stem, roster in example_bands().items()]


def band_file_or_example(value: str) -> str | None:
    """`value` when it is a file, else the example band it names, else None."""
    if Path(value).is_file():
        return value
    return find(value, bands())
