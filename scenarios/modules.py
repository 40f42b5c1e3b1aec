"""Optional rule modules adapted from the related games (docs/rules.md D38).

As in "Survival of the fittest" (`seeds/000_734211dff33a31ae.txt`), each module belongs to
one side and is worth points per use; each side may add modules to any scenario, and when
both sides pick, their totals must match (`check_points`). A game's picks and each module's
state live in the `ScenarioReferee`'s plain-JSON state under `"modules"`; the referee hands
the modules' actions (`Special` with the module's rule names), their costs, checks and
effects, and the end of each turn to the hooks here.

Modules:

- `barricades` (survivors, 1 point): doorways and windows barricaded (terrain that blocks
  movement, not sight), reinforced up to 3 times; `barricade` (1 AP, a standing survivor
  touching a door or barricade) barricades a door or adds a reinforcement; `cross` (1 AP):
  a zombie rolls 4+ and, on a success, removes a reinforcement if there is one, else passes;
  a survivor removes the reinforcements, paying 1 in of its M for each, and passes.
- `sewers` (survivors, 1 point per pair): paired entrances joined through an off-table
  interior; `sewer` (2 AP: down and up again) takes a figure touching one entrance out by the
  other, for survivors and zombies alike.
- `night_falls` (zombies, 2 points): the night token lies in the crate draw; when a crate is
  opened, a D6 of 6 (or the token found by `night` option on turn N) brings the night: the
  zombies roll one more AP die until day returns after `nights` turns; each night raises the
  apocalypse level by one, and the zombies roll as many more dice as the level.
- `noise` (zombies, 1 point): a crate opened makes noise: on a D6 of 1-2 (the `noise_on`
  option) a zombie comes from the table edge nearest the crate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import shapely

from geometry.errors import SurviveUsError
from rules.actions import Action, Special
from rules.dice import Roll, succeeds
from rules.errors import IllegalActionError
from rules.resolve import _legal_spot

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.game import Game
    from scenarios.play import ScenarioReferee

__all__ = ["MODULES", "Module", "ModuleError", "Pick", "check_points", "parse_pick",
           "prepare_scene", "picks_of", "initial_state", "points_of"]

Side = Literal["survivors", "zombies"]
CONTACT = 0.05
MAX_REINFORCEMENTS = 3
CLEARANCE = 0.01  # a figure passing a barricade ends this far clear of it
Point = tuple[float, float]


class ModuleError(SurviveUsError, ValueError):
    code = "invalid_module"


def _fail(message: str, where: str = "action") -> IllegalActionError:
    return IllegalActionError(message, where)


@dataclass(frozen=True)
class Module:
    """One optional rule: who picks it, what it is worth, what it does and its options."""

    id: str
    name_fr: str
    name_en: str
    side: Side
    points: int
    seed: str
    text: str
    options: Mapping[str, str] = field(default_factory=dict)
    rules: tuple[str, ...] = ()  # the `Special` rule names it owns
    uses_option: str | None = None  # the option counting uses (points are per use)


@dataclass(frozen=True)
class Pick:
    """A module chosen for a game, with its options."""

    id: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "options": dict(self.options)}


MODULES: dict[str, Module] = {m.id: m for m in (
    Module("barricades", "Barricades", "Barricades", "survivors", 1, "000",
           "Doors and windows may be barricaded and reinforced up to 3 times. A barricade "
           "blocks movement, not sight. A zombie crossing rolls 4+: on a success it removes a "
           "reinforcement if there is one, else it passes; on a failure it stays. A survivor "
           "removes the reinforcements, paying 1 in of its M for each, and passes. Barricading "
           "a door or adding a reinforcement is a 1-AP action of a survivor touching it.",
           {"pieces": "terrain ids (walls or doors of the scene) barricaded at the start, with "
                      "their reinforcements: {id: 0-3}"},
           rules=("barricade", "cross")),
    Module("sewers", "Egouts", "Sewers", "survivors", 1, "000",
           "Paired sewer entrances joined through an off-table interior. A figure touching "
           "an entrance goes down and comes up touching its pair for 2 AP (a zombie too).",
           {"pairs": "a list of pairs of entrance points [[x, y], [x, y]] (1 point per pair)"},
           rules=("sewer",), uses_option="pairs"),
    Module("night_falls", "La nuit tombe", "Night falls", "zombies", 2, "002",
           "The night token is in the crate draw: each crate opened rolls a D6, and a 6 "
           "brings the night. At night the zombies roll one more AP die per apocalypse level "
           "(which rises by one each time night falls) until day returns after `nights` "
           "full turns.",
           {"nights": "how many turns a night lasts (default 2)",
            "token_on": "the D6 roll that draws the night token (default 6)"}),
    Module("noise", "Le bruit", "Noise", "zombies", 1, "001",
           "Searching makes noise: each crate opened rolls a D6; on `noise_on` or less a "
           "zombie comes in at the table edge nearest the crate.",
           {"noise_on": "the highest D6 roll that draws a zombie (default 2)",
            "zombie": "the zombie profile that comes (default rodeur)"}),
)}


# --- picks and points ----------------------------------------------------------------------


def parse_pick(text: str) -> Pick:
    """`ID` or `ID:key=value,key=value` (values as JSON when they parse, else text)."""
    import json

    name, _, rest = text.partition(":")
    options: dict[str, Any] = {}
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(rest + ","):
        depth += ch in "[{" and 1 or ch in "]}" and -1 or 0
        if ch == "," and depth == 0:
            parts.append(rest[start:k])
            start = k + 1
    for part in filter(None, parts):
        key, eq, value = part.partition("=")
        if not eq:
            raise ModuleError(f"module option {part!r} must read key=value", "module")
        try:
            options[key.strip()] = json.loads(value)
        except ValueError:
            options[key.strip()] = value.strip()
    return Pick(name.strip(), options)


def picks_of(raw: Sequence[str | Pick | Mapping[str, Any]]) -> list[Pick]:
    out: list[Pick] = []
    for item in raw:
        pick = (item if isinstance(item, Pick) else parse_pick(item) if isinstance(item, str)
                else Pick(str(item.get("id")), dict(item.get("options", {}))))
        if pick.id not in MODULES:
            raise ModuleError(f"no rule module {pick.id!r} (known: {', '.join(MODULES)})",
                              "module")
        unknown = set(pick.options) - set(MODULES[pick.id].options)
        if unknown:
            raise ModuleError(f"module {pick.id!r} has no option {sorted(unknown)[0]!r} "
                              f"(options: {', '.join(MODULES[pick.id].options) or 'none'})",
                              f"module.{pick.id}")
        out.append(pick)
    return out


def points_of(pick: Pick) -> int:
    module = MODULES[pick.id]
    uses = 1
    if module.uses_option is not None:
        uses = max(len(pick.options.get(module.uses_option) or ()), 1)
    return module.points * uses


def check_points(picks: Sequence[Pick], *, balanced: bool = True) -> dict[str, int]:
    """Each side's module points; when both sides pick and `balanced`, they must match."""
    points = {"survivors": 0, "zombies": 0}
    for pick in picks:
        points[MODULES[pick.id].side] += points_of(pick)
    if balanced and points["survivors"] and points["zombies"] \
            and points["survivors"] != points["zombies"]:
        raise ModuleError(f"the modules are unbalanced: survivors {points['survivors']} "
                          f"points, zombies {points['zombies']}; pick equal totals",
                          "modules")
    return points


