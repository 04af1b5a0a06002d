"""A web host on 127.0.0.1 that answers as a hostile or broken one does: bodies of hundreds of megabytes (made as
they are sent, never held), a body dripping a byte every few seconds, redirects anywhere. ``host.routes[path]`` is
one of :class:`Body`, :class:`Huge`, :class:`Drip` or :class:`Redirect`; ``host.requested`` lists the paths asked for.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler

from tests.support.http_fake import ThreadedHTTPFake

CHUNK = 64 * 1024


@dataclass(frozen=True)
class Body:
    data: bytes
    content_type: str = "text/plain"
    status: int = 200


@dataclass(frozen=True)
class Huge:
    """``size`` bytes of ``filler``; the length declared up front when ``declared``."""

    size: int
    declared: bool = False
    content_type: str = "text/plain"
    filler: bytes = b"702.29a Cycling is an activated ability. "


@dataclass(frozen=True)
class Drip:
    """``data`` one byte every ``seconds``, its length declared (a slow host, not a broken one)."""

    data: bytes
    seconds: float = 5.0
    content_type: str = "text/plain"


@dataclass(frozen=True)
class Redirect:
    location: str
    status: int = 302


class HostileHost(ThreadedHTTPFake):
    thread_name = "hostile-host"

    def __init__(self) -> None:
        super().__init__()
        self.routes: dict[str, Body | Huge | Drip | Redirect] = {}
        self.requested: list[str] = []
        self.stopping = threading.Event()

    @property
    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _Handler

    def stop(self) -> None:
        self.stopping.set()
        super().stop()


class _Handler(BaseHTTPRequestHandler):
    server_fake: HostileHost
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        host = self.server_fake
        host.requested.append(self.path)
        answer = host.routes.get(self.path, Body(b"not found", status=404))
        try:
            if isinstance(answer, Redirect):
                self._head(answer.status, "text/plain", 0, Location=answer.location)
            elif isinstance(answer, Body):
                self._head(answer.status, answer.content_type, len(answer.data))
                self.wfile.write(answer.data)
            elif isinstance(answer, Huge):
                self._head(200, answer.content_type, answer.size if answer.declared else None)
                chunk = (answer.filler * (CHUNK // len(answer.filler) + 1))[:CHUNK]
                for _ in range(answer.size // CHUNK):
                    self.wfile.write(chunk)
            else:
                self._head(200, answer.content_type, len(answer.data))
                for byte in answer.data:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    if host.stopping.wait(answer.seconds):
                        return
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up on it: what the tests want
        self.close_connection = True

    def _head(self, status: int, content_type: str, length: int | None, **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.send_header("Connection", "close")
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
