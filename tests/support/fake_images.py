"""A fake card image host (Scryfall's ``cards.scryfall.io``) on 127.0.0.1: real JPEGs, and the ways it breaks.

Every path ending in ``.jpg`` is answered with a real JPEG of a small card's size (146×204), its colour
derived from the path, as ``image/jpeg`` with the caching headers the real host sends; anything else is a
404. ``mode`` scripts the host: ``"down"`` (503 with an HTML page, as a CDN in trouble answers),
``"slow"`` (waits ``slow_seconds`` before answering), ``"garbage"`` (200 ``image/jpeg`` whose body is not an
image), ``"truncated"`` (the first half of the JPEG), ``"trickle"`` (the JPEG at ``trickle_rate`` bytes a second,
its length declared), ``"endless"`` (200 ``image/jpeg`` without a length, zeros until the client hangs up).
``path_modes`` scripts some paths only (a part of the path → its mode). ``maker`` makes the image of a path
(:func:`card_jpeg` unless a test gives another, e.g. :func:`huge_jpeg`).
A request without a User-Agent is refused (400), as Scryfall asks for one. ``requests`` records each path and
its User-Agent.
"""

from __future__ import annotations

import hashlib
import io
import random
import threading
from collections.abc import Callable, Iterator
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


LARGEST = (2048, 2048)  # the most pixels the bot accepts for a card image
MOST_BYTES = 2 * 1024 * 1024  # and the most bytes


def huge_jpeg(path: str, size: tuple[int, int] = LARGEST, limit: int = MOST_BYTES) -> bytes:
    """A JPEG of ``size`` with detail everywhere, as close under ``limit`` bytes as a quality step gets it: the
    costliest image the bot accepts (the most pixels to decode, the most bytes to hold)."""
    rng = random.Random(path)
    coarse = Image.frombytes("RGB", (size[0] // 8, size[1] // 8), rng.randbytes(size[0] // 8 * (size[1] // 8) * 3))
    image = coarse.resize(size, Image.Resampling.BICUBIC)
    for quality in range(95, 10, -5):
        out = io.BytesIO()
        image.save(out, "JPEG", quality=quality)
        if out.tell() <= limit:
            return out.getvalue()
    raise ValueError(f"no JPEG of {size} fits in {limit} bytes")


def huge_png(path: str, size: tuple[int, int] = LARGEST) -> bytes:
    """A PNG of ``size`` that compresses to a few kilobytes: a format without a reduced decode, all pixels read."""
    digest = hashlib.sha256(path.encode()).digest()
    image = Image.new("RGBA", size, (digest[0], digest[1], digest[2], 255))
    ImageDraw.Draw(image).rectangle((40, 40, size[0] - 41, 200), fill=(250, 245, 230, 255))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


@dataclass(frozen=True)
class Stream:
    """A body sent as it is made: ``length`` declared, or None for one that ends when the connection does."""

    chunks: Iterator[bytes]
    length: int | None


@dataclass(frozen=True)
class ImageRequest:
    path: str
    user_agent: str


class FakeImageHost(ThreadedHTTPFake):
    thread_name = "fake-images"

    def __init__(
        self, *, slow_seconds: float = 3.0, trickle_rate: float = 1.0, maker: Callable[[str], bytes] = card_jpeg
    ) -> None:
        super().__init__()
        self.mode = "ok"
        self.path_modes: dict[str, str] = {}
        self.slow_seconds = slow_seconds
        self.trickle_rate = trickle_rate
        self.maker = maker
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

    def answer(self, path: str, user_agent: str) -> tuple[int, str, bytes | Stream]:
        with self._lock:
            self._requests.append(ImageRequest(path, user_agent))
            mode = next((mode for part, mode in self.path_modes.items() if part in path), self.mode)
        if not user_agent:
            return 400, "text/plain", b"A User-Agent header is required."
        if mode == "down":
            return 503, "text/html", b"<html><body><h1>503 Service Unavailable</h1></body></html>"
        if mode == "slow":
            self._stopping.wait(self.slow_seconds)
        if not path.split("?")[0].endswith(".jpg"):
            return 404, "text/html", b"<html><body>Not found</body></html>"
        if mode == "endless":
            return 200, "image/jpeg", Stream(self._endless(), None)
        data = self.maker(path.split("?")[0])
        if mode == "garbage":
            return 200, "image/jpeg", b"\x00garbage, not a JPEG\x00" * 64
        if mode == "truncated":
            return 200, "image/jpeg", data[: len(data) // 2]
        if mode == "trickle":
            return 200, "image/jpeg", Stream(self._trickle(data), len(data))

        return 200, "image/jpeg", data

    def _trickle(self, data: bytes) -> Iterator[bytes]:
        """``data`` a byte at a time, ``trickle_rate`` bytes a second."""
        for index in range(len(data)):
            if self._stopping.wait(1 / self.trickle_rate):
                return
            yield data[index : index + 1]

    def _endless(self) -> Iterator[bytes]:
        chunk = b"\x00" * 65536
        while not self._stopping.is_set():
            yield chunk


class _Handler(BaseHTTPRequestHandler):
    server_fake: FakeImageHost
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - silence the default stderr log
        pass

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        status, kind, body = self.server_fake.answer(self.path, self.headers.get("User-Agent", "").strip())
        stream = body if isinstance(body, Stream) else Stream(iter([body]), len(body))
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            if stream.length is not None:
                self.send_header("Content-Length", str(stream.length))
            else:  # no length: the body ends when the connection does
                self.send_header("Connection", "close")
                self.close_connection = True
            if status == 200:
                self.send_header("Cache-Control", "public, max-age=31536000")
            self.end_headers()
            for chunk in stream.chunks:
                self.wfile.write(chunk)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


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
