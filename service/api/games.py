"""Games: start one, read its state, list and apply legal actions, undo, and the AI.

A change sends the version the client saw (`{"version": N, ...}`): a stale one answers 409
with the current version, an illegal action 422 with the engine's message. Dice come from
the service's seeded RNG (recorded in the event) unless the client types them in.
"""

from __future__ import annotations

import random
from typing import Any

import sqlalchemy as sa
from apiflask import APIBlueprint
from flask import current_app, request

from ai.chances import curve, turning_point
from ai.evaluation import chances
from ai.policy import Choice, action_message
from geometry.errors import SurviveUsError
from i18n import Message, note_text, render
from rules import rulebook
from rules.actions import actor, parse_action
from rules.game import ZOMBIES, Game, Note
from rules.limits import LimitError, check_arbitration
from rules.names import figure_names
from rules.odds import action_odds
from rules.settings import Settings
from rules.warband import Roster, example_bands
from scenarios.campaign_record import Campaign
from scenarios.play import ScenarioReferee, start_scenario
from service.app import services
from service.errors import ApiError, NotFound
from service.language import request_lang
from service.live import Change, rebuild, table_view
from service.schemas import (
    AccessOut,
    ActionIn,
    AiPlayIn,
    ChancesOut,
    ChancesQuery,
    ChangeOut,
    CreatedGameOut,
    FigureQuery,
    GameImportIn,
    GameIn,
    GameOut,
    LegalOut,
    SuggestIn,
    SuggestOut,
    UndoIn,
)
from service.storage import gamelog, records
from service.tokens import new_token, require_token
from service.words import localized, side_word, stored
from service.workers import call_in

bp = APIBlueprint("games", __name__, tag="Games")

AI_POLICY = "tactician"


def game_out(row: sa.Row[Any], game: Game, version: int | None = None) -> dict[str, Any]:
    at = row.version if version is None else version
    campaign = campaign_of(row)
    return {"id": row.id, "version": at, "campaign_id": row.campaign_id,
            "scenario": row.scenario, "seed": row.seed, "deciding": game.current_side(),
            "terminal": game.is_terminal,
            "outcome": None if game.outcome is None else localized(game.outcome, request_lang()),
            "state": services().games.state(row.id, at, game), "names": figure_names(game),
            "created": row.created.isoformat() if row.created is not None else None,
            "band": band_names(row.setup) or (campaign and campaign["band"]),
            "campaign": campaign, "objectives": objectives(game)}


def campaign_of(row: sa.Row[Any]) -> dict[str, Any] | None:
    """A campaign game's campaign, for 'My games': its id, its band's names and which of
    its scenarios this game plays (`number` of `of`, by the scenario's place in the draw)."""
    if row.campaign_id is None:
        return None
    with services().db.read() as conn:
        campaign = Campaign.from_json(records.get_campaign(conn, row.campaign_id).data)
    drawn = list(campaign.draw.scenarios)
    number = drawn.index(row.scenario) + 1 if row.scenario in drawn else None
    return {"id": row.campaign_id, "band": dict(campaign.roster.names), "number": number,
            "of": len(drawn)}


def objectives(game: Game) -> dict[str, Any] | None:
    """Each side's objective as it stands (the scenario referee's reading: every condition's
    words, whether it holds and its tally; the card's text and special rules), for the
    page's tracker; None outside a card."""
    referee = game.referee
    if not isinstance(referee, ScenarioReferee):
        return None
    return referee.tracker(game)


def band_names(setup: Any) -> dict[str, str] | None:
    """The band's name in French and English from a game's set-up: an imported game's
    `band_names`, else the roster it started with (`band_json`: `name`, and `name_en` when
    the band has two; one name for a player's own band). None: the card's own band."""
    if not isinstance(setup, dict):
        return None
    names = setup.get("band_names")
    if isinstance(names, dict) and {"fr", "en"} <= set(names):
        return {"fr": str(names["fr"]), "en": str(names["en"])}
    band = setup.get("band_json")
    if not isinstance(band, dict) or not isinstance(band.get("name"), str):
        return None
    english = band.get("name_en")
    return {"fr": band["name"], "en": english if isinstance(english, str) else band["name"]}


def store_new(game: Game, *, token_hash: str, seed: int, setup: dict[str, Any],
              scenario: str | None, campaign_id: str | None,
              log: list[dict[str, Any]] | None = None) -> str:
    """Write a new game: its start (the export before any action) and any imported log."""
    export = game.export()
    start = {"start": export["start"], "log": export["log"][:1]}
    db = services().db
    with db.write() as conn:
        return gamelog.insert_game(conn, token_hash=token_hash, seed=seed, setup=setup,
                                   start=start, scenario=scenario, campaign_id=campaign_id,
                                   log=log or [])


