"""Games as event logs: the `games` row (start state, set-up) and its `events`.

`events` hold one row per acknowledged change: `kind` "action" (the action's JSON, the dice
it rolled, whether they were typed in, the engine's notes) or "undo" (takes back the last
action still standing). The game's `version` is its last `seq`; a change is written only if
the version is still the one the client saw (compare and swap, else 409).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from i18n import Message
from rules.game import Note
from service.errors import NotFound
from service.storage.records import new_id, now, one_row
from service.storage.tables import events, games
from service.words import stored

__all__ = ["insert_game", "get_game", "locked_version", "game_events", "append_event",
           "effective_log", "mark_recorded", "campaign_games"]


def insert_game(conn: Connection, *, token_hash: str, seed: int, setup: dict[str, Any],
                start: dict[str, Any], scenario: str | None, campaign_id: str | None,
                log: Sequence[dict[str, Any]] = ()) -> str:
    """A new game at version 0; `log` (an import) is added as already-played actions."""
    game_id = new_id()
    conn.execute(games.insert().values(
        id=game_id, token_hash=token_hash, campaign_id=campaign_id, scenario=scenario,
        seed=seed, setup=setup, start=start, version=len(log), recorded=False,
        created=now()))
    for seq, entry in enumerate(log, start=1):
        conn.execute(events.insert().values(
            game_id=game_id, seq=seq, kind="action", action=entry["action"],
            dice=list(entry.get("dice", [])), typed=True, notes=list(entry.get("notes", [])),
            created=now()))
    return game_id


def get_game(conn: Connection, game_id: str, lock: bool = False) -> sa.Row[Any]:
    return one_row(conn, games, game_id, "game", lock)


def locked_version(conn: Connection, game_id: str) -> int:
    """The game's version, its row locked for this write (only the one column is read)."""
    version = conn.execute(sa.select(games.c.version).where(games.c.id == game_id)
                           .with_for_update()).scalar()
    if version is None:
        raise NotFound(Message("service.not_found", {"what": stored("game", game_id)}), "id")
    return int(version)


def game_events(conn: Connection, game_id: str, after: int = 0,
                limit: int | None = None, upto: int | None = None) -> list[sa.Row[Any]]:
    """The game's events after `after`, up to `upto` (the version of the row the caller
    read: events another worker added since are left out, so the replay is that version)."""
    query = sa.select(events).where(events.c.game_id == game_id, events.c.seq > after)
    if upto is not None:
        query = query.where(events.c.seq <= upto)
    query = query.order_by(events.c.seq)
    if limit is not None:
        query = query.limit(limit)
    return list(conn.execute(query))


def append_event(conn: Connection, game_id: str, version: int, *, kind: str,
                 action: dict[str, Any] | None, dice: Sequence[int], typed: bool,
                 notes: Sequence[Note]) -> int:
    """Add event `version + 1` if the game is still at `version`; returns the new version."""
    done = conn.execute(games.update().where(games.c.id == game_id,
                                             games.c.version == version)
                        .values(version=version + 1))
    if done.rowcount != 1:
        raise RuntimeError(f"game {game_id} changed under a locked write")
    conn.execute(events.insert().values(
        game_id=game_id, seq=version + 1, kind=kind, action=action, dice=list(dice),
        typed=typed, notes=list(notes), created=now()))
    return version + 1


def effective_log(rows: Sequence[sa.Row[Any]]) -> list[dict[str, Any]]:
    """The actions still standing after the undos, as `Game.export()` log entries."""
    stack: list[dict[str, Any]] = []
    for row in rows:
        if row.kind == "undo":
            if stack:
                stack.pop()
        else:
            stack.append({"action": row.action, "dice": list(row.dice),
                          "notes": list(row.notes)})
    return stack


def mark_recorded(conn: Connection, game_id: str) -> None:
    conn.execute(games.update().where(games.c.id == game_id).values(recorded=True))


def campaign_games(conn: Connection, campaign_id: str) -> list[sa.Row[Any]]:
    return list(conn.execute(
        sa.select(games.c.id, games.c.scenario, games.c.seed, games.c.version,
                  games.c.recorded, games.c.created)
        .where(games.c.campaign_id == campaign_id).order_by(games.c.created)))
