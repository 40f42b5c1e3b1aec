"""Arbitration answers with their explanations as messages (`survive-us arbitrate --explain`
and `POST /arbitrate`): each answer's `explain_words` says it in a few messages, naming the
figures as the scene names them (`Figure.words`: "Rôdeur 12", "zombie 12"), said in French
or English at the edge.

The answers are the rules' own (`rules.arbitration.answer`, on one `Space`); the words are
read off the answers and the same space, so nothing is measured twice but the nearest human
of each zombie and, for a route that cannot be taken, the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from geometry.space import Space
from i18n import Message
from rules.arbitration import THREAT_INCHES, activatable_zombies, answer, read_request

__all__ = ["arbitrate_explained", "explain_words"]


def arbitrate_explained(request: Any) -> dict[str, list[dict[str, Any]]]:
    """`rules.arbitration.arbitrate` with `explain_words` (a list of messages) in each
    answer; raises the same errors."""
    scene, questions = read_request(request)
    space = Space(scene)
    space.prefetch_sight([(q["from"], q["to"]) for q in questions
                          if isinstance(q, Mapping) and q.get("ask") == "line_of_sight"
                          and isinstance(q.get("from"), str) and isinstance(q.get("to"), str)])
    answers = []
    for i, q in enumerate(questions):
        found = answer(space, q, f"questions[{i}]")
        found["explain_words"] = [m.to_json() for m in explain_words(space, q, found)]
        answers.append(found)
    return {"answers": answers}


def _name(space: Space, figure_id: str) -> Any:
    return space.scene.figure(figure_id).words


def explain_words(space: Space, q: Mapping[str, Any], found: Mapping[str, Any]
                  ) -> list[Message]:
    """The answer `found` to question `q` in words."""
    ask = q["ask"]
    if ask == "distance":
        return [Message("service.explain.distance", {
            "a": _name(space, q["a"]), "b": _name(space, q["b"]), "d": found["inches"]})]
    if ask == "line_of_sight":
        p = {"a": _name(space, q["from"]), "b": _name(space, q["to"]),
             "p": found["fraction"]}
        if not found["visible"]:
            return [Message("service.explain.unseen", p)]
        if found["fraction"] == 0.0:
            return [Message("service.explain.grazed", p)]
        return [Message("service.explain.seen", p)]
    if ask == "activatable_zombies":
        return _zombies(space, found["zombies"])
    if ask == "engaged":
        if found["with"]:
            return [Message("service.explain.contact", {
                "figure": _name(space, q["figure"]),
                "enemies": [_name(space, f) for f in found["with"]]})]
        return [Message("service.explain.no_contact", {"figure": _name(space, q["figure"])})]
    if ask == "shooting_targets":
        return _shooting(space, q, found)
    if ask == "path":
        return [_path(space, q, found)]
    if ask == "visibility":
        share = found["area"] / (space.scene.table.width * space.scene.table.depth)
        return [Message("service.explain.visibility", {"figure": _name(space, q["figure"]),
                                                       "p": share})]
    if ask == "reach":
        return [Message("service.explain.reach", {"figure": _name(space, q["figure"]),
                                                  "d": float(q["inches"])})]
    return []


def _zombies(space: Space, active: list[str]) -> list[Message]:
    """Each zombie: its nearest human, how far, whether it may activate (20 in)."""
    _active, nearest = activatable_zombies(space)
    if not nearest:
        return [Message("service.explain.no_zombie")]
    out = []
    for z, near in nearest.items():
        if near is None:
            out.append(Message("service.explain.no_human", {"zombie": _name(space, z)}))
            continue
        p = {"zombie": _name(space, z), "human": _name(space, near[0]), "d": near[1]}
        out.append(Message("service.explain.may_activate", p) if z in active
                   else Message("service.explain.too_far", p))
    return out


def _shooting(space: Space, q: Mapping[str, Any], found: Mapping[str, Any]) -> list[Message]:
    """How many zombies the shooter sees in range, which it may shoot and why."""
    shooter = q["shooter"]
    legal = list(found["legal"])
    out = [Message("service.explain.targets", {
        "shooter": _name(space, shooter), "n": len(found["candidates"]),
        "range": float(q["range"]),
        "targets": [_name(space, z) for z in legal] or Message("service.explain.nobody")})]
    if not legal:
        return out
    index = space.scene.index
    row = space.distances[index[shooter]]
    nearest = min(float(row[index[z]]) for z in found["candidates"])
    survivors = [f.id for f in space.scene.figures if f.side == "survivors"]
    for z in legal:
        d = float(row[index[z]])
        if d <= nearest + 1e-6:
            out.append(Message("service.explain.nearest_target", {"zombie": _name(space, z),
                                                                   "d": d}))
            continue
        near = [s for s in survivors
                if float(space.distances[index[z], index[s]]) <= THREAT_INCHES + 1e-9]
        out.append(Message("service.explain.threat", {
            "zombie": _name(space, z), "survivor": _name(space, near[0]) if near else "",
            "d": THREAT_INCHES}))
    return out


def _path(space: Space, q: Mapping[str, Any], found: Mapping[str, Any]) -> Message:
    figure = q["figure"]
    x, y = float(q["to"][0]), float(q["to"][1])
    p: dict[str, Any] = {"figure": _name(space, figure), "x": x, "y": y}
    if found["reachable"]:
        return Message("service.explain.route", {**p, "d": found["length"],
                                                 "n": len(found["waypoints"])})
    why = getattr(space.path(figure, (x, y)), "words", None)
    return Message("service.explain.no_route", {**p, "why": why or Message(
        "service.explain.blocked")})
