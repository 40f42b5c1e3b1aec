"""The settings players may change where the rulebook is silent (docs/rules.md, Decisions).

Each field's name is the setting's name in docs/rules.md; its default is the decision taken
there. `Settings.from_json` checks names and values and says what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from geometry.errors import SurviveUsError, shown
from i18n import Message

__all__ = ["Settings", "SettingsError", "DEFAULT_SETTINGS", "LEGACY"]


class SettingsError(SurviveUsError, ValueError):
    code = "invalid_settings"


@dataclass(frozen=True, kw_only=True)
class Settings:
    leave_melee_free_attack: bool = True
    intelligence_tests: Literal["scenario", "off"] = "scenario"
    protection_effects: Literal["standard", "cosmetic"] = "standard"
    skill_cost: Literal["per_skill"] | int = "per_skill"
    melee_ap_cap: Literal["attack", "one"] = "attack"
    two_ap_reaction: Literal["after", "before", "off"] = "after"
    two_ap_reaction_scope: Literal["two_or_more", "fixed_cost"] = "two_or_more"
    carry_move_penalty: Literal["per_inch"] | int = 1
    down_at_end: Literal["roll", "survive", "die"] = "roll"
    ap_pool_counts: Literal["standing", "all"] = "standing"
    prof_skills: Literal["added", "printed"] = "added"
    once_per_game_scope: Literal["scenario", "campaign"] = "campaign"
    hysterique_mover: Literal["survivors", "zombies"] = "survivors"
    extremiste_move: Literal["optional", "mandatory"] = "optional"
    track_ammunition: bool = True
    rarity_scope: Literal["selection", "always"] = "selection"
    allow_pass: bool = False
    down_survivor_death: Literal["unsaved_wound", "never"] = "never"
    contamination_counts_as_death: bool = True
    surrounded_friend_rule: Literal["closer_than_third_zombie", "within_3"] = (
        "closer_than_third_zombie"
    )
    contaminated_equipment: Literal["lost", "dropped"] = "lost"
    weather: Literal["roll", "clear"] | str = "roll"
    zombie_deployment: Literal["roll", "card"] = "roll"
    zombie_points: Literal["band_cost"] | int = "band_cost"
    victory_counts: Literal["starting_members", "any_members"] = "starting_members"
    variant_survivor_shooting_save: Literal[6, 5, "none"] = 6
    multi_zombie_players: Literal["shared_pool", "separate_pools"] = "shared_pool"
    friendly_fire: Literal[False, "on_natural_1"] = False
    self_heal: bool = True
    revive_needs_healing_item: bool = False
    wounds_carry_over: bool = True
    band_points_limit: int | None = None
    two_attacks_per_ap: Literal["always", "within_attack"] = "always"
    chirurgien_items: Literal["any_friend", "in_contact"] = "any_friend"
    panic_friend_falls: Literal["out_of_action", "death"] = "out_of_action"
    camera_corners_clear: bool = True

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_record(cls, data: Any, where: str = "settings") -> Settings:
        """The settings a saved game or campaign was played under.

        A record holds every setting (`to_json`); one it lacks did not exist when it was
        saved, so it takes the value that was then the rule (`LEGACY`), not today's default,
        and the record replays exactly."""
        if isinstance(data, Mapping):
            data = {**{k: v for k, v in LEGACY.items() if k not in data}, **data}
        return cls.from_json(data, where)

    @classmethod
    def from_json(cls, data: Any, where: str = "settings") -> Settings:
        """Settings from a mapping of changed values; unknown names and bad values rejected."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise SettingsError(Message("refusal.settings.not_object", {
                "where": where, "value": shown(data)}), where)
        hints = get_type_hints(cls)
        names = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in names:
                raise SettingsError(Message("refusal.settings.unknown", {
                    "where": where, "setting": str(key)}), f"{where}.{key}")
            allowed = _allowed(hints[key])
            if not _accepts(allowed, value):
                raise SettingsError(Message("refusal.settings.not_allowed", {
                    "setting": str(key), "value": shown(value),
                    "allowed": ", ".join(allowed)}), f"{where}.{key}")
            values[key] = value
        return cls(**values)


def _allowed(hint: Any) -> list[str]:
    """Readable allowed values of a setting's type, e.g. ["'after'", "'off'", 'true or false']."""
    if get_origin(hint) is Literal:
        return [str(v).lower() if isinstance(v, bool) else repr(v) for v in get_args(hint)]
    if get_origin(hint) in (Union, UnionType):
        return [text for option in get_args(hint) for text in _allowed(option)]
    names = {bool: "true or false", int: "a whole number >= 0", str: "a card's fixed value"}
    return [names.get(hint, "null")]


def _accepts(allowed: list[str], value: Any) -> bool:
    if isinstance(value, bool):
        return "true or false" in allowed or str(value).lower() in allowed
    if isinstance(value, int):
        return "a whole number >= 0" in allowed and value >= 0 or repr(value) in allowed
    if value is None:
        return "null" in allowed
    if isinstance(value, str):
        return repr(value) in allowed or "a card's fixed value" in allowed
    return False


DEFAULT_SETTINGS = Settings()

LEGACY: dict[str, Any] = {
    # Defaults changed by the rulings of issue 12 (docs/rules.md R1-R6): the value a record
    # saved before them was played with, should it lack the setting.
    "allow_pass": True,
    "down_survivor_death": "unsaved_wound",
    "once_per_game_scope": "scenario",
    # Settings added by those rulings: what the engine did before they existed.
    "two_attacks_per_ap": "within_attack",
    "chirurgien_items": "in_contact",
    "panic_friend_falls": "death",
    # Added by issue 16 (docs/rules.md D41): set-ups and arrivals did not keep the camera's
    # corner markers clear before.
    "camera_corners_clear": False,
}