# --- set-up ----------------------------------------------------------------------------------


def prepare_scene(scene: dict[str, Any], picks: Sequence[Pick]) -> None:
    """Change the scene's terrain for the picked modules (in place, before the game starts):
    barricaded pieces become see-through walls; sewer entrances are drawn as terrain that
    blocks nothing."""
    terrain: list[dict[str, Any]] = scene.setdefault("terrain", [])
    by_id = {t.get("id"): t for t in terrain}
    for pick in picks:
        if pick.id == "barricades":
            for piece_id in pick.options.get("pieces", {}):
                item = by_id.get(piece_id)
                if item is None or item.get("kind") not in ("wall", "door"):
                    raise ModuleError(f"barricades: no wall or door {piece_id!r} in the scene",
                                      "module.barricades.pieces")
                _barricade(item)
        elif pick.id == "sewers":
            for n, pair in enumerate(pick.options.get("pairs", [])):
                for k, (x, y) in enumerate(pair):
                    terrain.append({"id": _entrance(n, k), "kind": "polygon",
                                    "polygon": [[x - 0.5, y - 0.5], [x + 0.5, y - 0.5],
                                                [x + 0.5, y + 0.5], [x - 0.5, y + 0.5]],
                                    "blocks_sight": False, "blocks_movement": False})


