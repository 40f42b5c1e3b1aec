"""Following a live camera or a recording, and posting figure positions when they change.

Three parts, each replaceable in tests: a frame source (camera index, video file or folder of
images), a `Tracker` that says which figures moved, appeared or vanished, and a sink that
receives each change (`HttpPoster` POSTs JSON to the service's
``{server}/api/v1/games/{id}/frames/positions``).
"""

from __future__ import annotations

import json
import math
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from i18n import Message
from vision.calibfile import CalibrationFile
from vision.calibration import Calibration
from vision.cv import cv2
from vision.errors import ImageError, VisionError
from vision.imageio import read_image
from vision.locate import locate
from vision.match import size_of, sizes_agree
from vision.types import Image
from vision.words import net_reason, plain

__all__ = ["frames", "Tracker", "Change", "HttpPoster", "watch", "IMAGE_SUFFIXES",
           "positions_url"]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")
Sink = Callable[[dict[str, Any]], None]


# -- frame sources --------------------------------------------------------------------------
def frames(source: str, max_frames: int | None = None,
           grey: bool = False) -> Iterator[tuple[int, Image | ImageError]]:
    """(index, BGR frame) from a camera index ("0"), a video file, or a folder of images (in
    name order). An image in a folder that cannot be read comes as its `ImageError` (the
    caller says so and goes on); a camera or video that cannot be opened raises
    `VisionError`."""
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise VisionError(Message("camera.watch.no_images", {"folder": source}), source)
        for n, p in enumerate(files[:max_frames]):
            try:
                yield n, read_image(p, grey=grey)
            except ImageError as error:
                yield n, error
        return
    if source.isdigit():
        capture = cv2.VideoCapture(int(source))
        # a live camera: keep only the newest frame, not a backlog of stale ones
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        cannot = Message("camera.watch.no_camera", {"camera": source})
    elif path.is_file():
        capture = cv2.VideoCapture(str(path))
        cannot = Message("camera.watch.no_video", {"file": source})
    else:
        raise VisionError(Message("camera.watch.source", {"source": source}), source)
    if not capture.isOpened():
        raise VisionError(cannot, source)
    try:
        n = 0
        while max_frames is None or n < max_frames:
            ok, image = capture.read()
            if not ok or image is None:
                return
            yield n, cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if grey else image
            n += 1
    finally:
        capture.release()


# -- change detection -----------------------------------------------------------------------
Key = int | str  # a tag id, or an anonymous colour-mode track ("zombies#3")


def _order(key: Key) -> tuple[int, int, str]:
    return (0, key, "") if isinstance(key, int) else (1, 0, key)


@dataclass(frozen=True)
class Change:
    moved: list[Key]
    appeared: list[Key]
    vanished: list[Key]

    def __bool__(self) -> bool:
        return bool(self.moved or self.appeared or self.vanished)


@dataclass
class Tracker:
    """Known positions per figure, and which changed in a new frame.

    Tagged figures are known by their tag. Colour-mode figures have no identity: each side's
    bases are matched to that side's tracks by an optimal assignment (nearest overall, none
    farther than `match_gate` inches), and an unmatched base starts a new track
    (``"zombies#3"``, written into its ``"track"`` field). Naming who is who is left to the
    service, which knows the game's figures.

    A figure moved when its new position is farther than `min_move` inches, or than its two
    positions' combined uncertainties (each a ~95% bound), from the last one posted (so
    detection jitter is not a move). A
    figure vanishes only after `vanish_after` frames without it (a hand passing over the
    table must not remove everyone it covers).
    """

    min_move: float = 0.1
    vanish_after: int = 3
    match_gate: float = 3.0
    positions: dict[Key, dict[str, Any]] = field(default_factory=dict)
    missing: dict[Key, int] = field(default_factory=dict)
    last_seen: dict[Key, dict[str, Any]] = field(default_factory=dict)
    _next_track: int = 0

    def _keyed(self, figures: list[dict[str, Any]]) -> dict[Key, dict[str, Any]]:
        seen: dict[Key, dict[str, Any]] = {int(f["tag"]): f for f in figures if "tag" in f}
        anonymous = [f for f in figures if "tag" not in f]
        for side in sorted({str(f.get("side")) for f in anonymous}):
            dets = [f for f in anonymous if str(f.get("side")) == side]
            tracks = [k for k, v in self.positions.items()
                      if isinstance(k, str) and str(v.get("side")) == side]
            taken: dict[int, Key] = {}
            if tracks:
                cost = np.array([[math.hypot(d["x"] - self.positions[k]["x"],
                                             d["y"] - self.positions[k]["y"]) for k in tracks]
                                 for d in dets])
                # a base of another size is another figure (sizes measured on whole rims
                # or read from arcs, within what the camera tells apart)
                same = np.array([[_same_size(d, self.positions[k]) for k in tracks]
                                 for d in dets], dtype=bool)
                gated = np.where((cost <= self.match_gate) & same, cost, 1e6)
                for i, j in zip(*linear_sum_assignment(gated), strict=True):
                    if gated[i, j] < 1e6:
                        taken[int(i)] = tracks[int(j)]
            for i, d in enumerate(dets):
                key = taken.get(i)
                if key is None:
                    self._next_track += 1
                    key = f"{side}#{self._next_track}"
                seen[key] = {**d, "track": key}
        return seen

    def update(self, figures: list[dict[str, Any]]) -> Change:
        seen = self._keyed(figures)
        self.last_seen = seen
        moved: list[Key] = []
        appeared: list[Key] = []
        vanished: list[Key] = []
        for tag, fig in seen.items():
            self.missing.pop(tag, None)
            old = self.positions.get(tag)
            if old is None:
                appeared.append(tag)
                self.positions[tag] = fig
                continue
            dist = math.hypot(fig["x"] - old["x"], fig["y"] - old["y"])
            doubt = math.hypot(fig.get("uncertainty", 0.0), old.get("uncertainty", 0.0))
            if dist > max(self.min_move, doubt):
                moved.append(tag)
                self.positions[tag] = fig
        for tag in list(self.positions):
            if tag in seen:
                continue
            self.missing[tag] = self.missing.get(tag, 0) + 1
            if self.missing[tag] >= self.vanish_after:
                vanished.append(tag)
                del self.positions[tag]
                del self.missing[tag]
        return Change(sorted(moved, key=_order), sorted(appeared, key=_order),
                      sorted(vanished, key=_order))


