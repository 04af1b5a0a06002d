"""Discord's CDN for simcord, served on 127.0.0.1: the files players attach to a command are read by the bot from the
URL the interaction's resolved attachment gives, over HTTP, as from Discord's CDN.

simcord keeps attached files in memory under addresses on a host that does not exist; with :class:`SimcordCdn`
(``cdn.serve(env)``, and the attachments made while it runs) they are addressed on this server, which answers each
with its bytes (``requested`` lists the paths asked for). The bot allows the host of ``api_base`` (what
``DISCORD_API_BASE`` says: a Discord that isn't Discord serves its own files).
"""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import unquote

import simcord.backend.cdn

from tests.support.http_fake import ThreadedHTTPFake


class SimcordCdn(ThreadedHTTPFake):
    thread_name = "fake-cdn"

    def __init__(self) -> None:
        super().__init__()
        self.store: Any = None
        self.requested: list[str] = []
        self._base = simcord.backend.cdn.CDN_BASE

    @property
    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _Handler

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    def started(self) -> None:
        simcord.backend.cdn.CDN_BASE = self.base_url

    def serve(self, env) -> None:
        self.store = env.backend.cdn

    def stop(self) -> None:
        simcord.backend.cdn.CDN_BASE = self._base
        super().stop()


class _Handler(BaseHTTPRequestHandler):
    server_fake: SimcordCdn
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        cdn = self.server_fake
        cdn.requested.append(self.path)
        data = cdn.store.get(cdn.base_url + unquote(self.path)) if cdn.store is not None else None
        self.send_response(200 if data is not None else 404)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data or b"")))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data or b"")
        self.close_connection = True
