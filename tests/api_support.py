"""Helpers for the HTTP API tests: an app on a fresh SQLite file, auth headers, a game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from service.app import create_app

__all__ = ["make_app", "auth", "start_game", "error_of", "play_to_end"]


def make_app(folder: Path, **config: Any) -> Any:
    settings = {"TESTING": True, "DATABASE_URL": f"sqlite:///{folder / 'test.sqlite3'}",
                "SSE_LIFETIME": 0.0, "SSE_POLL": 0.01, **config}
    return create_app(settings)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def start_game(client: FlaskClient, scenario: str = "nettoyage", seed: int = 3,
               **extra: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games", json={"scenario": scenario, "seed": seed, **extra})
    assert response.status_code == 201, response.json
    body: dict[str, Any] = response.json
    return body


def error_of(response: Any, status: int) -> dict[str, str]:
    """The error body, after checking the status and the one error shape."""
    assert response.status_code == status, (response.status_code, response.data[:500])
    body = response.json
    assert set(body) == {"error"}
    assert {"code", "message", "where"} <= set(body["error"])
    assert all(isinstance(body["error"][k], str) for k in ("code", "message", "where"))
    error: dict[str, str] = body["error"]
    return error


def play_to_end(client: FlaskClient, game_id: str, token: str, limit: int = 400) -> int:
    """Play a game out: the AI for the zombies, the first listed attack (else the first
    action) for the survivors. Returns the number of actions."""
    version = client.get(f"/api/v1/games/{game_id}").json["version"]
    for count in range(limit):
        game = client.get(f"/api/v1/games/{game_id}").json
        if game["terminal"]:
            return count
        if game["deciding"] == "zombies":
            r = client.post(f"/api/v1/games/{game_id}/ai/play", json={"version": version},
                            headers=auth(token))
        else:
            listed = client.get(f"/api/v1/games/{game_id}/actions").json["actions"]
            pick = next((a["action"] for a in listed
                         if a["action"]["type"] in ("melee", "shoot")), listed[0]["action"])
            r = client.post(f"/api/v1/games/{game_id}/actions",
                            json={"version": version, "action": pick}, headers=auth(token))
        assert r.status_code == 200, r.json
        version = r.json["version"]
    raise AssertionError(f"game {game_id} did not end in {limit} actions")
