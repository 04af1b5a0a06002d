"""Card images: memory, then disk, then Scryfall's image host. The bot owns one :class:`CardImages`.

* Only the hosts it is given are asked (Scryfall's image host, which the card data names; in tests, the
  host of ``SCRYFALL_API_URL``), with the project's User-Agent, a few requests at a time, each against an
  overall deadline and a size cap. Redirects are not followed.
* An answer is kept only if Pillow reads it as an image: an HTML error page, a truncated body or garbage is
  a failure, remembered for ``retry_after`` seconds so a host that is down is not asked again at once.
* Images are kept on disk (a size cap, least recently used out, surviving a restart: a hit refreshes the
  file's time) and in memory (a byte cap, least recently used out). No image is fetched twice while cached,
  and one asked for twice at the same moment is fetched once.

:func:`image_url` picks a card's (or a face's) image from Scryfall's card data.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from PIL import Image

from bot import BOT_NAME, __version__

log = logging.getLogger(__name__)

IMAGE_HOST = "cards.scryfall.io"
DIRECTORY = "card-images"  # in the bot's data directory
SIZES = ("small", "normal")
FETCHERS = 4
TIMEOUT_SECONDS = 5.0
RETRY_AFTER_SECONDS = 300.0
MAX_IMAGE_BYTES = 2 * 1024 * 1024
MAX_IMAGE_PIXELS = 2048 * 2048
DISK_BYTES = 256 * 1024 * 1024
MEMORY_BYTES = 24 * 1024 * 1024
FAILURES_KEPT = 4096
SUFFIX = ".img"


def user_agent() -> str:
    return f"{BOT_NAME}/{__version__} (Discord bot for Magic: The Gathering players; card images)"


def image_url(
    image_uris: Mapping[str, str] | None, faces: Sequence[Mapping[str, Any]] = (), face: int = 0
) -> str | None:
    """The image of face ``face`` (its own image, for a double-faced card), else the card's; the smallest
    of :data:`SIZES` there is."""
    own = faces[face].get("image_uris") if 0 <= face < len(faces) else None
    for uris in (own, image_uris, *(f.get("image_uris") for f in faces)):
        for size in SIZES:
            if uris and isinstance(uris.get(size), str):
                return uris[size]
    return None


class ImageFailed(Exception):
    """The host did not give a usable image; ``str(e)`` says why (never the body)."""


class CardImages:
    """``await images.get_many(urls)`` → the bytes of each URL it has or could fetch (the others are left out)."""

    def __init__(
        self,
        directory: Path,
        hosts: Iterable[str],
        *,
        disk_bytes: int = DISK_BYTES,
        memory_bytes: int = MEMORY_BYTES,
        fetchers: int = FETCHERS,
        timeout: float = TIMEOUT_SECONDS,
        retry_after: float = RETRY_AFTER_SECONDS,
        max_bytes: int = MAX_IMAGE_BYTES,
    ) -> None:
        self.directory = Path(directory)
        self.hosts = frozenset(host.lower() for host in hosts)
        self.disk_bytes = disk_bytes
        self.memory_bytes = memory_bytes
        self.timeout = timeout
        self.retry_after = retry_after
        self.max_bytes = max_bytes
        self.fetched = 0  # requests sent to the host, for tests and benchmarks
        self._memory: OrderedDict[str, bytes] = OrderedDict()
        self._memory_size = 0
        self._disk: OrderedDict[str, int] = OrderedDict()  # file name → size, least recently used first
        self._disk_size = 0
        self._disk_lock = threading.Lock()
        self._failed: OrderedDict[str, float] = OrderedDict()
        self._inflight: dict[str, asyncio.Future[bytes | None]] = {}
        self._pool = ThreadPoolExecutor(fetchers, thread_name_prefix="card-images")
        self._local = threading.local()

    @classmethod
    async def open(cls, directory: Path, api_url: str, **options: Any) -> CardImages:
        """The cache in ``directory`` (made if missing), asking Scryfall's image host and ``api_url``'s host."""
        images = cls(directory, (IMAGE_HOST, urlsplit(api_url).netloc), **options)
        await asyncio.to_thread(images._scan)
        return images

    async def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ lookups

    def allowed(self, url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in ("http", "https") and parts.netloc.lower() in self.hosts

    def cached(self, url: str) -> bytes | None:
        """From memory only (no disk, no network): what a render can use at once."""
        data = self._memory.get(url)
        if data is not None:
            self._memory.move_to_end(url)
        return data

    async def get_many(self, urls: Iterable[str]) -> dict[str, bytes]:
        """Each URL's image, from memory, disk or the host; a URL not allowed, failing or failed lately is left
        out (asked again once ``retry_after`` has passed)."""
        wanted = list(dict.fromkeys(urls))
        found = {url: data for url in wanted if (data := self.cached(url)) is not None}
        missing = [url for url in wanted if url not in found and self.allowed(url) and not self._failing(url)]
        if missing:
            results = await asyncio.gather(*(self._get(url) for url in missing))
            found.update((url, data) for url, data in zip(missing, results, strict=True) if data is not None)
        return found

    def _failing(self, url: str) -> bool:
        until = self._failed.get(url)
        if until is None:
            return False
        if time.monotonic() < until:
            return True
        del self._failed[url]
        return False

    async def _get(self, url: str) -> bytes | None:
        task = self._inflight.get(url)
        if task is None:
            task = self._inflight[url] = asyncio.ensure_future(self._get_now(url))
            task.add_done_callback(lambda _: self._inflight.pop(url, None))
        return await asyncio.shield(task)

    async def _get_now(self, url: str) -> bytes | None:
        try:
            data = await asyncio.get_running_loop().run_in_executor(self._pool, self._load, url)
        except ImageFailed as failure:
            log.info("Card image not available (%s): %s", urlsplit(url).path, failure)
            self._failed[url] = time.monotonic() + self.retry_after
            while len(self._failed) > FAILURES_KEPT:
                self._failed.popitem(last=False)
            return None
        except RuntimeError:  # the pool was shut down by close()
            return None
        self._remember(url, data)
        return data

    def _remember(self, url: str, data: bytes) -> None:
        if url not in self._memory:
            self._memory[url] = data
            self._memory_size += len(data)
        while self._memory_size > self.memory_bytes and len(self._memory) > 1:
            _, old = self._memory.popitem(last=False)
            self._memory_size -= len(old)

    # ------------------------------------------------------------------ disk and host (worker threads)

    @staticmethod
    def file_name(url: str) -> str:
        return hashlib.sha256(url.encode()).hexdigest() + SUFFIX

    def _scan(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        found = []
        for entry in os.scandir(self.directory):
            if entry.name.endswith(SUFFIX) and entry.is_file():
                stat = entry.stat()
                found.append((stat.st_mtime, entry.name, stat.st_size))
            elif entry.name.endswith(".part"):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        with self._disk_lock:
            for _, name, size in sorted(found):
                self._disk[name] = size
                self._disk_size += size
        self._evict()

    def _load(self, url: str) -> bytes:
        name = self.file_name(url)
        path = self.directory / name
        with self._disk_lock:
            known = name in self._disk
            if known:
                self._disk.move_to_end(name)
        if known:
            try:
                data = path.read_bytes()
                os.utime(path)  # the least recently used order survives a restart
                return data
            except OSError:
                self._forget(name)
        data = self._fetch(url)
        self._store(name, data)
        return data

    def _session(self) -> requests.Session:
        session = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = requests.Session()
            session.headers.update({"User-Agent": user_agent(), "Accept": "image/*"})
        return session

    def _fetch(self, url: str) -> bytes:
        self.fetched += 1
        deadline = time.monotonic() + self.timeout
        try:
            with self._session().get(url, timeout=self.timeout, stream=True, allow_redirects=False) as response:
                if response.status_code != 200:
                    raise ImageFailed(f"HTTP {response.status_code}")
                body = bytearray()
                for chunk in response.iter_content(64 * 1024):
                    body += chunk
                    if len(body) > self.max_bytes:
                        raise ImageFailed(f"more than {self.max_bytes} bytes")
                    if time.monotonic() > deadline:
                        raise ImageFailed("too slow")
        except requests.RequestException as error:
            raise ImageFailed(type(error).__name__) from None
        data = bytes(body)
        check_image(data)
        return data

    def _store(self, name: str, data: bytes) -> None:
        path = self.directory / name
        part = path.with_suffix(".part")
        try:
            part.write_bytes(data)
            os.replace(part, path)
        except OSError as error:
            log.warning("Could not keep a card image on disk: %s", error)
            return
        with self._disk_lock:
            if name not in self._disk:
                self._disk[name] = len(data)
                self._disk_size += len(data)
        self._evict()

    def _forget(self, name: str) -> None:
        with self._disk_lock:
            size = self._disk.pop(name, None)
            if size is not None:
                self._disk_size -= size

    def _evict(self) -> None:
        while True:
            with self._disk_lock:
                if self._disk_size <= self.disk_bytes or not self._disk:
                    return
                name, size = self._disk.popitem(last=False)
                self._disk_size -= size
            with contextlib.suppress(OSError):
                os.unlink(self.directory / name)

    @property
    def disk_size(self) -> int:
        return self._disk_size


def check_image(data: bytes) -> None:
    """Raise :class:`ImageFailed` unless ``data`` is a whole image Pillow reads, of a card's sensible size."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.width * image.height > MAX_IMAGE_PIXELS:
                raise ImageFailed(f"{image.width}×{image.height} pixels is not a card image")
            image.load()
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as error:
        raise ImageFailed(f"not an image ({type(error).__name__})") from None