def read_game(game_id: str) -> dict[str, Any]:
    out: dict[str, Any] = services().games.read(game_id, game_out)
    return out


def _band(body: GameIn) -> Roster | None:
    if body.band is not None and body.roster_id is not None:
        raise ApiError(Message("service.game.band_or_roster"), "band", code="invalid_request")
    if body.roster_id is not None:
        with services().db.read() as conn:
            row = records.get_roster(conn, body.roster_id)
        return Roster.from_json(row.data)
    if body.band is not None:
        bands = example_bands()
        if body.band not in bands:
            raise ApiError(Message("service.unknown_band", {"name": body.band,
                                                            "known": sorted(bands)}),
                           "band", code="unknown_band")
        return bands[body.band]
    return None


@bp.post("/games")
@bp.input(GameIn, arg_name="body")
@bp.output(CreatedGameOut, status_code=201)
@bp.doc(summary="Start a one-off game of a scenario from its seeded set-up; answers its token")
def post_game(body: GameIn) -> dict[str, Any]:
    band = _band(body)
    if body.table is not None:
        from service.cli.scenarios import _check_table

        _check_table(body.table)
    game = start_scenario(body.scenario, band, body.seed, table=body.table,
                          max_turns=body.max_turns, settings=Settings.from_json(body.settings))
    token, digest = new_token()
    setup = {"kind": "scenario", **body.model_dump(),
             "band_json": band.to_json() if band is not None else None}
    game_id = store_new(game, token_hash=digest, seed=body.seed, setup=setup,
                        scenario=body.scenario, campaign_id=None)
    return {**read_game(game_id), "token": token}


@bp.post("/games/import")
@bp.input(GameImportIn, arg_name="body")
@bp.output(CreatedGameOut, status_code=201)
@bp.doc(summary="Store a game from its export ({start, log}); answers a new id and token")
def post_import(body: GameImportIn) -> dict[str, Any]:
    game, log = replay_export(body.export, "export")
    token, digest = new_token()
    start = game.export()["start"]
    first = {"start": start, "log": body.export["log"][:1]}
    setup: dict[str, Any] = {"kind": "import"}
    if body.band is not None:  # the band's name, as the export answer carried it
        setup["band_names"] = body.band.model_dump()
    with services().db.write() as conn:
        game_id = gamelog.insert_game(conn, token_hash=digest, seed=body.seed,
                                      setup=setup, start=first,
                                      scenario=body.scenario, campaign_id=None, log=log)
    return {**read_game(game_id), "token": token}


def replay_export(export: dict[str, Any], where: str) -> tuple[Game, list[dict[str, Any]]]:
    """Check an export by replaying it; answers the game and its actions after the start."""
    log = export.get("log")
    if not isinstance(export.get("start"), dict) or not isinstance(log, list) or not log:
        raise ApiError(Message("service.export.shape", {"where": where}), where,
                       code="invalid_export")
    if not isinstance(log[0], dict) or log[0].get("action", {}).get("type") != "start":
        raise ApiError(Message("service.export.first", {"where": f"{where}.log[0]"}),
                       f"{where}.log[0]", code="invalid_export")
    markers = export["start"].get("markers")
    if isinstance(markers, list) and any(isinstance(m, dict) and m.get("hidden")
                                         for m in markers):
        raise ApiError(Message("service.export.hidden", {"where": where}),
                       f"{where}.start.markers", code="incomplete_export")
    start = export["start"]
    scene = start.get("scene")
    if isinstance(scene, dict):  # no bigger a table than an arbitration may ask about
        try:
            check_arbitration({"scene": {**scene, "figures": start.get("figures")},
                               "questions": []})
        except LimitError as error:
            inner = error.where.replace("scene.figures", "figures", 1)  # beside the scene
            error.where = f"{where}.start.{inner}"
            raise
    try:
        game = Game.replay(export)
    except SurviveUsError as error:
        raise ApiError(Message("service.export.refused", {
            "where": where, "error": error.words or error.message}),
            f"{where}.{error.where}".rstrip("."), code=error.code) from None
    except Exception as error:  # an export is the client's JSON: any flaw is its flaw
        raise ApiError(Message("service.export.malformed", {
            "where": where, "detail": f"{type(error).__name__} {error}"}), where,
            code="invalid_export") from None
    return game, [dict(e) for e in log[1:]]


@bp.get("/games/<id:game_id>")
@bp.output(GameOut)
@bp.doc(summary="A game's state (Game.to_json()), version, who decides, the outcome")
def get_game(game_id: str) -> dict[str, Any]:
    return read_game(game_id)


@bp.get("/games/<id:game_id>/access")
@bp.output(AccessOut)
@bp.doc(summary="Whether the token sent opens this game for changes: a page checks a pasted "
        "token before keeping it (401 without a token, 403 when it does not open it)",
        security="Bearer")
