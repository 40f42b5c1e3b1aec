"""Optional rule modules adapted from the related games (docs/rules.md D38).

As in "Survival of the fittest" (`seeds/000_734211dff33a31ae.txt`), each module belongs to
one side and is worth points per use; each side may add modules to any scenario, and when
both sides pick, their totals must match (`check_points`). A game's picks and each module's
state live in the `ScenarioReferee`'s plain-JSON state under `"modules"`; the referee hands
the modules' actions (`Special` with the module's rule names), their costs, checks and
effects, and the end of each turn to the hooks here.

Modules (`MODULES` has each one's names, side, points, text and options; docs/modules.md):

- `barricades` (survivors, 1): doors and windows barricaded: terrain that blocks movement,
  not sight, reinforced up to 3 times. `barricade` (1 AP, a survivor touching a door or a
  barricade) barricades the door or adds a reinforcement; `cross` (1 AP, touching it): a
  zombie rolls 4+ and on a success removes a reinforcement if there is one, else passes; a
  survivor pulls down the reinforcements, paying 1 in of its M for each, and passes.
- `sewers` (survivors, 1 per pair): `sewer` (2 AP) takes a figure standing on an entrance out
  at its pair (through the off-table interior), survivors and zombies alike.
- `supply` (survivors, 1 per token): `collect` (1 AP, on the token): one more survivors' AP
  die next turn per token collected.
- `allies` (survivors, 2 each): civilians led by a survivor in base contact (`lead`, 1 AP);
  once a turn each strikes a zombie or reinforces a barricade it touches on 5+ (`ally`, 0 AP).
- `helpless` (zombies, 1 each): civilians to lead who cannot be contaminated; one dying makes
  the band within 4 in test panic.
- `lights_out` (zombies, 1 per building): a survivor entering a dark building stops there.
- `taken_over` (zombies, 2 per building): no survivor may enter the building.
- `grave_weapons` (zombies, 1): two reinforcements traded for +1 attack die on a zombie more
  than 3 in from every survivor (one each, 8 at most).
- `noise` (zombies, 1): a crate opened draws a zombie at the nearest edge on a D6 of 1-2.
- `night_falls` (zombies, 2): a D6 per crate opened draws the night/day token on a 6 and an
  apocalypse token on a 1; each loss raises the apocalypse level too (3 at most); the
  zombies roll one more AP die per level and one more at night.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import shapely

from geometry.errors import SurviveUsError
from geometry.units import CONTACT_INCHES, base_radius
from i18n import Message, Name
from rules.actions import Action, Move, Special
from rules.attacks import wound
from rules.dice import Roll, succeeds
from rules.errors import IllegalActionError
from rules.movement import do_move, legal_spot, place_carried, plan_move
from rules.names import number_of
from scenarios import words

if TYPE_CHECKING:
    from rules.figures import Fig
    from rules.state import GameState
    from scenarios.play import ScenarioReferee

__all__ = ["MODULES", "Module", "ModuleError", "Pick", "check_points", "parse_pick",
           "prepare_scene", "picks_of", "initial_state", "points_of"]

Side = Literal["survivors", "zombies"]
CONTACT = CONTACT_INCHES
MAX_REINFORCEMENTS = 3
CLEARANCE = 0.01  # a figure passing a barricade ends this far clear of it
Point = tuple[float, float]


class ModuleError(SurviveUsError, ValueError):
    code = "invalid_module"


def _fail(message: Message, where: str = "action") -> IllegalActionError:
    return IllegalActionError(message, where)


def _name(game: GameState, fig: Fig) -> Name:
    return words.figure(game, fig.id)


def _piece(game: GameState, piece_id: str) -> words.Words:
    """A terrain piece as a person calls it; a barricaded door or wall the scene names not
    is "the barricade"."""
    named = words.piece(game, piece_id)
    state = getattr(game.referee, "state", None)
    modules = state.get("modules") if isinstance(state, dict) else None
    if isinstance(named, Message) and piece_id in (modules or {}).get("barricades", {}):
        return Message("scenario.piece.barricade")
    return named


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
    words: Message | None = None  # `text` as a player reads it, in French or English

    @property
    def name(self) -> Name:
        return {"fr": self.name_fr, "en": self.name_en}


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
           rules=("barricade", "cross"),
           words=Message("scenario.module_text.barricades")),
    Module("sewers", "Egouts", "Sewers", "survivors", 1, "000",
           "Paired sewer entrances joined through an off-table interior. A figure touching "
           "an entrance goes down and comes up touching its pair for 2 AP (a zombie too).",
           {"pairs": "a list of pairs of entrance points [[x, y], [x, y]] (1 point per pair)"},
           rules=("sewer",), uses_option="pairs",
           words=Message("scenario.module_text.sewers")),
    Module("supply", "Jetons de réserves", "Supply", "survivors", 1, "000",
           "Supply tokens lie on the table. A standing survivor on a token collects it "
           "(1 AP; it weighs nothing): the band rolls one more AP die at the start of the next "
           "turn for each token collected this turn.",
           {"at": "the tokens' points [[x, y], ...] (1 point per token)"},
           rules=("collect",), uses_option="at",
           words=Message("scenario.module_text.supply")),
    Module("allies", "Alliés locaux", "Townsfolk allies", "survivors", 2, "000",
           "Local allies (civilians) who cannot move alone: a survivor in base contact leads "
           "one along as its move (`lead`, 1 AP, the lower M). Once in each turn, at a "
           "survivor's word (`ally`, 0 AP), each ally strikes a zombie in base contact or "
           "reinforces a barricade it touches: 5+ on a D6 wounds the zombie or adds the "
           "reinforcement. Zombies attack allies as any human.",
           {"at": "the allies' points [[x, y], ...] (2 points per ally)"},
           rules=("lead", "ally"), uses_option="at",
           words=Message("scenario.module_text.allies")),
    Module("helpless", "Survivants vulnérables", "Helpless survivors", "zombies", 1, "001",
           "Helpless survivors (civilians) the band must look after: they cannot act or move "
           "alone (a survivor leads them, `lead`), cannot be contaminated, and when one dies "
           "each standing band member within 4 in tests panic as for a friend.",
           {"at": "their points [[x, y], ...] (1 point each)"},
           rules=("lead",), uses_option="at",
           words=Message("scenario.module_text.helpless")),
    Module("lights_out", "Extinction des feux", "Lights out", "zombies", 1, "000",
           "Buildings in the dark: a survivor entering one ends its move there (its base "
           "centre a base radius inside).",
           {"zones": "the dark buildings' polygons [[[x, y], ...], ...] (1 point each)"},
           uses_option="zones",
           words=Message("scenario.module_text.lights_out")),
    Module("taken_over", "Dominé", "Taken over", "zombies", 2, "000",
           "Buildings the zombies hold: no survivor may enter one (a move stops before its "
           "base would touch the building).",
           {"zones": "the taken-over buildings' polygons [[[x, y], ...], ...] (2 points each)"},
           uses_option="zones",
           words=Message("scenario.module_text.taken_over")),
    Module("grave_weapons", "Armes des damnés", "Grave weapons", "zombies", 1, "000",
           "When reinforcements arrive, each two zombies that would come may instead arm one "
           "zombie on the table more than 3 in from every survivor with a grave weapon: +1 "
           "attack die. One weapon per zombie, 8 on the table at most.",
           {"trade": "how many pairs of arrivals to trade at most each time (default 1)"},
           words=Message("scenario.module_text.grave_weapons")),
    Module("night_falls", "La nuit tombe", "Night falls", "zombies", 2, "002",
           "Tokens in the crate draw: each crate opened rolls a D6. On a 6 (`token_on`) the "
           "night token is drawn, night falls, and the day token takes its place (the next 6 "
           "brings the day back); on a 1 (`apocalypse_on`) an apocalypse token is drawn and "
           "the apocalypse level rises by one; it rises too for each band member killed or "
           "contaminated (3 at most, `max_level`). The zombies roll one more AP die per "
           "apocalypse level, and one more at night.",
           {"token_on": "the D6 roll that draws the night or day token (default 6)",
            "apocalypse_on": "the D6 roll that draws an apocalypse token (default 1)",
            "max_level": "the highest apocalypse level (default 3)"},
           words=Message("scenario.module_text.night_falls")),
    Module("noise", "Le bruit", "Noise", "zombies", 1, "001",
           "Searching makes noise: each crate opened rolls a D6; on `noise_on` or less a "
           "zombie comes in at the table edge nearest the crate.",
           {"noise_on": "the highest D6 roll that draws a zombie (default 2)",
            "zombie": "the zombie profile that comes (default rodeur)"},
           words=Message("scenario.module_text.noise")),
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
            raise ModuleError(Message("scenario.module_error.key_value", {"option": part}),
                              "module")
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
            raise ModuleError(Message("scenario.module_error.unknown", {
                "module": pick.id, "known": [m.name for m in MODULES.values()]}), "module")
        unknown = set(pick.options) - set(MODULES[pick.id].options)
        if unknown:
            raise ModuleError(Message("scenario.module_error.no_option", {
                "module": MODULES[pick.id].name, "option": sorted(unknown)[0],
                "options": list(MODULES[pick.id].options)}), f"module.{pick.id}")
        _validate(pick)
        out.append(pick)
    return out


def _is_point(value: Any) -> bool:
    return (isinstance(value, list | tuple) and len(value) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value))


def _validate(pick: Pick) -> None:
    """Each option's shape, so a bad pick is refused naming the module and the option."""
    for key, value in pick.options.items():
        where = f"module.{pick.id}.{key}"
        if key == "pieces":
            ok = isinstance(value, dict) and all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                and 0 <= v <= MAX_REINFORCEMENTS for k, v in value.items())
            shape = Message("scenario.shape.pieces")
        elif key == "pairs":
            ok = isinstance(value, list) and all(
                isinstance(p, list) and len(p) == 2 and all(map(_is_point, p)) for p in value)
            shape = Message("scenario.shape.pairs")
        elif key == "at":
            ok = isinstance(value, list) and all(map(_is_point, value))
            shape = Message("scenario.shape.points")
        elif key == "zones":
            ok = isinstance(value, list) and all(
                isinstance(z, list) and len(z) >= 3 and all(map(_is_point, z)) for z in value)
            shape = Message("scenario.shape.polygons")
        elif key == "zombie":
            ok, shape = isinstance(value, str), Message("scenario.shape.zombie")
        else:
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 6
            shape = Message("scenario.shape.die")
        if not ok:
            raise ModuleError(Message("scenario.module_error.bad_option", {
                "module": MODULES[pick.id].name, "option": key, "value": repr(value),
                "shape": shape}), where)


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
        raise ModuleError(Message("scenario.module_error.unbalanced", {
            "survivors": points["survivors"], "zombies": points["zombies"]}), "modules")
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
                    raise ModuleError(Message("scenario.module_error.no_piece",
                                              {"piece": piece_id}), "module.barricades.pieces")
                _barricade(item)
        elif pick.id == "sewers":
            for n, pair in enumerate(pick.options.get("pairs", [])):
                for k, (x, y) in enumerate(pair):
                    terrain.append(_token(_entrance(n, k), x, y))
        elif pick.id == "supply":
            for n, (x, y) in enumerate(pick.options.get("at", [])):
                terrain.append(_token(f"supply{n + 1}", x, y))
        elif pick.id in ("lights_out", "taken_over"):
            name = "dark" if pick.id == "lights_out" else "taken"
            for n, polygon in enumerate(pick.options.get("zones", [])):
                terrain.append({"id": f"{name}{n + 1}", "kind": "polygon",
                                "polygon": [list(p) for p in polygon],
                                "blocks_sight": False, "blocks_movement": False})


