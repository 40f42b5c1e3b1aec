"""What the camera saw, set against the game: who moved, who is unknown, and what to check.

The camera pipeline (`vision/`) answers positions in table inches; this module gives them
the game's names and meaning. In tags mode a tag is a figure through the camera's assignment
(`{"tags": {"5": "z1"}}`); in colour mode each side's bases are matched to that side's figures
by `vision.match` (least total movement, "unknown" when two answers explain the frame almost
equally well). For every figure on the table it answers the game's position, the camera's,
the distance between them and whether it moved (farther than `MIN_MOVE` and than the
position's uncertainty, as `vision watch` decides); in solo play, when the zombies decide, it
sets the AI's next activation against what the camera sees (is the zombie within
`IN_PLACE_INCHES` of where the AI asked?), and it asks `rules.uncertain` which answers of the
moment (zombie activation at 20 in, base contact) the positions' uncertainty could flip.

Nothing here changes the game: a figure the camera saw elsewhere may be brought to that
spot only by a legal Move (`apply` in each moved figure's entry is that action, judged).

Every reason and note is a message: ``reason`` / ``notes`` in English and, beside them,
``reason_words`` / ``notes_words`` (code and parameters), which the API renders in the
request's language (`vision.words.say`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ai.policy import describe, make_policy
from ai.words import action_message
from geometry.errors import SurviveUsError
from i18n import Message
from rules import legal
from rules.actions import Move
from rules.game import ZOMBIES, Game
from rules.names import figure_name
from rules.uncertain import review
from service.api.games import AI_POLICY
from service.api.page_support import preview
from service.errors import ApiError
from vision.match import KnownFigure, match_figures
from vision.words import plain, shown
from vision.words import side as side_word

__all__ = ["Seen", "analyse", "read_seen", "said", "STATUS", "IN_PLACE_INCHES",
           "MIN_MOVE", "MOVES_GATE", "AI_POLICY"]

IN_PLACE_INCHES = 0.25  # the AI's zombie stands where it asked when this close (centres)
MIN_MOVE = 0.1  # a smaller shift is the camera's jitter, not a move (as vision.watch)
MOVES_GATE = 2  # colour mode: a figure may have made this many moves since the game knew it


@dataclass(frozen=True)
class Seen:
    """One base the camera located: by tag (tags mode) or by side (colour mode)."""

    x: float
    y: float
    uncertainty: float
    side: str = ""
    tag: int | None = None
    track: str | None = None
    #: what the camera said of the base: the size it found (colour: `base_mm`,
    #: `size_measured`) and the height its parallax used (`base_height_mm`, `height_known`,
    #: `height_in`); only the keys it gave
    base: Mapping[str, Any] = field(default_factory=dict)

    @property
    def base_mm(self) -> float | None:
        """The size the camera found, for matching (vision.match reads it)."""
        mm = self.base.get("base_mm")
        return float(mm) if mm is not None else None

    @property
    def size_measured(self) -> bool:
        return bool(self.base.get("size_measured", False))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"camera": [round(self.x, 4), round(self.y, 4)],
                               "uncertainty": round(self.uncertainty, 4)}
        if self.side:
            out["side"] = self.side
        if self.tag is not None:
            out["tag"] = self.tag
        if self.track is not None:
            out["track"] = self.track
        out.update(self.base)
        return out


#: What a located base may say of itself (`vision locate`'s figures), and its type.
BASE_KEYS = {"base_mm": float, "size_measured": bool, "base_height_mm": float,
             "height_known": bool, "height_in": float}


def _base(f: Mapping[str, Any], at: str) -> dict[str, Any]:
    """The base's size and height as the camera said them, each checked."""
    out: dict[str, Any] = {}
    for key, kind in BASE_KEYS.items():
        if key not in f:
            continue
        value = f[key]
        if kind is bool:
            if not isinstance(value, bool):
                raise ApiError(Message("camera.seen.flag", {"where": f"{at}.{key}",
                                                            "got": shown(value)}),
                               f"{at}.{key}", code="invalid_positions")
            out[key] = value
            continue
        number = _number(value, f"{at}.{key}")
        if number < 0:
            field_name = f"{at}.{key}"
            raise ApiError(Message("camera.seen.negative", {"where": field_name,
                                                            "got": shown(number)}),
                           field_name, code="invalid_positions")
        out[key] = number
    return out


#: A figure's state in words (the page's own words for them).
STATUS = {"standing": Message("status.standing"), "down": Message("status.down"),
          "dead": Message("status.dead"), "contaminated": Message("status.contaminated"),
          "removed": Message("status.removed"), "evacuated": Message("status.evacuated")}


def said(message: Message) -> dict[str, Any]:
    """A message as an answer's ``reason`` (English) and ``reason_words``."""
    return {"reason": message.text("en"), "reason_words": message.to_json()}


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ApiError(Message("camera.seen.number", {"where": where, "got": shown(value)}),
                       where, code="invalid_positions")
    return float(value)


