"""The AI chooses in a worker process (service/ai_work.py): the same choice, the same words,
as on the request's thread, and a game travels there whole (issue 17)."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from rules.catalog import load_catalog
from service.app import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    db = tmp_path_factory.mktemp("ai-pool") / "ai.sqlite3"
    return create_app({"DATABASE_URL": f"sqlite:///{db}", "TESTING": True}).test_client()


def test_the_default_catalog_travels_as_itself() -> None:
    catalog = load_catalog()
    assert pickle.loads(pickle.dumps(catalog)) is catalog


def test_another_catalog_travels_by_value(tmp_path: Path) -> None:
    data = Path(__file__).resolve().parent.parent / "rules" / "data"
    for name in ("skills", "archetypes", "equipment", "zombies"):
        (tmp_path / f"{name}.toml").write_text((data / f"{name}.toml").read_text("utf-8"),
                                               "utf-8")
    other = load_catalog(tmp_path)
    copy = pickle.loads(pickle.dumps(other))
    assert copy is not load_catalog() and copy == other


def _suggest(client: FlaskClient, game: str, version: int, level: str) -> dict[str, Any]:
    answer = client.post(f"/api/v1/games/{game}/ai/suggest?lang=fr",
                         json={"version": version, "level": level})
    assert answer.status_code == 200, answer.get_json()
    out: dict[str, Any] = answer.get_json()
    return out


@pytest.mark.parametrize("scenario", ["nettoyage", "escorte"])
def test_the_worker_chooses_as_the_request_thread_would(client: FlaskClient,
                                                         scenario: str) -> None:
    app = client.application
    created = client.post("/api/v1/games", json={"scenario": scenario, "seed": 3}).get_json()
    game, token = created["id"], {"Authorization": f"Bearer {created['token']}"}
    compared = 0
    for _ in range(120):
        now = client.get(f"/api/v1/games/{game}").get_json()
        if now["terminal"] or compared >= 6:
            break
        if now["deciding"] != "zombies":
            listed = [a["action"] for a in
                      client.get(f"/api/v1/games/{game}/actions").get_json()["actions"]]
            # the side's own choice (ending its activations) when it has one: on to the zombies
            side = [a for a in listed if not a.get("figure")]
            client.post(f"/api/v1/games/{game}/actions", headers=token,
                        json={"version": now["version"], "action": (side or listed)[0]})
            continue
        level = ("normal", "hard")[compared % 2]
        pooled = _suggest(client, game, now["version"], level)
        pool, app.config["AI_POOL"] = app.config["AI_POOL"], None
        try:
            here = _suggest(client, game, now["version"], level)
        finally:
            app.config["AI_POOL"] = pool
        assert pooled == here
        played = client.post(f"/api/v1/games/{game}/ai/play", headers=token,
                             json={"version": now["version"], "level": level}).get_json()
        assert played["action"] == pooled["action"]
        compared += 1
    assert compared >= 4


def test_a_worker_starts_while_another_thread_imports_opencv(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """OpenCV's loader puts its own folder (holding a `typing` package) in `sys.path` while it
    loads: a worker started then must not take that folder for a place to import from."""
    import sys

    import cv2

    from service.workers import PoolSettings, _import_roots, pool

    folder = str(Path(cv2.__file__).parent)
    monkeypatch.setattr(sys, "path", [*sys.path, folder])
    assert folder not in _import_roots()
    settings = PoolSettings("test-typing", size=1, waiting=0, preload=("service.ai_work",))
    try:
        assert pool(settings).run("json:dumps", [1, 2]) == "[1, 2]"
    finally:
        pool(settings).close()