def _entrance(pair: int, end: int) -> str:
    return f"sewer_{chr(ord('A') + pair)}{end + 1}"


def _barricade(item: dict[str, Any]) -> None:
    item["kind"] = "wall"
    item["blocks_sight"] = False
    item["blocks_movement"] = True
    item.pop("open", None)


def initial_state(picks: Sequence[Pick], *, balanced: bool = True) -> dict[str, Any]:
    points = check_points(picks, balanced=balanced)
    state: dict[str, Any] = {"picks": [p.to_json() for p in picks], "points": points}
    for pick in picks:
        if pick.id == "barricades":
            pieces = {str(k): int(v) for k, v in pick.options.get("pieces", {}).items()}
            bad = [k for k, v in pieces.items() if not 0 <= v <= MAX_REINFORCEMENTS]
            if bad:
                raise ModuleError(f"barricades: {bad[0]!r} has {pieces[bad[0]]} "
                                  "reinforcements (0-3)", "module.barricades.pieces")
            state["barricades"] = pieces
        elif pick.id == "sewers":
            state["sewers"] = [[[float(x), float(y)] for x, y in pair]
                               for pair in pick.options.get("pairs", [])]
        elif pick.id == "night_falls":
            state["night_falls"] = {"nights": int(pick.options.get("nights", 2)),
                                    "token_on": int(pick.options.get("token_on", 6)),
                                    "level": 0, "until": None}
        elif pick.id == "noise":
            state["noise"] = {"noise_on": int(pick.options.get("noise_on", 2)),
                              "zombie": str(pick.options.get("zombie", "rodeur"))}
    return state


# --- the referee's hooks ---------------------------------------------------------------------


def _radius(fig: Fig) -> float:
    return fig.base_mm / 25.4 / 2


def _gap(game: Game, fig: Fig, piece_id: str) -> float:
    piece = next((t for t in game.terrain if t.id == piece_id), None)
    if piece is None:
        return math.inf
    return float(shapely.distance(piece.footprint, shapely.Point(fig.centre))) - _radius(fig)


def _scene_piece(game: Game, piece_id: str) -> dict[str, Any] | None:
    return next((t for t in game.scene_json.get("terrain", []) if t.get("id") == piece_id),
                None)


def _other_side(game: Game, fig: Fig, piece_id: str) -> Point | None:
    """Where `fig` stands once through the barricade: straight across its nearest stretch."""
    item = _scene_piece(game, piece_id)
    if item is None:
        return None
    line = [(float(x), float(y)) for x, y in item["line"]]
    half = float(item.get("thickness", 0.25)) / 2
    best: tuple[float, Point, Point] | None = None
    for a, b in zip(line, line[1:], strict=False):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy or 1e-12
        t = max(0.0, min(1.0, ((fig.x - a[0]) * dx + (fig.y - a[1]) * dy) / length2))
        q = (a[0] + t * dx, a[1] + t * dy)
        if best is None or math.dist(q, fig.centre) < best[0]:
            norm = math.sqrt(length2)
            best = (math.dist(q, fig.centre), q, (-dy / norm, dx / norm))
    assert best is not None
    _, q, n = best
    side = 1.0 if (fig.x - q[0]) * n[0] + (fig.y - q[1]) * n[1] >= 0 else -1.0
    reach = _radius(fig) + half + CLEARANCE
    p = (round(q[0] - side * n[0] * reach, 4), round(q[1] - side * n[1] * reach, 4))
    return p if _free(game, fig, p) else None


def _free(game: Game, fig: Fig, p: Point) -> bool:
    if not _legal_spot(game, fig, p):
        return False
    return all(math.dist(p, o.centre) >= _radius(fig) + _radius(o) - 1e-9
               for o in game.figures.values() if o.on_table and o.id != fig.id)


def _spot_near(game: Game, fig: Fig, centre: Point) -> Point | None:
    """A free spot for `fig` touching a point (a sewer entrance), nearest first."""
    for ring in (0.0, _radius(fig), _radius(fig) + 0.5, _radius(fig) + 1.0):
        steps = 1 if ring == 0 else 16
        for k in range(steps):
            a = 2 * math.pi * k / steps
            p = (round(centre[0] + ring * math.cos(a), 4), round(centre[1] + ring * math.sin(a), 4))
            if _free(game, fig, p):
                return p
    return None


