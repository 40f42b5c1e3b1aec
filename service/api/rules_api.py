"""Stateless answers: arbitration, the rules data, attack odds, scenario cards, draws, and a
card's set-up as a player lays it out (the set-up sheet and the card's map).

Each reuses the command line's code path, so the CLI and the API give the same answers.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from apiflask import APIBlueprint
from flask import Response, current_app, request
from pydantic import Field

from ai.words import said
from i18n import Message, render
from rules.catalog import load_catalog
from rules.game import Game
from rules.limits import check_arbitration
from rules.odds import OddsQuestion, attack_odds
from rules.settings import Settings
from rules.warband import Roster, band_cost, example_bands
from scenarios.campaign import draw_campaign
from scenarios.cards import Card
from scenarios.setup import DEFAULT_BAND
from scenarios.setup_sheet import map_svg, sheet
from service.cli.odds import odds_words
from service.cli.scenarios import find_card, listing
from service.errors import ApiError, NotFound
from service.explain import arbitrate_explained
from service.language import request_lang
from service.schemas import (
    ArbitrateIn,
    ArbitrateOut,
    DrawIn,
    Id,
    OddsIn,
    OddsOut,
    Query,
    Seed,
)
from service.workers import call_in

bp = APIBlueprint("rules", __name__, tag="Rules")


@bp.post("/arbitrate")
@bp.input(ArbitrateIn, arg_name="body")
@bp.output(ArbitrateOut)
@bp.doc(summary="Answer arbitration questions about a scene (same as `survive-us arbitrate`); "
        "at most 300 figures, 250 terrain pieces, 640 corners, 2000 questions (100 paths, 20 "
        "regions, 10,000 lines of sight): see docs/api.md, Limits")
def post_arbitrate(body: ArbitrateIn) -> dict[str, Any]:
    # The validated fields as they are (a model_dump would copy the 1000 questions again).
    asked = {"scene": body.scene, "questions": body.questions}
    work = check_arbitration(asked)  # 413 naming the limit, before any geometry is built
    if work.heavy:  # paths, or many lines of sight: in a worker process, within a budget
        result: dict[str, Any] = call_in(current_app.config["ARBITRATE_POOL"],
                                         "service.explain:arbitrate_explained", asked,
                                         client=request.remote_addr or "")
    else:
        result = arbitrate_explained(asked)
    lang = request_lang()
    for item in result["answers"]:
        item["explain"] = said([Message.from_json(m) for m in item["explain_words"]], lang)
    return result


@bp.get("/rules")
@bp.doc(summary="The rules data: archetypes, zombies, equipment, skills (`rules dump`)")
def get_rules() -> dict[str, Any]:
    return load_catalog().to_json()


@bp.get("/bands")
@bp.doc(summary="The example bands shipped with the rules: the names the API takes "
        "(`example`, `band`), their names in French and English, their cost and size")
def get_bands() -> list[dict[str, Any]]:
    catalog, settings = load_catalog(), Settings()
    return [{"id": key, "names": roster.names, "cost": band_cost(roster, catalog, settings),
             "members": len(roster.members)} for key, roster in example_bands().items()]


@bp.post("/odds")
@bp.input(OddsIn, arg_name="body")
@bp.output(OddsOut)
@bp.doc(summary="One attack die's exact chances (`survive-us odds`)")
def post_odds(body: OddsIn) -> dict[str, Any]:
    q = OddsQuestion(attacker=body.attacker, target=body.target, weapon=body.weapon,
                     mode=body.mode, attacker_skills=tuple(body.attacker_skills),
                     target_skills=tuple(body.target_skills),
                     target_items=tuple(body.target_items), target_moves=body.target_moves,
                     target_panicked=body.target_panicked, alone=body.alone)
    catalog = load_catalog()
    result = attack_odds(q, catalog)
    words = odds_words(q, result, catalog)
    return {**{k: result[k] for k in ("hit", "saved", "unsaved", "exact", "die")},
            "explain": render(words, request_lang()), "explain_words": words.to_json()}


@bp.get("/scenarios")
@bp.doc(summary="The scenario cards in draw order (`scenarios list`), each with its random "
        "end (`end_roll`) when its number of turns is not known in advance")
def get_scenarios() -> list[dict[str, Any]]:
    return listing()


def _card(scenario_id: str) -> Card:
    try:
        return find_card(scenario_id)
    except Exception as error:
        words = getattr(error, "words", None)
        raise NotFound(words or str(error), "scenario_id", code="unknown_scenario") from None


@bp.get("/scenarios/<id:scenario_id>")
@bp.doc(summary="One whole scenario card (`scenario show`)")
def get_scenario(scenario_id: str) -> dict[str, Any]:
    return _card(scenario_id).to_json()


class SetupQuery(Query):
    seed: Seed = Field(default=0, description="the set-up's seed (a game of the same seed "
                       "starts from the same set-up)")
    band: Id | None = Field(default=None, description="an example band's name (`GET /bands`); "
                            "by default the card's example band")
    roster_id: Id | None = Field(default=None, description="or a stored roster")
    table: Id | None = Field(default=None, description="a demo table, or `town`")
    game: Id | None = Field(default=None, description="a stored game of this card: the set-up "
                            "it started from (seed, band, roster_id and table are then its own)")


MAP_DOC: Any = {200: {"description": "an SVG image", "content": {
    "image/svg+xml": {"schema": {"type": "string"}}}}}


class MapQuery(SetupQuery):
    zombies: bool = Field(default=True, description="false: the zombies are left out")


@lru_cache(maxsize=16)
def _fresh(card_id: str, seed: int, band: str | None, table: str | None) -> Game:
    """A card's game at its start (kept: the map and the sheet of a set-up ask for it in
    turn, and a set-up never changes)."""
    from scenarios.play import start_scenario

    roster = None
    if band is not None:
        bands = example_bands()
        if band not in bands:
            raise ApiError(Message("service.unknown_band", {"name": band,
                                                            "known": sorted(bands)}),
                           "band", code="unknown_band")
        roster = bands[band]
    return start_scenario(card_id, roster, seed, table=table)


@lru_cache(maxsize=16)
def _started(game_id: str) -> tuple[str | None, int, Game, dict[str, str] | None]:
    """A stored game at its start: its card, its seed, the game, its band's names."""
    from service.api.games import band_names
    from service.app import services
    from service.live import rebuild
    from service.storage import gamelog

    with services().db.read() as conn:
        row = gamelog.get_game(conn, game_id)
    names = band_names(row.setup)
    setup = row.setup if isinstance(row.setup, dict) else {}
    if names is None and setup.get("kind") == "scenario" and setup.get("roster_id") is None:
        names = dict(example_bands()[setup.get("band") or DEFAULT_BAND].names)  # the card's
    return row.scenario, row.seed, rebuild(row.start, []), names


