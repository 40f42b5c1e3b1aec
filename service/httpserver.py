"""The server `survive-us serve` runs: waitress, guarded against slow and malformed clients.

Waitress reads every request whole on one I/O thread (asyncore) before a worker thread sees
it, so a slow client costs a socket, not a thread. Its defaults still let a few clients shut
everyone out (issue 17, measured): 100 half-sent requests reach its `connection_limit` and it
stops accepting; nothing bounds how long a request may take to arrive, as long as a byte comes
now and then; a chunked body whose size line never ends is re-scanned from its start at every
read (quadratic, the I/O thread at 100% CPU). The guards here:

- a request's headers must arrive within `HEADER_SECONDS` and its body at `MIN_BODY_RATE`
  on average after a grace of `BODY_GRACE` seconds; a slower one is closed;
- one address may hold `PER_CLIENT_CONNECTIONS` connections; more are closed at once;
- a chunk's size line may be `MAX_CONTROL_LINE` bytes, a chunked body's trailer
  `MAX_TRAILER` (400 beyond);
- `connection_limit` 1000 with `poll()` rather than `select()` (no 1024-descriptor ceiling),
  bodies of at most `MAX_REQUEST_BODY` (the camera's 25 MB and a form's overhead; the app
  holds JSON routes to 1 MB), headers of at most 64 KB, idle keep-alive connections closed
  after 60 s, and the guards checked every second.

Event streams hold a worker thread each: the app caps them (service/api/stream.py) at half
the threads, so the other requests always find one, and ends one as soon as waitress sees its
connection closed (`channel_request_lookahead`: the connection is read while its request runs).
"""

from __future__ import annotations

import os
import time
from typing import Any

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.receiver import ChunkedReceiver
from waitress.server import TcpWSGIServer
from waitress.utilities import BadRequest

__all__ = ["make_server", "SETTINGS", "HEADER_SECONDS", "MIN_BODY_RATE", "BODY_GRACE",
           "PER_CLIENT_CONNECTIONS", "MAX_CONTROL_LINE", "MAX_TRAILER", "MAX_REQUEST_BODY"]

# SURVIVE_US_HEADER_SECONDS shortens the deadline (the attack tests wait seconds, not 15)
HEADER_SECONDS = float(os.environ.get("SURVIVE_US_HEADER_SECONDS", "15"))
BODY_GRACE = 15.0
MIN_BODY_RATE = 16 * 1024  # bytes a second: 25 MB in 27 minutes; a phone sends it in seconds
PER_CLIENT_CONNECTIONS = 64  # a browser opens 6 to a server; a club behind one address more
MAX_CONTROL_LINE = 1024  # waitress's own commented-out bound
MAX_TRAILER = 8192
MAX_REQUEST_BODY = 26 * 1024 * 1024

#: waitress's settings (its Adjustments) for `survive-us serve`.
SETTINGS: dict[str, Any] = {
    "connection_limit": 1000, "asyncore_use_poll": True, "channel_timeout": 60,
    "cleanup_interval": 1, "max_request_body_size": MAX_REQUEST_BODY,
    # a connection stays read while its request runs, so a closed one is seen at once: an
    # event stream ends when its browser goes (service/api/stream.py), not up to a minute on
    "channel_request_lookahead": 1,
    "max_request_header_size": 64 * 1024, "ident": "survive-us",
}


class GuardedParser(HTTPRequestParser):  # type: ignore[misc]
    """Waitress's parser, with a chunked body's size lines and trailer bounded."""

    def received(self, data: bytes) -> int:
        consumed: int = super().received(data)
        body = self.body_rcv
        if not getattr(self, "completed", False) and isinstance(body, ChunkedReceiver) and (
                len(body.control_line) > MAX_CONTROL_LINE or len(body.trailer) > MAX_TRAILER):
            self.error = BadRequest("a chunk's size line or the trailer is too long")
            self.completed = True
        return consumed


class GuardedChannel(HTTPChannel):  # type: ignore[misc]
    """A connection that remembers when its current request began to arrive."""

    parser_class = GuardedParser
    _timed: Any = None
    _started = 0.0

    def received(self, data: bytes) -> bool:
        result: bool = super().received(data)
        if self.request is not None and self.request is not self._timed:
            self._timed, self._started = self.request, time.monotonic()
        elif self.request is None:
            self._timed = None
        return result

    def too_slow(self, now: float) -> bool:
        """Whether the request being received is late: headers after HEADER_SECONDS, a
        body slower than MIN_BODY_RATE after the grace."""
        request = self.request
        if request is None or request is not self._timed or request.completed:
            return False
        elapsed = now - self._started
        if not request.headers_finished:
            return elapsed > HEADER_SECONDS
        size = max(int(request.content_length or 0), int(request.body_bytes_received or 0))
        return elapsed > HEADER_SECONDS + BODY_GRACE + size / MIN_BODY_RATE


class GuardedServer(TcpWSGIServer):  # type: ignore[misc]
    """Waitress's TCP server with the guards of the module docstring."""

    channel_class = GuardedChannel

    def maintenance(self, now: float) -> None:
        super().maintenance(now)  # idle keep-alive connections (channel_timeout)
        clock = time.monotonic()
        for channel in list(self.active_channels.values()):
            if isinstance(channel, GuardedChannel) and channel.too_slow(clock):
                channel.will_close = True

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
        except OSError:
            return
        if accepted is None:
            return
        conn, addr = accepted
        host = addr[0] if isinstance(addr, tuple) else addr
        held = sum(1 for c in self.active_channels.values()
                   if isinstance(c.addr, tuple) and c.addr[0] == host)
        if held >= PER_CLIENT_CONNECTIONS:
            conn.close()
            return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)


def make_server(app: Any, host: str, port: int, threads: int) -> GuardedServer:
    """The guarded server for `app`, listening (run it with `.run()`)."""
    from waitress.adjustments import Adjustments

    adj = Adjustments(host=host, port=port, threads=threads, **SETTINGS)
    return GuardedServer(app, adj=adj)
