"""The lifecycle the tests' fake HTTP services share: a threading server on 127.0.0.1, started and stopped."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self


class ThreadedHTTPFake:
    """Serves ``handler`` (a request handler class whose ``server_fake`` attribute is set to this fake) on a free
    port of 127.0.0.1 from a daemon thread; ``base_url`` says where. ``with fake:`` starts and stops it."""

    thread_name = "fake-http"
    handler: type[BaseHTTPRequestHandler]

    def __init__(self) -> None:
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""

    def start(self) -> Self:
        # TCP_NODELAY, as real web servers set: a response's headers and body go out as separate writes, and with
        # Nagle's algorithm each keep-alive request would wait out the client's delayed ACK (about 40 ms).
        handler = type("Handler", (self.handler,), {"server_fake": self, "disable_nagle_algorithm": True})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        host, port = self._server.server_address[:2]
        self.base_url = f"http://{host}:{port}"
        self.started()
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name=self.thread_name, daemon=True
        )
        self._thread.start()
        return self

    def started(self) -> None:
        """Called once ``base_url`` is known, before the first request can arrive."""

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
