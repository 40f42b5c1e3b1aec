"""The camera over HTTP: frames and located positions set against a live game.

Synthetic frames are drawn from the game's own positions (tests/synth_colour.py for colour
mode at 1080p, tests/synth_frames.py for one 4K tags frame), with figures moved, dropped or
placed where the AI asked, so every answer has a known truth. Errors: every bad frame is a 4xx
in the one error shape, never a 500.
"""

from __future__ import annotations

import math
import struct
import threading
import zlib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from api_support import auth, error_of, make_app, start_game
from synth_colour import ColourFigure, render_colour
from synth_frames import Camera, Effects, Figure, encode_jpeg, encode_png, render
from werkzeug.serving import make_server

from i18n import render as say
from service.api.frames import MAX_FRAME_BYTES
from service.frame_analysis import IN_PLACE_INCHES
from vision.watch import HttpPoster, watch

FX = Effects(blur_sigma=0.7, noise_sigma=2.0, gradient=0.2, jpeg_quality=90)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_app(tmp_path_factory.mktemp("frames")).test_client()


@pytest.fixture(scope="module")
def game(client: Any) -> dict[str, Any]:
    """A solo game of nettoyage where a survivor stood still (R1: no pass with AP left): the
    zombies decide."""
    g = start_game(client, "nettoyage", 3)
    listed = client.get(f"/api/v1/games/{g['id']}/actions").json["actions"]
    hold = next(a["action"] for a in listed if "stands still" in a["text"])
    r = client.post(f"/api/v1/games/{g['id']}/actions", json={"version": 0, "action": hold},
                    headers=auth(g["token"]))
    assert r.status_code == 200 and r.json["game"]["deciding"] == "zombies", r.json
    return {**r.json["game"], "token": g["token"]}


def on_table(game: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in game["state"]["figures"] if f["status"] in ("standing", "down")]


@cache
def suggestion(client: Any, game_id: str, version: int) -> dict[str, Any]:
    r = client.post(f"/api/v1/games/{game_id}/ai/suggest", json={"version": version})
    assert r.status_code == 200, r.json
    out: dict[str, Any] = r.json
    return out


def ai_end(client: Any, game: dict[str, Any]) -> tuple[str, list[float]]:
    s = suggestion(client, game["id"], game["version"])
    figure = s["action"]["figure"]
    r = client.post(f"/api/v1/games/{game['id']}/preview", json={"action": s["action"]})
    return figure, r.json["end"]


def colour_frame(game: dict[str, Any], moves: dict[str, tuple[float, float]],
                 drop: tuple[str, ...] = ()) -> bytes:
    figures = []
    for f in on_table(game):
        if f["id"] in drop:
            continue
        x, y = moves.get(f["id"], (f["x"], f["y"]))
        figures.append(ColourFigure(f["side"], x, y))
    return encode_jpeg(render_colour(figures, effects=FX, seed=5).image, 90)


def post_frame(client: Any, game: dict[str, Any], data: bytes, mode: str = "colour",
               content_type: str = "image/jpeg") -> Any:
    return client.post(f"/api/v1/games/{game['id']}/frames?mode={mode}", data=data,
                       content_type=content_type, headers=auth(game["token"]))


def free_spot(game: dict[str, Any], fig: dict[str, Any], dist: float,
              also: tuple[tuple[float, float], ...] = ()) -> tuple[float, float]:
    """A point `dist` in from `fig` clear of every other base (and of `also`) by 0.2 in."""
    others = [(f["x"], f["y"]) for f in on_table(game) if f["id"] != fig["id"]] + list(also)
    for k in range(24):
        a = 2 * math.pi * k / 24
        x, y = fig["x"] + dist * math.cos(a), fig["y"] + dist * math.sin(a)
        if 1.5 < x < 30 and 1.5 < y < 30 and all(math.hypot(x - u, y - v) > 1.2
                                                 for u, v in others):
            return x, y
    raise AssertionError(f"no free spot {dist} in from {fig['id']}")


def some_free(game: dict[str, Any], side: str, dist: float, skip: tuple[str, ...] = (),
              also: tuple[tuple[float, float], ...] = ()) -> tuple[dict[str, Any],
                                                             tuple[float, float]]:
    """The first figure of `side` with a free spot `dist` in away, and that spot."""
    for f in on_table(game):
        if f["side"] == side and f["id"] not in skip:
            try:
                return f, free_spot(game, f, dist, also)
            except AssertionError:
                continue
    raise AssertionError(f"no {side} figure can move {dist} in")


