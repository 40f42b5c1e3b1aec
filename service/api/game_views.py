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
from geometry.units import CONTACT_INCHES
from i18n import Message, render
from rules import legal
from rules.actions import Move
from rules.arbitration import activatable_zombies
from rules.errors import IllegalActionError
from rules.game import ZOMBIES, Game
from rules.names import figure_name
from service.app import services
from service.errors import ApiError, NotFound
from service.language import request_lang
from service.schemas import EngagedOut, FigureQuery, PathIn, PathOut, SightOut, ZoneOut
from service.words import status_word

bp = APIBlueprint("game_views", __name__, tag="Games")


def _on_table(game: Game, figure: str | None, game_id: str) -> str:
    if figure is None:
        raise ApiError(Message("service.figure.needed"), "figure", code="invalid_request")
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
        refused: str | None = None
        refused_words: dict[str, Any] | None = None
        lang = request_lang()
        try:
            legal.check(game, Move(figure=figure, to=to))
        except IllegalActionError as error:
            refused = error.text(lang)
            refused_words = None if error.words is None else error.words.to_json()
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


@bp.get("/games/<id:game_id>/sight")
@bp.input(FigureQuery, location="query", arg_name="query")
@bp.output(SightOut)
@bp.doc(summary="What a figure sees: its visibility polygon(s) and each enemy visible or "
        "hidden, with the visible fraction of its base and the distance")
def get_sight(game_id: str, query: FigureQuery) -> dict[str, Any]:
    def use(_row: sa.Row[Any], game: Game) -> dict[str, Any]:
        figure = _on_table(game, query.figure, game_id)
        space = game.space()
        me = space.scene.figure(figure)
        foes = [f.id for f in space.scene.figures if enemies(me, f)]
        sights = space.sights(figure, foes)
        listed = [{"id": foe, "visible": s.visible, "fraction": round(s.fraction, 6),
                   "inches": round(space.distance(figure, foe), 4)}
                  for foe, s in zip(foes, sights, strict=True)]
        polygon = space.visibility_polygon(figure)
        return {"figure": figure, "polygons": _rings(shapely.normalize(polygon)),
                "enemies": listed}

    out: dict[str, Any] = services().games.read(game_id, use)
    return out


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
                "activatable": [f.id for f in legal.activatable(game, ZOMBIES)],
                "pool": game.pools.get(ZOMBIES, 0)}

    out: dict[str, Any] = services().games.read(game_id, use)
    return out


@bp.get("/games/<id:game_id>/engaged")
@bp.output(EngagedOut)
@bp.doc(summary="Every pair of enemies in base contact")
def get_engaged(game_id: str) -> dict[str, Any]:
    def use(row: sa.Row[Any], game: Game) -> dict[str, Any]:
        space = game.space()
        figures = space.scene.figures
        pairs = []
        for i, a in enumerate(figures):
            for j in range(i + 1, len(figures)):
                b = figures[j]
                if enemies(a, b) and space.distances[i, j] <= CONTACT_INCHES + 1e-9:
                    pairs.append(sorted((a.id, b.id)))
        return {"version": row.version, "pairs": pairs}

    out: dict[str, Any] = services().games.read(game_id, use)
    return out