def get_game_access(game_id: str) -> dict[str, Any]:
    with services().db.read() as conn:
        row = gamelog.get_game(conn, game_id)
    require_token(row.token_hash, stored("game", game_id))
    return {"write": True}


def token_sent(token_hash: str, what: Message) -> bool:
    """Whether the request carries the token of `token_hash` (a wrong one is refused as a
    change would be: 404); none sent: False."""
    if "Authorization" not in request.headers:
        return False
    require_token(token_hash, what)
    return True


def shown_export(game: Game, whole: bool) -> dict[str, Any]:
    """The game's export: whole (what the crates hold and which hide a trap: what replays
    it) for the token's holder, else its start as a game's answer shows it."""
    export = game.export()
    if whole:
        return export
    return {**export, "start": table_view(export["start"])}


@bp.get("/games/<id:game_id>/export")
@bp.doc(summary="A game's export: its start and every action with its dice; with the game's "
        "token the whole record (replayable, `complete`), without it what the crates hold "
        "and the traps are left out, as a game's answer leaves them out",
        security=[{"Bearer": []}, {}])  # the token is optional: it opens the whole record
def get_export(game_id: str) -> dict[str, Any]:
    def use(row: sa.Row[Any], game: Game) -> dict[str, Any]:
        whole = token_sent(row.token_hash, stored("game", game_id))
        campaign = campaign_of(row)
        return {"version": row.version, "scenario": row.scenario, "seed": row.seed,
                "band": band_names(row.setup) or (campaign and campaign["band"]),
                "complete": whole, "export": shown_export(game, whole)}

    out: dict[str, Any] = services().games.read(game_id, use)
    return out


@bp.get("/games/<id:game_id>/actions")
@bp.input(FigureQuery, location="query", arg_name="query")
@bp.output(LegalOut)
@bp.doc(summary="The legal actions now (all, or ?figure=ID), each with a description, its "
        "cost and, for an attack or a contamination, its dice and exact chances (`odds`)")
def get_actions(game_id: str, query: FigureQuery) -> dict[str, Any]:
    def use(row: sa.Row[Any], game: Game) -> dict[str, Any]:
        if query.figure is not None and query.figure not in game.figures:
            raise NotFound(Message("service.figure.unknown", {"figure": query.figure,
                                                              "game": game_id}), "figure")
        listed = []
        lang = query.lang or request_lang()
        for act in game.legal_actions():
            if query.figure is not None and actor(act) != query.figure:
                continue
            words = action_message(game, act)
            entry = {"action": act.to_json(), "text": render(words, lang),
                     "text_words": words.to_json(),
                     "cost": rulebook.cost(game, act) if actor(act) else 0}
            chances = action_odds(game, act)  # an attack's dice, faces needed and chances
            if chances is not None:
                entry["odds"] = chances
            listed.append(entry)
        return {"version": row.version, "deciding": game.current_side(), "actions": listed}

    out: dict[str, Any] = services().games.read(game_id, use)
    return out


def change_out(change: Change, game: Game, choice: Choice | None = None) -> dict[str, Any]:
    """A change's answer; the AI's (`choice`) explanation in the request's language, with
    its messages beside."""
    explained: dict[str, Any] = {"explanation": None}
    if choice is not None:
        explained = {"explanation": choice.text(request_lang()),
                     "messages": [m.to_json() for m in choice.messages]}
    return {"version": change.version, "kind": change.kind, "action": change.action,
            "dice": change.dice, **notes_out(change.notes), **explained,
            "game": game_out(change.row, game, change.version)}


def notes_out(notes: list[Note]) -> dict[str, list[Any]]:
    """A log entry's notes in the request's language, and as messages where they are."""
    lang = request_lang()
    return {"notes": [note_text(n, lang) for n in notes],
            "notes_words": [n if isinstance(n, dict) else None for n in notes]}


@bp.post("/games/<id:game_id>/actions")
@bp.input(ActionIn, arg_name="body")
@bp.output(ChangeOut)
@bp.doc(summary="Apply an action (token needed): 409 when the version is stale, 422 when "
        "illegal", security="Bearer")
def post_action(game_id: str, body: ActionIn) -> dict[str, Any]:
    def run(game: Game, _rng: random.Random | None) -> tuple[str, dict[str, Any] | None]:
        act = parse_action(body.action, "action")  # after the token check
        game.apply(act, dice=body.dice, where="action")
        return "action", act.to_json()

    change, game = services().games.change(game_id, body.version, run,
                                           typed=body.dice is not None)
    return change_out(change, game)


@bp.post("/games/<id:game_id>/undo")
@bp.input(UndoIn, arg_name="body")
@bp.output(ChangeOut)
@bp.doc(summary="Take back the last action, or with `until` every action back to the last "
        "one that side made (token needed); `undone` lists them to redo", security="Bearer")
