"""The campaign record's plain-data types and their JSON (D37).

Frozen values that round-trip through JSON: `Campaign` (the whole record), `MemberState` (one
member between scenarios), `GameResult` / `FigureResult` (what a finished game tells the
campaign) and the history entries `Played`, `Fate`, `Effect`, `ConsequenceRoll`. `from_json`
checks every field and raises `CampaignError` naming the first bad one ("band[2].pv").
The rules that change them are in `scenarios/campaign_record.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, TypeVar

from geometry.errors import SurviveUsError
from i18n import Message
from rules.catalog import Catalog, load_catalog
from rules.settings import Settings
from rules.warband import Member, Roster
from scenarios.campaign import (
    MAX_LENGTH,
    MIN_LENGTH,
    SAVED_MIN_LENGTH,
    CampaignDraw,
    CampaignError,
    DrawRoll,
)
from scenarios.cards import Card, load_cards

__all__ = [
    "FORMAT",
    "VERSION",
    "MemberStatus",
    "EndStatus",
    "Winner",
    "Source",
    "Recovery",
    "WINNERS",
    "MemberState",
    "FigureResult",
    "GameResult",
    "Fate",
    "Effect",
    "ConsequenceRoll",
    "Played",
    "Campaign",
    "bad",
    "unique",
]

FORMAT = "survive-us/campaign"
VERSION = 1

MemberStatus: TypeAlias = Literal["alive", "dead", "contaminated", "lost"]
EndStatus: TypeAlias = Literal["standing", "down", "dead", "contaminated", "evacuated", "absent"]
Winner: TypeAlias = Literal["survivors", "zombies", "draw"]
Source: TypeAlias = Literal["reward", "consequence"]
Recovery: TypeAlias = Literal["contact", "carried", "roll", "survive", "die"]
MEMBER_STATUSES: tuple[MemberStatus, ...] = ("alive", "dead", "contaminated", "lost")
END_STATUSES: tuple[EndStatus, ...] = (
    "standing", "down", "dead", "contaminated", "evacuated", "absent")
WINNERS: tuple[Winner, ...] = ("survivors", "zombies", "draw")
SOURCES: tuple[Source, ...] = ("reward", "consequence")
RECOVERIES: tuple[Recovery, ...] = ("contact", "carried", "roll", "survive", "die")
CHOOSERS: tuple[Literal["dice", "zombies", "survivors"], ...] = ("dice", "zombies", "survivors")
TABLES: tuple[Literal["regular", "conclusive"], ...] = ("regular", "conclusive")
T = TypeVar("T")
Counts: TypeAlias = dict[str, int]
Words: TypeAlias = Mapping[str, Any]  # a message's JSON: {"code": ..., "params": {...}}


# =============================================================================================
# The record


@dataclass(frozen=True)
class MemberState:
    """One member of the band between scenarios.

    `member` holds the roster entry as it is now (equipment carried now, second skill);
    `units` the rounds, cocktails and heals left in the items that count uses (D15); `pv` the
    PV kept (D30); `starting` whether it was in the starting band (D22); `joined` how many
    scenarios had been played when it joined; `left` the scenario (1-based) in which it left
    the band, `cause` why, and `inflicted_by` the zombie player credited with the loss (D24);
    `used_once` the once-per-game skills spent, kept only with `once_per_game_scope`
    "campaign". `cause_words` is the cause as a message (`i18n`: code and parameters) for a
    person, `cause` its English; records saved before messages have `cause` alone.
    """

    member: Member
    pv: int
    status: MemberStatus = "alive"
    units: Mapping[str, int] = field(default_factory=dict)
    starting: bool = True
    joined: int = 0
    left: int | None = None
    cause: str = ""
    inflicted_by: str | None = None
    used_once: tuple[str, ...] = ()
    cause_words: Words | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", dict(self.units))

    @property
    def id(self) -> str:
        return self.member.id

    @property
    def alive(self) -> bool:
        return self.status == "alive"

    def label(self) -> str:
        return f"{self.member.name or self.member.archetype} {self.id}"

    def to_json(self) -> dict[str, Any]:
        out = {**self.member.to_json(), "status": self.status, "pv": self.pv,
               "units": dict(self.units), "starting": self.starting, "joined": self.joined,
               "left": self.left, "cause": self.cause, "inflicted_by": self.inflicted_by,
               "used_once": list(self.used_once)}
        if self.cause_words is not None:
            out["cause_words"] = dict(self.cause_words)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str) -> MemberState:
        state_keys = ("status", "pv", "units", "starting", "joined", "left", "cause",
                      "inflicted_by", "used_once", "cause_words")
        obj = _object(data, where, required=("id", "archetype", "status", "pv"),
                      optional=("sex", "name", "skill", "second_skill", "equipment",
                                *state_keys[2:]))
        member = _member({k: v for k, v in obj.items() if k not in state_keys}, where)
        return cls(
            member=member,
            pv=_int(obj["pv"], f"{where}.pv", low=0),
            status=_choice(obj["status"], f"{where}.status", MEMBER_STATUSES),
            units=_counts(obj.get("units"), f"{where}.units", low=0),
            starting=_bool(obj.get("starting", True), f"{where}.starting"),
            joined=_int(obj.get("joined", 0), f"{where}.joined", low=0),
            left=_opt_int(obj.get("left"), f"{where}.left", low=1),
            cause=_text(obj.get("cause", ""), f"{where}.cause", empty=True),
            inflicted_by=_opt_text(obj.get("inflicted_by"), f"{where}.inflicted_by"),
            used_once=tuple(_texts(obj.get("used_once", []), f"{where}.used_once")),
            cause_words=_words(obj.get("cause_words"), f"{where}.cause_words"),
        )


@dataclass(frozen=True)
class FigureResult:
    """One band figure at the end of a game: `status` as the game left it (a contaminated
    survivor is `contaminated`), what it carries, who put it down (a figure id), and for a
    down figure whether a standing friend is in base contact (D8)."""

    id: str
    status: EndStatus
    pv: int
    items: Mapping[str, int] = field(default_factory=dict)
    units: Mapping[str, int] = field(default_factory=dict)
    downed_by: str = ""
    friend_in_contact: bool = False
    used_once: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", dict(self.items))
        object.__setattr__(self, "units", dict(self.units))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "pv": self.pv, "items": dict(self.items),
                "units": dict(self.units), "downed_by": self.downed_by,
                "friend_in_contact": self.friend_in_contact, "used_once": list(self.used_once)}

    @classmethod
    def from_json(cls, data: Any, where: str) -> FigureResult:
        obj = _object(data, where, required=("id", "status"),
                      optional=("pv", "items", "units", "downed_by", "friend_in_contact",
                                "used_once"))
        status = _choice(obj["status"], f"{where}.status", END_STATUSES)
        return cls(
            id=_text(obj["id"], f"{where}.id"),
            status=status,
            pv=_int(obj.get("pv", 0), f"{where}.pv", low=0),
            items=_counts(obj.get("items"), f"{where}.items", low=1),
            units=_counts(obj.get("units"), f"{where}.units", low=0),
            downed_by=_text(obj.get("downed_by", ""), f"{where}.downed_by", empty=True),
            friend_in_contact=_bool(obj.get("friend_in_contact", False),
                                    f"{where}.friend_in_contact"),
            used_once=tuple(_texts(obj.get("used_once", []), f"{where}.used_once")),
        )


@dataclass(frozen=True)
class GameResult:
    """What a finished game tells the campaign: the scenario, who won, and the band's figures.
    `zombie_players` maps zombie figure ids to the zombie player controlling them (D24).
    `reason_words` is the game's reason as a message (the outcome's `words`), `names` what a
    person calls the figures that put band members down (figure id -> {"fr", "en"})."""

    scenario: str
    winner: Winner
    figures: tuple[FigureResult, ...]
    reason: str = ""
    turn: int = 0
    zombie_players: Mapping[str, str] = field(default_factory=dict)
    reason_words: Words | None = None
    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "figures", tuple(self.figures))
        object.__setattr__(self, "zombie_players", dict(self.zombie_players))
        object.__setattr__(self, "names", dict(self.names))

    def figure(self, figure_id: str) -> FigureResult | None:
        return next((f for f in self.figures if f.id == figure_id), None)

    def to_json(self) -> dict[str, Any]:
        out = {"scenario": self.scenario, "winner": self.winner, "reason": self.reason,
               "turn": self.turn, "figures": [f.to_json() for f in self.figures],
               "zombie_players": dict(self.zombie_players)}
        if self.reason_words is not None:
            out["reason_words"] = dict(self.reason_words)
        if self.names:
            out["names"] = {k: dict(v) for k, v in self.names.items()}
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "result") -> GameResult:
        obj = _object(data, where, required=("scenario", "winner", "figures"),
                      optional=("reason", "turn", "zombie_players", "reason_words", "names"))
        figures = [FigureResult.from_json(f, f"{where}.figures[{i}]")
                   for i, f in enumerate(_list(obj["figures"], f"{where}.figures"))]
        unique([f.id for f in figures], f"{where}.figures", "id")
        players = obj.get("zombie_players") or {}
        if not isinstance(players, Mapping):
            raise bad(f"{where}.zombie_players", Message("campaign.expected.player_map"), players)
        return cls(
            scenario=_text(obj["scenario"], f"{where}.scenario"),
            winner=_choice(obj["winner"], f"{where}.winner", WINNERS),
            figures=tuple(figures),
            reason=_text(obj.get("reason", ""), f"{where}.reason", empty=True),
            turn=_int(obj.get("turn", 0), f"{where}.turn", low=0),
            zombie_players={_text(k, f"{where}.zombie_players"):
                            _text(v, f"{where}.zombie_players.{k}")
                            for k, v in players.items()},
            reason_words=_words(obj.get("reason_words"), f"{where}.reason_words"),
            names=_names(obj.get("names"), f"{where}.names"),
        )


@dataclass(frozen=True)
class Fate:
    """What a scenario did to one member: its status at the end of the game, what it became
    (after the D8 roll), its PV, the D8 roll if any (`recovery` says how it got up or died),
    the equipment it found and lost, and who is credited with its loss."""

    member: str
    end_status: EndStatus
    status: MemberStatus
    pv: int
    recovery: Recovery | None = None
    roll: int | None = None
    found: Mapping[str, int] = field(default_factory=dict)
    lost: Mapping[str, int] = field(default_factory=dict)
    downed_by: str = ""
    inflicted_by: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "found", dict(self.found))
        object.__setattr__(self, "lost", dict(self.lost))

    def to_json(self) -> dict[str, Any]:
        return {"member": self.member, "end_status": self.end_status, "status": self.status,
                "pv": self.pv, "recovery": self.recovery, "roll": self.roll,
                "found": dict(self.found), "lost": dict(self.lost), "downed_by": self.downed_by,
                "inflicted_by": self.inflicted_by}

    @classmethod
    def from_json(cls, data: Any, where: str) -> Fate:
        obj = _object(data, where, required=("member", "end_status", "status", "pv"),
                      optional=("recovery", "roll", "found", "lost", "downed_by",
                                "inflicted_by"))
        recovery = obj.get("recovery")
        return cls(
            member=_text(obj["member"], f"{where}.member"),
            end_status=_choice(obj["end_status"], f"{where}.end_status", END_STATUSES),
            status=_choice(obj["status"], f"{where}.status", MEMBER_STATUSES),
            pv=_int(obj["pv"], f"{where}.pv", low=0),
            recovery=None if recovery is None else _choice(recovery, f"{where}.recovery",
                                                           RECOVERIES),
            roll=_opt_int(obj.get("roll"), f"{where}.roll", low=1, high=6),
            found=_counts(obj.get("found"), f"{where}.found", low=1),
            lost=_counts(obj.get("lost"), f"{where}.lost", low=1),
            downed_by=_text(obj.get("downed_by", ""), f"{where}.downed_by", empty=True),
            inflicted_by=_opt_text(obj.get("inflicted_by"), f"{where}.inflicted_by"),
        )


@dataclass(frozen=True)
class Effect:
    """One consequence or reward as applied: the card's entry (`consequence`, its JSON), the
    members concerned, the items moved, and a sentence saying what happened: `words` as a
    message (`i18n`: code and parameters, said in the reader's language), `text` its
    English. Records saved before messages have `text` alone."""

    type: str
    source: Source
    text: str
    consequence: Mapping[str, Any] = field(default_factory=dict)
    members: tuple[str, ...] = ()
    items: Mapping[str, int] = field(default_factory=dict)
    words: Words | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "consequence", dict(self.consequence))
        object.__setattr__(self, "items", dict(self.items))

    @classmethod
    def said(cls, type_: str, source: Source, words: Message, consequence: Mapping[str, Any],
             **more: Any) -> Effect:
        """An effect said by its message; `text` is its English."""
        return cls(type_, source, words.text("en"), consequence, words=words.to_json(), **more)

    def to_json(self) -> dict[str, Any]:
        out = {"type": self.type, "source": self.source, "text": self.text,
               "consequence": dict(self.consequence), "members": list(self.members),
               "items": dict(self.items)}
        if self.words is not None:
            out["words"] = dict(self.words)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str) -> Effect:
        obj = _object(data, where, required=("type", "source", "text"),
                      optional=("consequence", "members", "items", "words"))
        consequence = obj.get("consequence") or {}
        if not isinstance(consequence, Mapping):
            raise bad(f"{where}.consequence", Message("campaign.expected.card_entry"),
                      consequence)
        return cls(
            type=_text(obj["type"], f"{where}.type"),
            source=_choice(obj["source"], f"{where}.source", SOURCES),
            text=_text(obj["text"], f"{where}.text", empty=True),
            consequence=dict(consequence),
            members=tuple(_texts(obj.get("members", []), f"{where}.members")),
            items=_counts(obj.get("items"), f"{where}.items", low=1),
            words=_words(obj.get("words"), f"{where}.words"),
        )


@dataclass(frozen=True)
class ConsequenceRoll:
    """The 1D6 consequence roll: the first die, the Prof's re-roll if made (`prof` is who
    made it; `reroll_asked` whether the player asked), the face that stands, and its effect."""

    first: int
    face: int
    effect: Effect
    second: int | None = None
    prof: str | None = None
    reroll_asked: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"first": self.first, "second": self.second, "prof": self.prof,
                "reroll_asked": self.reroll_asked, "face": self.face,
                "effect": self.effect.to_json()}

    @classmethod
    def from_json(cls, data: Any, where: str) -> ConsequenceRoll:
        obj = _object(data, where, required=("first", "face", "effect"),
                      optional=("second", "prof", "reroll_asked"))
        return cls(
            first=_int(obj["first"], f"{where}.first", low=1, high=6),
            face=_int(obj["face"], f"{where}.face", low=1, high=6),
            effect=Effect.from_json(obj["effect"], f"{where}.effect"),
            second=_opt_int(obj.get("second"), f"{where}.second", low=1, high=6),
            prof=_opt_text(obj.get("prof"), f"{where}.prof"),
            reroll_asked=_bool(obj.get("reroll_asked", False), f"{where}.reroll_asked"),
        )


@dataclass(frozen=True)
class Played:
    """One scenario played: who won, each member's fate, the rewards, the consequence roll,
    the band's cost afterwards, every die rolled between the scenarios (with its purpose) and
    the seed they came from."""

    number: int
    scenario: str
    winner: Winner
    fates: tuple[Fate, ...]
    consequence: ConsequenceRoll
    rewards: tuple[Effect, ...] = ()
    reason: str = ""
    band_cost: int = 0
    dice: tuple[tuple[str, int], ...] = ()
    seed: int | None = None
    notes: tuple[str, ...] = ()
    reason_words: Words | None = None
    notes_words: tuple[Words, ...] = ()
    dice_words: tuple[Words | None, ...] = ()  # each die's purpose as a message, if any

    def to_json(self) -> dict[str, Any]:
        dice: list[dict[str, Any]] = [{"purpose": p, "value": v} for p, v in self.dice]
        out = {"number": self.number, "scenario": self.scenario, "winner": self.winner,
               "reason": self.reason, "fates": [f.to_json() for f in self.fates],
               "rewards": [e.to_json() for e in self.rewards],
               "consequence": self.consequence.to_json(), "band_cost": self.band_cost,
               "dice": dice, "seed": self.seed, "notes": list(self.notes)}
        for entry, said in zip(dice, self.dice_words, strict=False):
            if said is not None:
                entry["words"] = dict(said)
        if self.reason_words is not None:
            out["reason_words"] = dict(self.reason_words)
        if self.notes_words:
            out["notes_words"] = [dict(n) for n in self.notes_words]
        return out

    @classmethod
    def from_json(cls, data: Any, where: str) -> Played:
        obj = _object(data, where, required=("number", "scenario", "winner", "fates",
                                             "consequence"),
                      optional=("reason", "rewards", "band_cost", "dice", "seed", "notes",
                                "reason_words", "notes_words"))
        dice = []
        dice_words: list[Words | None] = []
        for i, entry in enumerate(_list(obj.get("dice", []), f"{where}.dice")):
            at = f"{where}.dice[{i}]"
            die = _object(entry, at, required=("purpose", "value"), optional=("words",))
            dice.append((_text(die["purpose"], f"{at}.purpose"),
                         _int(die["value"], f"{at}.value", low=1, high=6)))
            dice_words.append(_words(die.get("words"), f"{at}.words"))
        return cls(
            number=_int(obj["number"], f"{where}.number", low=1),
            scenario=_text(obj["scenario"], f"{where}.scenario"),
            winner=_choice(obj["winner"], f"{where}.winner", WINNERS),
            fates=tuple(Fate.from_json(f, f"{where}.fates[{i}]")
                        for i, f in enumerate(_list(obj["fates"], f"{where}.fates"))),
            consequence=ConsequenceRoll.from_json(obj["consequence"], f"{where}.consequence"),
            rewards=tuple(Effect.from_json(e, f"{where}.rewards[{i}]")
                          for i, e in enumerate(_list(obj.get("rewards", []),
                                                      f"{where}.rewards"))),
            reason=_text(obj.get("reason", ""), f"{where}.reason", empty=True),
            band_cost=_int(obj.get("band_cost", 0), f"{where}.band_cost", low=0),
            dice=tuple(dice),
            seed=_opt_int(obj.get("seed"), f"{where}.seed"),
            notes=tuple(_texts(obj.get("notes", []), f"{where}.notes", empty=True)),
            reason_words=_words(obj.get("reason_words"), f"{where}.reason_words"),
            notes_words=tuple(
                w for i, n in enumerate(_list(obj.get("notes_words", []), f"{where}.notes_words"))
                if (w := _words(n, f"{where}.notes_words[{i}]")) is not None),
            dice_words=tuple(dice_words) if any(w is not None for w in dice_words) else (),
        )


@dataclass(frozen=True)
class Campaign:
    """A whole campaign as plain data (see the module docstring). `first_aid` lists the
    members given *premiers soins* since the last scenario (once each, D30)."""

    roster: Roster
    band: tuple[MemberState, ...]
    draw: CampaignDraw
    zombie_players: tuple[str, ...] = ("zombies",)
    settings: Settings = field(default_factory=Settings)
    next: int = 0
    history: tuple[Played, ...] = ()
    seed: int | None = None
    first_aid: tuple[str, ...] = ()

    # --- what it is now -------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """After the last scenario, or when no member is left alive."""
        return self.next >= len(self.draw.scenarios) or not self.alive_members()

    @property
    def next_scenario(self) -> str | None:
        return None if self.finished else self.draw.scenarios[self.next]

    def alive_members(self) -> tuple[MemberState, ...]:
        return tuple(m for m in self.band if m.alive)

    def member(self, member_id: str) -> MemberState:
        for state in self.band:
            if state.id == member_id:
                return state
        raise CampaignError(Message("campaign.error.no_member", {"member": member_id}),
                            "member")

    def current_roster(self) -> Roster:
        """The living members as a roster: to set up the next scenario and price the band."""
        return Roster(name=self.roster.name, members=tuple(m.member for m in self.band
                                                           if m.alive))

    def losses(self) -> dict[str, int]:
        """Members killed or contaminated, by the zombie player credited with each (D24)."""
        out = {player: 0 for player in self.zombie_players}
        for state in self.band:
            if state.status in ("dead", "contaminated") and state.inflicted_by in out:
                out[state.inflicted_by] += 1
        return out

    @property
    def dice_log(self) -> tuple[tuple[str, int], ...]:
        """Every die of the campaign: the draw's, then each scenario's aftermath."""
        draw = tuple((f"{r.table} scenario", r.die) for r in self.draw.rolls)
        return draw + tuple(d for played in self.history for d in played.dice)

    # --- JSON -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "seed": self.seed,
            "settings": self.settings.to_json(),
            "zombie_players": list(self.zombie_players),
            "roster": self.roster.to_json(),
            "draw": self.draw.to_json(),
            "next": self.next,
            "band": [m.to_json() for m in self.band],
            "history": [p.to_json() for p in self.history],
            "first_aid": list(self.first_aid),
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "", *, cards: Mapping[str, Card] | None = None,
                  catalog: Catalog | None = None) -> Campaign:
        """A campaign from parsed JSON; `CampaignError` names the first bad field."""
        obj = _object(data, where or "campaign",
                      required=("roster", "draw", "band"),
                      optional=("format", "version", "seed", "settings", "zombie_players",
                                "next", "history", "first_aid"), prefix=where)
        at = _at(where)
        if obj.get("format", FORMAT) != FORMAT:
            raise bad(at("format"), Message("campaign.expected.format", {"format": repr(FORMAT)}),
                      obj["format"])
        if obj.get("version", VERSION) != VERSION:
            raise bad(at("version"), Message("campaign.expected.version", {"n": VERSION}),
                      obj["version"])
        try:
            settings = Settings.from_record(obj.get("settings"), at("settings"))
            roster = Roster.from_json(obj["roster"], at("roster"))
        except SurviveUsError as error:
            raise CampaignError(error.words or error.message, error.where) from None
        players = tuple(_texts(obj.get("zombie_players", ["zombies"]), at("zombie_players")))
        if not players:
            raise bad(at("zombie_players"), Message("campaign.expected.players"), [])
        unique(list(players), at("zombie_players"), "name")
        band = tuple(MemberState.from_json(m, f"{at('band')}[{i}]")
                     for i, m in enumerate(_list(obj["band"], at("band"))))
        history = tuple(Played.from_json(p, f"{at('history')}[{i}]")
                        for i, p in enumerate(_list(obj.get("history", []), at("history"))))
        campaign = cls(
            roster=roster,
            band=band,
            draw=_draw_from_json(obj["draw"], at("draw")),
            zombie_players=players,
            settings=settings,
            next=_int(obj.get("next", 0), at("next"), low=0),
            history=history,
            seed=_opt_int(obj.get("seed"), at("seed")),
            first_aid=tuple(_texts(obj.get("first_aid", []), at("first_aid"))),
        )
        _check_campaign(campaign, at, cards or load_cards(), catalog or load_catalog())
        return campaign


def _check_campaign(c: Campaign, at: Callable[[str], str], cards: Mapping[str, Card],
                    catalog: Catalog) -> None:
    """Cross-checks: scenario ids, member ids, archetypes, items, history against the draw."""
    for i, scenario in enumerate(c.draw.scenarios):
        if scenario not in cards:
            raise bad(f"{at('draw')}.scenarios[{i}]", Message("campaign.expected.scenario", {
                "known": ", ".join(cards)}),
                       scenario)
        kind = "conclusive" if i == len(c.draw.scenarios) - 1 else "regular"
        if cards[scenario].kind != kind:
            raise bad(f"{at('draw')}.scenarios[{i}]", Message("campaign.expected.conclusive")
                      if kind == "conclusive" else Message("campaign.expected.regular"), scenario)
    unique(list(c.draw.scenarios), f"{at('draw')}.scenarios", "scenario")
    ids = [m.id for m in c.band]
    unique(ids, at("band"), "id")
    for i, state in enumerate(c.band):
        where = f"{at('band')}[{i}]"
        archetype = catalog.archetypes.get(state.member.archetype)
        if archetype is None:
            raise bad(f"{where}.archetype", Message("campaign.expected.archetype"),
                      state.member.archetype)
        if state.pv > archetype.wounds:
            raise bad(f"{where}.pv", Message("campaign.expected.pv_max", {"n": archetype.wounds}),
                       state.pv)
        if state.alive and state.pv < 1:
            raise bad(f"{where}.pv", Message("campaign.expected.pv_alive"), state.pv)
        for key, counts in (("equipment", state.member.equipment), ("units", state.units)):
            for item in counts:
                if item not in catalog.equipment:
                    raise bad(f"{where}.{key}.{item}", Message("campaign.expected.item"), item)
        if state.inflicted_by is not None and state.inflicted_by not in c.zombie_players:
            raise bad(f"{where}.inflicted_by", Message("campaign.expected.player", {
                "players": repr(list(c.zombie_players))}), state.inflicted_by)
    starting = [m.id for m in c.roster.members]
    if [m.id for m in c.band if m.starting] != starting:
        raise CampaignError(Message("campaign.json.starting", {
            "field": at("band"), "members": repr(starting)}), at("band"))
    if c.next > len(c.draw.scenarios):
        raise bad(at("next"), Message("campaign.expected.next", {"n": len(c.draw.scenarios)}),
                  c.next)
    if len(c.history) != c.next:
        raise CampaignError(Message("campaign.json.history", {
            "field": at("history"), "n": len(c.history), "next": c.next}), at("history"))
    for i, played in enumerate(c.history):
        if played.scenario != c.draw.scenarios[i] or played.number != i + 1:
            raise bad(f"{at('history')}[{i}].scenario", Message("campaign.expected.drawn", {
                "n": i + 1, "scenario": repr(c.draw.scenarios[i])}), played.scenario)
    for i, member_id in enumerate(c.first_aid):
        if member_id not in ids:
            raise bad(f"{at('first_aid')}[{i}]", Message("campaign.expected.member"), member_id)


def _draw_from_json(data: Any, where: str) -> CampaignDraw:
    obj = _object(data, where, required=("scenarios", "final_roll", "final_chosen_by"),
                  optional=("rolls", "choice_pending", "final_choice"))
    scenarios = _texts(obj["scenarios"], f"{where}.scenarios")
    if not SAVED_MIN_LENGTH <= len(scenarios) <= MAX_LENGTH:
        raise bad(f"{where}.scenarios", Message("campaign.expected.length", {
            "min": MIN_LENGTH, "max": MAX_LENGTH}), scenarios)
    by = _choice(obj["final_chosen_by"], f"{where}.final_chosen_by", CHOOSERS)
    rolls = []
    for i, raw in enumerate(_list(obj.get("rolls", []), f"{where}.rolls")):
        at = f"{where}.rolls[{i}]"
        roll = _object(raw, at, required=("table", "die"),
                       optional=("scenario", "rerolled", "chosen_by"))
        rolls.append(DrawRoll(
            table=_choice(roll["table"], f"{at}.table", TABLES),
            die=_int(roll["die"], f"{at}.die", low=1, high=6),
            scenario=_opt_text(roll.get("scenario"), f"{at}.scenario"),
            rerolled=_bool(roll.get("rerolled", False), f"{at}.rerolled"),
            chosen_by=_choice(roll.get("chosen_by", "dice"), f"{at}.chosen_by", CHOOSERS)))
    options: list[str] = []
    choice = obj.get("final_choice")
    if choice is not None:
        choice_obj = _object(choice, f"{where}.final_choice", required=("options",),
                             optional=("by", "placeholder", "default"))
        options = _texts(choice_obj["options"], f"{where}.final_choice.options")
    pending = _bool(obj.get("choice_pending", False), f"{where}.choice_pending")
    if by != "dice" and not options:
        raise CampaignError(Message("campaign.json.final_choice", {
            "field": f"{where}.final_choice"}), f"{where}.final_choice")
    return CampaignDraw(scenarios=tuple(scenarios),
                        final_roll=_int(obj["final_roll"], f"{where}.final_roll", low=1, high=6),
                        final_chosen_by=by, rolls=tuple(rolls), choice_pending=pending,
                        options=tuple(options))


# =============================================================================================
# Reading plain data


def _at(prefix: str) -> Callable[[str], str]:
    return lambda key: f"{prefix}.{key}" if prefix else key


def bad(where: str, expected: Message, value: Any) -> CampaignError:
    """A field of the record that is not what it must be: its path, what it must be (a
    `campaign.expected.*` message), what it was."""
    return CampaignError(Message("campaign.json.bad", {
        "field": where, "expected": expected, "value": repr(value)}), where)


def _object(data: Any, where: str, *, required: Sequence[str] = (),
            optional: Sequence[str] = (), prefix: str | None = None) -> dict[str, Any]:
    """`data` as a dict with its `required` keys and no key outside `required + optional`."""
    at = _at(where if prefix is None else prefix)
    if not isinstance(data, Mapping):
        raise bad(where, Message("campaign.expected.object"), data)
    allowed = (*required, *optional)
    for key in data:
        if key not in allowed:
            raise CampaignError(Message("campaign.json.unknown_field", {
                "field": at(str(key)), "allowed": ", ".join(allowed)}), at(str(key)))
    for key in required:
        if key not in data:
            raise CampaignError(Message("campaign.json.missing", {"field": at(key)}), at(key))
    return dict(data)


def _member(data: dict[str, Any], where: str) -> Member:
    try:
        return Member.from_json(data, where)
    except SurviveUsError as error:
        raise CampaignError(error.words or error.message, error.where) from None


def _text(value: Any, where: str, *, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise bad(where, Message("campaign.expected.string") if empty
                  else Message("campaign.expected.text"), value)
    return value


def _opt_text(value: Any, where: str) -> str | None:
    return None if value is None else _text(value, where)


def _texts(value: Any, where: str, *, empty: bool = False) -> list[str]:
    return [_text(v, f"{where}[{i}]", empty=empty) for i, v in enumerate(_list(value, where))]


def _int(value: Any, where: str, *, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(where, Message("campaign.expected.int"), value)
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"{low if low is not None else ''}..{high if high is not None else ''}"
        raise bad(where, Message("campaign.expected.int_in", {"span": span}), value)
    return value


def _opt_int(value: Any, where: str, *, low: int | None = None,
             high: int | None = None) -> int | None:
    return None if value is None else _int(value, where, low=low, high=high)


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise bad(where, Message("campaign.expected.bool"), value)
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise bad(where, Message("campaign.expected.list"), value)
    return value


def _choice(value: Any, where: str, options: Sequence[T]) -> T:
    for option in options:
        if value == option and type(value) is type(option):
            return option
    raise bad(where, Message("campaign.expected.one_of", {
        "options": ", ".join(repr(o) for o in options)}), value)


def _words(value: Any, where: str) -> Words | None:
    """A message's JSON (`{"code", "params"}`), or None when absent."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or not isinstance(value.get("code"), str) \
            or not isinstance(value.get("params", {}), Mapping) \
            or set(value) - {"code", "params"}:
        raise bad(where, Message("campaign.expected.message"), value)
    return {"code": value["code"], "params": dict(value.get("params") or {})}


def _names(value: Any, where: str) -> dict[str, dict[str, str]]:
    """Figure id -> its name in French and English."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise bad(where, Message("campaign.expected.names"), value)
    out: dict[str, dict[str, str]] = {}
    for key, name in value.items():
        if not isinstance(name, Mapping) or not all(
                isinstance(name.get(k), str) for k in ("fr", "en")):
            raise bad(f"{where}.{key}", Message("campaign.expected.name"), name)
        out[str(key)] = {"fr": name["fr"], "en": name["en"]}
    return out


def _counts(value: Any, where: str, *, low: int) -> Counts:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise bad(where, Message("campaign.expected.counts"), value)
    return {_text(k, where): _int(n, f"{where}.{k}", low=low) for k, n in value.items()}


def unique(values: list[str], where: str, what: str) -> None:
    seen: set[str] = set()
    for i, value in enumerate(values):
        if value in seen:
            raise CampaignError(Message("campaign.json.twice", {
                "field": f"{where}[{i}]", "what": what, "value": repr(value)}), f"{where}[{i}]")
        seen.add(value)
