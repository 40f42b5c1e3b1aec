"""The state of a game of Survive Us and what reading it needs: figures, pools, the log, the
measures on the table, the dice and the notes of the action under way.

`GameState` knows nothing of how actions are checked or carried out: the code that acts on a
game (`rules.activity`, `rules.attacks`, `rules.movement`, the action rules and the
rulebook, `rules.activation`, `rules.window_rules`, `rules.legal`, `rules.panic`,
`rules.inventory`) reads and changes a `GameState`, and `rules.game.Game` puts it all together
behind `apply`. So the imports read one way: state <- the code that acts on it <- the game.

Copies are cheap (`clone`): a copy shares what is never changed in place (the scene, the
terrain, the figures' frozen counts, the windows, what was measured) and copies the rest;
markers are shared until one game changes one (`own_marker`). Every state has a `version`
of its own, unique in the process: what was measured on the table is kept by version
(`plans`), what the listing found for this very state in `listed`.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Sequence
from typing import Any, Self

from geometry.errors import SurviveUsError
from geometry.scene import Figure, Scene, Table, load_scene
from geometry.space import Space
from geometry.terrain import TerrainPiece
from geometry.units import CONTACT_INCHES
from i18n import Message
from rules import words
from rules.catalog import Catalog, load_catalog
from rules.dice import Dice, NeedDice, Roll
from rules.errors import IllegalActionError
from rules.figures import Fig, copy_figures, english_name
from rules.referee import Referee, rebuild
from rules.settings import Settings
from rules.windows import Window, window_from_json

__all__ = ["GameState", "Note", "SURVIVORS", "ZOMBIES", "BANDS", "MODES", "plain_copy"]

# a log note: a message's JSON ({"code", "params"}), or English text in records made before
# issue 14 (they still load, replay and show)
Note = str | dict[str, Any]

SURVIVORS = "survivors"
ZOMBIES = "zombies"
BANDS = ("A", "B")  # the two rival bands of "Guerre en territoire zombie"
MODES = ("solo", "zombie_war")

_MODE_WORDS = (Message("engine.mode.solo"), Message("engine.mode.zombie_war"))
# every state's version, unique in the process: copies of a game that part ways never
# mistake each other's measures for their own
_VERSIONS = itertools.count(1)
MEMO_SIZE = 1 << 14  # listings a game and its copies keep (`GameState.memo`)


def plain_copy(data: Any) -> Any:
    """A deep copy of plain JSON (dicts, lists and scalars), several times faster than
    `copy.deepcopy`: a game's markers and a referee's record are copied this way."""
    if isinstance(data, dict):
        return {k: plain_copy(v) if isinstance(v, dict | list) else v for k, v in data.items()}
    if isinstance(data, list):
        return [plain_copy(v) if isinstance(v, dict | list) else v for v in data]
    return data
_WINS = {"survivors": Message("engine.win.survivors"), "zombies": Message("engine.win.zombies"),
         "band": Message("engine.win.band")}


class GameState:
    """One scenario's state. Build and change it through `rules.game.Game`."""

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
        self.scene_json = plain_copy(scene_json)
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
            m["id"]: plain_copy(m) for m in markers}
        self.referee = referee  # the scenario's objectives and special rules, if any
        self.pending: list[Window] = []
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
        self._version = next(_VERSIONS)
        self.plans: dict[Any, Any] = {}  # planned moves, valid until something moves
        self.listed: dict[Any, Any] = {}  # the legal actions found for this very state
        # listings kept by what they depend on (`rulebook.figure_actions`), for this game
        # and its copies while the terrain stands
        self.memo: dict[Any, Any] = {}
        self._own_markers: set[str] = set(self.markers)  # copied here: this game's own
        self.replies: list[tuple[str, str]] = []  # violent figures to strike back, this action
        self._start: dict[str, Any] = self.to_json()

    # --- construction and records -------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state as plain JSON."""
        return {
            "scene": plain_copy(self.scene_json),
            "settings": self.settings.to_json(),
            "max_turns": self.max_turns,
            "turn": self.turn,
            "pools": dict(self.pools),
            "to_act": self.to_act,
            "pending": [w.to_json() for w in self.pending],
            "activating": self.activating,
            "mode": self.mode,
            "markers": [plain_copy(m) for m in self.markers.values()],
            "referee": None if self.referee is None else {
                "name": self.referee.name, **self.referee.to_json()},
            "controller": self.controller,
            "passes": self.passes,
            "ended": list(self.ended),
            "outcome": plain_copy(self.outcome),
            "figures": [f.to_json() for f in self.figures.values()],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], catalog: Catalog | None = None) -> Self:
        game = cls(scene_json=data["scene"], figures=[Fig.from_json(f) for f in data["figures"]],
                   settings=Settings.from_record(data["settings"]), catalog=catalog,
                   max_turns=data["max_turns"], mode=data.get("mode", "solo"),
                   markers=data.get("markers", []),
                   referee=None if data.get("referee") is None else rebuild(data["referee"]))
        game.turn, game.pools, game.to_act = data["turn"], dict(data["pools"]), data["to_act"]
        game.pending = [window_from_json(w, f"pending[{i}]")
                        for i, w in enumerate(data["pending"])]
        game.activating = data.get("activating")
        game.controller = data.get("controller")
        game.passes = int(data.get("passes", 0))
        game.ended = list(data.get("ended", []))
        game.outcome = plain_copy(data["outcome"])
        return game

    def export(self) -> dict[str, Any]:
        """The start state and every action with its dice: enough to replay the game."""
        return {"start": plain_copy(self._start), "log": plain_copy(self.log)}

    def clone(self) -> Self:
        """An independent copy of the game (its log too), sharing its RNG."""
        other = self._copy()
        other.log = list(self.log)
        return other

    def _copy(self) -> Self:
        """The state copied, all but the log: shared, the scene, terrain and measures
        (replaced when they change, never changed in place), the windows (frozen values),
        the outcome (set once); the markers until one of the two games changes one."""
        other = object.__new__(type(self))
        other.__dict__ = self.__dict__.copy()
        other.figures = copy_figures(self.figures)
        other.pools = dict(self.pools)
        other.ended = list(self.ended)
        other.pending = list(self.pending)
        other.markers = dict(self.markers)
        self._own_markers = set()
        other._own_markers = set()
        other.referee = copy.deepcopy(self.referee)
        # what was measured stays good until something moves (keyed by the version)
        other.plans = dict(self.plans)
        other.listed = dict(self.listed)
        other.replies = []
        other._dice = Dice(rng=self.rng)
        other._notes = []
        return other

    def remember(self, key: Any, value: Any) -> None:
        """Keep a listing in `memo` (bounded: emptied when full)."""
        if len(self.memo) >= MEMO_SIZE:
            self.memo.clear()
        self.memo[key] = value

    def __getstate__(self) -> dict[str, Any]:
        """A game travels (to the AI's worker processes) without what is measured anew on
        demand: its space (which holds the shared, locked path finders) and the listings
        kept by what they depend on."""
        state = self.__dict__.copy()
        state["_space"] = None
        state["memo"] = {}
        return state

    def own_marker(self, marker_id: str) -> dict[str, Any]:
        """The marker `marker_id`, this game's own to change: copies of a game share their
        markers until one of them changes one."""
        if marker_id not in self._own_markers:
            self.markers[marker_id] = plain_copy(self.markers[marker_id])
            self._own_markers.add(marker_id)
        return self.markers[marker_id]

    def add_marker(self, marker: dict[str, Any]) -> None:
        """A new marker on the table (a fallen figure's gear), this game's own."""
        self.markers[marker["id"]] = marker
        self._own_markers.add(marker["id"])

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
        self._version = next(_VERSIONS)
        self.plans = {}
        self.listed = {}

    def changed(self) -> None:
        """Something else changed outside an action (a test setting a figure up, a tool
        editing the state): the legal actions must be listed again."""
        self.listed = {}

    def version(self) -> int:
        """This state's version (for what is measured on the table), unique in the
        process: it changes whenever positions or statuses do."""
        return self._version

    def edit_scene(self) -> dict[str, Any]:
        """The scene JSON, this game's own, to change in place (a door, a barricade): clones
        share it until one of them changes it."""
        self.scene_json = plain_copy(self.scene_json)
        return self.scene_json

    def reload_terrain(self) -> None:
        """A door opened or closed: rebuild the terrain and everything measured on it."""
        self.terrain = load_scene({**self.scene_json, "figures": []}).terrain
        self._field = None
        self._views = {}
        self.memo = {}
        self.moved()

    def distance(self, a: str, b: str) -> float:
        """Edge-to-edge distance between two figures on the table (a KeyError for one that
        is not on it)."""
        space = self._space if self._space is not None else self.space()
        index = space.scene.index
        return space.distance_rows[index[a]][index[b]]

    def distances_from(self, a: str, others: Sequence[str]) -> list[float]:
        """`distance(a, b)` for every b of `others`, read in one go."""
        space = self._space if self._space is not None else self.space()
        index = space.scene.index
        row = space.distance_rows[index[a]]
        return [row[index[b]] for b in others]

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
                missing.where, request=request) from None
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

    def offer(self, window: Window) -> None:
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
            return self.pending[0].side
        return self.to_act

    def survivors_counted(self, band: str | None = None) -> int:
        """Figures counted in a survivors' AP pool (D9): one band's in zombie_war."""
        counted = ("standing",) if self.settings.ap_pool_counts == "standing" else (
            "standing", "down")
        return sum(1 for f in self.figures.values()
                   if f.side == SURVIVORS and f.status in counted
                   and (band is None or f.band == band))

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
