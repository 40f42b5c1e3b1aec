"""Answers to the arbitration questions of DESIGN.md, each with a short explanation.

Geometry measures; this module applies the rules to the measures: the 20 in activation
range, who counts as an enemy, shooting-target priority.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import shapely
from shapely.geometry import mapping

from geometry.errors import QuestionError, SceneError, shown
from geometry.scene import Scene, load_scene, xy_pair
from geometry.space import Sight, Space, enemies
from i18n import Message

__all__ = [
    "ACTIVATION_INCHES",
    "THREAT_INCHES",
    "arbitrate",
    "answer",
    "enemies",
    "shooting_targets",
    "activatable_zombies",
]

ACTIVATION_INCHES = 20.0  # a zombie activates only with a human this close, edge to edge
THREAT_INCHES = 2.0  # a zombie this close to a survivor threatens it: it may be shot first
TIE_INCHES = 1e-6  # distances closer than this are the same distance on a real table

Answer = dict[str, Any]


def _fmt(inches: float) -> str:
    return f"{inches:.2f} in"


def activatable_zombies(space: Space) -> tuple[list[str], dict[str, tuple[str, float] | None]]:
    """Zombies with a human within 20 in, and each zombie's nearest human with its distance."""
    figures = space.scene.figures
    humans = [i for i, f in enumerate(figures) if f.is_human]
    nearest: dict[str, tuple[str, float] | None] = {}
    active = []
    for i, f in enumerate(figures):
        if f.is_human:
            continue
        if not humans:
            nearest[f.id] = None
            continue
        row = space.distances[i, humans]
        k = int(row.argmin())
        nearest[f.id] = (figures[humans[k]].id, float(row[k]))
        if row[k] <= ACTIVATION_INCHES + 1e-9:
            active.append(f.id)
    return active, nearest


def shooting_targets(space: Space, shooter: str, reach: float,
                     seen: Mapping[str, Sight] | None = None) -> Answer:
    """Zombies the shooter may shoot: in sight and range; the nearest, or any threatening.

    `seen` may bring the shooter's sight of every zombie, already measured.
    """
    me = space.scene.figure(shooter)
    zombies = [f for f in space.scene.figures if f.side == "zombies"]
    survivors = [f.id for f in space.scene.figures if f.side == "survivors"]
    if seen is None:
        sights = space.sights(shooter, [z.id for z in zombies])
    else:
        sights = [seen[z.id] for z in zombies]
    candidates: list[tuple[float, str]] = []
    row = space.distances[space.scene.index[shooter]]
    for zombie, sight in zip(zombies, sights, strict=True):
        d = float(row[space.scene.index[zombie.id]])
        if sight.visible and d <= reach + 1e-9:
            candidates.append((d, zombie.id))
    candidates.sort(key=lambda c: c[0])
    legal: list[str] = []
    reasons: dict[str, str] = {}
    index = space.scene.index
    cols = [index[s] for s in survivors]
    if candidates:
        nearest = candidates[0][0]
        for d, z in candidates:
            near = space.distances[index[z], cols] <= THREAT_INCHES + 1e-9
            threatened = [s for s, hit in zip(survivors, near, strict=True) if hit]
            if d <= nearest + TIE_INCHES:
                legal.append(z)
                reasons[z] = f"nearest zombie in sight and range ({_fmt(d)})"
            elif threatened:
                legal.append(z)
                reasons[z] = f"threatens {threatened[0]} (within {THREAT_INCHES:g} in)"
    return {
        "candidates": [z for _, z in candidates],
        "legal": legal,
        "why": reasons,
        "explain": (
            f"{me.id} sees {len(candidates)} zombie(s) within {reach:g} in; "
            f"may shoot {', '.join(legal) if legal else 'none'}"
        ),
    }


# --- questions ----------------------------------------------------------------------------