def entry(answer: dict[str, Any], figure: str) -> dict[str, Any]:
    found: dict[str, Any] = next(f for f in answer["figures"] if f["id"] == figure)
    return found


def test_colour_frame_in_place_finds_moved_and_vanished(client: Any,
                                                        game: dict[str, Any]) -> None:
    """The AI's zombie stands 0.1 in from where it asked: confirmed; another figure moved
    1.5 in is flagged with a legal-or-not Move to the seen point; a missing one vanished."""
    figure, end = ai_end(client, game)
    survivor, spot = some_free(game, "survivors", 1.5, also=((end[0], end[1]),))
    gone = next(f for f in on_table(game) if f["side"] == "zombies" and f["id"] != figure)
    moves = {figure: (end[0] + 0.1, end[1]), survivor["id"]: spot}
    r = post_frame(client, game, colour_frame(game, moves, drop=(gone["id"],)))
    assert r.status_code == 200, r.json
    a = r.json
    assert a["table"]["found"] and a["mode"] == "colour" and a["image"]["width"] == 1920
    ai = a["ai"]
    assert ai["figure"] == figure and ai["in_place"] is True and ai["move_to"] is None
    assert ai["distance"] == pytest.approx(0.1, abs=0.08) and ai["tolerance"] == IN_PLACE_INCHES
    moved = entry(a, survivor["id"])
    assert moved["moved"] and moved["state"] == "moved", (moved, a["unknown"])
    assert moved["distance"] == pytest.approx(1.5, abs=0.1)
    assert moved["apply"]["action"]["type"] == "move"
    assert moved["apply"]["action"]["to"] == pytest.approx(moved["camera"], abs=1e-3)
    assert isinstance(moved["apply"]["legal"], bool)
    assert a["vanished"] == [gone["id"]] and entry(a, gone["id"])["state"] == "vanished"
    still = [f for f in a["figures"] if f["id"] not in (figure, survivor["id"], gone["id"])]
    assert still and all(f["state"] == "still" and f["distance"] < 0.1 for f in still)
    assert set(a["moved"]) == {figure, survivor["id"]}
    assert a["checks"]["error"] is None and a["checks"]["answers"]
    # stored as the camera's last view
    last = client.get(f"/api/v1/games/{game['id']}/camera").json["last"]
    assert last["source"] == "frame" and last["ai"]["in_place"] is True


def test_positions_not_in_place_says_where_to_go(client: Any, game: dict[str, Any]) -> None:
    figure, end = ai_end(client, game)
    body = {"mode": "colour", "table": {"found": True}, "figures": [
        {"side": f["side"], "x": f["x"], "y": f["y"], "uncertainty": 0.04}
        for f in on_table(game) if f["id"] != figure]}
    body["figures"].append({"side": "zombies", "x": end[0] - 0.4, "y": end[1] + 0.3,
                            "uncertainty": 0.04})
    r = client.post(f"/api/v1/games/{game['id']}/frames/positions", json=body,
                    headers=auth(game["token"]))
    assert r.status_code == 200, r.json
    ai = r.json["ai"]
    assert ai["in_place"] is False and ai["distance"] == pytest.approx(0.5, abs=1e-6)
    assert ai["move_to"] == pytest.approx(end) and not ai["check_with_tape"]
    # just over the line with enough doubt: check with a tape
    body["figures"][-1] = {"side": "zombies", "x": end[0] + 0.27, "y": end[1],
                           "uncertainty": 0.05}
    r = client.post(f"/api/v1/games/{game['id']}/frames/positions", json=body,
                    headers=auth(game["token"]))
    ai = r.json["ai"]
    assert ai["in_place"] is False and ai["check_with_tape"] is True


