"""Request and response bodies of the HTTP API (pydantic v2, strict, no extra fields).

Strict models refuse `false` for a number and `"3"` for an integer; `extra="forbid"` names
a misspelt field instead of ignoring it. An integer may be written as a whole float (`710.0`:
JSON has one kind of number, and JSON Schema's `integer` is any whole number); `710.5` is
refused. Documents the engine already checks field by field
(scenes, rosters, actions, campaign records) pass through as JSON objects: the engine's
messages name the bad field better than a schema could.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

__all__ = [
    "Strict", "Words", "ErrorOut", "Die", "Json",
    "ArbitrateIn", "ArbitrateOut", "OddsIn", "OddsOut", "DrawIn",
    "RosterIn", "RosterOut", "CreatedRosterOut", "ValidationOut",
    "CampaignIn", "CampaignImportIn", "CampaignOut", "CreatedCampaignOut", "ResultIn",
    "ChooseIn", "HealIn", "CampaignGameIn",
    "GameIn", "GameImportIn", "GameOut", "CreatedGameOut", "ActionIn", "VersionIn",
    "ChangeOut", "AiPlayIn", "LegalOut", "SuggestOut", "PathIn", "PathOut", "SightOut", "ZoneOut",
    "EngagedOut", "FigureQuery", "SightQuery", "EventsQuery", "Whole", "Version", "LARGEST_EXACT",
]



def _whole(value: Any) -> Any:
    """A whole float (`710.0`) as the integer it is; anything else as it came."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class _Bounds:
    """Bounds put on `Whole` under JSON Schema's names: pydantic cannot move `ge`/`le` into
    the integer behind a validator and leaves them in the OpenAPI document as `ge` and `le`,
    which no client reads (Schemathesis then sends a seed of -1 as valid data)."""

    NAMES = {"ge": "minimum", "le": "maximum", "gt": "exclusiveMinimum",
             "lt": "exclusiveMaximum"}

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: CoreSchema,
                                     handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        answer = handler(schema)
        for ours, theirs in cls.NAMES.items():
            if ours in answer:
                answer[theirs] = answer.pop(ours)
        return answer


Json = dict[str, Any]
Whole = Annotated[int, BeforeValidator(_whole), _Bounds]  # an integer, also written 710.0
Die = Annotated[Whole, Field(ge=1, le=6)]
LARGEST_EXACT = 2**53  # JSON's (a double's) last exact integer: seeds, versions, frame numbers
Seed = Annotated[Whole, Field(ge=0, le=LARGEST_EXACT)]
# a game's version (or event number) as a request sends it: a count of events, within JSON's
# exact integers (a 28-digit one broke the 409's message, which writes the version sent, and
# one beyond 2**63 the database's look-up of the events after it)
Version = Annotated[Whole, Field(ge=0, le=LARGEST_EXACT)]
Id = Annotated[str, Field(min_length=1, max_length=64)]
Coordinate = Annotated[float, Field(ge=-1000, le=1000, allow_inf_nan=False)]


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class Words(Strict):
    """A message as data: its code and parameters (docs/translation.md)."""

    code: str
    params: dict[str, Any]


class ErrorDetail(Strict):
    code: str
    message: str = Field(description="in the request's language (`lang`, Accept-Language)")
    where: str
    version: int | None = None
    words: Words | None = Field(default=None, description="the message as a code and its "
                                "parameters, when it has them")


class ErrorOut(Strict):
    error: ErrorDetail


# --- rules, arbitration ----------------------------------------------------------------------


class ArbitrateIn(Strict):
    scene: Json = Field(description="the scene JSON of DESIGN.md")
    questions: list[Json] = Field(max_length=2000, description="arbitration questions")


class ArbitrateOut(Strict):
    answers: list[Json]


class OddsIn(Strict):
    attacker: Id
    target: Id
    weapon: Id | None = None
    mode: Literal["shoot", "melee"] | None = None
    attacker_skills: list[Id] = Field(default_factory=list, max_length=10)
    target_skills: list[Id] = Field(default_factory=list, max_length=10)
    target_items: list[Id] = Field(default_factory=list, max_length=10)
    target_moves: Annotated[Whole, Field(ge=0, le=20)] = 0
    target_panicked: bool = False
    alone: bool = False


class OddsOut(Strict):
    hit: float
    saved: float
    unsaved: float
    exact: dict[str, str]
    die: Json
    explain: str = Field(description="who attacks whom and how, in the request's language")
    explain_words: Words | None = Field(default=None, description="`explain` as a message")


class DrawIn(Strict):
    length: Annotated[Whole, Field(ge=0, le=100)]
    seed: Seed


