"""Undo from kept states (issue 17, finding 10): a take-back restores the state kept before
the last action instead of replaying the whole game under the game's lock, and gives
exactly what the replay gives: the same state, record and legal actions, at every depth,
through the API, after a redo, and in another worker that catches up on the undos."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from api_support import auth, make_app

from rules import legal
from rules.game import Game
from scenarios.play import start_scenario
from service.live import LiveGames, replay_keeping
from service.storage.db import Database


def _played(entries: int) -> Game:
    """A card's game played `entries` log entries on by the first legal action each time."""
    game = start_scenario("nettoyage", None, 3)
    game.rng = __import__("random").Random(7)
    while len(game.log) < entries and not game.is_terminal:
        game.apply(legal.legal_actions(game)[0])
    game.rng = None
    return game


def _seen(game: Game) -> tuple[Any, ...]:
    return (game.to_json(), game.export(), game.current_side(),
            [a.to_json() for a in legal.legal_actions(game)])


def test_take_back_is_the_replay_at_every_depth(tmp_path: Path) -> None:
    game = _played(30)
    record = game.export()
    replayed = [_seen(step) for step in Game.replay_steps(record)]  # after each entry
    live = LiveGames(Database(f"sqlite:///{tmp_path / 'x.sqlite3'}"), undo_depth=8)
    again, kept = replay_keeping(record, 8)
    assert len(kept) == 8 and _seen(again) == replayed[-1]
    live._put("g", 0, again)
    live._keep("g", kept, replace=True)
    while len(again.log) > 1:
        live.take_back("g", again)
        assert _seen(again) == replayed[len(again.log) - 1], len(again.log)
    # 29 take-backs: 8 kept, then one replay keeping the 8 before, and so on
    assert (live.quick_undos, live.replayed_undos) == (26, 3)


def test_kept_states_are_bounded(tmp_path: Path) -> None:
    live = LiveGames(Database(f"sqlite:///{tmp_path / 'x.sqlite3'}"), undo_depth=4,
                     undo_states=6)
    game = _played(8)
    for name in ("a", "b", "c"):
        live._put(name, 0, game)
        live._keep(name, [game.clone() for _ in range(5)])
    held = {name: len(live._before.get(name, [])) for name in "abc"}
    assert held == {"a": 0, "b": 2, "c": 4} and live._kept == 6  # least recent cut first
    live._put("d", 0, game)
    live.size = 2
    live._put("e", 0, game)  # evicts a, b and c's states with them
    assert set(live._before) <= {"d", "e"} and live._kept == 0


def _play(client: Any, game: dict[str, Any], count: int) -> dict[int, Any]:
    states = {game["version"]: game["state"]}
    version = game["version"]
    for _ in range(count):
        listed = client.get(f"/api/v1/games/{game['id']}/actions").json["actions"]
        done = client.post(f"/api/v1/games/{game['id']}/actions", headers=auth(game["token"]),
                           json={"version": version, "action": listed[0]["action"]})
        assert done.status_code == 200, done.json
        version = done.json["version"]
        states[version] = done.json["game"]["state"]
    return states


def test_undo_through_the_api_restores_kept_states(tmp_path: Path) -> None:
    app, other = make_app(tmp_path), make_app(tmp_path)  # two workers on one database
    one, two = app.test_client(), other.test_client()
    game = one.post("/api/v1/games", json={"scenario": "nettoyage", "seed": 3}).json
    url, headers = f"/api/v1/games/{game['id']}", auth(game["token"])
    states = _play(one, game, 12)
    assert two.get(url).json["version"] == 12  # the other worker replays and keeps states
    live: LiveGames = app.extensions["survive_us"].games
    rebuilds = live.rebuilds
    undone: list[dict[str, Any]] = []
    version = 12
    for back in range(1, 5):
        done = one.post(f"{url}/undo", json={"version": version}, headers=headers)
        assert done.status_code == 200, done.json
        version = done.json["version"]
        undone = done.json["undone"] + undone
        assert done.json["game"]["state"] == states[12 - back]
        assert two.get(url).json["state"] == states[12 - back]  # caught up, undos too
    assert live.quick_undos == 4 and live.rebuilds == rebuilds
    assert other.extensions["survive_us"].games.quick_undos == 4
    for entry in undone:  # redo exactly, then take the redone actions back again
        done = one.post(f"{url}/actions", headers=headers,
                        json={"version": version, **entry})
        assert done.status_code == 200, done.json
        version = done.json["version"]
    assert one.get(url).json["state"] == states[12]
    done = one.post(f"{url}/undo", json={"version": version, "until": "survivors"},
                    headers=headers)
    assert done.status_code == 200, done.json
    back = len(done.json["undone"])
    assert done.json["game"]["state"] == states[12 - back]
    assert live.replayed_undos == 0 and live.rebuilds == rebuilds
    fresh = make_app(tmp_path).test_client().get(url).json  # a cold worker replays the log
    assert fresh["state"] == done.json["game"]["state"]
