"""What the page shows about a game in play: a path preview, a figure's sight, the 20 in
zone and the zombies that may activate, the engaged pairs. Nothing here changes the game.
"""

from __future__ import annotations

import math
from typing import Any

import shapely
import sqlalchemy as sa
from apiflask import APIBlueprint

from geometry.space import enemies
from i18n import Message, render
from rules import legal
from rules.actions import Move
from rules.activity import activatable
from rules.arbitration import activatable_zombies
from rules.errors import IllegalActionError
from rules.game import ZOMBIES, Game
from rules.names import figure_name
from service.app import services
from service.errors import ApiError, NotFound
from service.language import request_lang
from service.schemas import EngagedOut, PathIn, PathOut, SightOut, SightQuery, ZoneOut
from service.words import status_word

bp = APIBlueprint("game_views", __name__, tag="Games")


def _on_table(game: Game, figure: str, game_id: str) -> str:
    fig = game.figures.get(figure)
    if fig is None:
        raise NotFound(Message("service.figure.unknown", {"figure": figure, "game": game_id}),
                       "figure")
    if not fig.on_table:
        raise ApiError(Message("service.figure.off_table", {
            "figure": figure_name(game, figure), "status": status_word(fig.status)}),
            "figure", code="not_on_table")
    return figure


def _rings(shape: Any) -> list[list[list[float]]]:
    """Outer rings of a (multi)polygon, coordinates rounded to 1/10000 in."""
    parts = getattr(shape, "geoms", [shape])
    out = []
    for part in parts:
        if part.geom_type == "Polygon" and not part.is_empty:
            out.append([[round(x, 4), round(y, 4)] for x, y in part.exterior.coords])
    return out


@bp.post("/games/<id:game_id>/path")
@bp.input(PathIn, arg_name="body")
@bp.output(PathOut)
@bp.doc(summary="Preview a move: the shortest legal route, its length, the AP it costs at M "
        "in per move, and whether the move is legal now (else why not)")
def post_path(game_id: str, body: PathIn) -> dict[str, Any]:
    def use(_row: sa.Row[Any], game: Game) -> dict[str, Any]:
        figure = _on_table(game, body.figure, game_id)
        fig = game.figures[figure]
        to = (float(body.to[0]), float(body.to[1]))
        path = game.space().path(figure, to)
        move = float(fig.move)
        if game.referee is not None and path.reachable:
            limit = game.referee.move_limit(game, fig, path.waypoints)
            if limit is not None:
                move = min(move, float(limit[0]))
        moves = None
        if path.reachable:
            moves = 0 if path.length <= 1e-9 else (
                math.ceil(path.length / move - 1e-9) if move > 0 else None)
        lang = request_lang()
        error = move_verdict(game, figure, to)
        refused = None if error is None else error.text(lang)
        refused_words = None if error is None or error.words is None else error.words.to_json()
        why = getattr(path, "words", None)
        return {"figure": figure, "to": list(to), "reachable": path.reachable,
                "length": path.length if path.reachable else None,
                "waypoints": [list(p) for p in path.waypoints], "move": move,
                "moves": moves, "ap_cost": moves, "legal_now": refused is None,
                "refused": refused, "refused_words": refused_words,
                "reason": render(why, lang) if why is not None else path.reason,
                "reason_words": None if why is None else why.to_json()}

    out: dict[str, Any] = services().games.read(game_id, use)
    return out


def move_verdict(game: Game, figure: str, to: tuple[float, float]) -> IllegalActionError | None:
    """The engine's refusal of moving `figure` to `to` now, or None when it is legal."""
    try:
        legal.check(game, Move(figure=figure, to=to))
    except IllegalActionError as error:
        return error
    return None


@bp.get("/games/<id:game_id>/sight")
@bp.input(SightQuery, location="query", arg_name="query")
@bp.output(SightOut)
@bp.doc(summary="What a figure sees: its visibility polygon(s) and each enemy visible or "
        "hidden, with the visible fraction of its base and the distance")