def _state(ref: ScenarioReferee) -> dict[str, Any]:
    modules: dict[str, Any] = ref.state.get("modules") or {}
    return modules


def rules_of(ref: ScenarioReferee) -> set[str]:
    return {r for p in _state(ref).get("picks", []) for r in MODULES[p["id"]].rules}


def actions(game: Game, ref: ScenarioReferee, fig: Fig) -> list[Action]:
    """The modules' actions open to `fig` (checked afterwards by the game)."""
    state = _state(ref)
    out: list[Action] = []
    if not fig.standing:
        return out
    for piece_id in state.get("barricades", {}):
        if _gap(game, fig, piece_id) <= CONTACT + 1e-9:
            out.append(Special(fig.id, "cross", target=piece_id))
            if fig.side == "survivors":
                out.append(Special(fig.id, "barricade", target=piece_id))
    if "barricades" in state and fig.side == "survivors":
        out += [Special(fig.id, "barricade", target=t.id) for t in game.terrain
                if t.kind == "door" and _gap(game, fig, t.id) <= CONTACT + 1e-9]
    for n, pair in enumerate(state.get("sewers", [])):
        for k, p in enumerate(pair):
            if math.dist(fig.centre, p) <= _radius(fig) + 0.5 + CONTACT:
                out.append(Special(fig.id, "sewer", marker=_entrance(n, k)))
    return out


def cost(game: Game, ref: ScenarioReferee, act: Special) -> int:
    return 2 if act.rule == "sewer" else 1


def _entrance_point(ref: ScenarioReferee, name: str) -> tuple[Point, Point] | None:
    """An entrance's point and its pair's."""
    for n, pair in enumerate(_state(ref).get("sewers", [])):
        for k in (0, 1):
            if _entrance(n, k) == name:
                a, b = pair[k], pair[1 - k]
                return (a[0], a[1]), (b[0], b[1])
    return None


def check(game: Game, ref: ScenarioReferee, fig: Fig, act: Special) -> None:
    state = _state(ref)
    if not fig.standing:
        raise _fail(f"{fig.name} {fig.id} must be standing to {act.rule}", "action.figure")
    if act.rule in ("cross", "barricade"):
        piece_id = act.target or ""
        if _gap(game, fig, piece_id) > CONTACT + 1e-9:
            raise _fail(f"{fig.name} {fig.id} must touch {piece_id!r} to {act.rule}",
                        "action.target")
        barricades: dict[str, int] = state.get("barricades", {})
        if act.rule == "cross":
            if piece_id not in barricades:
                raise _fail(f"{piece_id!r} is no barricade", "action.target")
            if fig.side == "survivors":
                reinforcements = barricades[piece_id]
                spot = _other_side(game, fig, piece_id)
                if spot is None:
                    raise _fail(f"there is no room for {fig.id} beyond {piece_id}",
                                "action.target")
                if math.dist(spot, fig.centre) + reinforcements > fig.move + 1e-9:
                    raise _fail(f"{fig.name} {fig.id} moves {fig.move} in: not enough to pull "
                                f"down {reinforcements} reinforcements and pass {piece_id}",
                                "action.target")
            elif not fig.is_zombie:
                raise _fail("only survivors and zombies cross barricades", "action.figure")
            return
        if fig.side != "survivors":
            raise _fail("only survivors build barricades", "action.figure")
        if piece_id in barricades:
            if barricades[piece_id] >= MAX_REINFORCEMENTS:
                raise _fail(f"{piece_id} already has {MAX_REINFORCEMENTS} reinforcements",
                            "action.target")
            return
        piece = next((t for t in game.terrain if t.id == piece_id), None)
        if piece is None or piece.kind != "door":
            raise _fail(f"{piece_id!r} is no door or barricade", "action.target")
        shape = piece.footprint
        for other in game.figures.values():
            if other.on_table and shapely.distance(shape, shapely.Point(other.centre)) \
                    < _radius(other) - 1e-9:
                raise _fail(f"{other.id} stands in the doorway of {piece_id}", "action.target")
        return
    if act.rule == "sewer":
        ends = _entrance_point(ref, act.marker or "")
        if ends is None:
            raise _fail(f"there is no sewer entrance {act.marker!r}", "action.marker")
        if math.dist(fig.centre, ends[0]) > _radius(fig) + 0.5 + CONTACT:
            raise _fail(f"{fig.name} {fig.id} must stand on entrance {act.marker}",
                        "action.marker")
        if _spot_near(game, fig, ends[1]) is None:
            raise _fail(f"the other end of {act.marker} is blocked", "action.marker")
        return
    raise _fail(f"no module action {act.rule!r}", "action.rule")