def _setup(scenario_id: str, query: SetupQuery) -> tuple[Card, Game, dict[str, Any]]:
    """The card, its game at the start of the set-up asked for, and what the answer says of
    it (seed, band, game)."""
    card = _card(scenario_id)
    if query.game is not None:
        scenario, seed, game, band = _started(query.game)
        if scenario != card.id:
            raise ApiError(Message("service.setup.other_card", {"card": {
                "fr": card.name.fr, "en": card.name.en}}), "game", code="other_scenario")
        return card, game, {"seed": seed, "band": band, "game": query.game}
    if query.band is not None and query.roster_id is not None:
        raise ApiError(Message("service.game.band_or_roster"), "band", code="invalid_request")
    if query.table is not None:
        from service.cli.scenarios import _check_table

        _check_table(query.table)
    if query.roster_id is not None:
        from scenarios.play import start_scenario
        from service.app import services
        from service.storage import records

        with services().db.read() as conn:
            row = records.get_roster(conn, query.roster_id)
        roster = Roster.from_json(row.data)
        game = start_scenario(card, roster, query.seed, table=query.table)
        names = {"fr": roster.name, "en": roster.name}
    else:
        game = _fresh(card.id, query.seed, query.band, query.table)
        names = dict(example_bands()[query.band or DEFAULT_BAND].names)
    return card, game, {"seed": query.seed, "band": names, "game": None}


@bp.get("/scenarios/<id:scenario_id>/setup")
@bp.input(SetupQuery, location="query", arg_name="query")
@bp.doc(summary="A card's set-up as a player lays it out: where each figure, crate and item "
        "goes (inches from the two nearest table edges to its centre), the zones, exits and "
        "terrain, the turns, weather, objectives and special rules; never what a crate "
        "holds (the printable set-up sheet)")
def get_setup(scenario_id: str, query: SetupQuery) -> dict[str, Any]:
    card, game, about = _setup(scenario_id, query)
    return {**sheet(game, card), **about}


@bp.get("/scenarios/<id:scenario_id>/map.svg")
@bp.input(MapQuery, location="query", arg_name="query")
@bp.doc(summary="The card's map for a set-up (SVG, one unit an inch, the survivors' edge at "
        "the bottom): terrain, zones, exits, crates (never their contents), items and every "
        "figure by the number on its base, its words in the request's language",
        responses=MAP_DOC)
def get_map(scenario_id: str, query: MapQuery) -> Response:
    card, game, _about = _setup(scenario_id, query)
    svg = map_svg(game, card, query.lang or request_lang(), zombies=query.zombies)
    return Response(svg, mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-cache"})


@bp.post("/draws")
@bp.input(DrawIn, arg_name="body")
@bp.doc(summary="Draw a campaign's scenarios (`campaign draw`), without storing anything")
def post_draw(body: DrawIn) -> dict[str, Any]:
    return draw_campaign(body.length, random.Random(body.seed)).to_json()
