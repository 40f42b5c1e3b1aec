"""Stateless answers: arbitration, the rules data, attack odds, scenario cards, draws.

Each reuses the command line's code path, so the CLI and the API give the same answers.
"""

from __future__ import annotations

import random
from typing import Any

from apiflask import APIBlueprint

from ai.words import said
from i18n import Message, render
from rules.catalog import load_catalog
from rules.odds import OddsQuestion, attack_odds
from rules.settings import Settings
from rules.warband import band_cost, example_bands
from scenarios.campaign import draw_campaign
from service.cmd_odds import odds_words
from service.cmd_scenarios import find_card, listing
from service.explain import arbitrate_explained
from service.language import request_lang
from service.schemas import ArbitrateIn, ArbitrateOut, DrawIn, OddsIn, OddsOut

bp = APIBlueprint("rules", __name__, tag="Rules")


@bp.post("/arbitrate")
@bp.input(ArbitrateIn, arg_name="body")
@bp.output(ArbitrateOut)
@bp.doc(summary="Answer arbitration questions about a scene (same as `survive-us arbitrate`)")
def post_arbitrate(body: ArbitrateIn) -> dict[str, Any]:
    # The validated fields as they are (a model_dump would copy the 1000 questions again).
    result = arbitrate_explained({"scene": body.scene, "questions": body.questions})
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
@bp.doc(summary="The scenario cards in draw order (`scenarios list`)")
def get_scenarios() -> list[dict[str, Any]]:
    return listing()


@bp.get("/scenarios/<id:scenario_id>")
@bp.doc(summary="One whole scenario card (`scenario show`)")
def get_scenario(scenario_id: str) -> dict[str, Any]:
    from service.errors import NotFound

    try:
        card = find_card(scenario_id)
    except Exception as error:
        words = getattr(error, "words", None)
        raise NotFound(words or str(error), "scenario_id", code="unknown_scenario") from None
    return card.to_json()


@bp.post("/draws")
@bp.input(DrawIn, arg_name="body")
@bp.doc(summary="Draw a campaign's scenarios (`campaign draw`), without storing anything")
def post_draw(body: DrawIn) -> dict[str, Any]:
    return draw_campaign(body.length, random.Random(body.seed)).to_json()
