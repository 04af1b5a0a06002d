"""A fake of Wizards' rules-documents page on 127.0.0.1, and the PDFs it links.

The real page is a web app that keeps its documents in escaped JSON (``\\u002F`` for "/"), linking each PDF on
media.wizards.com; this one does the same with links to itself. ``routes`` maps a path to (status, content type,
body); ``page(links)`` builds the page for the given file paths.
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler

from tests.support.http_fake import ThreadedHTTPFake

PAGE = "/en/rules-documents"


class _Handler(BaseHTTPRequestHandler):
    server_fake: FakeJudgeDocs

    def do_GET(self):  # noqa: N802 (http.server's naming)
        status, headers, body = self.server_fake.respond(self.path)
        self.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class FakeJudgeDocs(ThreadedHTTPFake):
    thread_name = "fake-judge-docs"
    handler = _Handler

    def __init__(self) -> None:
        super().__init__()
        self.routes: dict[str, tuple[int, str, bytes]] = {}
        self.requested: list[str] = []

    def respond(self, path: str) -> tuple[int, dict[str, str], bytes]:
        """What a GET of ``path`` answers: a route's status, type and body; a redirect's body is its Location."""
        self.requested.append(path)
        status, content_type, body = self.routes.get(path, (404, "text/plain", b"not found"))
        if status in (301, 302):
            return status, {"Location": body.decode(), "Content-Type": content_type}, b""
        return status, {"Content-Type": content_type}, body

    @property
    def page_url(self) -> str:
        return self.base_url + PAGE

    def serve_page(self, *links: str) -> None:
        """The page, naming each link (a path on this fake, or a whole address) the way Wizards' app does."""
        documents = [
            {"title": link.rsplit("/", 1)[-1], "url": link if "://" in link else self.base_url + link} for link in links
        ]
        state = json.dumps({"downloadableDocument": documents}).replace("/", "\\u002F")
        html = (
            f'<!doctype html><html><body><div id="__nuxt"></div><script>window.__NUXT__={state}</script></body></html>'
        )
        self.routes[PAGE] = (200, "text/html; charset=utf-8", html.encode())

    def serve_pdf(self, path: str, data: bytes, content_type: str = "application/pdf") -> None:
        self.routes[path] = (200, content_type, data)
