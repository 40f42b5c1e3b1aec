"""The catalogs and the rendering of messages (i18n/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from i18n import Message, catalog, language_of, render
from i18n.catalogs import LANGS
from i18n.check import ROOT, page_uses, problems, python_uses
from i18n.message import render_text


def test_the_catalogs_are_complete() -> None:
    """`python -m i18n check`: every code in both languages, the same placeholders, and
    every code the source and the page use is in the catalogs."""
    assert problems() == []


def test_the_check_reads_codes_off_python_and_the_page() -> None:
    py = {u.code for u in python_uses()}
    assert {"ai.strike", "ai.chances", "unit.inches"} <= py
    page = {u.code for u in page_uses() if not u.prefix}
    assert "nav.home" in page  # an attribute of index.html
    assert any(u.prefix and u.code == "side." for u in page_uses())  # t(`side.${side}`)


def test_the_check_names_what_is_missing(tmp_path: Path) -> None:
    (tmp_path / "ai").mkdir()
    (tmp_path / "ai" / "x.py").write_text(
        'from i18n import Message\nM = Message("ai.no_such_code", {})\n', encoding="utf-8")
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "x.js").write_text('t("page.nowhere"); t(`zzz.${a}`);\n',
                                           encoding="utf-8")
    found = problems(tmp_path)
    assert "ai/x.py:2: 'ai.no_such_code' is in no catalog" in found
    assert "web/x.js:1: 'page.nowhere' is in no catalog" in found
    assert "web/x.js:1: no code starts with 'zzz.'" in found


def test_numbers_are_written_the_language_s_way() -> None:
    m = Message("ai.approach", {"zombie": "Rôdeur 1", "target": "Hugo", "short": 5.62})
    assert render(m, "en") == "Rôdeur 1 moves toward Hugo: 5.6 in short after this move"
    assert "5,6 ps" in render(m, "fr")
    c = Message("ai.chances", {"before": 0.25, "after": 0.375, "alternative": 0.3})
    assert "38%" in render(c, "en") and "25%" in render(c, "en")
    assert "38\xa0%" in render(c, "fr")


def test_names_nested_messages_and_lists_follow_the_language() -> None:
    walker = {"fr": "Rôdeur 3", "en": "Walker 3"}
    strike = Message("ai.strike", {"zombie": walker, "target": "Hugo", "ap": 2,
                                   "p_die": 1 / 3, "p_down": 0.61})
    assert render(strike, "fr").startswith("Rôdeur 3 frappe Hugo avec 2 PA")
    assert render(strike, "en").startswith("Walker 3 strikes Hugo with 2 AP")
    turning = Message("ai.turning", {"turn": 4, "what": strike.to_json(),
                                     "before": 0.5, "after": 0.2})
    assert render(turning, "fr").startswith("au tour 4, Rôdeur 3 frappe")
    assert render_text("ai.fate.down", {"figure": ["Léa", "Hugo", "Inès"]}, "fr") \
        .startswith("Léa, Hugo et Inès")
    assert render_text("ai.fate.down", {"figure": ["Léa", "Hugo", "Inès"]}, "en") \
        .startswith("Léa, Hugo, and Inès")


def test_a_message_survives_json() -> None:
    m = Message("ai.turning", {"turn": 2, "what": Message("ai.fate.turn", {"turn": 2}),
                               "before": 0.4, "after": 0.3})
    again = Message.from_json(m.to_json())
    assert render(again, "fr") == render(m, "fr") and render(again) == render(m)


def test_an_unknown_code_shows_as_itself_and_an_unknown_language_is_english() -> None:
    assert render(Message("ai.unknown")) == "ai.unknown"
    assert render(Message("ai.decline"), "de") == render(Message("ai.decline"), "en")


@pytest.mark.parametrize(("wanted", "lang"), [
    ("fr-FR", "fr"), ("fr_CA", "fr"), ("en-GB", "en"), ("de", "en"), (None, "en"),
    (["de-DE", "fr"], "fr"), ("", "en")])
def test_the_language_is_the_first_one_with_a_catalog(wanted: object, lang: str) -> None:
    assert language_of(wanted) == lang  # type: ignore[arg-type]


def test_both_catalogs_hold_the_same_codes() -> None:
    assert set(catalog("fr")) == set(catalog("en"))
    assert all(lang in LANGS for lang in ("fr", "en")) and (ROOT / "i18n").is_dir()


def test_a_code_is_added_in_both_languages_and_only_once(tmp_path: Path) -> None:
    from i18n.check import raw_catalog
    from i18n.edit import EditError, add

    add("engine", "engine.x", {"en": 'moves "far"', "fr": "va loin : {d:in}"}, locale=tmp_path)
    add("engine", "engine.y", {"en": "b", "fr": "b"}, locale=tmp_path)
    assert raw_catalog("fr", tmp_path) == {"engine.x": "va loin : {d:in}", "engine.y": "b"}
    assert raw_catalog("en", tmp_path)["engine.x"] == 'moves "far"'
    with pytest.raises(EditError, match="already"):
        add("other", "engine.x", {"en": "c", "fr": "c"}, locale=tmp_path)
    with pytest.raises(EditError, match="each of"):
        add("engine", "engine.z", {"en": "c"}, locale=tmp_path)
    found = problems(tmp_path, tmp_path)
    assert "engine.x: the placeholders differ between languages: fr ['d']; en []" in found


def test_an_error_with_a_message_is_said_in_the_language_asked_for() -> None:
    from geometry.errors import SceneError

    error = SceneError(Message("ai.decline"), "figures[0]")
    assert error.message == str(error) == render(Message("ai.decline"), "en")
    body = error.to_json("fr")["error"]
    assert body["message"] == render(Message("ai.decline"), "fr") != error.message
    assert body["words"] == {"code": "ai.decline", "params": {}}
    assert body["where"] == "figures[0]" and body["code"] == "invalid_scene"
    plain = SceneError("bad polygon", "terrain[1]").to_json("fr")["error"]
    assert plain["message"] == "bad polygon" and "words" not in plain


def test_the_check_finds_english_written_where_a_message_belongs(tmp_path: Path) -> None:
    from i18n.check import plain_text

    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "x.py").write_text(
        "class SurviveUsError(Exception): ...\n"
        "class MoveError(SurviveUsError): ...\n"
        "class Other(Exception): ...\n"
        "def f(game, n):\n"
        "    game.note(f'{n} falls')\n"
        "    game.note(Message('engine.falls', {}))\n"
        "    raise MoveError('too far: ' + str(n))\n"
        "def g():\n"
        "    raise Other('for programmers')\n", encoding="utf-8")
    assert list(plain_text(tmp_path)) == [
        "rules/x.py:5: note(...) is given English text, not a message",
        "rules/x.py:7: MoveError(...) is given English text, not a message"]


def test_a_place_name_inside_a_sentence_takes_a_lowercase_article() -> None:
    square = {"fr": "La place du cratère", "en": "The crater square"}
    assert render_text("ai.guard", {"zombie": "Rôdeur 3", "place": square}, "fr") \
        == "Rôdeur 3 va garder la place du cratère"
    assert render_text("ai.guard", {"zombie": "Walker 3", "place": square}, "en") \
        == "Walker 3 moves to guard the crater square"
    pad = {"fr": "L'hélisurface", "en": "The landing zone"}
    assert render_text("ai.guard", {"zombie": "Rôdeur 3", "place": pad}, "fr").endswith(
        "garder l'hélisurface")
    # first in a sentence, after a colon, or quoted as a title, the name keeps its capital
    card = {"fr": "Le dernier hélico", "en": "The last helicopter"}
    assert render_text("campaign.roll.consequence", {"scenario": card}, "fr") \
        == "conséquence de « Le dernier hélico »"
    assert render_text("service.explain.grazed", {"a": pad, "b": "Lucas", "p": 0.0},
                       "fr").startswith("L'hélisurface")
    # French contracts de + le, à + les before the name
    garage = {"fr": "Le garage", "en": "The garage"}
    assert "du bord du garage" in render_text("ai.why.stage", {
        "zombie": "Rôdeur 3", "out": 2.0, "place": garage, "d": 3.5, "have": 0, "able": 1,
        "theirs": 7}, "fr")
    # and elides "de" before a vowel: "du chemin d'Inès"
    assert "du chemin d'Inès" in render_text("ai.block", {
        "zombie": "Rôdeur 26", "target": {"fr": "Inès", "en": "Inès"}, "goal": 1.0}, "fr")


# i18n.numbers writes our three number formats without Babel (whose locale data costs about
# 10 ms a process to load): they must stay Babel's to the character.
EDGES = [0.0, -0.0, 0.005, 0.015, 0.025, 0.125, 0.25, 0.35, 2.675, -0.04, 0.5, 1.5, -2.5,
         999.95, 1234.5, 12345.55, 1e-20, 1e-7, 1 / 3, 0.338162291433862, 99999999999999.9,
         1e15, 1e300, -7, 0, 12345678, 10**20]


def _babel(value: float, spec: str | None, lang: str) -> str:
    """Babel's text, its decimal arithmetic given every digit the number has (its default 28
    refused 1e27 and beyond, which made an error naming such a number a 500)."""
    import decimal

    from babel.numbers import format_decimal, format_percent

    with decimal.localcontext() as context:
        context.prec = 1000
        if spec == "pct":
            return str(format_percent(value, locale=lang))
        if spec == "int":
            return str(format_decimal(round(value), locale=lang))
        return str(format_decimal(value, format="#,##0.0", locale=lang))


def _ours(value: float, spec: str | None, lang: str) -> str:
    from i18n.message import _number

    return _number.__wrapped__(value, spec, lang)


def _same_as_babel(value: float, spec: str | None, lang: str) -> None:
    """Ours equals Babel's text, whatever the number's size."""
    kind = spec or ("int" if isinstance(value, int) else "num")
    assert _ours(value, spec, lang) == _babel(value, kind, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("spec", ["pct", "int", "num", None])
@pytest.mark.parametrize("value", EDGES)
def test_numbers_are_written_as_babel_writes_them(value: float, spec: str | None,
                                                   lang: str) -> None:
    _same_as_babel(value, spec, lang)


def test_numbers_in_every_range_are_written_as_babel_writes_them() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=2000, deadline=None, derandomize=True)
    @given(st.one_of(st.floats(allow_nan=False, allow_infinity=False, width=64),
                     st.floats(-1e6, 1e6), st.floats(-2.0, 2.0),
                     st.integers(-10**17, 10**17).map(lambda n: n / 1000),
                     st.integers(-10**7, 10**7).map(lambda n: n / 200),
                     st.integers(-10**16, 10**16)),
           st.sampled_from(["pct", "int", "num", None]), st.sampled_from(LANGS))
    def check(value: float, spec: str | None, lang: str) -> None:
        _same_as_babel(value, spec, lang)

    check()