def test_tape_flag_for_a_zombie_near_twenty_inches(client: Any, game: dict[str, Any]) -> None:
    zone = client.get(f"/api/v1/games/{game['id']}/zone").json
    near = {z: n["inches"] for z, n in zone["nearest"].items() if n is not None}
    zombie = min(near, key=lambda z: abs(near[z] - 20.0))
    doubt = abs(near[zombie] - 20.0) + 0.2
    body = {"mode": "colour", "figures": [
        {"side": f["side"], "x": f["x"], "y": f["y"],
         "uncertainty": doubt if f["id"] == zombie else 0.02} for f in on_table(game)]}
    r = client.post(f"/api/v1/games/{game['id']}/frames/positions", json=body,
                    headers=auth(game["token"]))
    assert r.status_code == 200, r.json
    tape = r.json["checks"]["tape"]
    flagged = [t for t in tape if t["question"]["ask"] == "activatable_zombies"]
    assert flagged and zombie in flagged[0]["answer"]["uncertain_zombies"]
    assert all(f["state"] == "still" for f in r.json["figures"])


def test_colour_mode_says_unknown_when_two_zombies_could_be_either(
        client: Any, game: dict[str, Any]) -> None:
    zombies = sorted((f for f in on_table(game) if f["side"] == "zombies"),
                     key=lambda f: (f["x"], f["y"]))
    a, b = next((p, q) for p in zombies for q in zombies
                if p["id"] < q["id"] and 1.5 < math.hypot(p["x"] - q["x"], p["y"] - q["y"]) < 4)
    mx, my = (a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2
    dx, dy = b["x"] - a["x"], b["y"] - a["y"]
    n = math.hypot(dx, dy)
    px, py = -dy / n * 0.7, dx / n * 0.7  # two spots across the middle, equally far from both
    figures = [{"side": f["side"], "x": f["x"], "y": f["y"], "uncertainty": 0.03}
               for f in on_table(game) if f["id"] not in (a["id"], b["id"])]
    figures += [{"side": "zombies", "x": mx + px, "y": my + py, "uncertainty": 0.03},
                {"side": "zombies", "x": mx - px, "y": my - py, "uncertainty": 0.03}]
    r = client.post(f"/api/v1/games/{game['id']}/frames/positions",
                    json={"mode": "colour", "figures": figures}, headers=auth(game["token"]))
    assert r.status_code == 200, r.json
    unknown = r.json["unknown"]
    assert len(unknown) == 2 and all({a["id"], b["id"]} <= set(u["candidates"])
                                     for u in unknown)
    assert entry(r.json, a["id"])["state"] == "unknown" and r.json["vanished"] == []


def test_watch_payload_posted_by_the_real_poster(client: Any, game: dict[str, Any],
                                                 tmp_path: Path) -> None:
    """What `vision watch` sends (its own loop on a frame file, its own HTTP poster with the
    game's token) is what the endpoint takes."""
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "f0.jpg").write_bytes(colour_frame(game, {}))
    sent: list[dict[str, Any]] = []
    stats = watch(str(folder), sent.append, mode="colour", max_frames=1)
    assert stats.posted == 1 and sent[0]["figures"] and all("track" in f for f in
                                                             sent[0]["figures"])
    app = client.application
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}"
        HttpPoster(url, game["id"], token=game["token"])(sent[0])
        with pytest.raises(Exception, match="answered 401"):
            HttpPoster(url, game["id"])(sent[0])
    finally:
        server.shutdown()
        thread.join(5)
    last = client.get(f"/api/v1/games/{game['id']}/camera").json["last"]
    assert last["source"] == "positions" and last["frame"] == 0
    assert all(f["state"] == "still" for f in last["figures"]) and not last["appeared"]