def read_seen(figures: Sequence[Any], mode: str, where: str = "figures") -> list[Seen]:
    """The located bases of `vision locate` / `vision watch` (`{"tag" or "side", "x", "y",
    "uncertainty"?, ...}`), checked field by field."""
    out = []
    for n, f in enumerate(figures):
        at = f"{where}[{n}]"
        if not isinstance(f, Mapping):
            raise ApiError(Message("camera.seen.object", {"where": at, "got": shown(f)}), at,
                           code="invalid_positions")
        x, y = _number(f.get("x"), f"{at}.x"), _number(f.get("y"), f"{at}.y")
        u = _number(f.get("uncertainty", 0.0), f"{at}.uncertainty")
        if u < 0:
            field = f"{at}.uncertainty"
            raise ApiError(Message("camera.seen.negative", {"where": field, "got": shown(u)}),
                           field, code="invalid_positions")
        track = f.get("track")
        track = str(track) if isinstance(track, str) else None
        if mode == "tags":
            tag = f.get("tag")
            if isinstance(tag, bool) or not isinstance(tag, int):
                field = f"{at}.tag"
                raise ApiError(Message("camera.seen.tag", {"where": field, "got": shown(tag)}),
                               field, code="invalid_positions")
            out.append(Seen(x, y, u, str(f.get("side", "")), tag, track, _base(f, at)))
        else:
            side = f.get("side")
            if side not in ("survivors", "zombies", "civilians"):
                field = f"{at}.side"
                raise ApiError(Message("camera.seen.side", {"where": field, "got": shown(side)}),
                               field, code="invalid_positions")
            out.append(Seen(x, y, u, str(side), None, track, _base(f, at)))
    return out


def _identify(game: Game, seen: list[Seen], mode: str,
              tags: Mapping[str, str]) -> tuple[dict[str, int], list[dict[str, Any]],
                                                list[dict[str, Any]], list[Message]]:
    """(figure id -> index in `seen`, unknown, appeared, notes)."""
    on_table = {f.id: f for f in game.figures.values() if f.on_table}
    ids: dict[str, int] = {}
    unknown: list[dict[str, Any]] = []
    appeared: list[dict[str, Any]] = []
    notes: list[Message] = []
    if mode == "tags":
        for n, s in enumerate(seen):
            figure = tags.get(str(s.tag))
            tag = str(s.tag)
            if figure is None:
                appeared.append({**s.to_json(), **said(Message("camera.seen.unassigned",
                                                               {"tag": tag}))})
            elif figure not in on_table:
                fig = game.figures.get(figure)
                name = figure_name(game, figure)
                why = Message("camera.seen.not_in_game", {"tag": tag, "figure": name}) \
                    if fig is None else Message("camera.seen.off_table", {
                        "tag": tag, "figure": name, "state": STATUS.get(fig.status, fig.status)})
                appeared.append({**s.to_json(), "figure": figure, **said(why)})
            elif figure in ids:
                unknown.append({**s.to_json(), "candidates": [figure], **said(Message(
                    "camera.seen.twice", {"figure": figure_name(game, figure),
                                          "tags": [str(seen[ids[figure]].tag), tag]}))})
            else:
                ids[figure] = n
        return ids, unknown, appeared, notes
    # base sizes are not passed: a card's set-up gives every figure 25 mm whatever stands on
    # the table, and size-aware matching would then refuse a real 32 mm base (docs/vision.md)
    known = [KnownFigure(f.id, f.side, f.x, f.y, float(f.move) * MOVES_GATE)
             for f in on_table.values()]
    result = match_figures(known, seen)
    for a in result.matched:
        ids[a.figure] = a.detection
    for u in result.unknown:
        unknown.append({**seen[u.detection].to_json(), "candidates": list(u.candidates),
                        **said(u.reason)})
    for j in result.appeared:
        appeared.append({**seen[j].to_json(), **said(Message("camera.seen.unreachable", {
            "side": side_word(seen[j].side)}))})
    notes += result.notes
    return ids, unknown, appeared, notes


def _apply(game: Game, figure: str, to: tuple[float, float]) -> dict[str, Any]:
    """The legal way to bring the game to the camera: a Move to the seen point, judged."""
    move = Move(figure=figure, to=(round(to[0], 3), round(to[1], 3)))
    try:
        legal.check(game, move)
    except SurviveUsError as error:
        return {"action": move.to_json(), "legal": False, **said(plain(error))}
    return {"action": move.to_json(), "legal": True, "reason": None, "reason_words": None}


