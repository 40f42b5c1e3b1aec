"""Settings: defaults are the documented decisions; bad names and values are named."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from rules.settings import Settings, SettingsError

RULES_MD = (Path(__file__).parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [f.name for f in fields(Settings)])
def test_every_setting_is_documented(name: str) -> None:
    assert re.search(rf"`{name}`", RULES_MD), f"{name} missing from docs/rules.md"


def test_round_trip() -> None:
    s = Settings.from_json({"skill_cost": 1, "two_ap_reaction": "off", "band_points_limit": 60})
    assert Settings.from_json(s.to_json()) == s
    assert Settings.from_json(None) == Settings()


@pytest.mark.parametrize(
    ("data", "where", "words"),
    [
        ({"skill_cost": "x"}, "settings.skill_cost", "'per_skill', a whole number"),
        ({"foo": 1}, "settings.foo", "no setting “foo”"),
        ({"two_ap_reaction": "sometimes"}, "settings.two_ap_reaction", "'after', 'before'"),
        ({"leave_melee_free_attack": 1}, "settings.leave_melee_free_attack", "true or false"),
        ({"band_points_limit": -3}, "settings.band_points_limit", "cannot be -3"),
        ([], "settings", "are an object of names and values"),
    ],
)
def test_bad_settings(data: object, where: str, words: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_json(data)
    assert caught.value.where == where and words in caught.value.message
    assert caught.value.words is not None and caught.value.words.code.startswith(
        "refusal.settings.")
