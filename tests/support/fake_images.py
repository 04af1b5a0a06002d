"""A fake card image host (Scryfall's ``cards.scryfall.io``) on 127.0.0.1: real JPEGs, and the ways it breaks.

Every path ending in ``.jpg`` is answered with a real JPEG of a small card's size (146×204), its colour
derived from the path, as ``image/jpeg`` with the caching headers the real host sends; anything else is a
404. ``mode`` scripts the host: ``"down"`` (503 with an HTML page, as a CDN in trouble answers),
``"slow"`` (waits ``slow_seconds`` before answering), ``"garbage"`` (200 ``image/jpeg`` whose body is not an
image), ``"truncated"`` (the first half of the JPEG). A request without a User-Agent is refused (400), as
Scryfall asks for one. ``requests`` records each path and its User-Agent.
"""

from __future__ import annotations

import hashlib
import io
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from PIL import Image, ImageDraw

from tests.support.http_fake import ThreadedHTTPFake

SMALL = (146, 204)
# Where the sample's image addresses point: Scryfall's image host, and its former one for older cards.
REAL_HOSTS = ("https://cards.scryfall.io", "https://img.scryfall.com/cards")


def card_jpeg(path: str, size: tuple[int, int] = SMALL) -> bytes:
    """The JPEG the fake serves for ``path``: a plain card-sized picture whose colour comes from the path."""
    digest = hashlib.sha256(path.encode()).digest()
    image = Image.new("RGB", size, (digest[0], digest[1], digest[2]))
    ImageDraw.Draw(image).rectangle((6, 6, size[0] - 7, 26), fill=(250, 245, 230))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


@dataclass(frozen=True)
class ImageRequest:
    path: str
    user_agent: str


class FakeImageHost(ThreadedHTTPFake):
    thread_name = "fake-images"

    def __init__(self, *, slow_seconds: float = 3.0) -> None:
        super().__init__()
        self.mode = "ok"
        self.slow_seconds = slow_seconds
        self._lock = threading.Lock()
        self._requests: list[ImageRequest] = []
        self._stopping = threading.Event()

    @property
    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _Handler

    @property
    def requests(self) -> list[ImageRequest]:
        with self._lock:
            return list(self._requests)

    def stop(self) -> None:
        self._stopping.set()
        super().stop()

    def url(self, slug: str, size: str = "small") -> str:
        """An image address in the real host's shape, on this fake."""
        return f"{self.base_url}/{size}/front/f/0/{slug}.jpg?1700000000"

    def answer(self, path: str, user_agent: str) -> tuple[int, str, bytes]:
        with self._lock:
            self._requests.append(ImageRequest(path, user_agent))
            mode = self.mode
        if not user_agent:
            return 400, "text/plain", b"A User-Agent header is required."
        if mode == "down":
            return 503, "text/html", b"<html><body><h1>503 Service Unavailable</h1></body></html>"
        if mode == "slow":
            self._stopping.wait(self.slow_seconds)
        if not path.split("?")[0].endswith(".jpg"):
            return 404, "text/html", b"<html><body>Not found</body></html>"
        data = card_jpeg(path.split("?")[0])
        if mode == "garbage":
            return 200, "image/jpeg", b"\x00garbage, not a JPEG\x00" * 64
        if mode == "truncated":
            return 200, "image/jpeg", data[: len(data) // 2]
        return 200, "image/jpeg", data


class _Handler(BaseHTTPRequestHandler):
    server_fake: FakeImageHost
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - silence the default stderr log
        pass

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        status, kind, body = self.server_fake.answer(self.path, self.headers.get("User-Agent", "").strip())
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            if status == 200:
                self.send_header("Cache-Control", "public, max-age=31536000")
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


def import_cards_on(host: FakeImageHost, data_dir: Path) -> None:
    """Import the sample cards as the bot's local card data in ``data_dir``, their image addresses moved onto
    ``host`` (as the real data names Scryfall's image host)."""
    from bot.carddb.service import FILE_NAME
    from bot.carddb.update import update_from_file
    from tests.data import SCRYFALL_CARDS

    bulk = Path(data_dir) / "sample-cards.jsonl"
    with SCRYFALL_CARDS.open(encoding="utf-8") as source, bulk.open("w", encoding="utf-8") as out:
        for line in source:
            for real in REAL_HOSTS:
                line = line.replace(real, host.base_url)
            out.write(line)
    try:
        update_from_file(Path(data_dir) / FILE_NAME, bulk)
    finally:
        bulk.unlink()