def test_tags_frame_4k_with_the_cameras_assignment(client: Any) -> None:
    """One 4K tags frame: tags are figures through PUT camera; a tag moved 2 in is a move,
    an unassigned tag has appeared."""
    g = start_game(client, "nettoyage", 3)
    figs = on_table(g)
    tags = {str(4 + n): f["id"] for n, f in enumerate(figs)}
    r = client.put(f"/api/v1/games/{g['id']}/camera", json={"tags": tags, "mode": "tags"},
                   headers=auth(g["token"]))
    assert r.status_code == 200, r.json
    moved, spot = some_free(g, "survivors", 2.0)
    drawn = [Figure(*(spot if f is moved else (f["x"], f["y"])), tag=4 + n,
                    angle_deg=31.0 * n) for n, f in enumerate(figs)]
    drawn.append(Figure(2.5, 16.0, tag=49))
    frame = render(drawn, (), Camera(tilt_deg=18.0), Effects(blur_sigma=0.6, noise_sigma=2.0,
                                                             jpeg_quality=92), seed=9)
    r = client.post(f"/api/v1/games/{g['id']}/frames", data=encode_jpeg(frame.image, 92),
                    content_type="image/jpeg", headers=auth(g["token"]))
    assert r.status_code == 200, r.json
    a = r.json
    assert a["mode"] == "tags" and a["table"]["found"] and a["ai"] is None  # survivors' turn
    assert a["moved"] == [moved["id"]] and entry(a, moved["id"])["tag"] == 4
    assert entry(a, moved["id"])["distance"] == pytest.approx(2.0, abs=0.05)
    assert all(f["state"] == "still" for f in a["figures"] if f["id"] != moved["id"])
    assert [x["tag"] for x in a["appeared"]] == [49]
    assert "no figure in this game carries" in a["appeared"][0]["reason"]


def test_multipart_upload_as_a_tablet_sends_it(client: Any, game: dict[str, Any]) -> None:
    import io

    data = {"frame": (io.BytesIO(colour_frame(game, {})), "photo.jpg", "image/jpeg"),
            "mode": "colour"}
    r = client.post(f"/api/v1/games/{game['id']}/frames", data=data,
                    content_type="multipart/form-data", headers=auth(game["token"]))
    assert r.status_code == 200, r.json
    assert r.json["mode"] == "colour" and not r.json["moved"]


def _png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)) + b"\x00" * 64)


@pytest.mark.parametrize(("data", "content_type", "status", "code"), [
    (b"", "image/jpeg", 422, "invalid_image"),
    (b"\xff\xd8\xff\xe0" + b"\x13" * 300, "image/jpeg", 422, "invalid_image"),
    (b"hello, not an image at all", "image/png", 422, "invalid_image"),
    (None, "image/png", 413, "too_many_pixels"),  # a PNG header declaring 20000 x 20000
    (b"GIF89a....", "text/plain", 415, "unsupported_media_type"),
    (b"{}", "application/json", 415, "unsupported_media_type"),
    ("png-as-jpeg", "image/jpeg", 415, "unsupported_media_type"),
    ("truncated", "image/png", 422, "invalid_image"),
])
def test_bad_frames_are_clear_4xx(client: Any, game: dict[str, Any], data: Any,
                                  content_type: str, status: int, code: str) -> None:
    if data is None:
        data = _png_header(20000, 20000)
    elif data == "png-as-jpeg":
        data = encode_png(render_colour([], seed=1).image[:40, :40])
    elif data == "truncated":
        data = encode_png(render_colour([], seed=1).image[:200, :200])[:300]
    r = post_frame(client, game, data, content_type=content_type)
    error = error_of(r, status)
    assert error["code"] == code and error["message"]


def test_oversize_and_no_token_and_bad_mode(client: Any, game: dict[str, Any]) -> None:
    big = b"\xff\xd8" + b"\x00" * MAX_FRAME_BYTES
    error = error_of(post_frame(client, game, big), 413)
    assert error["code"] == "too_large" and "25 MB" in error["message"]
    r = client.post(f"/api/v1/games/{game['id']}/frames", data=b"\xff\xd8",
                    content_type="image/jpeg")
    assert error_of(r, 401)["code"] == "token_required"
    r = client.post(f"/api/v1/games/{game['id']}/frames?mode=infrared", data=b"\xff\xd8",
                    content_type="image/jpeg", headers=auth(game["token"]))
    assert error_of(r, 422)["where"].startswith("query")
    r = client.post(f"/api/v1/games/{game['id']}/frames", data={"mode": "tags"},
                    content_type="multipart/form-data", headers=auth(game["token"]))
    assert error_of(r, 422)["where"] == "body.frame"
    r = client.post("/api/v1/games/" + "0" * 32 + "/frames", data=b"\xff\xd8",
                    content_type="image/jpeg", headers=auth(game["token"]))
    assert error_of(r, 404)["code"] == "not_found"


def test_table_not_found_is_an_answer(client: Any, game: dict[str, Any]) -> None:
    blank = encode_jpeg(render_colour([], seed=2).image[:300, :400].copy(), 90)
    r = post_frame(client, game, blank)
    assert r.status_code == 200, r.json
    assert r.json["table"]["found"] is False and r.json["figures"] == []
    assert "not found" in r.json["notes"][0]