def _ai(game: Game, game_id: str, version: int, ids: Mapping[str, int],
        seen: Sequence[Seen]) -> dict[str, Any] | None:
    """Solo play, zombies to act: the AI's choice (as /ai/suggest) against the camera."""
    if game.mode != "solo" or game.is_terminal or game.current_side() != ZOMBIES:
        return None
    choice = make_policy(AI_POLICY, ZOMBIES, f"{game_id}:{version}").choose(game)
    act = choice.action
    shown = preview(game, act.to_json())
    figure = shown["figure"]
    fig = game.figures.get(figure) if figure else None
    end = shown["end"]
    if end is None and fig is not None:
        end = [fig.x, fig.y]  # an attack or an activation that stays put: it stays here
    out: dict[str, Any] = {
        "action": act.to_json(), "text": describe(game, act),
        "text_words": action_message(game, act).to_json(), "explanation": choice.explanation,
        "messages": [m.to_json() for m in choice.messages],
        "policy": AI_POLICY, "figure": figure, "end": end, "moves": shown["end"] is not None,
        "tolerance": IN_PLACE_INCHES, "seen": None, "distance": None, "in_place": None,
        "move_to": None, "check_with_tape": False,
    }
    if figure is None or end is None or figure not in ids:
        return out
    s = seen[ids[figure]]
    d = math.hypot(s.x - end[0], s.y - end[1])
    out.update(seen=[round(s.x, 4), round(s.y, 4)], distance=round(d, 4),
               in_place=d <= IN_PLACE_INCHES, move_to=None if d <= IN_PLACE_INCHES else end,
               check_with_tape=abs(d - IN_PLACE_INCHES) <= s.uncertainty)
    return out


def _checks(game: Game, placed: Mapping[str, tuple[float, float, float]]) -> dict[str, Any]:
    """rules.uncertain on the scene as the camera sees it: which answers of the moment (20 in
    zombie activation, base contact) the positions' uncertainty could flip."""
    figures = []
    for f in game.figures.values():
        if not f.on_table:
            continue
        x, y, u = placed.get(f.id, (f.x, f.y, 0.0))
        # names, so the rules' answers and refusals name figures as people do, never by id
        figures.append({"id": f.id, "side": f.side, "x": x, "y": y, "base_mm": f.base_mm,
                        "uncertainty": u, "name": f.name, "name_en": f.name_en or f.name})
    questions: list[dict[str, Any]] = [{"ask": "activatable_zombies"}]
    questions += [{"ask": "engaged", "figure": f["id"]} for f in figures
                  if f["side"] == ZOMBIES]
    try:
        reviewed = review({"scene": {**game.scene_json, "figures": figures},
                           "questions": questions})
    except SurviveUsError as error:
        why = Message("camera.seen.not_arbitrated", {"why": plain(error)})
        return {"questions": questions, "answers": [], "tape": [], "settled": [],
                "error": why.text("en"), "error_words": why.to_json()}
    tape = [{"question": q, "answer": {k: v for k, v in a.items() if k != "tape_reasons"},
             "reasons": a["tape_reasons"]}
            for q, a in zip(questions, reviewed["answers"], strict=True) if a["check_with_tape"]]
    return {"questions": questions, "answers": reviewed["answers"], "tape": tape,
            "settled": reviewed["settled"], "error": None, "error_words": None}


def analyse(game: Game, game_id: str, version: int, seen: list[Seen], mode: str,
            tags: Mapping[str, str]) -> dict[str, Any]:
    """The camera's view of `game` (see the module docstring); nothing is changed."""
    ids, unknown, appeared, notes = _identify(game, seen, mode, tags)
    figures = []
    placed: dict[str, tuple[float, float, float]] = {}
    vanished = []
    for f in game.figures.values():
        if not f.on_table:
            continue
        entry: dict[str, Any] = {"id": f.id, "name": f.name, "side": f.side,
                                 "game": [round(f.x, 4), round(f.y, 4)], "camera": None,
                                 "uncertainty": None, "distance": None, "moved": False}
        if f.id in ids:
            s = seen[ids[f.id]]
            d = math.hypot(s.x - f.x, s.y - f.y)
            moved = d > max(MIN_MOVE, s.uncertainty)
            entry.update(s.to_json(), distance=round(d, 4), moved=moved,
                         state="moved" if moved else "still")
            entry["side"] = f.side
            placed[f.id] = (s.x, s.y, s.uncertainty)
            if moved:
                entry["apply"] = _apply(game, f.id, (s.x, s.y))
        elif any(f.id in u["candidates"] for u in unknown):
            entry["state"] = "unknown"
        else:
            entry["state"] = "vanished"
            vanished.append(f.id)
        figures.append(entry)
    return {
        "version": version, "mode": mode, "figures": figures, "unknown": unknown,
        "appeared": appeared, "vanished": vanished,
        "moved": [e["id"] for e in figures if e["moved"]],
        "ai": _ai(game, game_id, version, ids, seen),
        "checks": _checks(game, placed), "notes": [n.text("en") for n in notes],
        "notes_words": [n.to_json() for n in notes],
    }