def _token(token_id: str, x: float, y: float) -> dict[str, Any]:
    """A 1-in token drawn on the table as terrain that blocks nothing."""
    return {"id": token_id, "kind": "polygon",
            "polygon": [[x - 0.5, y - 0.5], [x + 0.5, y - 0.5], [x + 0.5, y + 0.5],
                        [x - 0.5, y + 0.5]],
            "blocks_sight": False, "blocks_movement": False}


def place_figures(scene: dict[str, Any], newcomers: Sequence[Fig],
                  keep_out: Any = None) -> None:
    """Move each of `newcomers` (the modules' figures) to the free spot nearest where its
    option put it: on the table, off movement-blocking terrain and the bases of the scene's
    figures (`scene["figures"]`, plain JSON) and of the newcomers placed before it, and off
    `keep_out` (the camera's corner squares, when kept clear) when given."""
    from geometry.scene import load_scene

    loaded = load_scene({**scene, "figures": []})
    blockers = [t.footprint for t in loaded.terrain if t.movement_blocking]
    placed = [(float(f["x"]), float(f["y"]), base_radius(float(f.get("base_mm", 25))))
              for f in scene.get("figures", [])]
    w, d = loaded.table.width, loaded.table.depth
    for fig in newcomers:
        r = _radius(fig)

        def free(p: Point, r: float = r) -> bool:
            return (r <= p[0] <= w - r and r <= p[1] <= d - r
                    and all(shapely.distance(b, shapely.Point(p)) >= r for b in blockers)
                    and (keep_out is None or shapely.distance(keep_out, shapely.Point(p)) >= r)
                    and all(math.dist(p, (x, y)) >= r + rad + 0.01 for x, y, rad in placed))

        spots = [(fig.x, fig.y)] + [
            (round(fig.x + ring * math.cos(2 * math.pi * k / 16), 4),
             round(fig.y + ring * math.sin(2 * math.pi * k / 16), 4))
            for ring in (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0) for k in range(16)]
        spot = next((p for p in spots if free(p)), None)
        if spot is None:
            raise ModuleError(Message("scenario.module_error.no_room", {
                "figure": {"fr": fig.name, "en": fig.name_en or fig.name},
                "x": fig.x, "y": fig.y}), "modules")
        fig.x, fig.y = spot
        placed.append((fig.x, fig.y, r))