def test_camera_settings_are_checked(client: Any, game: dict[str, Any]) -> None:
    url = f"/api/v1/games/{game['id']}/camera"
    h = auth(game["token"])
    assert error_of(client.put(url, json={"tags": {"5": "nobody"}}, headers=h),
                    422)["where"] == "tags.5"
    assert "outside" in error_of(client.put(url, json={"tags": {"2": "m1"}}, headers=h),
                                 422)["message"]
    assert "already" in error_of(client.put(url, json={"tags": {"5": "m1", "6": "m1"}},
                                            headers=h), 422)["message"]
    bad = error_of(client.put(url, json={"calibration": {"lens": 1}}, headers=h), 422)
    assert "lens" in bad["message"]
    bad = error_of(client.put(url, json={"calibration": {"colours": {"sides": 3}}}, headers=h),
                   422)
    assert bad["code"] == "invalid_colours" and bad["where"] == "calibration.colours.sides"
    assert error_of(client.put(url, json={}), 401)["code"] == "token_required"
    cal = {"version": 1, "layout": {"base_height_mm": 3.0}}
    r = client.put(url, json={"calibration": cal, "tags": {"7": "m2"}, "mode": "colour"},
                   headers=h)
    assert r.status_code == 200, r.json
    got = client.get(url).json
    assert got["settings"] == {"calibration": cal, "tags": {"7": "m2"}, "mode": "colour"}
    spec = client.get("/openapi.json").json["paths"]["/api/v1/games/{game_id}/frames"]["post"]
    assert {"image/jpeg", "image/png", "multipart/form-data"} == set(
        spec["requestBody"]["content"])
    assert {"413", "415", "401"} <= set(spec["responses"])


@pytest.mark.parametrize(("body", "where"), [
    ({"mode": "tags", "figures": [{"x": 3.0, "y": 4.0}]}, "figures[0].tag"),
    ({"mode": "colour", "figures": [{"side": "martians", "x": 3.0, "y": 4.0}]},
     "figures[0].side"),
    ({"mode": "colour", "figures": [{"side": "zombies", "x": "3", "y": 4.0}]}, "figures[0].x"),
    ({"mode": "colour", "figures": [{"side": "zombies", "x": 3.0, "y": 4.0,
                                     "uncertainty": -1}]}, "figures[0].uncertainty"),
    ({"mode": "colour", "figures": [], "colour": 1}, "json.colour"),
])
def test_bad_positions_name_the_field(client: Any, game: dict[str, Any], body: dict[str, Any],
                                      where: str) -> None:
    r = client.post(f"/api/v1/games/{game['id']}/frames/positions", json=body,
                    headers=auth(game["token"]))
    assert error_of(r, 422)["where"] == where


def test_the_camera_answers_in_the_request_s_language(client: Any,
                                                     game: dict[str, Any]) -> None:
    """Every text of a camera answer is said in the request's language (`?lang=` first, then
    Accept-Language), with its message beside it; the stored view is said again in the
    language of whoever reads it."""
    url = f"/api/v1/games/{game['id']}/frames?mode=colour"
    blank = encode_jpeg(render_colour([], seed=2).image[:300, :400].copy(), 90)
    french = {**auth(game["token"]), "Accept-Language": "fr-FR,fr;q=0.9"}
    fr = client.post(url, data=blank, content_type="image/jpeg", headers=french).json
    # no corner marker in view (or, after the frames above, a saved calibration of another
    # frame size): the reason in French, its message beside it
    words = fr["table"]["reason_words"]
    assert words["code"] in ("camera.corners.none_seen", "camera.calibration.saved_size")
    assert fr["table"]["reason"] == say(words, "fr") != say(words, "en")
    assert fr["table"]["reason"].startswith(("la caméra ne voit aucun", "trop peu de marqueurs"))
    assert fr["notes"] == ["table introuvable : " + say(words, "fr")]
    assert fr["notes_words"][0]["code"] == "camera.api.no_table"
    en = client.post(url + "&lang=en", data=blank, content_type="image/jpeg",
                     headers=french).json
    assert en["notes"] == ["the table was not found: " + say(words, "en")]
    assert en["notes_words"] == fr["notes_words"]
    camera = f"/api/v1/games/{game['id']}/camera"
    last = client.get(camera, headers={"Accept-Language": "fr"}).json["last"]
    assert last["notes"] == fr["notes"] and last["table"]["reason"] == fr["table"]["reason"]
    assert client.get(camera + "?lang=en").json["last"]["notes"] == en["notes"]
    # a refused frame: the error in French, with its code and parameters
    error = error_of(client.post(url + "&lang=fr", data=b"", content_type="image/jpeg",
                                 headers=auth(game["token"])), 422)
    assert error["message"] == "la photo est vide (0 octet)"
    assert error["words"] == {"code": "camera.image.empty",
                              "params": {"file": {"code": "camera.api.photo", "params": {}}}}
    error = error_of(client.put(camera, json={"tags": {"2": "m1"}}, headers=french), 422)
    assert error["message"].startswith("tags.2 : l'étiquette 2 n'est pas parmi les étiquettes")