def _field(q: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in q:
        raise QuestionError(Message("scene.question.missing", {"where": where, "field": key}),
                            f"{where}.{key}")
    return q[key]


def _figure_id(space: Space, q: Mapping[str, Any], key: str, where: str) -> str:
    value = _field(q, key, where)
    here = f"{where}.{key}"
    if not isinstance(value, str) or value not in space.scene.index:
        raise QuestionError(Message("scene.question.unknown_figure", {
            "where": here, "value": shown(value)}), here)
    return value


def _number(q: Mapping[str, Any], key: str, where: str) -> float:
    value = _field(q, key, where)
    here = f"{where}.{key}"
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise QuestionError(Message("scene.question.not_number", {
            "where": here, "value": shown(value)}), here)
    if value < 0:
        raise QuestionError(Message("scene.question.negative", {
            "where": here, "value": shown(value)}), here)
    return float(value)


def _point(q: Mapping[str, Any], key: str, where: str) -> tuple[float, float]:
    value = _field(q, key, where)
    point = xy_pair(value)
    here = f"{where}.{key}"
    if point is None:
        raise QuestionError(Message("scene.question.not_point", {
            "where": here, "value": shown(value)}), here)
    return point


def _ask_distance(space: Space, q: Mapping[str, Any], where: str) -> Answer:
    a, b = _figure_id(space, q, "a", where), _figure_id(space, q, "b", where)
    inches = space.distance(a, b)
    return {"inches": inches, "explain": f"{a} to {b}: {_fmt(inches)} edge to edge"}


def _ask_sight(space: Space, q: Mapping[str, Any], where: str) -> Answer:
    a, b = _figure_id(space, q, "from", where), _figure_id(space, q, "to", where)
    sight = space.sight(a, b)
    seen = f"sees {sight.fraction:.0%} of" if sight.visible else "cannot see"
    if sight.visible and sight.fraction == 0.0:
        seen = "just sees (a sight line grazes terrain) the edge of"
    return {
        "visible": sight.visible,
        "fraction": sight.fraction,
        "explain": f"{a} {seen} {b}'s base",
    }


def _ask_activatable(space: Space, q: Mapping[str, Any], where: str) -> Answer:
    active, nearest = activatable_zombies(space)
    lines = []
    for z, near in nearest.items():
        if near is None:
            lines.append(f"{z}: no human on the table")
        else:
            verdict = "may activate" if z in active else "too far"
            lines.append(f"{z}: nearest human {near[0]} at {_fmt(near[1])}, {verdict}")
    return {"zombies": active, "explain": "; ".join(lines)}


def _ask_engaged(space: Space, q: Mapping[str, Any], where: str) -> Answer:
    me = space.scene.figure(_figure_id(space, q, "figure", where))
    foes = [f.id for f in space.scene.figures if enemies(me, f)]
    touching = space.in_contact(me.id, foes)
    if touching:
        text = f"{me.id} is in base contact with {', '.join(touching)}"
    else:
        text = f"{me.id} touches no enemy base"
    return {"with": touching, "explain": text}


def _ask_shooting(space: Space, q: Mapping[str, Any], where: str) -> Answer:
    shooter = _figure_id(space, q, "shooter", where)
    here = f"{where}.shooter"
    if space.scene.figure(shooter).side == "zombies":
        raise QuestionError(Message("scene.question.zombie_shooter", {
            "where": here, "figure": space.scene.figure(shooter).words}), here)
    return shooting_targets(space, shooter, _number(q, "range", where))


def _ask_path(space: Space, q: Mapping[str, Any], where: str) -> Answer:
    figure = _figure_id(space, q, "figure", where)
    goal = _point(q, "to", where)
    path = space.path(figure, goal)
    if not path.reachable:
        return {
            "reachable": False,
            "length": None,
            "waypoints": [],
            "explain": f"{figure} cannot reach {list(goal)}: {path.reason}",
        }
    return {
        "reachable": True,
        "length": path.length,
        "waypoints": [list(p) for p in path.waypoints],
        "explain": f"{figure} reaches {list(goal)} in {_fmt(path.length)} "
        f"({len(path.waypoints)} waypoints)",
    }


def _geojson(shape: Any, digits: int = 4) -> dict[str, Any]:
    """A shapely geometry as a GeoJSON object with coordinates rounded to 1/10000 in."""
    return dict(mapping(shapely.set_precision(shape, 10.0**-digits)))


def _ask_visibility(space: Space, q: Mapping[str, Any], where: str) -> Answer:
    figure = _figure_id(space, q, "figure", where)
    region = space.visibility_polygon(figure)
    share = region.area / (space.scene.table.width * space.scene.table.depth)
    return {
        "area": region.area,
        "region": _geojson(region),
        "explain": f"{figure} sees {share:.0%} of the table",
    }


def _ask_reach(space: Space, q: Mapping[str, Any], where: str) -> Answer:
    figure = _figure_id(space, q, "figure", where)
    inches = _number(q, "inches", where)
    region = space.reach(figure, inches)
    return {
        "area": region.area,
        "region": _geojson(region),
        "explain": f"where {figure}'s base centre can be after {inches:g} in of movement",
    }


QUESTIONS: dict[str, tuple[frozenset[str], Callable[[Space, Mapping[str, Any], str], Answer]]] = {
    "distance": (frozenset({"a", "b"}), _ask_distance),
    "line_of_sight": (frozenset({"from", "to"}), _ask_sight),
    "activatable_zombies": (frozenset(), _ask_activatable),
    "engaged": (frozenset({"figure"}), _ask_engaged),
    "shooting_targets": (frozenset({"shooter", "range"}), _ask_shooting),
    "path": (frozenset({"figure", "to"}), _ask_path),
    "visibility": (frozenset({"figure"}), _ask_visibility),
    "reach": (frozenset({"figure", "inches"}), _ask_reach),
}


_ALLOWED = {ask: fields | {"ask"} for ask, (fields, _) in QUESTIONS.items()}


def answer(space: Space, question: Any, where: str = "question") -> Answer:
    """Answer one question about the scene in `space`."""
    # `type(...) is dict` first: parsed JSON is a dict, and the ABC check costs more.
    if type(question) is not dict and not isinstance(question, Mapping):
        raise QuestionError(Message("scene.question.not_object", {
            "where": where, "value": shown(question)}), where)
    ask = question.get("ask")
    if ask not in QUESTIONS:
        raise QuestionError(Message("scene.question.unknown_ask", {
            "where": where, "value": shown(ask), "known": list(QUESTIONS)}), f"{where}.ask")
    fields, handler = QUESTIONS[ask]
    if not question.keys() <= _ALLOWED[ask]:
        extra = sorted(set(question) - fields - {"ask"})
        raise QuestionError(Message("scene.question.unknown_field", {
            "where": where, "field": extra[0], "ask": ask,
            "known": sorted(_ALLOWED[ask] - {"ask"})}), f"{where}.{extra[0]}")
    return handler(space, question, where)


def read_request(request: Any, fields: Iterable[str] = ("scene", "questions"),
                 prepare: Callable[[Any], Any] | None = None) -> tuple[Scene, list[Any]]:
    """The loaded scene and the questions of an arbitration request, or a SurviveUsError
    naming the bad field. `fields` are the fields allowed; `prepare` may adjust the scene
    JSON before it is loaded (the camera's uncertain positions are settled first)."""
    if not isinstance(request, Mapping):
        raise QuestionError(Message("scene.request.not_object", {"value": shown(request)}), "")
    extra = sorted(set(request) - set(fields))
    if extra:
        raise QuestionError(Message("scene.request.unknown_field", {
            "field": extra[0], "known": list(fields)}), extra[0])
    if "scene" not in request:
        raise QuestionError(Message("scene.request.missing_scene"), "scene")
    questions = request.get("questions", [])
    if not isinstance(questions, list):
        raise QuestionError(Message("scene.request.questions_not_list", {
            "value": shown(questions)}), "questions")
    try:
        data = request["scene"] if prepare is None else prepare(request["scene"])
        scene = load_scene(data)
    except SceneError as error:
        where = f"scene.{error.where}" if error.where else "scene"
        raise SceneError(error.words or error.message, where) from None
    if "questions" not in request:  # a good scene and nothing asked about it
        raise QuestionError(Message("scene.request.missing_questions"), "questions")
    return scene, questions


def arbitrate(request: Any) -> dict[str, list[Answer]]:
    """`{"scene", "questions"}` -> `{"answers"}`; raises SurviveUsError naming what is wrong."""
    scene, questions = read_request(request)
    space = Space(scene)
    space.prefetch_sight([(q["from"], q["to"]) for q in questions
                          if isinstance(q, Mapping) and q.get("ask") == "line_of_sight"
                          and isinstance(q.get("from"), str) and isinstance(q.get("to"), str)])
    return {"answers": [answer(space, q, f"questions[{i}]") for i, q in enumerate(questions)]}