def carry_out(game: Game, ref: ScenarioReferee, fig: Fig, act: Special) -> None:
    state = _state(ref)
    if act.rule == "barricade":
        piece_id = act.target or ""
        barricades: dict[str, int] = state["barricades"]
        if piece_id in barricades:
            barricades[piece_id] += 1
            game.note(f"{fig.name} {fig.id} reinforces {piece_id} "
                      f"({barricades[piece_id]} of {MAX_REINFORCEMENTS})")
            return
        item = _scene_piece(game, piece_id)
        assert item is not None
        _barricade(item)
        barricades[piece_id] = 0
        game.reload_terrain()
        game.note(f"{fig.name} {fig.id} barricades {piece_id}")
    elif act.rule == "cross":
        piece_id = act.target or ""
        barricades = state["barricades"]
        if fig.is_zombie:
            die = game.roll(Roll(f"cross barricade {piece_id} on 4+", fig.id))
            if not succeeds(die, 4):
                game.note(f"{fig.name} {fig.id} fails to pass {piece_id} ({die}) and stops")
                fig.moves += 1
                return
            if barricades[piece_id] > 0:
                barricades[piece_id] -= 1
                game.note(f"{fig.name} {fig.id} tears a reinforcement off {piece_id} "
                          f"({barricades[piece_id]} left)")
                fig.moves += 1
                return
        elif barricades[piece_id]:
            game.note(f"{fig.name} {fig.id} pulls down {barricades[piece_id]} reinforcements "
                      f"of {piece_id}")
            barricades[piece_id] = 0
        spot = _other_side(game, fig, piece_id)
        if spot is None:
            game.note(f"no room beyond {piece_id}: {fig.name} {fig.id} stays")
            return
        fig.x, fig.y = spot
        fig.moves += 1
        game.moved()
        game.note(f"{fig.name} {fig.id} passes barricade {piece_id}")
    elif act.rule == "sewer":
        ends = _entrance_point(ref, act.marker or "")
        assert ends is not None
        spot = _spot_near(game, fig, ends[1])
        assert spot is not None
        fig.x, fig.y = spot
        fig.moves += 1
        game.moved()
        game.note(f"{fig.name} {fig.id} goes down the sewer at {act.marker} and comes up at "
                  "its pair")


def crate_opened(game: Game, ref: ScenarioReferee,
                 marker: Mapping[str, Any]) -> list[tuple[str, int, Point]]:
    """A crate was opened: the night token may be drawn; the search makes noise. Returns
    the zombies drawn by the noise: (kind, count, where from), to come at the nearest edge."""
    state = _state(ref)
    night = state.get("night_falls")
    if night is not None and night["until"] is None:
        die = game.roll(Roll(f"night token in {marker['id']} on {night['token_on']}"))
        if die >= night["token_on"]:
            night["level"] += 1
            night["until"] = game.turn + night["nights"]
            game.note(f"night falls (apocalypse level {night['level']}): the zombies roll "
                      f"{night['level']} more AP dice until the end of turn {night['until']}")
    noise = state.get("noise")
    if noise is not None:
        die = game.roll(Roll(f"noise of {marker['id']}: a zombie comes on "
                             f"{noise['noise_on']} or less"))
        if die <= noise["noise_on"]:
            return [(str(noise["zombie"]), 1, (float(marker["x"]), float(marker["y"])))]
    return []


def extra_pool_dice(game: Game, ref: ScenarioReferee, side: str) -> int:
    """Night: the zombies roll one more AP die per apocalypse level."""
    night = _state(ref).get("night_falls")
    if side != "zombies" or night is None or night["until"] is None:
        return 0
    return int(night["level"])


def turn_ended(game: Game, ref: ScenarioReferee) -> None:
    night = _state(ref).get("night_falls")
    if night is not None and night["until"] is not None and game.turn >= night["until"]:
        night["until"] = None
        game.note("day returns")