def module_figures(picks: Sequence[Pick]) -> list[Fig]:
    """The figures the modules bring: allies (`ally1`...) and helpless survivors
    (`helpless1`...), civilians who cannot act alone."""
    from rules.figures import CIVILIAN_NAMES, civilian

    out: list[Fig] = []
    for pick in picks:
        if pick.id in ("allies", "helpless"):
            name = "ally" if pick.id == "allies" else "helpless"
            for n, (x, y) in enumerate(pick.options.get("at", [])):
                fig = civilian(f"{name}{n + 1}", float(x), float(y))
                fig.name = "Allié" if pick.id == "allies" else "Vulnérable"
                fig.name_en = CIVILIAN_NAMES[fig.name]
                out.append(fig)
    return out


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
                raise ModuleError(Message("scenario.module_error.reinforcements", {
                    "piece": bad[0], "n": pieces[bad[0]]}), "module.barricades.pieces")
            state["barricades"] = pieces
        elif pick.id == "sewers":
            state["sewers"] = [[[float(x), float(y)] for x, y in pair]
                               for pair in pick.options.get("pairs", [])]
        elif pick.id == "supply":
            state["supply"] = {"left": {f"supply{n + 1}": [float(x), float(y)]
                                        for n, (x, y) in enumerate(pick.options["at"])}
                               if pick.options.get("at") else {},
                               "collected": {}, "this_turn": 0, "next_turn": 0}
        elif pick.id in ("allies", "helpless"):
            name = "ally" if pick.id == "allies" else "helpless"
            state[pick.id] = {"figures": [f"{name}{n + 1}" for n in
                                          range(len(pick.options.get("at", [])))],
                              "acted": {}, "dead": []}
        elif pick.id in ("lights_out", "taken_over"):
            name = "dark" if pick.id == "lights_out" else "taken"
            state[pick.id] = {f"{name}{n + 1}": [[float(x), float(y)] for x, y in polygon]
                              for n, polygon in enumerate(pick.options.get("zones", []))}
        elif pick.id == "grave_weapons":
            state["grave_weapons"] = {"trade": int(pick.options.get("trade", 1)), "armed": []}
        elif pick.id == "night_falls":
            state["night_falls"] = {"token_on": int(pick.options.get("token_on", 6)),
                                    "apocalypse_on": int(pick.options.get("apocalypse_on", 1)),
                                    "max_level": int(pick.options.get("max_level", 3)),
                                    "night": False, "level": 0, "losses": 0}
        elif pick.id == "noise":
            state["noise"] = {"noise_on": int(pick.options.get("noise_on", 2)),
                              "zombie": str(pick.options.get("zombie", "rodeur"))}
    return state


