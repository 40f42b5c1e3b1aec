"""The live event stream of a game (server-sent events), read from the event table.

Each open page follows the game whichever worker took the action: the stream polls the
`events` table for rows after the last one sent (every `SSE_POLL` seconds) and sends each as
`id: SEQ`, `event: action|undo`, `data: {...}`. A browser that reconnects sends
`Last-Event-ID` and the stream resumes after it; `?after=N` does the same by hand. A stream
closes after `SSE_LIFETIME` seconds (the browser reconnects by itself).

A stream holds one of the server's threads while it is open, so streams are counted: one
address may hold `STREAMS_PER_CLIENT` at once (429 beyond) and the process `STREAMS_TOTAL`
(503 beyond, with `Retry-After`), which `survive-us serve` sets to half its threads, so
streams never take every thread from the other requests. The page opens a refused stream
again later by itself.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from apiflask import APIBlueprint
from flask import Response, current_app, request

from i18n import Message, note_text
from service.app import services
from service.errors import ApiError
from service.language import request_lang
from service.schemas import LARGEST_EXACT, EventsQuery
from service.storage import gamelog
from service.workers import Busy

bp = APIBlueprint("stream", __name__, tag="Games")

KEEP_ALIVE = 15.0
STREAM_DOC: Any = {200: {"description": "an event stream", "content": {
    "text/event-stream": {"schema": {"type": "string"}}}}}
BATCH = 200
RETRY_AFTER = 10  # seconds a refused stream is told to wait


class _Streams:
    """The streams open in this process, by client address."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.by_client: dict[str, int] = {}

    def open(self, client: str, per_client: int, total: int) -> Callable[[], None]:
        """Count one more stream for `client`, or refuse it; returns its release."""
        with self._lock:
            mine = self.by_client.get(client, 0)
            if mine >= per_client:
                raise Busy(Message("service.stream.per_client", {"n": mine}), RETRY_AFTER,
                           status=429, code="too_many_streams")
            everyone = sum(self.by_client.values())
            if everyone >= total:
                raise Busy(Message("service.stream.full", {"n": everyone, "s": RETRY_AFTER}),
                           RETRY_AFTER)
            self.by_client[client] = mine + 1
        done = threading.Event()

        def release() -> None:
            if done.is_set():
                return
            done.set()
            with self._lock:
                left = self.by_client.get(client, 1) - 1
                if left > 0:
                    self.by_client[client] = left
                else:
                    self.by_client.pop(client, None)

        return release

    @property
    def count(self) -> int:
        with self._lock:
            return sum(self.by_client.values())


STREAMS = _Streams()


def _after(query: EventsQuery) -> int:
    header = request.headers.get("Last-Event-ID")
    if header is not None and header.strip():
        try:
            value = int(header.strip())
        except ValueError:
            raise ApiError(Message("service.stream.event_id", {"got": repr(header)}),
                           "Last-Event-ID", code="invalid_request") from None
        # the number as sent (text): a number of 28 digits or more fails Babel's format
        if value < 0:
            raise ApiError(Message("service.stream.event_id_negative", {"got": header.strip()}),
                           "Last-Event-ID", code="invalid_request")
        if value > LARGEST_EXACT:  # an event number, as `?after=` (EventsQuery)
            raise ApiError(Message("service.stream.event_id_range", {
                "got": header.strip(), "max": LARGEST_EXACT}), "Last-Event-ID",
                code="invalid_request")
        return value
    return query.after or 0


def event_text(row: Any, lang: str = "en") -> str:
    """One event as server-sent text: its notes as stored (messages' JSON, or older English
    text) and in `lang`."""
    data = {"seq": row.seq, "version": row.seq, "kind": row.kind, "action": row.action,
            "dice": row.dice, "typed": row.typed, "notes": row.notes,
            "notes_text": [note_text(n, lang) for n in row.notes],
            "created": row.created.isoformat() if row.created else None}
    return f"id: {row.seq}\nevent: {row.kind}\ndata: {json.dumps(data)}\n\n"


@bp.get("/games/<id:game_id>/events")
@bp.input(EventsQuery, location="query", arg_name="query")
@bp.doc(summary="Server-sent events: every action and undo after ?after=N (or Last-Event-ID)",
        responses=STREAM_DOC)
def get_events(game_id: str, query: EventsQuery) -> Response:
    db = services().db
    last = _after(query)
    with db.read() as conn:
        gamelog.get_game(conn, game_id)  # 404 before the stream starts
    poll = float(current_app.config["SSE_POLL"])
    lang = query.lang or request_lang()  # read now: the stream runs outside the request
    lifetime = float(current_app.config["SSE_LIFETIME"])
    release = STREAMS.open(request.remote_addr or "", int(current_app.config[
        "STREAMS_PER_CLIENT"]), int(current_app.config["STREAMS_TOTAL"]))
    # waitress says when the browser has gone (service/httpserver.py reads ahead for it): the
    # stream's slot is free at the next poll, not at the next keep-alive that fails to send
    gone = request.environ.get("waitress.client_disconnected") or (lambda: False)

    def stream() -> Iterator[str]:
        start = quiet = time.monotonic()
        try:
            yield "retry: 1000\n\n"
            yield from follow(start, quiet)
        finally:
            release()

    def follow(start: float, quiet: float) -> Iterator[str]:
        nonlocal last
        while True:
            with db.read() as conn:
                rows = gamelog.game_events(conn, game_id, after=last, limit=BATCH)
            for row in rows:
                yield event_text(row, lang)
                last = row.seq
            now = time.monotonic()
            if rows:
                quiet = now
                if len(rows) == BATCH:
                    continue
            if now - start >= lifetime or gone():
                return
            if now - quiet >= KEEP_ALIVE:
                quiet = now
                yield ": keep-alive\n\n"
            time.sleep(poll)

    response = Response(stream(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response.call_on_close(release)  # also when the stream never started
    return response
