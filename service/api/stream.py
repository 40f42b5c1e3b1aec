"""The live event stream of a game (server-sent events), read from the event table.

Each open page follows the game whichever worker took the action: the stream polls the
`events` table for rows after the last one sent (every `SSE_POLL` seconds) and sends each as
`id: SEQ`, `event: action|undo`, `data: {...}`. A browser that reconnects sends
`Last-Event-ID` and the stream resumes after it; `?after=N` does the same by hand. A stream
closes after `SSE_LIFETIME` seconds (the browser reconnects by itself).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from apiflask import APIBlueprint
from flask import Response, current_app, request

from i18n import Message, note_text
from service.app import services
from service.errors import ApiError
from service.language import request_lang
from service.schemas import EventsQuery
from service.storage import gamelog

bp = APIBlueprint("stream", __name__, tag="Games")

KEEP_ALIVE = 15.0
STREAM_DOC: Any = {200: {"description": "an event stream", "content": {
    "text/event-stream": {"schema": {"type": "string"}}}}}
BATCH = 200


def _after(query: EventsQuery) -> int:
    header = request.headers.get("Last-Event-ID")
    if header is not None and header.strip():
        try:
            value = int(header.strip())
        except ValueError:
            raise ApiError(Message("service.stream.event_id", {"got": repr(header)}),
                           "Last-Event-ID") from None
        if value < 0:
            raise ApiError(Message("service.stream.event_id_negative", {"got": value}),
                           "Last-Event-ID")
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

    def stream() -> Iterator[str]:
        nonlocal last
        start = quiet = time.monotonic()
        yield "retry: 1000\n\n"
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
            if now - start >= lifetime:
                return
            if now - quiet >= KEEP_ALIVE:
                quiet = now
                yield ": keep-alive\n\n"
            time.sleep(poll)

    return Response(stream(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