# --- the referee's hooks ---------------------------------------------------------------------


def _radius(fig: Fig) -> float:
    return fig.radius


def _gap(game: GameState, fig: Fig, piece_id: str) -> float:
    piece = next((t for t in game.terrain if t.id == piece_id), None)
    if piece is None:
        return math.inf
    return float(shapely.distance(piece.footprint, shapely.Point(fig.centre))) - _radius(fig)


def _scene_piece(game: GameState, piece_id: str) -> dict[str, Any] | None:
    return next((t for t in game.scene_json.get("terrain", []) if t.get("id") == piece_id),
                None)


def _other_side(game: GameState, fig: Fig, piece_id: str) -> Point | None:
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


def _free(game: GameState, fig: Fig, p: Point) -> bool:
    if not legal_spot(game, fig, p):
        return False
    return all(math.dist(p, o.centre) >= _radius(fig) + _radius(o) - 1e-9
               for o in game.figures.values() if o.on_table and o.id != fig.id)


def _spot_near(game: GameState, fig: Fig, centre: Point) -> Point | None:
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


def actions(game: GameState, ref: ScenarioReferee, fig: Fig) -> list[Action]:
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
    if fig.side != "survivors":
        return out
    for token, p in state.get("supply", {}).get("left", {}).items():
        if _on_token(fig, p):
            out.append(Special(fig.id, "collect", marker=token))
    for civ_id in _led(state):
        civ = game.figures.get(civ_id)
        if civ is not None and civ.standing and game.in_contact(fig.id, civ_id):
            out += [Special(fig.id, "lead", target=civ_id, marker=o.id)
                    for o in game.figures.values() if o.side == "survivors" and o.standing
                    and o.id != fig.id]
    for ally_id in state.get("allies", {}).get("figures", []):
        ally = game.figures.get(ally_id)
        if ally is None or not ally.standing:
            continue
        out += [Special(fig.id, "ally", target=z.id, marker=ally_id)
                for z in game.figures.values()
                if z.is_zombie and z.on_table and game.in_contact(ally_id, z.id)]
        out += [Special(fig.id, "ally", target=piece_id, marker=ally_id)
                for piece_id in state.get("barricades", {})
                if _gap(game, ally, piece_id) <= CONTACT + 1e-9]
    return out


def _on_token(fig: Fig, p: Sequence[float]) -> bool:
    return math.dist(fig.centre, (p[0], p[1])) <= _radius(fig) + 0.5 + CONTACT


def _led(state: dict[str, Any]) -> list[str]:
    """The civilians survivors lead: allies and helpless survivors."""
    return [*state.get("allies", {}).get("figures", []),
            *state.get("helpless", {}).get("figures", [])]


def _lead_to(game: GameState, ref: ScenarioReferee, fig: Fig, where: str | None) -> Point | str:
    """Where a led civilian goes: a point "x,y", or an exit, a zone or a figure."""
    from scenarios.play_specials import destination

    if where and "," in where:
        try:
            x, y = (float(v) for v in where.split(","))
        except ValueError:
            raise _fail(Message("scenario.refusal.no_point", {"marker": where}),
                        "action.marker") from None
        return (x, y)
    return destination(game, ref, fig, where)