def get_sight(game_id: str, query: SightQuery) -> dict[str, Any]:
    def use(_row: sa.Row[Any], game: Game) -> dict[str, Any]:
        return sight_view(game, _on_table(game, query.figure, game_id), request_lang())

    out: dict[str, Any] = services().games.read(game_id, use)
    return out


def sight_view(game: Game, figure: str, lang: str) -> dict[str, Any]:
    """What `figure` sees, as the engine judges a shot: each enemy with a line of sight is
    visible unless the referee's `sight_veto` (fog, night) hides it, which is then said; the
    drawn area is cut to the weather's sight limit, lit zones kept."""
    space = game.space()
    me = space.scene.figure(figure)
    foes = [f.id for f in space.scene.figures if enemies(me, f)]
    listed = []
    for foe, s in zip(foes, space.sights(figure, foes), strict=True):
        inches = space.distance(figure, foe)
        veto = None if not s.visible or game.referee is None else game.referee.sight_veto(
            game, game.figures[figure], game.figures[foe], inches)
        entry: dict[str, Any] = {"id": foe, "visible": s.visible and veto is None,
                                 "fraction": round(s.fraction, 6), "inches": round(inches, 4)}
        if veto is not None:
            entry["limited_by"] = render(veto, lang)
            entry["limited_by_words"] = veto.to_json()
        listed.append(entry)
    polygon = space.visibility_polygon(figure)
    out: dict[str, Any] = {"figure": figure, "enemies": listed, "limit": None}
    limit = None if game.referee is None else game.referee.sight_limit(game)
    if limit is not None and game.referee is not None:
        polygon = _within(polygon, me, limit[0], game.referee.lit_zones(game))
        out["limit"] = {"inches": limit[0], "text": render(limit[1], lang),
                        "words": limit[1].to_json()}
    out["polygons"] = _rings(shapely.normalize(polygon))
    return out


def _within(seen: Any, me: Any, limit: float, lit: list[list[list[float]]]) -> Any:
    """The part of the visibility polygon `seen` a figure can pick figures out in: within
    `limit` of its base's edge (a base there is within `limit` edge to edge), and in the lit
    zones, where figures are seen from any distance."""
    near = shapely.Point(me.x, me.y).buffer(limit + me.radius, quad_segs=32)
    shown = seen.intersection(near)
    for zone in lit:
        shown = shown.union(seen.intersection(shapely.Polygon(zone)))
    return shown


@bp.get("/games/<id:game_id>/zone")
@bp.output(ZoneOut)
@bp.doc(summary="The 20 in rule: zombies with a human within 20 in, each zombie's nearest "
        "human, and the zombies that may be activated now")
def get_zone(game_id: str) -> dict[str, Any]:
    def use(row: sa.Row[Any], game: Game) -> dict[str, Any]:
        active, nearest = activatable_zombies(game.space())
        return {"version": row.version, "in_zone": active,
                "out_of_zone": [z for z in nearest if z not in active],
                "nearest": {z: None if n is None else {"human": n[0], "inches": round(n[1], 4)}
                            for z, n in nearest.items()},
                "activatable": [f.id for f in activatable(game, ZOMBIES)],
                "pool": game.pools.get(ZOMBIES, 0)}

    out: dict[str, Any] = services().games.read(game_id, use)
    return out


@bp.get("/games/<id:game_id>/engaged")
@bp.output(EngagedOut)
@bp.doc(summary="Every pair of enemies in base contact")
def get_engaged(game_id: str) -> dict[str, Any]:
    def use(row: sa.Row[Any], game: Game) -> dict[str, Any]:
        return {"version": row.version, "pairs": engaged_pairs(game)}

    out: dict[str, Any] = services().games.read(game_id, use)
    return out


def engaged_pairs(game: Game) -> list[list[str]]:
    """Every pair of enemies in base contact, by the engine's own test (`Fig.enemy_of`,
    `Game.in_contact`), each pair sorted, in table order."""
    on = [f for f in game.figures.values() if f.on_table]
    return [sorted((a.id, b.id)) for i, a in enumerate(on) for b in on[i + 1:]
            if a.enemy_of(b) and game.in_contact(a.id, b.id)]