def post_undo(game_id: str, body: UndoIn) -> dict[str, Any]:
    undone: list[dict[str, Any]] = []

    def run(game: Game, _rng: random.Random | None) -> tuple[str, dict[str, Any] | None]:
        last = game.log[-1] if game.log else {}
        taken = {"action": last.get("action"), "dice": list(last.get("dice", []))}
        services().games.take_back(game_id, game)  # from the state kept before it
        undone.insert(0, taken)
        return "undo", None

    version = body.version
    while True:  # one event per action taken back, each as the single undo would be
        change, game = services().games.change(game_id, version, run, typed=True)
        version = change.version
        if body.until is None or game.current_side() == body.until or len(game.log) <= 1:
            break
    return {**change_out(change, game), "undone": undone}


def _suggest(game_id: str, game: Game, version: int, level: str) -> Choice:
    if game.is_terminal:
        raise ApiError(Message("service.game.over", {"game": game_id}), "game",
                       code="game_over")
    if game.current_side() != ZOMBIES:
        raise ApiError(Message("service.game.not_zombies", {
            "side": side_word(game.current_side())}), "game.deciding", code="not_zombies_turn")
    chosen: Choice = call_in(current_app.config["AI_POOL"], "service.ai_work:choose", game,
                             _policy(level), f"{game_id}:{version}",
                             client=request.remote_addr or "")
    return chosen


def _policy(level: str) -> str:
    return AI_POLICY if level == "normal" else f"{AI_POLICY}:{level}"


@bp.post("/games/<id:game_id>/ai/suggest")
@bp.input(SuggestIn, arg_name="body")
@bp.output(SuggestOut)
@bp.doc(summary="The AI's next zombie choice with its explanation and each side's chances "
        "(nothing is applied)")
def post_suggest(game_id: str, body: SuggestIn) -> dict[str, Any]:
    def use(row: sa.Row[Any], game: Game) -> dict[str, Any]:
        if body.version != row.version:
            from service.errors import Conflict

            raise Conflict(Message("service.game.stale", {"game": game_id, "version": row.version,
                                                          "sent": body.version}),
                           "version", extra={"version": row.version})
        choice = _suggest(game_id, game, row.version, body.level)
        lang = body.lang or request_lang()
        words = action_message(game, choice.action)
        return {"version": row.version, "action": choice.action.to_json(),
                "text": render(words, lang), "text_words": words.to_json(),
                "explanation": choice.text(lang),
                "policy": _policy(body.level),
                "messages": [m.to_json() for m in choice.messages], "chances": chances(game)}

    out: dict[str, Any] = services().games.read(game_id, use)
    return out


@bp.get("/games/<id:game_id>/chances")
@bp.input(ChancesQuery, location="query", arg_name="query")
@bp.output(ChancesOut)
@bp.doc(summary="Each side's chance to win now, the survivors' chance after every action, "
        "and the turning point, as the AI's evaluation reads them")
def get_chances(game_id: str, query: ChancesQuery) -> dict[str, Any]:
    def use(row: sa.Row[Any], game: Game) -> dict[str, Any]:
        points = curve(game) if query.curve else []
        turn = turning_point(points)
        now = chances(game)
        return {"version": row.version, "survivors": now["survivors"],
                "zombies": now["zombies"], "curve": [p.to_json() for p in points],
                "turning_point": None if turn is None else turn.to_json(),
                "turning_text": None if turn is None else render(
                    turn, query.lang or request_lang())}

    out: dict[str, Any] = services().games.read(game_id, use)
    return out


@bp.post("/games/<id:game_id>/ai/play")
@bp.input(AiPlayIn, arg_name="body")
@bp.output(ChangeOut)
@bp.doc(summary="Let the AI make the zombies' next choice and apply it (token needed); "
        "dice rolled at the table may be typed in", security="Bearer")
def post_ai_play(game_id: str, body: AiPlayIn) -> dict[str, Any]:
    why: list[Choice] = []

    def run(game: Game, _rng: random.Random | None) -> tuple[str, dict[str, Any] | None]:
        choice = _suggest(game_id, game, body.version, body.level)
        act = choice.action
        why.append(choice)
        game.apply(act, dice=body.dice)
        return "action", act.to_json()

    change, game = services().games.change(game_id, body.version, run,
                                           typed=body.dice is not None)
    return change_out(change, game, why[0] if why else None)


def stored_game(game_id: str) -> tuple[sa.Row[Any], Game]:
    """The row and a fresh replay (for code outside the live cache, e.g. campaigns)."""
    with services().db.read() as conn:
        row = gamelog.get_game(conn, game_id)
        return row, rebuild(row.start, gamelog.game_events(conn, game_id))