def _toward(game: GameState, ref: ScenarioReferee, where: str | None) -> words.Words:
    """Where a led civilian goes, as a person says it."""
    from scenarios.play_specials import toward

    if where and "," in where:
        return Message("scenario.place.there")
    return toward(game, ref, where)


def cost(game: GameState, ref: ScenarioReferee, act: Special) -> int:
    return 2 if act.rule == "sewer" else 0 if act.rule == "ally" else 1


def _entrance_point(ref: ScenarioReferee, name: str) -> tuple[Point, Point] | None:
    """An entrance's point and its pair's."""
    for n, pair in enumerate(_state(ref).get("sewers", [])):
        for k in (0, 1):
            if _entrance(n, k) == name:
                a, b = pair[k], pair[1 - k]
                return (a[0], a[1]), (b[0], b[1])
    return None


def check(game: GameState, ref: ScenarioReferee, fig: Fig, act: Special) -> None:
    state = _state(ref)
    if not fig.standing:
        raise _fail(Message("scenario.refusal.must_stand", {"figure": _name(game, fig)}),
                    "action.figure")
    if act.rule in ("cross", "barricade"):
        piece_id = act.target or ""
        if _gap(game, fig, piece_id) > CONTACT + 1e-9:
            raise _fail(Message("scenario.refusal.touch_piece", {
                "figure": _name(game, fig), "piece": _piece(game, piece_id)}), "action.target")
        barricades: dict[str, int] = state.get("barricades", {})
        if act.rule == "cross":
            if piece_id not in barricades:
                raise _fail(Message("scenario.refusal.no_barricade",
                                    {"piece": _piece(game, piece_id)}), "action.target")
            if fig.side == "survivors":
                reinforcements = barricades[piece_id]
                spot = _other_side(game, fig, piece_id)
                if spot is None:
                    raise _fail(Message("scenario.refusal.no_room_beyond", {
                        "figure": _name(game, fig), "piece": _piece(game, piece_id)}),
                        "action.target")
                if math.dist(spot, fig.centre) + reinforcements > fig.move + 1e-9:
                    raise _fail(Message("scenario.refusal.pull_down_too_far", {
                        "figure": _name(game, fig), "move": float(fig.move),
                        "n": reinforcements, "piece": _piece(game, piece_id)}),
                        "action.target")
            elif not fig.is_zombie:
                raise _fail(Message("scenario.refusal.who_crosses"), "action.figure")
            elif barricades[piece_id] == 0 and _other_side(game, fig, piece_id) is None:
                raise _fail(Message("scenario.refusal.no_room_beyond", {
                    "figure": _name(game, fig), "piece": _piece(game, piece_id)}),
                    "action.target")
            return
        if fig.side != "survivors":
            raise _fail(Message("scenario.refusal.who_builds"), "action.figure")
        if piece_id in barricades:
            if barricades[piece_id] >= MAX_REINFORCEMENTS:
                raise _fail(Message("scenario.refusal.fully_reinforced", {
                    "piece": _piece(game, piece_id), "n": MAX_REINFORCEMENTS}),
                    "action.target")
            return
        piece = next((t for t in game.terrain if t.id == piece_id), None)
        if piece is None or piece.kind != "door":
            raise _fail(Message("scenario.refusal.no_door", {"piece": _piece(game, piece_id)}),
                        "action.target")
        shape = piece.footprint
        for other in game.figures.values():
            if other.on_table and shapely.distance(shape, shapely.Point(other.centre)) \
                    < _radius(other) - 1e-9:
                raise _fail(Message("scenario.refusal.doorway", {
                    "figure": _name(game, other), "piece": _piece(game, piece_id)}),
                    "action.target")
        return
    if act.rule == "sewer":
        ends = _entrance_point(ref, act.marker or "")
        if ends is None:
            raise _fail(Message("scenario.refusal.no_sewer"), "action.marker")
        if math.dist(fig.centre, ends[0]) > _radius(fig) + 0.5 + CONTACT:
            raise _fail(Message("scenario.refusal.on_sewer", {"figure": _name(game, fig)}),
                        "action.marker")
        if _spot_near(game, fig, ends[1]) is None:
            raise _fail(Message("scenario.refusal.sewer_blocked"), "action.marker")
        return
    if fig.side != "survivors":
        raise _fail(Message("scenario.refusal.survivors_only"), "action.figure")
    if act.rule == "collect":
        p = state.get("supply", {}).get("left", {}).get(act.marker or "")
        if p is None:
            raise _fail(Message("scenario.refusal.no_supply"), "action.marker")
        if not _on_token(fig, p):
            raise _fail(Message("scenario.refusal.on_supply", {"figure": _name(game, fig)}),
                        "action.marker")
        return
    if act.rule == "lead":
        civ = game.figures.get(act.target or "")
        if civ is None or civ.id not in _led(state) or not civ.standing:
            raise _fail(Message("scenario.refusal.not_led"), "action.target")
        if not game.in_contact(fig.id, civ.id):
            raise _fail(Message("scenario.refusal.not_in_contact", {
                "target": _name(game, civ), "figure": _name(game, fig)}), "action.target")
        plan_move(game, fig, None, _lead_to(game, ref, fig, act.marker),
                  min(fig.move, civ.move), ignore=(civ.id,))
        return
    if act.rule == "ally":
        ally = game.figures.get(act.marker or "")
        if ally is None or ally.id not in state.get("allies", {}).get("figures", []) \
                or not ally.standing:
            raise _fail(Message("scenario.refusal.no_ally"), "action.marker")
        if state["allies"]["acted"].get(ally.id) == game.turn:
            raise _fail(Message("scenario.refusal.ally_acted", {"ally": _name(game, ally)}),
                        "action.marker")
        target = game.figures.get(act.target or "")
        if target is not None:
            if not (target.is_zombie and target.on_table
                    and game.in_contact(ally.id, target.id)):
                raise _fail(Message("scenario.refusal.ally_strikes", {
                    "ally": _name(game, ally)}), "action.target")
            return
        barricades = state.get("barricades", {})
        if (act.target or "") not in barricades \
                or _gap(game, ally, act.target or "") > CONTACT + 1e-9:
            raise _fail(Message("scenario.refusal.ally_target", {"ally": _name(game, ally)}),
                        "action.target")
        if barricades[act.target or ""] >= MAX_REINFORCEMENTS:
            raise _fail(Message("scenario.refusal.fully_reinforced", {
                "piece": _piece(game, act.target or ""), "n": MAX_REINFORCEMENTS}),
                "action.target")
        return
    raise _fail(Message("scenario.refusal.no_module_action", {"rule": act.rule}),
                "action.rule")


