"""Handing a game to another device over HTTP: the QR code of a link (POST /api/v1/qr) reads
back as the link, its text is bounded; a game's and a campaign's export opened elsewhere
(the page's "Download the record" / "Open a record") keep the card, the band and the
campaign; a game answer names its campaign."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import cv2
import numpy as np
import pytest
import segno
from api_support import auth, error_of, make_app, start_game

LINK = ("http://192.168.1.20:8000/#/game/0123456789abcdef0123456789abcdef"
        "?token=Zq3-x_Yw9vB2kL7pQ1sT8uR4nM6hJ0cA")
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return make_app(tmp_path_factory.mktemp("qr")).test_client()


def svg_modules(svg: bytes) -> np.ndarray:
    """The dark modules an SVG from segno draws, read from its one stroked path (`M x y`,
    `m dx dy`, `h n`: a run of n dark modules on row y - 0.5), quiet zone included."""
    root = ET.fromstring(svg)
    size = int(float(root.attrib["viewBox"].split()[2]))
    dark = np.zeros((size, size), dtype=bool)
    path = next(p for p in root.iter(f"{SVG}path") if p.get("stroke"))
    x = y = 0.0
    for command, args in re.findall(r"([MmHh])([^MmHh]*)", path.attrib["d"]):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if command == "M":
            x, y = numbers
        elif command == "m":
            x, y = x + numbers[0], y + numbers[1]
        else:
            run = numbers[0] if command == "h" else numbers[0] - x
            dark[int(y), int(x):int(x + run)] = True
            x += run
    return dark


def decode(dark: np.ndarray, scale: int = 8) -> str:
    """What a camera reads: the modules drawn black on white, decoded by OpenCV."""
    image = np.where(np.kron(dark, np.ones((scale, scale), dtype=bool)), 0, 255).astype(np.uint8)
    text, _points, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return str(text)


def qr(client: Any, text: Any, lang: str = "en") -> Any:
    return client.post("/api/v1/qr", json={"text": text}, headers={"Accept-Language": lang})


def test_the_qr_code_of_a_link_reads_back_as_the_link(client: Any) -> None:
    response = qr(client, LINK)
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert "no-store" in response.headers["Cache-Control"]  # it carries a token
    dark = svg_modules(response.data)
    # the same modules as segno's own matrix, with the standard's 4-module quiet zone
    expected = np.array(segno.make(LINK, error="m", micro=False).matrix, dtype=bool)
    assert dark.shape == (expected.shape[0] + 8, expected.shape[1] + 8)
    assert not dark[:4].any() and not dark[-4:].any()
    assert (dark[4:-4, 4:-4] == expected).all()
    assert decode(dark) == LINK


def test_the_text_is_bounded_and_the_limit_said(client: Any) -> None:
    longest = "https://example.org/#/" + "a" * (2000 - 22)
    assert qr(client, longest).status_code == 200
    for lang, said in (("en", "at most 2,000"), ("fr", "au plus 2\u202f000")):
        error = error_of(qr(client, longest + "a", lang), 422)
        assert error["where"] == "json.text" and said in error["message"]
    # 2,000 characters that take more bytes than a QR code holds
    error = error_of(qr(client, "Ω" * 2000), 422)
    assert error["code"] == "too_long" and "QR code" in error["message"]
    assert "2,000" in error["message"]
    error_of(qr(client, ""), 422)
    error_of(client.post("/api/v1/qr", json={}), 422)
    error_of(client.post("/api/v1/qr", json={"text": LINK, "size": 3}), 422)


def test_the_spec_describes_the_route_as_svg(client: Any) -> None:
    operation = client.get("/openapi.json").json["paths"]["/api/v1/qr"]["post"]
    assert "image/svg+xml" in operation["responses"]["200"]["content"]
    assert operation["requestBody"]["required"]
    assert "security" not in operation  # it only draws what it is sent


def test_a_downloaded_game_opens_elsewhere_with_its_card_and_band(client: Any) -> None:
    made = start_game(client, "nettoyage", seed=4, band="cops_and_kids")
    assert made["band"] == {"fr": "Les flics et les gosses", "en": "Cops and kids"}
    assert made["campaign"] is None
    listed = client.get(f"/api/v1/games/{made['id']}/actions").json["actions"]
    step = client.post(f"/api/v1/games/{made['id']}/actions", headers=auth(made["token"]),
                       json={"version": made["version"], "action": listed[0]["action"]})
    assert step.status_code == 200, step.json
    record = client.get(f"/api/v1/games/{made['id']}/export", headers=auth(made["token"])).json
    assert record["band"] == made["band"] and record["scenario"] == "nettoyage"
    # the page sends the record's export, seed, card and band (its version stays behind)
    body = {k: record[k] for k in ("export", "seed", "scenario", "band")}
    copy = client.post("/api/v1/games/import", json=body)
    assert copy.status_code == 201, copy.json
    game = copy.json
    assert game["id"] != made["id"] and game["token"] != made["token"]
    assert game["band"] == made["band"] and game["scenario"] == "nettoyage"
    original = client.get(f"/api/v1/games/{made['id']}").json
    assert game["state"] == original["state"]
    opens = client.get(f"/api/v1/games/{game['id']}/access", headers=auth(game["token"]))
    assert opens.status_code == 200 and opens.json == {"write": True}
    error_of(client.get(f"/api/v1/games/{made['id']}/access", headers=auth(game["token"])), 403)
    # the record as downloaded, version and all, is refused with the field named
    error = error_of(client.post("/api/v1/games/import", json=record), 422)
    assert error["where"] == "json.version"


def test_a_corrupted_game_record_says_what_is_wrong(client: Any) -> None:
    made = start_game(client, "nettoyage", seed=5)
    record = client.get(f"/api/v1/games/{made['id']}/export").json
    broken = {"export": {"log": record["export"]["log"]}, "seed": record["seed"]}
    for lang, said in (("en", "a game export has 'start'"),
                       ("fr", "un export de partie a « start »")):
        error = error_of(client.post("/api/v1/games/import", json=broken,
                                     headers={"Accept-Language": lang}), 422)
        assert error["code"] == "invalid_export" and said in error["message"]
    error = error_of(client.post("/api/v1/games/import", json={**broken, "band": {"fr": "x"}}),
                     422)
    assert error["where"] == "json.band.en"


def test_a_campaign_game_names_its_campaign_and_the_copy_keeps_it(client: Any) -> None:
    made = client.post("/api/v1/campaigns", json={"example": "cops_and_kids", "seed": 2}).json
    game = client.post(f"/api/v1/campaigns/{made['id']}/games", json={"seed": 1},
                       headers=auth(made["token"])).json
    names = {"fr": "Les flics et les gosses", "en": "Cops and kids"}
    assert game["campaign"] == {"id": made["id"], "band": names, "number": 1,
                                "of": len(made["summary"]["scenarios"])}
    assert game["band"] == names
    listed = client.get(f"/api/v1/campaigns/{made['id']}").json["games"]
    assert [g["id"] for g in listed] == [game["id"]] and listed[0]["created"] == game["created"]
    record = client.get(f"/api/v1/campaigns/{made['id']}/export",
                        headers=auth(made["token"])).json
    copy = client.post("/api/v1/campaigns/import", json=record)
    assert copy.status_code == 201, copy.json
    copied = copy.json["games"][0]
    again = client.get(f"/api/v1/games/{copied['id']}").json
    assert again["campaign"] == {**game["campaign"], "id": copy.json["id"]}
    assert again["state"] == game["state"]
    opens = client.get(f"/api/v1/games/{copied['id']}/access",
                       headers=auth(copy.json["token"]))
    assert opens.status_code == 200
