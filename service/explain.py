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

from geometry.scene import Scene
from geometry.space import Space
from i18n import Message
from rules.arbitration import THREAT_INCHES, activatable_zombies, answer, read_request

__all__ = ["arbitrate_explained", "explained", "explain_words"]


def arbitrate_explained(request: Any) -> dict[str, list[dict[str, Any]]]:
    """`rules.arbitration.arbitrate` with `explain_words` (a list of messages) in each
    answer; raises the same errors."""
    answers = []
    for found, words in explained(request):
        found["explain_words"] = [m.to_json() for m in words]
        answers.append(found)
    return {"answers": answers}


def explained(request: Any) -> list[tuple[dict[str, Any], list[Message]]]:
    """Each answer of `rules.arbitration.arbitrate` with its explanation as messages, to be
    said or kept as JSON (`arbitrate_explained`); raises the same errors."""
    scene, questions = read_request(request)
    space = Space(scene)
    space.prefetch_sight([(q["from"], q["to"]) for q in questions
                          if isinstance(q, Mapping) and q.get("ask") == "line_of_sight"
                          and isinstance(q.get("from"), str) and isinstance(q.get("to"), str)])
    names = Names(scene)
    out = []
    for i, q in enumerate(questions):
        found = answer(space, q, f"questions[{i}]")
        out.append((found, explain_words(space, q, found, names)))
    return out


class Names(dict[str, Any]):
    """Each figure's words (`Figure.words`), read once for a request's many answers."""

    def __init__(self, scene: Scene) -> None:
        super().__init__()
        self.scene = scene

    def __missing__(self, figure_id: str) -> Any:
        words = self[figure_id] = self.scene.figure(figure_id).words
        return words


def explain_words(space: Space, q: Mapping[str, Any], found: Mapping[str, Any],
                  names: Names | None = None) -> list[Message]:
    """The answer `found` to question `q` in words (`names`: the figures' words so far)."""
    name = Names(space.scene) if names is None else names
    ask = q["ask"]
    if ask == "distance":
        return [Message("service.explain.distance", {
            "a": name[q["a"]], "b": name[q["b"]], "d": found["inches"]})]
    if ask == "line_of_sight":
        p = {"a": name[q["from"]], "b": name[q["to"]],
             "p": found["fraction"]}
        if not found["visible"]:
            return [Message("service.explain.unseen", p)]
        if found["fraction"] == 0.0:
            return [Message("service.explain.grazed", p)]
        return [Message("service.explain.seen", p)]
    if ask == "activatable_zombies":
        return _zombies(space, found["zombies"], name)
    if ask == "engaged":
        if found["with"]:
            return [Message("service.explain.contact", {
                "figure": name[q["figure"]],
                "enemies": [name[f] for f in found["with"]]})]
        return [Message("service.explain.no_contact", {"figure": name[q["figure"]]})]
    if ask == "shooting_targets":
        return _shooting(space, q, found, name)
    if ask == "path":
        return [_path(space, q, found, name)]
    if ask == "visibility":
        share = found["area"] / (space.scene.table.width * space.scene.table.depth)
        return [Message("service.explain.visibility", {"figure": name[q["figure"]],
                                                       "p": share})]
    if ask == "reach":
        return [Message("service.explain.reach", {"figure": name[q["figure"]],
                                                  "d": float(q["inches"])})]
    return []


def _zombies(space: Space, active: list[str], name: Names) -> list[Message]:
    """Each zombie: its nearest human, how far, whether it may activate (20 in)."""
    _active, nearest = activatable_zombies(space)
    if not nearest:
        return [Message("service.explain.no_zombie")]
    out = []
    for z, near in nearest.items():
        if near is None:
            out.append(Message("service.explain.no_human", {"zombie": name[z]}))
            continue
        p = {"zombie": name[z], "human": name[near[0]], "d": near[1]}
        out.append(Message("service.explain.may_activate", p) if z in active
                   else Message("service.explain.too_far", p))
    return out


def _shooting(space: Space, q: Mapping[str, Any], found: Mapping[str, Any],
              name: Names) -> list[Message]:
    """How many zombies the shooter sees in range, which it may shoot and why."""
    shooter = q["shooter"]
    legal = list(found["legal"])
    said = {"shooter": name[shooter], "n": len(found["candidates"]), "range": float(q["range"])}
    # (none has its own sentence: French says "ne peut tirer sur aucun")
    out = [Message("service.explain.targets", {**said, "targets": [name[z] for z in legal]})
           if legal else Message("service.explain.no_targets", said)]
    if not legal:
        return out
    index = space.scene.index
    row = space.distances[index[shooter]]
    nearest = min(float(row[index[z]]) for z in found["candidates"])
    survivors = [f.id for f in space.scene.figures if f.side == "survivors"]
    for z in legal:
        d = float(row[index[z]])
        if d <= nearest + 1e-6:
            out.append(Message("service.explain.nearest_target", {"zombie": name[z],
                                                                   "d": d}))
            continue
        near = [s for s in survivors
                if float(space.distances[index[z], index[s]]) <= THREAT_INCHES + 1e-9]
        out.append(Message("service.explain.threat", {
            "zombie": name[z], "survivor": name[near[0]] if near else "",
            "d": THREAT_INCHES}))
    return out


def _path(space: Space, q: Mapping[str, Any], found: Mapping[str, Any],
          name: Names) -> Message:
    figure = q["figure"]
    x, y = float(q["to"][0]), float(q["to"][1])
    p: dict[str, Any] = {"figure": name[figure], "x": x, "y": y}
    if found["reachable"]:
        return Message("service.explain.route", {**p, "d": found["length"],
                                                 "n": len(found["waypoints"])})
    why = getattr(space.path(figure, (x, y)), "words", None)
    return Message("service.explain.no_route", {**p, "why": why or Message(
        "service.explain.blocked")})