def carry_out(game: GameState, ref: ScenarioReferee, fig: Fig, act: Special) -> None:
    state = _state(ref)
    if act.rule == "barricade":
        piece_id = act.target or ""
        barricades: dict[str, int] = state["barricades"]
        if piece_id in barricades:
            barricades[piece_id] += 1
            game.note(Message("scenario.module.reinforces", {
                "figure": _name(game, fig), "piece": _piece(game, piece_id),
                "n": barricades[piece_id], "of": MAX_REINFORCEMENTS}))
            return
        door = _piece(game, piece_id)  # named before it becomes a barricade
        game.edit_scene()  # clones share the scene until one changes it
        item = _scene_piece(game, piece_id)
        assert item is not None
        _barricade(item)
        barricades[piece_id] = 0
        game.reload_terrain()
        game.note(Message("scenario.module.barricades_it", {"figure": _name(game, fig),
                                                            "piece": door}))
    elif act.rule == "cross":
        piece_id = act.target or ""
        barricades = state["barricades"]
        if fig.is_zombie:
            die = game.roll(Roll(f"cross barricade {piece_id} on 4+", fig.id, words=Message(
                "scenario.roll.cross", {"piece": _piece(game, piece_id)})))
            if not succeeds(die, 4):
                game.note(Message("scenario.module.cross_fails", {
                    "figure": _name(game, fig), "piece": _piece(game, piece_id), "die": die}))
                fig.moves += 1
                return
            if barricades[piece_id] > 0:
                barricades[piece_id] -= 1
                game.note(Message("scenario.module.tears", {
                    "figure": _name(game, fig), "piece": _piece(game, piece_id),
                    "n": barricades[piece_id]}))
                fig.moves += 1
                return
        elif barricades[piece_id]:
            game.note(Message("scenario.module.pulls_down", {
                "figure": _name(game, fig), "n": barricades[piece_id],
                "piece": _piece(game, piece_id)}))
            barricades[piece_id] = 0
        spot = _other_side(game, fig, piece_id)
        if spot is None:
            game.note(Message("scenario.module.stays", {"figure": _name(game, fig),
                                                        "piece": _piece(game, piece_id)}))
            return
        fig.x, fig.y = spot
        fig.moves += 1
        game.moved()
        game.note(Message("scenario.module.passes", {"figure": _name(game, fig),
                                                     "piece": _piece(game, piece_id)}))
    elif act.rule == "sewer":
        ends = _entrance_point(ref, act.marker or "")
        assert ends is not None
        spot = _spot_near(game, fig, ends[1])
        assert spot is not None
        fig.x, fig.y = spot
        fig.moves += 1
        game.moved()
        game.note(Message("scenario.module.sewer", {"figure": _name(game, fig)}))
    elif act.rule == "collect":
        supply = state["supply"]
        supply["left"].pop(act.marker or "")
        supply["collected"][fig.id] = int(supply["collected"].get(fig.id, 0)) + 1
        supply["this_turn"] += 1
        scene = game.edit_scene()
        scene["terrain"] = [t for t in scene.get("terrain", []) if t.get("id") != act.marker]
        game.reload_terrain()
        game.note(Message("scenario.module.collects", {"figure": _name(game, fig)}))
    elif act.rule == "lead":
        civ = game.figures[act.target or ""]
        start = fig.centre
        game.note(Message("scenario.leads", {
            "figure": _name(game, fig), "target": _name(game, civ),
            "toward": _toward(game, ref, act.marker)}))
        point = _lead_to(game, ref, fig, act.marker)
        moved = do_move(game, fig, Move(fig.id, toward=point), min(fig.move, civ.move),
                        ignore=(civ.id,))
        if moved and fig.centre != start:
            place_carried(game, fig, civ, start)
    elif act.rule == "ally":
        ally = game.figures[act.marker or ""]
        state["allies"]["acted"][ally.id] = game.turn
        target_id = act.target or ""
        die = game.roll(Roll(f"ally {ally.id} on 5+", ally.id,
                             words=Message("scenario.roll.ally")))
        if not succeeds(die, 5):
            game.note(Message("scenario.module.ally_fails", {"ally": _name(game, ally),
                                                             "die": die}))
        elif target_id in game.figures:
            wound(game, ally, game.figures[target_id], "melee", free=True)
        else:
            state["barricades"][target_id] += 1
            game.note(Message("scenario.module.reinforces", {
                "figure": _name(game, ally), "piece": _piece(game, target_id),
                "n": state["barricades"][target_id], "of": MAX_REINFORCEMENTS}))


