"""A game tells the camera its bases (issue 16): heights set per side or per figure in the
camera settings, sizes from the figures, both reaching the located tags through HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from api_support import auth, error_of, make_app, start_game
from synth_frames import Camera, Effects, Figure, encode_jpeg, render


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_app(tmp_path_factory.mktemp("bases")).test_client()


def on_table(game: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in game["state"]["figures"] if f["status"] in ("standing", "down")]


def test_heights_are_checked_and_kept(client: Any) -> None:
    g = start_game(client, "nettoyage", 3)
    url, h = f"/api/v1/games/{g['id']}/camera", auth(g["token"])
    zombie = next(f["id"] for f in on_table(g) if f["side"] == "zombies")
    bad = error_of(client.put(url, json={"figure_base_height_mm": {"nobody": 4}}, headers=h),
                   422)
    assert bad["code"] == "invalid_camera" and bad["where"] == "figure_base_height_mm.nobody"
    for wrong in ({"martians": 4}, {"zombies": 40}, {"zombies": 0.0}, {"zombies": "4"},
                  {"zombies": True}):
        assert "base_height_mm" in error_of(client.put(url, json={"base_height_mm": wrong},
                                                       headers=h), 422)["where"]
    body = {"base_height_mm": {"zombies": 5, "survivors": 3.5},
            "figure_base_height_mm": {zombie: 4.0}}
    assert client.put(url, json=body, headers=h).status_code == 200
    settings = client.get(url).json["settings"]
    assert settings["base_height_mm"] == {"zombies": 5, "survivors": 3.5}
    assert settings["figure_base_height_mm"] == {zombie: 4.0}


def test_a_tag_is_lifted_by_its_own_base(client: Any) -> None:
    """A 4K tags frame: the heights the player set reach each tag's parallax correction and
    are said in its answer; a tag nobody set keeps the 3.2 mm guess and says so."""
    g = start_game(client, "nettoyage", 3)
    figs = on_table(g)
    zombies = [f for f in figs if f["side"] == "zombies"]
    survivors = [f for f in figs if f["side"] == "survivors"]
    tags = {str(4 + n): f["id"] for n, f in enumerate(figs)}
    body = {"tags": tags, "mode": "tags", "base_height_mm": {"zombies": 5.0},
            "figure_base_height_mm": {zombies[0]["id"]: 2.5}}
    r = client.put(f"/api/v1/games/{g['id']}/camera", json=body, headers=auth(g["token"]))
    assert r.status_code == 200, r.json
    drawn = [Figure(f["x"], f["y"], tag=4 + n, angle_deg=29.0 * n) for n, f in enumerate(figs)]
    frame = render(drawn, (), Camera(tilt_deg=18.0), Effects(blur_sigma=0.6, noise_sigma=2.0,
                                                             jpeg_quality=92), seed=4)
    r = client.post(f"/api/v1/games/{g['id']}/frames", data=encode_jpeg(frame.image, 92),
                    content_type="image/jpeg", headers=auth(g["token"]))
    assert r.status_code == 200, r.json
    seen = {f["id"]: f for f in r.json["figures"]}
    first = seen[zombies[0]["id"]]
    assert first["base_height_mm"] == 2.5 and first["height_known"]
    for z in zombies[1:]:
        assert seen[z["id"]]["base_height_mm"] == 5.0 and seen[z["id"]]["height_known"]
    for s in survivors:
        assert seen[s["id"]]["base_height_mm"] == 3.2 and not seen[s["id"]]["height_known"]
        assert seen[s["id"]]["height_in"] > 0
