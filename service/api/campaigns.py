"""Campaigns: create from a band, read, start the next scenario's game, record its result
(D8 rolls, reward, consequence roll), heal between scenarios, choose the last scenario,
history, export and import.

Creating (or importing) a campaign answers a secret token, stored only as its sha256; every
change needs `Authorization: Bearer TOKEN`. Anyone with the campaign's id may read it. The
campaign's games share its token. The logic is the CLI's (`service/cli/campaign.py`,
`scenarios/campaign_record.py`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from apiflask import APIBlueprint
from flask import request

from geometry.errors import SurviveUsError
from i18n import Message
from rules.dice import Dice
from rules.settings import Settings
from rules.warband import Roster, example_bands
from scenarios.campaign_record import (
    Campaign,
    choose_final,
    heal_between,
    new_campaign,
    record_result,
    result_from_game,
    start_next,
)
from service.api.games import read_game, replay_export, shown_export, stored_game, token_sent
from service.app import services
from service.cli.campaign import summary
from service.errors import ApiError, NotFound
from service.schemas import (
    LARGEST_EXACT,
    AccessOut,
    CampaignGameIn,
    CampaignImportIn,
    CampaignIn,
    CampaignOut,
    ChooseIn,
    CreatedCampaignOut,
    CreatedGameOut,
    HealIn,
    ResultIn,
)
from service.storage import gamelog, records
from service.tokens import new_token, require_token
from service.words import NONE, stored

bp = APIBlueprint("campaigns", __name__, tag="Campaigns")


def campaign_out(conn: sa.Connection, row: sa.Row[Any]) -> dict[str, Any]:
    campaign = Campaign.from_json(row.data)
    played = [{"id": g.id, "scenario": g.scenario, "seed": g.seed, "version": g.version,
               "recorded": g.recorded,
               "created": g.created.isoformat() if g.created is not None else None}
              for g in gamelog.campaign_games(conn, row.id)]
    return {"id": row.id, "version": row.version, "summary": summary(campaign),
            "record": row.data, "games": played}


def read_campaign(campaign_id: str) -> dict[str, Any]:
    with services().db.read() as conn:
        return campaign_out(conn, records.get_campaign(conn, campaign_id))


def link(campaign_id: str) -> str:
    return f"{request.host_url}?campaign={campaign_id}"


def _roster(body: CampaignIn) -> Roster:
    given = [k for k in ("roster_id", "roster", "example") if getattr(body, k) is not None]
    if len(given) != 1:
        raise ApiError(Message("service.campaign.one_band", {"given": given or NONE}),
                       "roster", code="invalid_request")
    if body.roster_id is not None:
        with services().db.read() as conn:
            return Roster.from_json(records.get_roster(conn, body.roster_id).data)
    if body.roster is not None:
        return Roster.from_json(body.roster, "roster")
    bands = example_bands()
    if body.example not in bands:
        raise ApiError(Message("service.unknown_band", {"name": str(body.example),
                                                        "known": sorted(bands)}),
                       "example", code="unknown_band")
    return bands[str(body.example)]


def create(campaign: Campaign) -> dict[str, Any]:
    token, digest = new_token()
    db = services().db
    with db.write() as conn:
        campaign_id = records.insert_campaign(conn, digest, campaign.to_json())
    return {**read_campaign(campaign_id), "token": token, "link": link(campaign_id)}


@bp.post("/campaigns")
@bp.input(CampaignIn, arg_name="body")
@bp.output(CreatedCampaignOut, status_code=201)
@bp.doc(summary="Start a campaign for a legal band: draws its scenarios; answers its token")
def post_campaign(body: CampaignIn) -> dict[str, Any]:
    settings = Settings.from_json(body.settings) if body.settings else Settings()
    campaign = new_campaign(_roster(body), body.length, random.Random(body.seed),
                            seed=body.seed, zombie_players=body.zombie_players,
                            settings=settings)
    return create(campaign)


@bp.post("/campaigns/import")
@bp.input(CampaignImportIn, arg_name="body")
@bp.output(CreatedCampaignOut, status_code=201)
@bp.doc(summary="Store an exported campaign (and its games) under a new id and token")
def post_import(body: CampaignImportIn) -> dict[str, Any]:
    try:
        campaign = Campaign.from_json(body.campaign, "campaign")
    except SurviveUsError:
        raise
    except Exception as error:  # a record is the client's JSON: any flaw is its flaw
        raise ApiError(Message("service.campaign.malformed", {
            "detail": f"{type(error).__name__} {error}"}), "campaign",
            code="invalid_campaign") from None
    checked = []
    for i, item in enumerate(body.games):
        where = f"games[{i}]"
        export = item.get("export")
        if not isinstance(export, dict):
            raise ApiError(Message("service.export.object", {"where": f"{where}.export"}),
                           f"{where}.export", code="invalid_export")
        game, log = replay_export(export, f"{where}.export")
        seed = item.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= LARGEST_EXACT:
            raise ApiError(Message("service.export.seed", {"where": f"{where}.seed",
                                                           "got": repr(seed)}), f"{where}.seed",
                           code="invalid_export")
        scenario = item.get("scenario")
        if scenario is not None and not isinstance(scenario, str):
            raise ApiError(Message("service.export.scenario", {"where": f"{where}.scenario"}),
                           f"{where}.scenario", code="invalid_export")
        checked.append((game, log, export, seed, scenario, bool(item.get("recorded", False))))
    token, digest = new_token()
    with services().db.write() as conn:
        campaign_id = records.insert_campaign(conn, digest, campaign.to_json())
        for _game, log, export, seed, scenario, recorded in checked:
            game_id = gamelog.insert_game(
                conn, token_hash=digest, seed=seed, setup={"kind": "import"},
                start={"start": export["start"], "log": export["log"][:1]},
                scenario=scenario, campaign_id=campaign_id, log=log)
            if recorded:
                gamelog.mark_recorded(conn, game_id)
    return {**read_campaign(campaign_id), "token": token, "link": link(campaign_id)}


@bp.get("/campaigns/<id:campaign_id>")
@bp.output(CampaignOut)
@bp.doc(summary="A campaign: summary (band, scenarios, next zombie points, outcome), record, "
        "games")
def get_campaign(campaign_id: str) -> dict[str, Any]:
    return read_campaign(campaign_id)


@bp.get("/campaigns/<id:campaign_id>/access")
@bp.output(AccessOut)
@bp.doc(summary="Whether the token sent opens this campaign (and its games) for changes "
        "(401 without a token, 403 when it does not open it)", security="Bearer")
def get_campaign_access(campaign_id: str) -> dict[str, Any]:
    with services().db.read() as conn:
        row = records.get_campaign(conn, campaign_id)
    require_token(row.token_hash, stored("campaign", campaign_id))
    return {"write": True}


@bp.get("/campaigns/<id:campaign_id>/current")
@bp.doc(summary="The scenario to play next, its zombie points, and the game in play if any")
def get_current(campaign_id: str) -> dict[str, Any]:
    from scenarios.cards import load_cards

    data = read_campaign(campaign_id)
    scenario = data["summary"]["next_scenario"]
    open_games = [g for g in data["games"] if not g["recorded"] and g["scenario"] == scenario]
    return {"id": campaign_id, "version": data["version"], "scenario": scenario,
            "card": load_cards()[scenario].to_json() if scenario else None,
            "zombie_points": data["summary"]["zombie_points"],
            "game": open_games[-1]["id"] if open_games else None,
            "finished": data["summary"]["finished"]}


@bp.get("/campaigns/<id:campaign_id>/history")
@bp.doc(summary="The scenarios played: fates, rewards, consequence rolls, dice")
def get_history(campaign_id: str) -> dict[str, Any]:
    data = read_campaign(campaign_id)
    return {"id": campaign_id, "version": data["version"],
            "history": data["record"].get("history", []),
            "outcome": data["summary"]["outcome"]}


@bp.get("/campaigns/<id:campaign_id>/export")
@bp.doc(summary="The campaign record and its games' exports, to import elsewhere: with the "
        "campaign's token whole (`complete`), without it the games' crates and traps left "
        "out as a game's answer leaves them out",
        security=[{"Bearer": []}, {}])  # the token is optional: it opens the whole record
def get_export(campaign_id: str) -> dict[str, Any]:
    with services().db.read() as conn:
        row = records.get_campaign(conn, campaign_id)
    whole = token_sent(row.token_hash, stored("campaign", campaign_id))
    data = read_campaign(campaign_id)
    games = []
    for g in data["games"]:
        _row, game = stored_game(g["id"])
        games.append({"scenario": g["scenario"], "seed": g["seed"],
                      "recorded": g["recorded"], "export": shown_export(game, whole)})
    return {"campaign": data["record"], "complete": whole, "games": games}


def _change(campaign_id: str,
            step: Callable[[sa.Connection, Campaign], tuple[Campaign, dict[str, Any]]]
            ) -> dict[str, Any]:
    """Apply `step` to the campaign under its row lock, with its token; save the result."""
    with services().db.write() as conn:
        row = records.get_campaign(conn, campaign_id, lock=True)
        require_token(row.token_hash, stored("campaign", campaign_id))
        after, extra = step(conn, Campaign.from_json(row.data))
        records.update_campaign(conn, campaign_id, after.to_json(), row.version)
    return {**read_campaign(campaign_id), **extra}


@bp.post("/campaigns/<id:campaign_id>/games")
@bp.input(CampaignGameIn, arg_name="body")
@bp.output(CreatedGameOut, status_code=201)
@bp.doc(summary="Start the next scenario's game (token needed); the game takes the "
        "campaign's token", security="Bearer")
def post_campaign_game(campaign_id: str, body: CampaignGameIn) -> dict[str, Any]:
    db = services().db
    with db.write() as conn:
        row = records.get_campaign(conn, campaign_id, lock=True)
        require_token(row.token_hash, stored("campaign", campaign_id))
        campaign = Campaign.from_json(row.data)
        game = start_next(campaign, body.seed)
        export = game.export()
        game_id = gamelog.insert_game(
            conn, token_hash=row.token_hash, seed=body.seed,
            setup={"kind": "campaign", "campaign_version": row.version,
                   "scenario": campaign.next_scenario, "seed": body.seed},
            start={"start": export["start"], "log": export["log"][:1]},
            scenario=campaign.next_scenario, campaign_id=campaign_id)
    token = request.headers["Authorization"].partition(" ")[2].strip()
    return {**read_game(game_id), "token": token}


@bp.post("/campaigns/<id:campaign_id>/results")
@bp.input(ResultIn, arg_name="body")
@bp.doc(summary="Record a finished game of the campaign (token needed): the dead leave, "
        "down survivors roll (D8), the reward, the consequence roll", security="Bearer")
def post_result(campaign_id: str, body: ResultIn) -> dict[str, Any]:
    def step(conn: sa.Connection, campaign: Campaign) -> tuple[Campaign, dict[str, Any]]:
        row = gamelog.get_game(conn, body.game_id, lock=True)
        if row.campaign_id != campaign_id:
            raise NotFound(Message("service.campaign.not_its_game", {
                "game": body.game_id, "campaign": campaign_id}), "game_id", code="not_found")
        if row.recorded:
            raise ApiError(Message("service.campaign.recorded", {"game": body.game_id}),
                           "game_id", code="already_recorded")
        _row, game = stored_game(body.game_id)
        result = result_from_game(game, str(row.scenario), body.zombie_players)
        dice = Dice(rng=random.Random(body.seed), typed=list(body.dice))
        after = record_result(campaign, result, dice, reroll=body.reroll, seed=body.seed)
        gamelog.mark_recorded(conn, body.game_id)
        return after, {"played": after.history[-1].to_json()}

    return _change(campaign_id, step)


@bp.post("/campaigns/<id:campaign_id>/choose")
@bp.input(ChooseIn, arg_name="body")
@bp.output(CampaignOut)
@bp.doc(summary="Name the last scenario when a player chooses it (token needed)",
        security="Bearer")
def post_choose(campaign_id: str, body: ChooseIn) -> dict[str, Any]:
    return _change(campaign_id, lambda _c, campaign: (choose_final(campaign, body.scenario),
                                                      {}))


@bp.post("/campaigns/<id:campaign_id>/heal")
@bp.input(HealIn, arg_name="body")
@bp.output(CampaignOut)
@bp.doc(summary="Heal a member between scenarios (D30) (token needed)", security="Bearer")
def post_heal(campaign_id: str, body: HealIn) -> dict[str, Any]:
    return _change(campaign_id, lambda _c, campaign: (
        heal_between(campaign, body.target, body.healer), {}))