def crate_opened(game: GameState, ref: ScenarioReferee,
                 marker: Mapping[str, Any]) -> list[tuple[str, int, Point]]:
    """A crate was opened: the night token may be drawn; the search makes noise. Returns
    the zombies drawn by the noise: (kind, count, where from), to come at the nearest edge."""
    state = _state(ref)
    night = state.get("night_falls")
    if night is not None:
        token = {"crate": words.crate(str(marker["id"])), "on": night["token_on"],
                 "apocalypse": night["apocalypse_on"]}
        die = game.roll(Roll(f"token drawn at {marker['id']}: {night['token_on']}+ "
                             f"{'day' if night['night'] else 'night'}, "
                             f"{night['apocalypse_on']}- apocalypse",
                             words=Message("scenario.roll.token_day", token) if night["night"]
                             else Message("scenario.roll.token_night", token)))
        if die >= night["token_on"]:
            night["night"] = not night["night"]
            game.note(Message("scenario.module.night_falls") if night["night"]
                      else Message("scenario.module.day_returns"))
        elif die <= night["apocalypse_on"]:
            _raise_level(game, night, Message("scenario.module.apocalypse_token"))
    noise = state.get("noise")
    if noise is not None:
        die = game.roll(Roll(f"noise of {marker['id']}: a zombie comes on "
                             f"{noise['noise_on']} or less", words=Message("scenario.roll.noise", {
                                 "crate": words.crate(str(marker["id"])), "n": noise["noise_on"]})))
        if die <= noise["noise_on"]:
            return [(str(noise["zombie"]), 1, (float(marker["x"]), float(marker["y"])))]
    return []


def _raise_level(game: GameState, night: dict[str, Any], why: Message) -> None:
    if night["level"] < night["max_level"]:
        night["level"] += 1
        game.note(Message("scenario.module.apocalypse", {"why": why, "level": night["level"]}))


def extra_pool_dice(game: GameState, ref: ScenarioReferee, side: str) -> int:
    """The zombies: one more AP die per apocalypse level and one at night; the survivors:
    one per supply token collected last turn."""
    state = _state(ref)
    if side == "survivors":
        return int(state.get("supply", {}).get("next_turn", 0))
    night = state.get("night_falls")
    if side != "zombies" or night is None:
        return 0
    return int(night["level"]) + (1 if night["night"] else 0)


def turn_ended(game: GameState, ref: ScenarioReferee) -> None:
    supply = _state(ref).get("supply")
    if supply is not None:
        supply["next_turn"], supply["this_turn"] = supply["this_turn"], 0


def after_activation(game: GameState, ref: ScenarioReferee) -> None:
    """Deaths the modules count: the apocalypse rises; a helpless one dying scares the band."""
    from rules import panic

    state = _state(ref)
    night = state.get("night_falls")
    if night is not None:
        losses = sum(1 for f in game.figures.values()
                     if f.id in ref.state["band"] and f.status in ("dead", "contaminated"))
        for _ in range(losses - int(night["losses"])):
            _raise_level(game, night, Message("scenario.module.survivor_lost"))
        night["losses"] = max(losses, int(night["losses"]))
    helpless = state.get("helpless")
    if helpless is not None:
        for fig_id in helpless["figures"]:
            fig = game.figures.get(fig_id)
            if fig is None or fig.on_table or fig_id in helpless["dead"] \
                    or fig.status == "evacuated":
                continue
            helpless["dead"].append(fig_id)
            game.note(Message("scenario.module.helpless_dies", {"figure": _name(game, fig)}))
            for friend in list(game.figures.values()):
                if friend.side == "survivors" and friend.standing and math.dist(
                        friend.centre, fig.centre) - _radius(friend) - _radius(fig) \
                        <= 4 + 1e-9:
                    panic.panic_test(game, friend, Message("scenario.module.died_near", {
                        "figure": _name(game, fig), "d": 4.0}), trigger="death")


