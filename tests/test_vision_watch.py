"""`vision watch`: frame sources, change detection, posting (fake sink and a local server)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
import vision_scenes as scenes
from synth_frames import encode_png

from i18n import Message
from service.cli import main
from vision.calibfile import CalibrationFile
from vision.errors import VisionError
from vision.watch import HttpPoster, Tracker, frames, positions_url, watch

SETTINGS = CalibrationFile(scenes.SMALL, layout_overrides=True)


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """Five frames: start; tag 5 moves 2 in; a hand hides two corner markers (nothing moved);
    a corrupt file; tag 7 gone for the rest; then tag 6 nudged by jitter only."""
    d = tmp_path_factory.mktemp("recording")
    moved = ((5, 8.0, 8.0),)
    shots = [
        scenes.small_frame(),
        scenes.small_frame(moved=moved),
        scenes.small_frame(moved=moved, hidden=(1, 2)),
        None,
        scenes.small_frame(moved=moved, drop=(7,)),
        scenes.small_frame(moved=(*moved, (6, 8.51, 4.0)), drop=(7,)),
        scenes.small_frame(moved=(*moved, (6, 8.52, 4.0)), drop=(7,)),
    ]
    for n, shot in enumerate(shots):
        path = d / f"frame{n:02d}.png"
        path.write_bytes(b"\x89PNG\r\n\x1a\n broken" if shot is None else encode_png(shot.image))
    (d / "notes.txt").write_text("not a frame")
    return d


def test_watch_posts_only_changes(recording):
    posted: list[dict] = []
    log: list[Message] = []
    stats = watch(str(recording), posted.append, SETTINGS, tracker=Tracker(vanish_after=2),
                  log=log.append)
    assert stats.frames == 6 and stats.located == 6
    assert len(stats.skipped) == 1 and "frame03.png" in stats.skipped[0].text("en")
    assert stats.skipped[0].code.startswith("camera.image.") and log == stats.skipped
    assert [p["frame"] for p in posted] == [0, 1, 5]
    first, move, gone = posted
    assert first["appeared"] == [4, 5, 6, 7] and first["moved"] == []
    assert move["moved"] == [5] and move["appeared"] == []
    assert next(f for f in move["figures"] if f["tag"] == 5)["x"] == pytest.approx(8.0, abs=0.05)
    # frame 2 (hand) reused the last calibration and saw no change; frame 4 lost tag 7 once,
    # frame 5 a second time: only then it vanished; tag 6's 0.01 in nudge is not a move
    assert gone["vanished"] == [7] and gone["moved"] == []
    assert all(p["table"]["found"] for p in posted)


def test_tracker_thresholds():
    t = Tracker(min_move=0.1, vanish_after=1)
    assert t.update([{"tag": 4, "x": 1.0, "y": 1.0, "uncertainty": 0.01}]).appeared == [4]
    assert not t.update([{"tag": 4, "x": 1.05, "y": 1.0, "uncertainty": 0.01}])
    assert t.update([{"tag": 4, "x": 1.2, "y": 1.0, "uncertainty": 0.01}]).moved == [4]
    # a large uncertainty widens the gate to the combined uncertainties
    assert not t.update([{"tag": 4, "x": 1.45, "y": 1.0, "uncertainty": 0.3}])
    assert t.update([{"tag": 4, "x": 1.6, "y": 1.0, "uncertainty": 0.3}]).moved == [4]
    assert t.update([]).vanished == [4]


def test_frame_sources(tmp_path, recording):
    items = list(frames(str(recording), max_frames=2))
    assert [n for n, _ in items] == [0, 1]
    with pytest.raises(VisionError, match="no .png, .jpg"):
        list(frames(str(tmp_path)))
    with pytest.raises(VisionError, match="not a camera index, a video file or a folder"):
        list(frames(str(tmp_path / "missing.avi")))
    bad_video = tmp_path / "clip.avi"
    bad_video.write_bytes(b"not a video")
    with pytest.raises(VisionError, match="cannot open video"):
        list(frames(str(bad_video)))


def test_video_file_source(tmp_path):
    from vision.cv import cv2

    path = tmp_path / "clip.avi"
    image = scenes.small_frame().image
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5.0,
                             (image.shape[1], image.shape[0]))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for _ in range(3):
        writer.write(image)
    writer.release()
    posted: list[dict] = []
    stats = watch(str(path), posted.append, SETTINGS)
    assert stats.frames == 3 and len(posted) == 1
    assert posted[0]["appeared"] == [4, 5, 6, 7]


class _Server:
    """A one-route local HTTP server that records what it receives."""

    def __init__(self, status: int = 200) -> None:
        received: list[tuple[str, dict]] = []
        self.received = received

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                received.append((self.path, json.loads(body)))
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"error": {"message": "no such game"}}' if status >= 400
                                 else b"{}")

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> _Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_http_poster_and_cli(recording, capsys, tmp_path):
    cal = tmp_path / "small.json"
    cal.write_text(json.dumps({"layout": scenes.SMALL_JSON}))
    with _Server() as server:
        code = main(["vision", "watch", "--camera", str(recording), "--game", "g 1",
                     "--server", server.url + "/", "--calibration", str(cal), "--json"])
        assert code == 0
        out = json.loads(capsys.readouterr().out)
    assert out["frames"] == 6 and out["posted"] == len(server.received) >= 2
    path, body = server.received[0]
    assert path == "/api/v1/games/g%201/frames/positions"
    assert body["appeared"] == [4, 5, 6, 7] and len(body["figures"]) == 4


def test_http_poster_errors():
    with _Server(status=404) as server, pytest.raises(VisionError,
                                                      match="answered 404: no such game"):
        HttpPoster(server.url, "nope")({"frame": 0})
    with pytest.raises(VisionError, match="cannot post to http://127.0.0.1:9/"):
        HttpPoster("http://127.0.0.1:9", "g", timeout=2.0)({"frame": 0})
    assert positions_url("http://h:1/", "a/b") == "http://h:1/api/v1/games/a%2Fb/frames/positions"


def test_cli_missing_source(capsys, tmp_path):
    code = main(["vision", "watch", "--camera", str(tmp_path / "nope"), "--game", "g", "--json"])
    assert code == 2
    assert "no such camera, file or folder" in json.loads(capsys.readouterr().out)["error"][
        "message"]


def test_tracker_anonymous_colour_figures():
    t = Tracker(vanish_after=1)
    first = t.update([{"side": "zombies", "x": 2.0, "y": 2.0}, {"side": "zombies", "x": 6.0,
                                                                "y": 6.0},
                      {"side": "survivors", "x": 2.1, "y": 2.0}])
    assert first.appeared == ["survivors#1", "zombies#2", "zombies#3"]
    keys = {(f["side"], f["x"]): f["track"] for f in t.last_seen.values()}
    z1, z2 = keys[("zombies", 2.0)], keys[("zombies", 6.0)]
    # the two zombies swap list order and one walks 1.5 in: matched by place, not order
    change = t.update([{"side": "zombies", "x": 6.0, "y": 6.0},
                       {"side": "zombies", "x": 3.5, "y": 2.0},
                       {"side": "survivors", "x": 2.1, "y": 2.0}])
    assert change.moved == [z1] and not change.appeared and not change.vanished
    assert {f["track"] for f in t.last_seen.values() if f["side"] == "zombies"} == {z1, z2}
    # a jump beyond the gate is a new figure and, a frame later, a vanished one
    change = t.update([{"side": "zombies", "x": 6.0, "y": 6.0},
                       {"side": "zombies", "x": 12.0, "y": 12.0},
                       {"side": "survivors", "x": 2.1, "y": 2.0}])
    assert change.vanished == [z1] and len(change.appeared) == 1


def test_tracker_keeps_sizes_apart():
    """A colour track is a base of one size: a 40 mm base where a 25 mm one stood is another
    figure; sizes the camera cannot tell apart (28 measured, 32 read off an arc) are not."""
    t = Tracker(vanish_after=1)
    t.update([{"side": "zombies", "x": 5.0, "y": 5.0, "base_mm": 25.0, "size_measured": True}])
    (small,) = t.positions
    change = t.update([{"side": "zombies", "x": 5.3, "y": 5.0, "base_mm": 40.0,
                        "size_measured": True}])
    assert change.vanished == [small] and len(change.appeared) == 1
    (big,) = t.positions
    change = t.update([{"side": "zombies", "x": 5.3, "y": 5.0, "base_mm": 32.0,
                        "size_measured": False}])
    assert not change and list(t.positions) == [big]
    change = t.update([{"side": "zombies", "x": 5.3, "y": 5.0}])  # no size: any
    assert not change


def test_watch_colour_mode(tmp_path):
    from synth_frames import Effects, Figure, render

    from vision.locate import colour_available

    if not colour_available():
        pytest.skip("colour mode not in this build")
    blue, red, grey = (220, 90, 20), (30, 30, 210), (60, 70, 80)
    for n, zx in enumerate((9.0, 9.0, 7.0)):
        figs = [Figure(3, 3, rim_bgr=blue, body_bgr=grey), Figure(zx, 4, rim_bgr=red,
                                                                  body_bgr=grey)]
        frame = render(figs, (), scenes.SMALL_CAMERA, Effects(noise_sigma=2.0),
                       layout=scenes.SMALL, seed=20 + n)
        (tmp_path / f"f{n}.png").write_bytes(encode_png(frame.image))
    posted: list[dict] = []
    watch(str(tmp_path), posted.append, SETTINGS, mode="colour")
    assert [p["frame"] for p in posted] == [0, 2]
    assert len(posted[0]["appeared"]) == 2
    zombie = next(f for f in posted[1]["figures"] if f["side"] == "zombies")
    assert posted[1]["moved"] == [zombie["track"]]
    assert zombie["x"] == pytest.approx(7.0, abs=0.1)