# --- rosters ---------------------------------------------------------------------------------


class RosterIn(Strict):
    roster: Json = Field(description="a band: {name, members: [...]} as `band check` reads")
    settings: Json = Field(default_factory=dict, description="changed settings (docs/rules.md)")


class ValidationOut(Strict):
    name: str
    legal: bool
    errors: int
    warnings: int
    problems: list[Json]
    cost: Json


class RosterOut(Strict):
    id: str
    version: int
    roster: Json
    settings: Json
    validation: ValidationOut


class CreatedRosterOut(RosterOut):
    token: str


# --- campaigns -------------------------------------------------------------------------------


class CampaignIn(Strict):
    roster_id: Id | None = Field(default=None, description="a stored roster")
    roster: Json | None = Field(default=None, description="or the band itself")
    example: Id | None = Field(default=None, description="or an example band's name")
    length: Annotated[Whole, Field(ge=0, le=100)] = 3
    seed: Seed = 0
    zombie_players: list[Annotated[str, Field(min_length=1, max_length=60)]] = Field(
        default_factory=lambda: ["zombies"], max_length=8)
    settings: Json = Field(default_factory=dict)


class CampaignImportIn(Strict):
    campaign: Json = Field(description="a campaign record (GET .../export's `campaign`)")
    games: list[Json] = Field(default_factory=list, max_length=100,
                              description="exported games: {scenario, seed, export, "
                              "recorded}")
    complete: bool | None = Field(default=None, description="as the export says (an "
                                  "export without the token leaves out what replays it)")


class CampaignOut(Strict):
    id: str
    version: int
    summary: Json
    record: Json
    games: list[Json]


class CreatedCampaignOut(CampaignOut):
    token: str
    link: str


class ResultIn(Strict):
    game_id: Id
    seed: Seed = 0
    dice: list[Die] = Field(default_factory=list, max_length=40,
                            description="dice rolled at the table, used before the seed")
    reroll: bool = False
    zombie_players: dict[str, str] | None = None


class ChooseIn(Strict):
    scenario: Id


class HealIn(Strict):
    target: Id
    healer: Id | None = None


class CampaignGameIn(Strict):
    seed: Seed = 0


# --- games -----------------------------------------------------------------------------------


class GameIn(Strict):
    scenario: Id
    seed: Seed = 0
    band: Id | None = Field(default=None, description="an example band's name")
    roster_id: Id | None = Field(default=None, description="or a stored roster")
    max_turns: Annotated[Whole, Field(ge=1, le=12)] | None = None
    table: Id | None = None
    settings: Json = Field(default_factory=dict, description="changed settings (docs/rules.md), "
                           "e.g. {\"allow_pass\": true}")


class BandNamesIn(Strict):
    fr: Annotated[str, Field(min_length=1, max_length=200)]
    en: Annotated[str, Field(min_length=1, max_length=200)]


class GameImportIn(Strict):
    export: Json = Field(description="a game export: {start, log}")
    seed: Seed = 0
    scenario: Id | None = None
    band: BandNamesIn | None = Field(default=None, description="the band's name {fr, en}, "
                                     "as the export answer carries it")
    complete: bool | None = Field(default=None, description="as the export answer says (an "
                                  "export without the token leaves out what replays it)")


class GameOut(Strict):
    id: str
    version: int
    campaign_id: str | None
    scenario: str | None
    seed: int
    deciding: str
    terminal: bool
    outcome: Json | None
    state: Json
    names: dict[str, dict[str, str]] = Field(
        description="what a person calls each figure, by id: {fr, en} (rules/names.py)")
    created: str | None = Field(default=None, description="when the game was made (ISO 8601)")
    band: dict[str, str] | None = Field(default=None, description="the band's name: {fr, en}")
    campaign: Json | None = Field(default=None, description="a campaign's game: {id, band: "
                                  "{fr, en}, number, of} (which of its scenarios it plays)")
    objectives: Json | None = Field(default=None, description="each side's objective as it "
                                    "stands: wins, mode, conditions (words, holds, tally "
                                    "[done, needed, out of])")


class AccessOut(Strict):
    write: bool = Field(description="the token sent opens this for changes (else 401 or 403)")


class CreatedGameOut(GameOut):
    token: str


class VersionIn(Strict):
    version: Version


class UndoIn(VersionIn):
    until: Literal["survivors", "zombies", "A", "B"] | None = Field(
        default=None, description="take back actions until one this side made is taken back "
        "(a player's last action with the AI's replies after it); none: the last action")


class ActionIn(Strict):
    version: Version
    action: Json = Field(description="an action, e.g. {type: move, figure: s1, to: [x, y]}")
    dice: list[Die] | None = Field(default=None, max_length=60,
                                   description="dice rolled at the table; none: the "
                                   "service rolls")