def _same_size(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """Whether two colour-mode sightings can be one base by their sizes: the surer size (a
    whole rim's) is taken as the figure's, the other as seen."""
    a, a_measured = size_of(new)
    b, b_measured = size_of(old)
    if a_measured and not b_measured:
        return sizes_agree(a, b, b_measured)
    return sizes_agree(b, a, a_measured)


# -- sinks ----------------------------------------------------------------------------------
def positions_url(server: str, game: str) -> str:
    return f"{server.rstrip('/')}/api/v1/games/{urllib.parse.quote(game, safe='')}" \
           "/frames/positions"


@dataclass
class HttpPoster:
    """POSTs each change as JSON; a refused or failed post raises `VisionError` with the
    server's status and message (asked in `lang`). The service takes a game's positions only
    with the game's `token` (sent as `Authorization: Bearer TOKEN`)."""

    server: str
    game: str
    timeout: float = 5.0
    token: str | None = None
    lang: str = "en"

    @property
    def url(self) -> str:
        return positions_url(self.server, self.game)

    def __call__(self, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept-Language": self.lang}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.url, data=body, method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                response.read()
        except urllib.error.HTTPError as error:
            detail = _said(error.read(2000).decode("utf-8", "replace"))
            raise VisionError(Message("camera.watch.refused", {
                "url": self.url, "status": str(error.code), "detail": detail}),
                self.url) from None
        except (urllib.error.URLError, OSError) as error:
            raise VisionError(Message("camera.watch.cannot_post", {
                "url": self.url, "reason": net_reason(error)}), self.url) from None


def _said(body: str) -> str:
    """What the server's error answer says: its message (in the language asked for), else
    the start of its body."""
    try:
        said = json.loads(body)["error"]["message"]
    except (ValueError, KeyError, TypeError):
        return body[:300]
    return str(said)


# -- the loop -------------------------------------------------------------------------------
@dataclass
class WatchStats:
    frames: int = 0
    located: int = 0
    posted: int = 0
    skipped: list[Message] = field(default_factory=list)  # why each unreadable file was


def watch(source: str, sink: Sink, settings: CalibrationFile | None = None,
          mode: str = "tags", max_frames: int | None = None, every: float = 0.0,
          tracker: Tracker | None = None,
          log: Callable[[Message], None] | None = None) -> WatchStats:
    """Follow `source`, post a payload to `sink` for every frame where something changed.

    The last good calibration is kept and reused while corner markers are hidden (a fixed
    camera). `every` seconds are left between frames of a live camera. `log` hears, as
    messages, about the files skipped and the frames where the table was not found.
    """
    settings = settings or CalibrationFile()
    tracker = tracker or Tracker()
    stats = WatchStats()
    last_cal: Calibration | None = settings.table
    for n, image in frames(source, max_frames, grey=mode == "tags"):
        if isinstance(image, ImageError):
            # a bad file in a folder: say so and go on with the next one
            said = plain(image)
            stats.skipped.append(said)
            if log:
                log(said)
            continue
        stats.frames += 1
        result = locate(image, mode, settings, previous=last_cal)
        if result.calibration is None:
            if log:
                table = result.answer["table"]
                log(Message("camera.watch.no_table", {
                    "frame": n, "reason": table.get("reason_words") or table["reason"]}))
            continue
        stats.located += 1
        if result.calibration.source == "markers":
            last_cal = result.calibration
        change = tracker.update(result.figures)
        if change:
            figures = list(tracker.last_seen.values())  # colour mode: with their "track"
            sink({
                "frame": n, "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "mode": mode, "table": result.answer["table"],
                "figures": figures, "moved": change.moved,
                "appeared": change.appeared, "vanished": change.vanished,
            })
            stats.posted += 1
        if every:
            time.sleep(every)
    return stats
