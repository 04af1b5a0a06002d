"""A fake OpenAI-compatible chat endpoint on 127.0.0.1, with scripted replies (see bot/rules/ranking/picker.py).

Each request takes the next scripted reply (the last one repeats): a pick (``{"rules": [...], "sure": ...}``)
sent as a chat completion, an HTTP error, a body of bytes as it is (bad JSON, a huge reply), or a pick sent
after a delay (slower than the bot waits). Any of them may come in ``pieces``, ``pause`` seconds apart, as a server
that streams or a proxy that re-chunks sends them, with its length declared or (``declared=False``) not, the body
then ending when the connection closes. As a real server does, it answers only POST to ``/v1/chat/completions`` and
checks the bearer key when one is set. Every request's headers and JSON are kept.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler

from tests.support.http_fake import ThreadedHTTPFake


@dataclass(frozen=True)
class Scripted:
    pick: dict | None = None  # the message content as JSON (a dict), or ``content`` as a string
    content: str | None = None
    status: int = 200
    body: bytes | None = None  # sent as it is
    delay: float = 0.0
    pieces: int = 1  # the body sent in this many pieces, each flushed on its own
    pause: float = 0.0  # seconds between two pieces
    declared: bool = True  # a Content-Length header (else the body ends when the connection closes)


def completion(content: str) -> dict:
    """A chat completion as OpenAI-compatible servers send it."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


class _Handler(BaseHTTPRequestHandler):
    server_fake: FakeLLM

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self._send(405, b'{"error": "method not allowed"}')

    def do_POST(self) -> None:  # noqa: N802
        fake = self.server_fake
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        with fake.lock:
            fake.requests.append({"path": self.path, "headers": dict(self.headers), "json": body})
            scripted = fake.script[min(len(fake.requests) - 1, len(fake.script) - 1)]
        if self.path != "/v1/chat/completions":
            self._send(404, b'{"error": "not found"}')
            return
        if fake.key and self.headers.get("Authorization") != f"Bearer {fake.key}":
            self._send(401, b'{"error": "invalid api key"}')
            return
        if scripted.delay:
            time.sleep(scripted.delay)
        if scripted.body is not None:
            self._send(scripted.status, scripted.body, scripted)
            return
        if scripted.status != 200:
            self._send(scripted.status, b'{"error": {"message": "internal error"}}')
            return
        content = scripted.content if scripted.content is not None else json.dumps(scripted.pick)
        self._send(200, json.dumps(completion(content)).encode(), scripted)

    def _send(self, status: int, body: bytes, scripted: Scripted | None = None) -> None:
        pieces, pause, declared = (scripted.pieces, scripted.pause, scripted.declared) if scripted else (1, 0.0, True)
        size = -(-len(body) // max(1, pieces))
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            if declared:
                self.send_header("Content-Length", str(len(body)))
            else:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            for start in range(0, len(body), size or 1):
                if start and pause:
                    time.sleep(pause)
                self.wfile.write(body[start : start + size])
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the bot stopped waiting


class FakeLLM(ThreadedHTTPFake):
    thread_name = "fake-llm"
    handler = _Handler

    def __init__(self, *script: Scripted, key: str = "") -> None:
        super().__init__()
        self.script = list(script) or [Scripted(pick={"rules": [], "sure": False})]
        self.key = key
        self.requests: list[dict] = []
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"{self.base_url}/v1"
