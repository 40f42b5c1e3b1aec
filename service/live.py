"""Live games of one worker: the `Game` rebuilt from its event log, cached by id and version.

Any worker may have taken the last action, so the cache is only trusted when the version it
holds is the database's. Every change runs under the game's lock (one thread at a time per
game in this worker), is checked against the version the client saw (409 when stale), is
worked out by the engine, and is written in a write transaction (one writer at a time across
workers) that checks the version again, committed before the answer. Dice the client did not
type in are rolled by a RNG seeded from the game's seed and the event number, and recorded in
the event, so a replay finds the same dice.

A read replays the log only up to the version of the row it read (another worker may have
added events since), so an answer's state is always the state of the version it names.

Undo takes a game back to a state kept before its last action (a `Game.clone()` taken
before each action, the last `UNDO_DEPTH` per game and `UNDO_STATES` in all): a take-back
costs a copy, not a replay of the whole game under the game's lock. Without a kept state
(after a restart, or deeper than the states kept) the game is replayed once and the states
before its last actions are kept on the way.
"""

from __future__ import annotations

import random
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

import scenarios.play  # noqa: F401  (registers the scenario referee used by Game.replay)
from geometry.errors import SurviveUsError
from i18n import Message
from rules.dice import Dice
from rules.game import Game, Note
from service.errors import ApiError, Conflict
from service.storage import gamelog
from service.storage.db import Database
from service.tokens import require_token
from service.words import stored

__all__ = ["LiveGames", "Change", "rebuild", "table_view"]

CACHE_SIZE = 64
LOCK_STRIPES = 64
UNDO_DEPTH = 16  # states kept per game to take its last actions back without a replay
UNDO_STATES = 256  # and in all (about 70 KB each for a card's game)


@dataclass(frozen=True)
class Change:
    """What an acknowledged change did: the new version and the engine's words."""

    row: sa.Row[Any]  # the game's row before the change
    version: int
    kind: str
    action: dict[str, Any] | None
    dice: list[int]
    notes: list[Note]


def table_view(state: dict[str, Any]) -> dict[str, Any]:
    """What the players may see of a game's state (`Game.to_json()`): a closed crate shows
    that it is there and what opening it costs, not what lies inside (D20: the loot is rolled
    at set-up and kept hidden until opened), and which crates hide a trap stays secret."""
    markers = [{k: v for k, v in m.items() if k not in ("items", "units", "loot")}
               | {"hidden": True} if m.get("kind") == "crate" else m
               for m in state.get("markers", [])]
    referee = state.get("referee")
    if isinstance(referee, dict) and "traps" in referee:
        referee = {k: v for k, v in referee.items() if k != "traps"}
    return {**state, "markers": markers, "referee": referee}


def rebuild(start: dict[str, Any], rows: Sequence[sa.Row[Any]]) -> Game:
    """The game from its stored start (`Game.export()` at creation) and its events."""
    record = {"start": start["start"], "log": [*start["log"], *gamelog.effective_log(rows)]}
    return Game.replay(record)


def replay_keeping(record: dict[str, Any], keep: int) -> tuple[Game, list[Game]]:
    """`Game.replay(record)` and copies of the game before each of its last `keep` actions
    (oldest first; never before the start), taken on the way."""
    log = record["log"]
    first = max(1, len(log) - keep)  # the first entry whose state-before is kept
    kept: list[Game] = []
    game: Game | None = None
    for i, step in enumerate(Game.replay_steps(record)):
        game = step
        if first <= i + 1 < len(log):
            kept.append(step.clone())  # the state before entry i + 1
    if game is None:
        game = Game.replay(record)
    return game, kept


def _restore(game: Game, state: Game) -> None:
    """Make `game` the kept `state` (in place: callers hold the game object), keeping its
    RNG, as `Game.undo` does."""
    rng = game.rng
    game.__dict__.update(state.__dict__)
    game.rng = rng
    game._dice = Dice(rng=rng)


