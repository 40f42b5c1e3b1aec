"""A game of Survive Us: the state, the turn, and the one way to change it, `apply`.

Modelled on OpenSpiel's state API: `legal_actions()`, `apply(action)`, `is_terminal`,
`outcome`, `clone()`, and `undo()`. Every die rolled is a chance event recorded in the log
with the action that caused it, so `replay(export())` rebuilds the game exactly, and a player
may type in the dice rolled on the real table instead of letting the RNG roll (a search
may too: with no RNG, `apply` stops at the first die it lacks, `NeedDice.request` naming it
with its outcomes, and nothing changes).

The state and what reads it are `rules.state.GameState`; the code that checks and carries out
actions works on that state (an action's rule: `rules.rulebook`; who may act and the whole
check: `rules.legal`; an activation: `rules.activation`; the windows:
`rules.window_rules`), and `Game` adds the turn and `apply` on top of both.

A forward model for a search: `clone()` copies a game for a few figures' worth of work
(`GameState.clone`), and each `apply` keeps the state it started from, so `undo()` puts it
back at once (the last `UNDO_DEPTH` actions; older ones are replayed from the log). An
action listed for this very state (`legal_actions`) is not checked again when applied.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from geometry.errors import SurviveUsError
from i18n import Message
from rules import activation, legal, words
from rules.actions import Action, Decline, EndActivations, Pass, parse_action
from rules.activity import can_activate
from rules.catalog import Catalog
from rules.dice import Dice, Roll, RollKind
from rules.errors import IllegalActionError
from rules.figures import Fig
from rules.state import BANDS, MODES, SURVIVORS, ZOMBIES, GameState, Note, plain_copy
from rules.window_rules import carry_out_window

__all__ = ["Game", "Note", "SURVIVORS", "ZOMBIES", "BANDS", "MODES", "UNDO_DEPTH"]

UNDO_DEPTH = 16  # states kept for `undo`, each a copy of the figures (a few kB)

# sentences whose words agree with the side (see `words.by_side`)
_EXTRA_AP = {"survivors": Message("engine.purpose.extra_ap.survivors"),
             "zombies": Message("engine.purpose.extra_ap.zombies"),
             "band": Message("engine.purpose.extra_ap.band")}
_NO_ONE = {"survivors": Message("engine.no_one_to_activate.survivors"),
           "zombies": Message("engine.no_one_to_activate.zombies"),
           "band": Message("engine.no_one_to_activate.band")}
_AP_LOST = {"survivors": Message("engine.ap_lost.survivors"),
            "zombies": Message("engine.ap_lost.zombies"),
            "band": Message("engine.ap_lost.band")}


class Game(GameState):
    """One scenario being played. Build with `Game.new`, change only with `apply`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._undo: list[Game] = []  # the states the last actions started from, last last
        self._log_length = 0  # in a state kept for `undo`: the log's length then

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

    @classmethod
    def replay(cls, record: dict[str, Any], catalog: Catalog | None = None) -> Game:
        """Rebuild a game from `export()`, using the recorded dice."""
        game: Game | None = None
        for step in cls.replay_steps(record, catalog):
            game = step
        if game is None:  # an empty log
            game = cls.from_json(record["start"], catalog)
            game._start = plain_copy(record["start"])
        return game

    @classmethod
    def replay_steps(cls, record: dict[str, Any], catalog: Catalog | None = None
                     ) -> Iterator[Game]:
        """Rebuild a game from `export()` one entry of its log at a time: the same game is
        yielded after each entry (the chances curve reads every position on the way)."""
        game = cls.from_json(record["start"], catalog)
        game._start = plain_copy(record["start"])
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
        """Take back the last action (its dice too): the state it started from, kept by
        `apply`, or, further back than `UNDO_DEPTH` actions, the log replayed. The RNG
        goes on: the action played again rolls new dice."""
        if len(self.log) <= 1:
            raise IllegalActionError(Message("refusal.nothing_to_undo"), "log")
        if self._undo:
            self._restore(self._undo.pop())
            return
        record = self.export()
        record["log"] = record["log"][:-1]
        other = Game.replay(record, self.catalog)
        self.__dict__.update(other.__dict__)
        self.rng = other.rng or self.rng
        self._dice = Dice(rng=self.rng)

    def _snapshot(self) -> Game:
        """The state now, kept to come back to (all but the log, which only grows)."""
        kept = self._copy()
        kept.log = []
        kept._log_length = len(self.log)
        kept._undo = []
        return kept

    def _restore(self, kept: Game) -> None:
        """Back to a state `_snapshot` kept: the log cut back, the RNG and the states kept
        before it as they are."""
        log, rng, stack = self.log, self.rng, self._undo
        del log[kept._log_length:]
        self.__dict__.update(kept.__dict__)
        self.log, self.rng, self._undo = log, rng, stack
        self._dice = Dice(rng=rng)

    def clone(self) -> Game:
        """An independent copy of the game and its log (sharing its RNG); its own `undo`
        replays the log."""
        other = super().clone()
        other._undo = []
        return other

    # --- the turn -----------------------------------------------------------------------

    def _begin_turn(self) -> None:
        self.turn += 1
        for f in self.figures.values():
            f.moves = f.panic_malus = 0
            f.panicked = f.resting = f.surrounded_tested = False
            f.used_turn = {}
        self.ended = []
        self.to_act = self.sides()[0]
        if self.mode == "zombie_war":
            for band in BANDS:
                die = self.roll(Roll(f"band {band}'s action points", words=Message(
                    "engine.purpose.band_ap", {"band": band}), kind=RollKind.ACTION_POINTS))
                self.pools[band] = self.survivors_counted(band) + die
                activation.offer_didactique(self, die, band)
            self.note(Message("engine.turn_war", {"turn": self.turn, "a": self.pools["A"],
                                                  "b": self.pools["B"]}))
            return
        ap = RollKind.ACTION_POINTS
        die = self.roll(Roll("survivors' action points",
                             words=Message("engine.purpose.survivors_ap"), kind=ap))
        self.pools[SURVIVORS] = self.survivors_counted() + die
        zombies_ap = Message("engine.purpose.zombies_ap")
        self.pools[ZOMBIES] = self.roll(Roll("zombies' action points", words=zombies_ap,
                                             kind=ap)) + \
            self.roll(Roll("zombies' action points", words=zombies_ap, kind=ap))
        if self.referee is not None:
            for side in (SURVIVORS, ZOMBIES):
                extra = words.by_side(side, _EXTRA_AP)
                for _ in range(self.referee.pool_dice(self, side)):
                    self.pools[side] += self.roll(Roll(f"{side}' extra action points",
                                                       words=extra, kind=ap))
        self.note(Message("engine.turn", {"turn": self.turn,
                                          "survivors": self.pools[SURVIVORS],
                                          "zombies": self.pools[ZOMBIES]}))
        activation.offer_didactique(self, die)

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
        if self.pending or self.outcome is not None:
            return
        if acted is None:
            side, self.passes = self.to_act, 0
        else:
            side = self.other(acted)
            self.passes = self.passes + 1 if passed else 0
        while self.passes < 2:
            if can_activate(self, side):
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
        return legal.legal_actions(self)

    def apply(self, action: Action | dict[str, Any], dice: Iterable[int] | None = None,
              where: str = "action", *, atomic: bool = True) -> list[Note]:
        """Check and carry out one action; return what happened (its notes).

        `dice` are values rolled on the real table, used before the RNG. Nothing changes
        when the action is refused or when dice are missing (`atomic=False`, for replays that
        discard the whole game on an error, skips the safety copy).
        """
        act = parse_action(action, where)
        if self.outcome is not None:
            raise IllegalActionError(Message("refusal.game_over", {
                "reason": self.outcome.get("words") or self.outcome["reason"]}), where)
        legal.check(self, act)  # at once for an action listed or checked for this state
        # Typed-in dice may run short, or a rule refuse midway: the state kept leaves the
        # game untouched, and `undo` comes back to it. A replay (atomic=False) is thrown
        # away whole on any error, so it keeps none.
        kept = self._snapshot() if atomic else None
        self.plans = dict(self.plans)  # the kept state's measures stay as they were
        self.listed = {}
        self._dice = Dice(rng=self.rng, typed=list(dice or []))
        try:
            if not self.pending:
                self.activating = self.to_act
            if self.pending:
                carry_out_window(self, self.pending[0], act)
            else:
                activation.carry_out(self, act)
            self.check_outcome()
            if not self.pending:
                self._after_activation(act)
        except SurviveUsError:
            if kept is not None:
                self._restore(kept)
            raise
        notes = self._take_notes()
        self.log.append({"action": act.to_json(), "dice": self._take_dice(), "notes": notes})
        self.listed = {}
        if kept is not None:
            self._undo.append(kept)
            if len(self._undo) > UNDO_DEPTH:
                del self._undo[0]
        return notes

    def _after_activation(self, act: Action) -> None:
        """Every window is closed: in zombie_war the band now moves a zombie, then the
        other side's activation comes."""
        acted = self.activating
        if (self.mode == "zombie_war" and acted in BANDS and self.controller is None
                and not isinstance(act, Pass | EndActivations)
                and activation.offer_zombie_control(self, acted)):
            self.controller = acted
            return
        self.activating, self.controller = None, None
        self.hand_over(acted, passed=isinstance(act, Pass | EndActivations))

    def decline(self) -> list[Note]:
        return self.apply(Decline())

    def end_activations(self) -> list[Note]:
        return self.apply(EndActivations())
