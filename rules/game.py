"""A game of Survive Us: the state, the turn, and the one way to change it, `apply`.

Modelled on OpenSpiel's state API: `legal_actions()`, `apply(action)`, `is_terminal`,
`outcome`, `clone()`. Every die rolled is a chance event recorded in the log with the action
that caused it, so `replay(export())` rebuilds the game exactly, and a player may type in
the dice rolled on the real table instead of letting the RNG roll.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from geometry.errors import SurviveUsError
from geometry.scene import Figure, Scene, Table, load_scene
from geometry.space import Space
from geometry.terrain import TerrainPiece
from geometry.units import CONTACT_INCHES
from i18n import Message
from rules import words
from rules.actions import Action, Decline, EndActivations, Pass, parse_action
from rules.catalog import Catalog, load_catalog
from rules.dice import Dice, NeedDice, Roll
from rules.errors import IllegalActionError
from rules.figures import Fig, english_name
from rules.referee import Referee, rebuild
from rules.settings import Settings

__all__ = ["Game", "Note", "SURVIVORS", "ZOMBIES", "BANDS", "MODES"]

# a log note: a message's JSON ({"code", "params"}), or English text in records made before
# issue 14 (they still load, replay and show)
Note = str | dict[str, Any]

SURVIVORS = "survivors"
ZOMBIES = "zombies"
BANDS = ("A", "B")  # the two rival bands of "Guerre en territoire zombie"
MODES = ("solo", "zombie_war")

_MODE_WORDS = (Message("engine.mode.solo"), Message("engine.mode.zombie_war"))
# sentences whose words agree with the side (see `words.by_side`)
_EXTRA_AP = {"survivors": Message("engine.purpose.extra_ap.survivors"),
             "zombies": Message("engine.purpose.extra_ap.zombies"),
             "band": Message("engine.purpose.extra_ap.band")}
_WINS = {"survivors": Message("engine.win.survivors"), "zombies": Message("engine.win.zombies"),
         "band": Message("engine.win.band")}
_NO_ONE = {"survivors": Message("engine.no_one_to_activate.survivors"),
           "zombies": Message("engine.no_one_to_activate.zombies"),
           "band": Message("engine.no_one_to_activate.band")}
_AP_LOST = {"survivors": Message("engine.ap_lost.survivors"),
            "zombies": Message("engine.ap_lost.zombies"),
            "band": Message("engine.ap_lost.band")}


class Game:
    """One scenario being played. Build with `Game.new`, change only with `apply`."""

    def __init__(
        self,
        *,
        scene_json: dict[str, Any],
        figures: Sequence[Fig],
        settings: Settings | None = None,
        catalog: Catalog | None = None,
        max_turns: int = 6,
        rng: random.Random | None = None,
        mode: str = "solo",
        markers: Sequence[dict[str, Any]] = (),
        referee: Referee | None = None,
    ) -> None:
        self.catalog = catalog or load_catalog()
        if referee is not None:
            self.catalog = referee.catalog(self.catalog)
        self.settings = settings or Settings()
        self.scene_json = copy.deepcopy(scene_json)
        base = load_scene({**scene_json, "figures": []})
        self.table: Table = base.table
        self.terrain: tuple[TerrainPiece, ...] = base.terrain
        self.figures: dict[str, Fig] = {f.id: f for f in figures}
        for fig in figures:  # saved before figures had an English name
            if not fig.name_en:
                fig.name_en = english_name(fig, self.catalog)
        self.max_turns = max_turns
        self.turn = 0
        if mode not in MODES:
            raise IllegalActionError(Message("refusal.unknown_mode", {
                "mode": str(mode), "known": list(_MODE_WORDS)}), "mode")
        self.mode = mode
        self.pools: dict[str, int] = {side: 0 for side in (*self.sides(), ZOMBIES)}
        self.to_act = self.sides()[0]
        self.controller: str | None = None  # the band moving a zombie (zombie_war)
        self.markers: dict[str, dict[str, Any]] = {  # crates and items on the table
            m["id"]: copy.deepcopy(m) for m in markers}
        self.referee = referee  # the scenario's objectives and special rules, if any
        self.pending: list[dict[str, Any]] = []
        self.activating: str | None = None  # the side whose activation is being resolved
        self.passes = 0  # passes in a row this turn: the second ends it (D16)
        self.ended: list[str] = []  # sides that gave up the rest of this turn
        self.outcome: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.rng = rng
        self._dice = Dice(rng=rng)
        self._notes: list[Note] = []
        self._space: Space | None = None
        self._field: Any = None
        self._views: dict[Any, Any] = {}  # sight views by spot, while the terrain stands
        self._version = 0
        self.plans: dict[Any, Any] = {}  # planned moves, valid until something moves
        self.replies: list[tuple[str, str]] = []  # violent figures to strike back, this action
        self._start: dict[str, Any] = self.to_json()

    # --- construction and records -------------------------------------------------------

    @classmethod
    def new(cls, scene_json: dict[str, Any], figures: Sequence[Fig], *, seed: int | None = None,
            start_dice: Iterable[int] | None = None, **kwargs: Any) -> Game:
        """A game ready to play: the first turn's action points are rolled.

        `start_dice` are the first turn's AP dice typed in (survivors' die, then the
        zombies' two), used before the seeded RNG; with no seed they must all be given.
        """
        rng = random.Random(seed) if seed is not None else None
        game = cls(scene_json=scene_json, figures=figures, rng=rng, **kwargs)
        game._check_placement()
        game.apply_start(start_dice)
        return game

    def apply_start(self, dice: Iterable[int] | None = None) -> None:
        self._dice = Dice(rng=self.rng, typed=list(dice or []))
        self._begin_turn()
        self.hand_over(None)
        self.log.append({"action": {"type": "start"}, "dice": self._take_dice(),
                         "notes": self._take_notes()})

    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON."""
        return {
            "scene": copy.deepcopy(self.scene_json),
            "settings": self.settings.to_json(),
            "max_turns": self.max_turns,
            "turn": self.turn,
            "pools": dict(self.pools),
            "to_act": self.to_act,
            "pending": copy.deepcopy(self.pending),
            "activating": self.activating,
            "mode": self.mode,
            "markers": list(copy.deepcopy(self.markers).values()),
            "referee": None if self.referee is None else {
                "name": self.referee.name, **self.referee.to_json()},
            "controller": self.controller,
            "passes": self.passes,
            "ended": list(self.ended),
            "outcome": copy.deepcopy(self.outcome),
            "figures": [f.to_json() for f in self.figures.values()],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], catalog: Catalog | None = None) -> Game:
        game = cls(scene_json=data["scene"], figures=[Fig.from_json(f) for f in data["figures"]],
                   settings=Settings.from_record(data["settings"]), catalog=catalog,
                   max_turns=data["max_turns"], mode=data.get("mode", "solo"),
                   markers=data.get("markers", []),
                   referee=None if data.get("referee") is None else rebuild(data["referee"]))
        game.turn, game.pools, game.to_act = data["turn"], dict(data["pools"]), data["to_act"]
        game.pending = copy.deepcopy(data["pending"])
        game.activating = data.get("activating")
        game.controller = data.get("controller")
        game.passes = int(data.get("passes", 0))
        game.ended = list(data.get("ended", []))
        game.outcome = copy.deepcopy(data["outcome"])
        return game

    def export(self) -> dict[str, Any]:
        """The start state and every action with its dice: enough to replay the game."""
        return {"start": copy.deepcopy(self._start), "log": copy.deepcopy(self.log)}

    @classmethod
    def replay(cls, record: dict[str, Any], catalog: Catalog | None = None) -> Game:
        """Rebuild a game from `export()`, using the recorded dice."""
        game: Game | None = None
        for step in cls.replay_steps(record, catalog):
            game = step
        if game is None:  # an empty log
            game = cls.from_json(record["start"], catalog)
            game._start = copy.deepcopy(record["start"])
        return game

    @classmethod
    def replay_steps(cls, record: dict[str, Any], catalog: Catalog | None = None
                     ) -> Iterator[Game]:
        """Rebuild a game from `export()` one entry of its log at a time: the same game is
        yielded after each entry (the chances curve reads every position on the way)."""
        game = cls.from_json(record["start"], catalog)
        game._start = copy.deepcopy(record["start"])
        for i, entry in enumerate(record["log"]):
            if entry["action"].get("type") == "start":
                game._dice = Dice.fixed(entry["dice"])
                game._begin_turn()
                game.hand_over(None)
                game.log.append({"action": {"type": "start"}, "dice": game._take_dice(),
                                 "notes": game._take_notes()})
            else:
                game.apply(entry["action"], dice=entry["dice"], where=f"log[{i}]",
                           atomic=False)
            yield game

    def undo(self) -> None:
        """Take back the last action (its dice too)."""
        if len(self.log) <= 1:
            raise IllegalActionError(Message("refusal.nothing_to_undo"), "log")
        record = self.export()
        record["log"] = record["log"][:-1]
        other = Game.replay(record, self.catalog)
        self.__dict__.update(other.__dict__)
        self.rng = other.rng or self.rng
        self._dice = Dice(rng=self.rng)

    def clone(self) -> Game:
        other = copy.copy(self)
        other.figures = {k: v.copy() for k, v in self.figures.items()}
        other.pools = dict(self.pools)
        other.ended = list(self.ended)
        other.pending = copy.deepcopy(self.pending)
        other.outcome = copy.deepcopy(self.outcome)
        other.log = list(self.log)
        other.scene_json = self.scene_json  # shared until one changes it (`edit_scene`)
        other.markers = copy.deepcopy(self.markers)
        other.referee = copy.deepcopy(self.referee)
        # what was measured stays good until something moves (keyed by the version)
        other.plans = dict(self.plans)
        other.replies = []
        other._dice = Dice(rng=self.rng)
        other._notes = []
        return other

    # --- geometry -----------------------------------------------------------------------

    def scene(self) -> Scene:
        figures = tuple(Figure(f.id, f.side, f.x, f.y, f.base_mm)
                        for f in self.figures.values() if f.on_table)
        return Scene(self.table, self.terrain, figures)

    def space(self) -> Space:
        if self._space is None:
            self._space = Space(self.scene(), self._field, self._views)
            self._field = self._space.sight_field
        return self._space

    def moved(self) -> None:
        """Positions or statuses changed: measures must be taken again."""
        self._space = None
        self._version += 1
        self.plans = {}

    def version(self) -> int:
        return self._version

    def edit_scene(self) -> dict[str, Any]:
        """The scene JSON, this game's own, to change in place (a door, a barricade): clones
        share it until one of them changes it."""
        self.scene_json = copy.deepcopy(self.scene_json)
        return self.scene_json

    def reload_terrain(self) -> None:
        """A door opened or closed: rebuild the terrain and everything measured on it."""
        self.terrain = load_scene({**self.scene_json, "figures": []}).terrain
        self._field = None
        self._views = {}
        self.moved()

    def distance(self, a: str, b: str) -> float:
        """Edge-to-edge distance between two figures on the table."""
        space = self.space()
        index = space.scene.index
        return float(space.distances[index[a], index[b]])

    def in_contact(self, a: str, b: str) -> bool:
        return self.distance(a, b) <= CONTACT_INCHES + 1e-9

    def _check_placement(self) -> None:
        try:
            load_scene({**self.scene_json, "figures": [
                {"id": f.id, "side": f.side, "x": f.x, "y": f.y, "base_mm": f.base_mm}
                for f in self.figures.values() if f.on_table]})
        except SurviveUsError as error:
            raise IllegalActionError(Message("refusal.setup", {
                "problem": error.words or error.message}), error.where) from None

    # --- dice and notes -----------------------------------------------------------------

    def roll(self, request: Roll) -> int:
        purpose = request.words or request.purpose
        try:
            value = self._dice.roll(request)
        except NeedDice as missing:
            if not request.figure:
                raise
            raise NeedDice(Message("refusal.need_die", {
                "who": words.who(self, request.figure), "purpose": purpose}),
                missing.where) from None
        if request.figure:
            self.note(Message("engine.roll", {"who": words.who(self, request.figure),
                                              "value": value, "purpose": purpose}))
        else:
            self.note(Message("engine.roll_side", {"value": value, "purpose": purpose}))
        return value

    def rolls_made(self) -> int:
        """How many dice this action has rolled so far (to find one of them again)."""
        return len(self._dice.rolled)

    def natural(self, index: int) -> int | None:
        """The face of this action's die number `index`, if it was rolled."""
        rolled = self._dice.rolled
        return rolled[index][1] if index < len(rolled) else None

    def note(self, text: Message | str) -> None:
        """What happened, for the log: a message (kept as its JSON, rendered at the edge in
        the reader's language). Plain text is what older records hold."""
        self._notes.append(text.to_json() if isinstance(text, Message) else text)

    def offer(self, window: dict[str, Any]) -> None:
        """Open a decision window (a reaction, a contamination, a skill's moment)."""
        self.pending.append(window)

    def _take_dice(self) -> list[int]:
        values = [v for _, v in self._dice.rolled]
        self._dice.rolled = []
        return values

    def _take_notes(self) -> list[Note]:
        notes, self._notes = self._notes, []
        return notes

    # --- the turn -----------------------------------------------------------------------

    def sides(self) -> tuple[str, ...]:
        """Who takes turns activating: survivors and zombies, or the two rival bands."""
        return BANDS if self.mode == "zombie_war" else (SURVIVORS, ZOMBIES)

    def other(self, side: str) -> str:
        first, second = self.sides()
        return second if side == first else first

    def side_of(self, fig: Fig) -> str:
        """The pool a figure draws on: its band's in zombie_war (zombies act for free there)."""
        if fig.is_zombie:
            return ZOMBIES
        return fig.band if self.mode == "zombie_war" else SURVIVORS

    @property
    def is_terminal(self) -> bool:
        return self.outcome is not None

    def current_side(self) -> str:
        """Who decides now: the side of the first open window, else the side to act."""
        if self.pending:
            return str(self.pending[0]["side"])
        return self.to_act

    def survivors_counted(self, band: str | None = None) -> int:
        """Figures counted in a survivors' AP pool (D9): one band's in zombie_war."""
        counted = ("standing",) if self.settings.ap_pool_counts == "standing" else (
            "standing", "down")
        return sum(1 for f in self.figures.values()
                   if f.side == SURVIVORS and f.status in counted
                   and (band is None or f.band == band))

    def _begin_turn(self) -> None:
        self.turn += 1
        for f in self.figures.values():
            f.moves = f.panic_malus = 0
            f.panicked = f.resting = f.surrounded_tested = False
            f.used_turn = {}
        from rules import skills

        self.ended = []
        self.to_act = self.sides()[0]
        if self.mode == "zombie_war":
            for band in BANDS:
                die = self.roll(Roll(f"band {band}'s action points", words=Message(
                    "engine.purpose.band_ap", {"band": band})))
                self.pools[band] = self.survivors_counted(band) + die
                skills.offer_didactique(self, die, band)
            self.note(Message("engine.turn_war", {"turn": self.turn, "a": self.pools["A"],
                                                  "b": self.pools["B"]}))
            return
        die = self.roll(Roll("survivors' action points",
                             words=Message("engine.purpose.survivors_ap")))
        self.pools[SURVIVORS] = self.survivors_counted() + die
        zombies_ap = Message("engine.purpose.zombies_ap")
        self.pools[ZOMBIES] = self.roll(Roll("zombies' action points", words=zombies_ap)) + \
            self.roll(Roll("zombies' action points", words=zombies_ap))
        if self.referee is not None:
            for side in (SURVIVORS, ZOMBIES):
                extra = words.by_side(side, _EXTRA_AP)
                for _ in range(self.referee.pool_dice(self, side)):
                    self.pools[side] += self.roll(Roll(f"{side}' extra action points",
                                                       words=extra))
        self.note(Message("engine.turn", {"turn": self.turn,
                                          "survivors": self.pools[SURVIVORS],
                                          "zombies": self.pools[ZOMBIES]}))
        skills.offer_didactique(self, die)

    def _end_turn(self) -> None:
        self.note(Message("engine.turn_end", {"turn": self.turn}))
        if self.referee is not None:
            self.referee.turn_ended(self)
            if self.outcome is None:
                self._begin_turn()
            return
        if self.turn >= self.max_turns:
            if self.mode == "zombie_war":
                a, b = (self.survivors_counted(band) for band in BANDS)
                winner = "A" if a > b else "B" if b > a else "draw"
                self._finish(winner, Message("engine.end.war_count", {
                    "turns": self.max_turns, "a": a, "b": b}))
                return
            self._finish(SURVIVORS, Message("engine.end.held_out", {"turns": self.max_turns}))
            return
        self._begin_turn()

    def finish(self, winner: str, reason: str | Message) -> None:
        """End the game: `winner` is a side, a band, or "draw". `reason` is best a message:
        the outcome keeps its English words in `reason` (for programs and older readers)
        and, then, the message itself in `words` (what the page says)."""
        self._finish(winner, reason)

    def _finish(self, winner: str, reason: str | Message) -> None:
        if self.outcome is None:
            text = reason.text("en") if isinstance(reason, Message) else reason
            self.outcome = {"winner": winner, "reason": text, "turn": self.turn}
            if isinstance(reason, Message):
                self.outcome["words"] = reason.to_json()
            self.pending = []
            won = words.by_side(winner, _WINS) if winner != "draw" else Message(
                "engine.win.draw")
            self.note(Message("engine.game_over", {"outcome": won, "reason": reason}))

    def check_outcome(self) -> None:
        if self.referee is not None:
            self.referee.check(self)
            return
        if self.mode == "zombie_war":
            self._check_war_outcome()
            return
        standing = [f for f in self.figures.values() if f.side == SURVIVORS and f.standing]
        heroic = [f for f in self.figures.values()
                  if f.side == SURVIVORS and f.status == "down" and f.has("heroique")]
        evacuated = [f for f in self.figures.values()
                     if f.side == SURVIVORS and f.status == "evacuated"]
        zombies = [f for f in self.figures.values() if f.is_zombie and f.on_table]
        if not standing and not heroic and not evacuated:
            self._finish(ZOMBIES, Message("engine.end.no_survivor"))
        elif not standing and not heroic:
            self._finish(SURVIVORS, Message("engine.end.all_escaped"))
        elif not zombies:
            self._finish(SURVIVORS, Message("engine.end.no_zombie"))

    def _check_war_outcome(self) -> None:
        alive = {band: [f for f in self.figures.values() if f.side == SURVIVORS
                        and f.band == band and (f.standing or (
                            f.status == "down" and f.has("heroique")))]
                 for band in BANDS}
        if not alive["A"] and not alive["B"]:
            self._finish(ZOMBIES, Message("engine.end.war_nobody"))
        elif not alive["A"] or not alive["B"]:
            winner = "A" if alive["A"] else "B"
            self._finish(winner, Message("engine.end.war_wiped", {"band": self.other(winner)}))

    def hand_over(self, acted: str | None, passed: bool = False) -> None:
        """After an activation and its windows: the other side acts, or passes; turn end.

        `acted` is the side that just finished an activation or `passed` (None at the start
        of a turn, when the survivors begin). A side with no AP or nobody it may activate
        passes, keeping its AP; two passes in a row end the turn and the AP left are lost
        (D16).
        """
        from rules import legal

        if self.pending or self.outcome is not None:
            return
        if acted is None:
            side, self.passes = self.to_act, 0
        else:
            side = self.other(acted)
            self.passes = self.passes + 1 if passed else 0
        while self.passes < 2:
            if legal.can_activate(self, side):
                self.to_act = side
                return
            self.passes += 1
            if self.pools[side] > 0:
                self.note(words.by_side(side, _NO_ONE, ap=self.pools[side]))
            side = self.other(side)
        for lost in self.sides():
            if self.pools[lost] > 0:
                self.note(words.by_side(lost, _AP_LOST, ap=self.pools[lost]))
        self._end_turn()
        self.hand_over(None)

    # --- the API ------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        from rules import legal

        return legal.legal_actions(self)

    def apply(self, action: Action | dict[str, Any], dice: Iterable[int] | None = None,
              where: str = "action", *, atomic: bool = True) -> list[Note]:
        """Check and carry out one action; return what happened (its notes).

        `dice` are values rolled on the real table, used before the RNG. Nothing changes
        when the action is refused or when dice are missing (`atomic=False`, for replays that
        discard the whole game on an error, skips the safety copy).
        """
        from rules import legal, resolve

        act = parse_action(action, where)
        if self.outcome is not None:
            raise IllegalActionError(Message("refusal.game_over", {
                "reason": self.outcome.get("words") or self.outcome["reason"]}), where)
        legal.check(self, act)
        # Typed-in dice may run short: keep a copy to leave the game untouched. A replay
        # (atomic=False) is thrown away whole on any error, so it needs none.
        needs_copy = atomic and (self.rng is None or dice is not None)
        snapshot = self.clone() if needs_copy else None
        self._dice = Dice(rng=self.rng, typed=list(dice or []))
        try:
            if not self.pending:
                self.activating = self.to_act
            resolve.carry_out(self, act)
            self.check_outcome()
            if not self.pending:
                self._after_activation(act)
        except SurviveUsError:
            if snapshot is not None:
                self.__dict__.update(snapshot.__dict__)
            raise
        notes = self._take_notes()
        self.log.append({"action": act.to_json(), "dice": self._take_dice(), "notes": notes})
        return notes

    def _after_activation(self, act: Action) -> None:
        """Every window is closed: in zombie_war the band now moves a zombie, then the
        other side's activation comes."""
        from rules import windows

        acted = self.activating
        if (self.mode == "zombie_war" and acted in BANDS and self.controller is None
                and not isinstance(act, Pass | EndActivations)
                and windows.offer_zombie_control(self, acted)):
            self.controller = acted
            return
        self.activating, self.controller = None, None
        self.hand_over(acted, passed=isinstance(act, Pass | EndActivations))

    def decline(self) -> list[Note]:
        return self.apply(Decline())

    def end_activations(self) -> list[Note]:
        return self.apply(EndActivations())