def test_refusal_reasons_follow_the_language(client: Any, game: dict[str, Any]) -> None:
    """A tag given to no figure (tags mode) and two zombies the camera cannot tell apart
    (colour mode): the reasons in French, their messages beside them."""
    positions = f"/api/v1/games/{game['id']}/frames/positions"
    h = auth(game["token"])
    body = {"mode": "tags", "figures": [{"tag": 49, "x": 2.5, "y": 16.0, "uncertainty": 0.03}]}
    appeared = client.post(positions + "?lang=fr", json=body, headers=h).json["appeared"]
    assert appeared[0]["reason"] == "aucune figurine de cette partie ne porte l'étiquette 49"
    assert appeared[0]["reason_words"] == {"code": "camera.seen.unassigned",
                                           "params": {"tag": "49"}}
    # a figure seen under two tags is named as a person calls it, never by its id
    fig = next(f for f in on_table(game) if f["side"] == "survivors")
    camera = client.put(f"/api/v1/games/{game['id']}/camera",
                        json={"tags": {"5": fig["id"]}, "mode": "colour"}, headers=h)
    assert camera.status_code == 200, camera.json
    name = client.get(f"/api/v1/games/{game['id']}").json["names"][fig["id"]]
    twice = {"mode": "tags", "figures": [{"tag": 5, "x": fig["x"], "y": fig["y"]},
                                         {"tag": 5, "x": fig["x"] + 3, "y": fig["y"]}]}
    unknown = client.post(positions + "?lang=fr", json=twice, headers=h).json["unknown"]
    assert unknown[0]["reason"] == (f"{name['fr']} est vu deux fois (étiquettes 5 et 5) : "
                                    "l'une des deux est sur le mauvais socle")
    assert unknown[0]["reason_words"]["params"]["figure"] == name
    zombies = sorted((f for f in on_table(game) if f["side"] == "zombies"),
                     key=lambda f: (f["x"], f["y"]))
    a, b = next((p, q) for p in zombies for q in zombies
                if p["id"] < q["id"] and 1.5 < math.hypot(p["x"] - q["x"], p["y"] - q["y"]) < 4)
    mx, my = (a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2
    n = math.hypot(b["x"] - a["x"], b["y"] - a["y"])
    px, py = -(b["y"] - a["y"]) / n * 0.7, (b["x"] - a["x"]) / n * 0.7
    figures = [{"side": f["side"], "x": f["x"], "y": f["y"], "uncertainty": 0.03}
               for f in on_table(game) if f["id"] not in (a["id"], b["id"])]
    figures += [{"side": "zombies", "x": mx + px, "y": my + py, "uncertainty": 0.03},
                {"side": "zombies", "x": mx - px, "y": my - py, "uncertainty": 0.03}]
    r = client.post(positions, json={"mode": "colour", "figures": figures},
                    headers={**h, "Accept-Language": "fr"})
    unknown = r.json["unknown"]
    assert len(unknown) == 2 and all(u["reason_words"]["code"] == "camera.match.ambiguous"
                                     for u in unknown)
    assert all(u["reason"].startswith("une autre attribution de ces socles aux figurines")
               and "vérifiez quelle figurine est laquelle" in u["reason"] for u in unknown)
