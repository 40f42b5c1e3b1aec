"""LiveGames.change works the action out before its write transaction: a change another
worker records in between must lose with 409, leave nothing of its own in the log, and not
stay in the losing worker's cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.game import Game
from tests.api_support import auth, error_of, make_app, start_game


def _moves(client: Any, game: dict[str, Any]) -> list[dict[str, Any]]:
    listed = client.get(f"/api/v1/games/{game['id']}/actions").json["actions"]
    return [a["action"] for a in listed if a["action"]["type"] == "move"]


def test_a_change_recorded_meanwhile_by_another_worker_wins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = (make_app(tmp_path).test_client() for _ in range(2))
    game = start_game(one)
    url = f"/api/v1/games/{game['id']}"
    mine, theirs = _moves(one, game)[:2]
    apply = Game.apply
    raced: list[int] = []

    def racing_apply(self: Game, *args: Any, **kwargs: Any) -> Any:
        if not raced:  # while worker one works its action out, worker two records another
            raced.append(1)
            got = two.post(f"{url}/actions", json={"version": 0, "action": theirs},
                           headers=auth(game["token"]))
            assert got.status_code == 200, got.json
        return apply(self, *args, **kwargs)

    monkeypatch.setattr(Game, "apply", racing_apply)
    lost = one.post(f"{url}/actions", json={"version": 0, "action": mine},
                    headers=auth(game["token"]))
    error = error_of(lost, 409)
    assert error["code"] == "stale_version" and lost.json["error"]["version"] == 1
    assert error["message"] == ("this game has moved on since your page last read it (now at "
                                "move 1, your page had 0): reload it and try again")
    monkeypatch.setattr(Game, "apply", apply)
    export = one.get(f"{url}/export").json["export"]
    assert [e["action"] for e in export["log"][1:]] == [theirs]  # only the winner's action
    seen = one.get(url).json  # worker one rebuilt the game, it did not keep its own move
    assert seen == two.get(url).json and seen["version"] == 1
    again = one.post(f"{url}/actions", json={"version": 1, "action": _moves(one, seen)[0]},
                     headers=auth(game["token"]))
    assert again.status_code == 200 and again.json["version"] == 2


def test_an_illegal_action_writes_nothing_and_keeps_the_version(tmp_path: Path) -> None:
    client = make_app(tmp_path).test_client()
    game = start_game(client)
    url = f"/api/v1/games/{game['id']}"
    move = dict(_moves(client, game)[0], to=[-50.0, -50.0])
    error_of(client.post(f"{url}/actions", json={"version": 0, "action": move},
                         headers=auth(game["token"])), 422)
    after = client.get(url).json
    assert after["version"] == 0 and after["state"] == game["state"]
    assert client.get(f"{url}/export").json["export"]["log"][1:] == []