def move_limit(game: GameState, ref: ScenarioReferee, fig: Fig,
               route: tuple[Point, ...]) -> tuple[float, str | Message] | None:
    """A survivor stops a base radius inside a dark building it enters, and short of a
    taken-over one."""
    state = _state(ref)
    if fig.side != "survivors" or len(route) < 2:
        return None
    from shapely.geometry import LineString, Polygon

    line = LineString(route)
    r = _radius(fig)
    best: tuple[float, str | Message] | None = None
    for kind, grow, extra, why in (("lights_out", 0.0, r, Message("scenario.module.dark")),
                                   ("taken_over", r, -0.01, Message("scenario.module.held"))):
        for zone_id, polygon in state.get(kind, {}).items():
            shape = Polygon(polygon).buffer(grow) if grow else Polygon(polygon)
            if shape.contains(shapely.Point(route[0])) or not line.intersects(shape):
                continue
            hit = line.intersection(shape)
            entry = min(line.project(shapely.Point(c)) for c in shapely.get_coordinates(hit))
            limit = max(float(entry) + extra, 0.0)
            if best is None or limit < best[0]:
                best = (limit, Message(why.code, {"n": int(number_of(zone_id) or 1)}))
    return best


def may_contaminate(game: GameState, ref: ScenarioReferee, target: Fig) -> bool:
    return target.id not in _state(ref).get("helpless", {}).get("figures", [])


def trade_for_weapons(game: GameState, ref: ScenarioReferee, count: int) -> int:
    """Grave weapons: pairs of arriving zombies traded for weapons; how many still come."""
    graves = _state(ref).get("grave_weapons")
    if graves is None:
        return count
    for _ in range(int(graves["trade"])):
        if count < 2 or len(graves["armed"]) >= 8:
            break
        humans = [f for f in game.figures.values() if f.on_table and f.is_human]
        far = sorted((f for f in game.figures.values() if f.is_zombie and f.on_table
                      and f.id not in graves["armed"]
                      and all(game.distance(f.id, h.id) > 3 + 1e-9 for h in humans)),
                     key=lambda f: (min((game.distance(f.id, h.id) for h in humans),
                                        default=0.0), f.id))
        if not far:
            break
        zombie = far[0]
        zombie.attack += 1
        graves["armed"].append(zombie.id)
        count -= 2
        game.note(Message("scenario.module.grave_weapon", {"zombie": _name(game, zombie),
                                                           "n": zombie.attack}))
    return count


# --- the players' page ---------------------------------------------------------------------

SEEDS = {"000": "Survival of the fittest (000)", "001": "Dead of Winter notes (001)",
         "002": "Last One Alive (002)"}


def markdown() -> str:
    """docs/modules.md: every module as a player reads it (`python -m scenarios.modules`)."""
    lines = [
        "# Rule modules", "",
        "<!-- generated by `python -m scenarios.modules`; do not edit by hand -->", "",
        "Optional rules adapted from the related games, to add to any scenario card. Each "
        "belongs to one side and is worth points (per use where it says so); as in "
        "\"Survival of the fittest\", when both sides add modules their totals must match. "
        "Pick them with `survive-us scenario setup|play ID --module ID[:key=value,...]` "
        "(repeatable; `--unbalanced` allows unequal totals) or "
        "`start_scenario(..., modules=[...])`. Decisions: docs/rules.md D38.", "",
        "| module | side | points | from |", "|---|---|---|---|",
    ]
    for m in MODULES.values():
        per = f" per `{m.uses_option}` entry" if m.uses_option else ""
        lines.append(f"| `{m.id}` {m.name_fr} ({m.name_en}) | {m.side} | {m.points}{per} "
                     f"| {SEEDS[m.seed]} |")
    for m in MODULES.values():
        lines += ["", f"## {m.name_fr} ({m.name_en}), `{m.id}`", "",
                  f"*{m.side.capitalize()}, {m.points} point{'s' if m.points > 1 else ''}"
                  f"{' per `' + m.uses_option + '` entry' if m.uses_option else ''}.*", "",
                  m.text]
        if m.rules:
            lines += ["", "Actions: " + ", ".join(f"`{r}`" for r in m.rules) + "."]
        if m.options:
            lines += ["", "Options:", ""]
            lines += [f"- `{k}`: {v}" for k, v in m.options.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    from pathlib import Path

    Path(__file__).resolve().parent.parent.joinpath("docs", "modules.md").write_text(
        markdown(), encoding="utf-8")