class LiveGames:
    """The per-worker cache of games in play and the one way to change one."""

    def __init__(self, db: Database, size: int = CACHE_SIZE, undo_depth: int = UNDO_DEPTH,
                 undo_states: int = UNDO_STATES) -> None:
        self.db = db
        self.size = size
        self.undo_depth = undo_depth
        self.undo_states = undo_states
        self._cache: OrderedDict[str, tuple[int, Game]] = OrderedDict()
        self._states: dict[str, tuple[int, dict[str, Any]]] = {}
        # per cached game: the states before its last actions still standing, oldest first
        self._before: dict[str, list[Game]] = {}
        self._kept = 0
        self._locks = [threading.RLock() for _ in range(LOCK_STRIPES)]
        self._guard = threading.Lock()
        self.rebuilds = 0
        self.catch_ups = 0
        self.quick_undos = 0
        self.replayed_undos = 0

    @contextmanager
    def locked(self, game_id: str) -> Iterator[None]:
        """One thread at a time per game: games share a fixed set of locks (striped by id),
        so the locks never grow with the number of games."""
        with self._locks[zlib.crc32(game_id.encode()) % len(self._locks)]:
            yield

    def _get(self, conn: Connection, row: sa.Row[Any]) -> Game:
        """The game at the row's version: cached, or replayed from the log (never past the
        row's version: events another worker added after the row was read wait for the
        next read)."""
        with self._guard:
            hit = self._cache.get(row.id)
            if hit is not None and hit[0] == row.version:
                self._cache.move_to_end(row.id)
                return hit[1]
        if hit is not None and hit[0] < row.version:
            caught_up = self._catch_up(conn, row, *hit)
            if caught_up is not None:
                return caught_up
        rows = gamelog.game_events(conn, row.id, upto=row.version)
        record = {"start": row.start["start"],
                  "log": [*row.start["log"], *gamelog.effective_log(rows)]}
        game, kept = replay_keeping(record, self.undo_depth)
        self.rebuilds += 1
        self._put(row.id, row.version, game)
        self._keep(row.id, kept, replace=True)
        return game

    def _catch_up(self, conn: Connection, row: sa.Row[Any], version: int,
                  game: Game) -> Game | None:
        """Another worker moved the game on: apply the actions it recorded, with their dice,
        to the cached game, and its undos from the states kept (None when that fails: the
        caller replays the whole log instead)."""
        missed = gamelog.game_events(conn, row.id, after=version, upto=row.version)
        try:
            for r in missed:
                if r.kind == "action":
                    before = game.clone() if self.undo_depth else None
                    game.apply(r.action, dice=r.dice, where=f"events[{r.seq}]", atomic=False)
                    if before is not None:
                        self._keep(row.id, [before])
                elif not self._quick_undo(row.id, game):
                    self._drop(row.id)
                    return None
        except SurviveUsError:
            self._drop(row.id)
            return None
        self.catch_ups += 1
        self._put(row.id, row.version, game)
        return game

    def _put(self, game_id: str, version: int, game: Game) -> None:
        with self._guard:
            self._cache[game_id] = (version, game)
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.size:
                gone, _ = self._cache.popitem(last=False)
                self._kept -= len(self._before.pop(gone, []))

    def _drop(self, game_id: str) -> None:
        with self._guard:
            self._cache.pop(game_id, None)
            self._states.pop(game_id, None)
            self._kept -= len(self._before.pop(game_id, []))

    def _keep(self, game_id: str, states: Sequence[Game], replace: bool = False) -> None:
        """Keep `states` as the latest states before the game's actions (the oldest go past
        `undo_depth` for this game, and past `undo_states` in all, least recent games
        first)."""
        if self.undo_depth <= 0:
            return
        with self._guard:
            held = self._before.setdefault(game_id, [])
            self._kept -= len(held)
            if replace:
                held.clear()
            held.extend(states)
            del held[:max(0, len(held) - self.undo_depth)]
            self._kept += len(held)
            for other in list(self._cache):
                if self._kept <= self.undo_states:
                    break
                older = self._before.get(other, [])
                cut = min(len(older), self._kept - self.undo_states)
                del older[:cut]
                self._kept -= cut

    def _quick_undo(self, game_id: str, game: Game) -> bool:
        """Take the game's last action back from the state kept before it, if there is one
        (its log must be the game's without the last entry)."""
        with self._guard:
            held = self._before.get(game_id, [])
            state = held.pop() if held else None
            if state is not None:
                self._kept -= 1
        if state is None or state.log != game.log[:-1]:
            with self._guard:
                self._kept -= len(self._before.pop(game_id, []))
            return False
        _restore(game, state)
        self.quick_undos += 1
        return True

    def take_back(self, game_id: str, game: Game) -> None:
        """`game.undo()` for a cached game, called under its lock within `change`: from the
        state kept before the last action, else by one replay that also keeps the states
        before the actions now last."""
        if len(game.log) <= 1:
            game.undo()  # refuses: nothing to take back
            return
        if self._quick_undo(game_id, game):
            return
        record = game.export()
        record["log"] = record["log"][:-1]
        older, kept = replay_keeping(record, self.undo_depth)
        _restore(game, older)
        self._keep(game_id, kept, replace=True)
        self.replayed_undos += 1

    def state(self, game_id: str, version: int, game: Game) -> dict[str, Any]:
        """The game's `table_view` at `version`, computed once per version (every open page
        asks for it after each event; the caller must not change it)."""
        with self._guard:
            hit = self._states.get(game_id)
        if hit is not None and hit[0] == version:
            return hit[1]
        state = table_view(game.to_json())
        with self._guard:
            self._states[game_id] = (version, state)
            while len(self._states) > self.size:
                self._states.pop(next(iter(self._states)))
        return state

    def read(self, game_id: str, use: Callable[[sa.Row[Any], Game], Any]) -> Any:
        """Call `use(row, game)` on the current game under its lock (for queries)."""
        with self.locked(game_id):
            with self.db.read() as conn:
                row = gamelog.get_game(conn, game_id)
                game = self._get(conn, row)
            return use(row, game)

    def change(self, game_id: str, version: int,
               act: Callable[[Game, random.Random | None], tuple[str, dict[str, Any] | None]],
               *, typed: bool = False) -> tuple[Change, Game]:
        """Run `act(game, rng)` on the game at `version` and record it as the next event.

        `act` returns the event's kind and action JSON; it may raise a `SurviveUsError`
        (nothing is written). A version other than the current one answers 409. An undo
        takes the action back with `take_back` (from the state kept before it).

        The engine's work runs under the game's lock but outside the write transaction,
        which only re-checks the version (compare and swap) and writes the event: the
        transaction holds the database's one writer while SQLite syncs the commit to disk,
        and another game's action is computed meanwhile instead of queueing behind it.
        A change by another worker between the two answers 409 as if it had come first.
        """
        with self.locked(game_id):
            applied = False  # the cached game has taken the change, not yet recorded
            try:
                with self.db.read() as conn:
                    row = gamelog.get_game(conn, game_id)
                    require_token(row.token_hash, stored("game", game_id))
                    _check_version(game_id, row.version, version)
                    game = self._get(conn, row)
                before = game.clone() if self.undo_depth else None
                # the dice of the n-th action of the log: an action taken back and played
                # again rolls what it rolled the first time (a take-back is no re-roll)
                rng = None if typed else random.Random(f"{row.seed}:{len(game.log)}")
                game.rng = rng
                try:
                    kind, action = act(game, rng)
                    applied = True
                finally:
                    game.rng = None
                if kind == "undo":
                    dice: list[int] = []
                    notes: list[Note] = [Message("engine.undone").to_json()]
                else:
                    entry = game.log[-1]
                    dice, notes = list(entry["dice"]), list(entry["notes"])
                with self.db.write() as conn:
                    _check_version(game_id, gamelog.locked_version(conn, game_id), version)
                    new = gamelog.append_event(conn, game_id, row.version, kind=kind,
                                               action=action, dice=dice, typed=typed,
                                               notes=notes)
            except SurviveUsError as error:
                if applied or not isinstance(error, ApiError):
                    self._drop(game_id)  # changed but not recorded, or the engine failed: rebuild
                raise
            except BaseException:
                self._drop(game_id)
                raise
            self._put(game_id, new, game)
            if kind != "undo" and before is not None:
                self._keep(game_id, [before])
            return Change(row, new, kind, action, dice, notes), game


def _check_version(game_id: str, current: int, seen: int) -> None:
    if seen != current:
        raise Conflict(Message("service.game.stale_reload", {"game": game_id, "version": current,
                                                             "sent": seen}),
                       "version", extra={"version": current})
