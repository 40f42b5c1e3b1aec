"""What the page needs to draw an action before it is taken: its verdict and its route.

`POST /games/ID/preview` checks an action against the rules without applying it, and for a
move (to a point, or toward a figure or point as the AI proposes them) answers where the base
would end and the route it would follow round the terrain. The page draws the AI's proposal
as a ghost move with it, and a dragged figure's route with its length, AP cost and, when the
rules refuse the spot, the reason.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from apiflask import APIBlueprint
from pydantic import Field

from geometry.errors import SurviveUsError
from i18n import Message
from rules import legal, movement, rulebook
from rules.actions import Carry, Move, actor, parse_action
from rules.game import Game
from rules.summary import game_summary
from scenarios.play import ScenarioReferee
from service.app import services
from service.language import request_lang
from service.schemas import Json, Strict, Version, Words

__all__ = ["bp", "preview", "summary"]

bp = APIBlueprint("page_support", __name__, tag="Games")


class PreviewIn(Strict):
    action: Json = Field(description="an action, e.g. {type: move, figure: s1, to: [x, y]}")
    version: Version | None = Field(
        default=None, description="the version the page shows (409 when stale); none: current")


class PreviewOut(Strict):
    version: int
    action: Json
    legal: bool
    reason: str | None = Field(description="why the rules refuse it, in the request's language")
    reason_words: Words | None = Field(default=None, description="`reason` as a message "
                                       "(code and parameters), when it has one")
    cost: int | None
    figure: str | None
    end: list[float] | None
    length: float | None
    waypoints: list[list[float]]


def _route(game: Game, figure: str, end: tuple[float, float]) -> tuple[float | None, list[
        list[float]]]:
    """The shortest route of `figure` to `end`, or none when there is no way."""
    fig = game.figures.get(figure)
    if fig is None or not fig.on_table:
        return None, []
    try:
        path = game.space().path(figure, end)
    except (SurviveUsError, ValueError):
        return None, []
    if not path.reachable:
        return None, []
    return path.length, [[float(x), float(y)] for x, y in path.waypoints]


def preview(game: Game, data: Json) -> dict[str, Any]:
    """The verdict on `data` in `game` (unchanged), with the route of a move."""
    act = parse_action(data, "action")
    who = actor(act) or None
    reason: str | None = None
    reason_words: dict[str, Any] | None = None
    try:
        legal.check(game, act)
    except SurviveUsError as error:
        reason = error.text(request_lang())
        reason_words = None if error.words is None else error.words.to_json()
    # the AP an action costs is only known for a well-formed one (a known weapon, rule...)
    cost = (rulebook.cost(game, act) if who else 0) if reason is None else None
    end: tuple[float, float] | None = None
    length: float | None = None
    waypoints: list[list[float]] = []
    fig = game.figures.get(who) if who else None
    if fig is not None and isinstance(act, Move | Carry):
        if reason is None and isinstance(act, Carry):
            target = act.target
            end, _ = movement.plan_move(game, fig, act.to, act.toward,
                                        movement.carry_length(game, fig), ignore=(target,))
        elif reason is None:
            end, _ = movement.plan_move(game, fig, act.to, act.toward, fig.move)
        elif act.to is not None:
            end = act.to
        if end is not None:
            length, waypoints = _route(game, fig.id, end)
    return {"action": act.to_json(), "legal": reason is None, "reason": reason,
            "reason_words": reason_words, "cost": cost,
            "figure": who, "end": None if end is None else [float(end[0]), float(end[1])],
            "length": length, "waypoints": waypoints}


@bp.post("/games/<game_id>/preview")
@bp.input(PreviewIn, arg_name="body")
@bp.output(PreviewOut)
@bp.doc(summary="Check an action without applying it; a move's end and route (for the page)")
def post_preview(game_id: str, body: PreviewIn) -> dict[str, Any]:
    def use(row: sa.Row[Any], game: Game) -> dict[str, Any]:
        if body.version is not None and body.version != row.version:
            from service.errors import Conflict

            raise Conflict(Message("service.game.stale", {"game": game_id, "version": row.version,
                                                          "sent": body.version}),
                           "version", extra={"version": row.version})
        return {"version": row.version, **preview(game, body.action)}

    out: dict[str, Any] = services().games.read(game_id, use)
    return out


class SummaryOut(Strict):
    version: int
    terminal: bool
    turn: int
    max_turns: int
    figures: list[Json] = Field(description="each survivor and civilian: status, exit, "
                                "wounds_taken, kills (zombies put down)")
    zombies_down: int
    ap_spent: dict[str, int] = Field(description="action points each side spent")
    campaign_id: str | None
    consequences: list[Json] = Field(description="a campaign game's card: the 1D6 "
                                     "consequence table (low, high, words) the result is "
                                     "rolled on when it is recorded")


def summary(game: Game, campaign: bool) -> dict[str, Any]:
    """The game's summary and, for a campaign game on a card, its consequence table."""
    out = game_summary(game)
    referee = game.referee
    table = referee.card.consequences if campaign and isinstance(
        referee, ScenarioReferee) else ()
    out["consequences"] = [{"low": e.low, "high": e.high,
                            "words": e.value.words(game.catalog).to_json()} for e in table]
    return out


@bp.get("/games/<id:game_id>/summary")
@bp.output(SummaryOut)
@bp.doc(summary="How the game went: each survivor's fate, wounds and zombies put down, the "
        "AP each side spent, and a campaign game's consequence table (for the end screen)")
def get_summary(game_id: str) -> dict[str, Any]:
    def use(row: sa.Row[Any], game: Game) -> dict[str, Any]:
        out = summary(game, campaign=row.campaign_id is not None)
        return {"version": row.version, "terminal": game.is_terminal,
                "campaign_id": row.campaign_id, **out}

    result: dict[str, Any] = services().games.read(game_id, use)
    return result