Level = Literal["easy", "normal", "hard"]
LEVEL_DOC = ("the tactician's level: easy (for learning), normal (the page's default), hard "
             "(the strongest the time allows, up to a second a choice)")


LANG_DOC = ("the language of the words in the answer (default: the request's "
            "Accept-Language, else English)")
Lang = Literal["en", "fr"]


class SuggestIn(Strict):
    version: Version
    level: Level = Field(default="normal", description=LEVEL_DOC)
    lang: Lang | None = Field(default=None, description=LANG_DOC)


class AiPlayIn(Strict):
    version: Version
    dice: list[Die] | None = Field(default=None, max_length=60,
                                   description="dice rolled at the table for the zombies' "
                                   "action; none: the service rolls")
    level: Level = Field(default="normal", description=LEVEL_DOC)


class ChangeOut(Strict):
    version: int
    kind: str
    action: Json | None
    dice: list[int]
    notes: list[str] = Field(description="what happened, in the request's language")
    notes_words: list[Words | None] = Field(
        description="each note as a message (code and parameters); null for a note of a "
        "game recorded before messages had codes")
    explanation: str | None = Field(default=None, description="the AI's reasons (ai/play), in "
                                     "the request's language")
    messages: list[Words] = Field(default_factory=list, description="the explanation as "
                                  "messages: {code, params}")
    game: GameOut
    undone: list[Json] = Field(default_factory=list, description="undo: the actions taken "
                               "back, oldest first, each {action, dice} (to redo them as "
                               "they were, dice typed in)")


class LegalOut(Strict):
    version: int
    deciding: str
    actions: list[Json]


class SuggestOut(Strict):
    version: int
    action: Json
    text: str = Field(description="the action in words, in the language asked for")
    text_words: Words | None = Field(default=None, description="`text` as a message")
    explanation: str
    policy: str
    messages: list[Json] = Field(default_factory=list,
                                 description="the explanation as messages: {code, params}")
    chances: dict[str, float] = Field(description="each side's chance to win from the "
                                      "position before the choice (the AI's evaluation)")


class Query(Strict):
    """A query string: its values arrive as text; every query may name the language."""

    model_config = ConfigDict(strict=False, extra="forbid")
    lang: Lang | None = Field(default=None, description=LANG_DOC)


class ChancesQuery(Query):
    curve: bool = Field(default=True, description="false: the chances now only (the curve "
                        "replays the whole game, about a second for a long one)")


class ChancePoint(Strict):
    index: int = Field(description="the entry of the game's log after which it was read")
    turn: int
    survivors: float


class ChancesOut(Strict):
    version: int
    survivors: float = Field(description="the survivors' chance to win from here, 0 to 1")
    zombies: float
    curve: list[ChancePoint] = Field(description="the survivors' chance after every action")
    turning_point: Json | None = Field(description="the action that moved the chances most, "
                                       "as a message {code, params}")
    turning_text: str | None = Field(description="the turning point in words, in `lang`")


class PathIn(Strict):
    figure: Id
    to: Annotated[list[Coordinate], Field(min_length=2, max_length=2)]


class PathOut(Strict):
    figure: str
    to: list[float]
    reachable: bool
    length: float | None
    waypoints: list[list[float]]
    move: float
    moves: int | None
    ap_cost: int | None
    legal_now: bool
    refused: str | None = Field(description="why the move is refused now, in the request's "
                                "language")
    refused_words: Words | None = Field(default=None, description="`refused` as a message "
                                        "(code and parameters), when it has one")
    reason: str = Field(description="why no route reaches the point, in the request's "
                        "language (empty when one does)")
    reason_words: Words | None = Field(default=None, description="`reason` as a message")


class SightOut(Strict):
    figure: str
    polygons: list[list[list[float]]]
    enemies: list[Json] = Field(description="each enemy: id, visible (the engine's answer: "
                                "a line of sight and the weather allows it), fraction of its "
                                "base seen, inches; limited_by(_words) when only the weather "
                                "or the dark hides it")
    limit: Json | None = Field(default=None, description="the weather's longest line of "
                               "sight: inches, text, words (None: no limit)")


class ZoneOut(Strict):
    version: int
    in_zone: list[str]
    out_of_zone: list[str]
    nearest: Json
    activatable: list[str]
    pool: int


class EngagedOut(Strict):
    version: int
    pairs: list[list[str]]


class FigureQuery(Query):
    figure: Id | None = None


class SightQuery(Query):
    figure: Id = Field(description="the figure whose sight is drawn")


class EventsQuery(Query):
    after: Version | None = None
