"""Card images: memory, then disk, then Scryfall's image host. The bot owns one :class:`CardImages`.

* Only the hosts it is given are asked (Scryfall's image host, which the card data names, and the configured API's:
  each a host with its port, see :mod:`bot.hosts.origins`), with the project's User-Agent, a few requests at a time (one
  :meth:`CardImages.get_many` on all but one of them at most, so a picture whose images come slowly never
  makes another picture wait for a fetcher). Each request ends
  (:mod:`bot.hosts.download`): within ``timeout`` seconds in all, dropped when its body falls below ``min_rate``
  bytes a second after ``grace`` seconds, and at ``max_bytes``. A host trickling a byte a second holds a
  fetcher for about ``grace`` seconds, not for the length of the image in seconds. Redirects are not followed.
* An answer is kept only if it is an image of a card's sensible size (:func:`bot.hosts.imaging.check_image`, the
  bot's own pixel limit): an HTML error page, a truncated body or garbage is a failure, remembered for
  ``retry_after`` seconds so a host that is down is not asked again at once.
* Images are kept on disk (a size cap, least recently used out, surviving a restart: a hit refreshes the
  file's time) and in memory (a byte cap, least recently used out), both keyed by address. No image is fetched
  twice while cached, and one asked for twice at the same moment is fetched once.

:func:`image_url` picks a card's (or a face's) image from Scryfall's card data.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
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

from bot import BOT_NAME, __version__
from bot.hosts.download import Downloader, DownloadFailed, Limits, check_host
from bot.hosts.imaging import MAX_IMAGE_PIXELS, NotACardImage, check_image
from bot.hosts.kept import Kept
from bot.hosts.origins import CARD_IMAGES, from_scryfall
from bot.serving import Lanes, Limit

log = logging.getLogger(__name__)

DIRECTORY = "card-images"  # in the bot's data directory
SIZES = ("small", "normal")
FETCHERS = 4
TIMEOUT_SECONDS = 5.0
MIN_RATE = 16 * 1024  # bytes a second, on average from the start, once the grace period is over
GRACE_SECONDS = 2.0  # a host may take a moment to start answering; after that it must keep up
RETRY_AFTER_SECONDS = 300.0
MAX_IMAGE_BYTES = 2 * 1024 * 1024
DISK_BYTES = 256 * 1024 * 1024
MEMORY_BYTES = 8 * 1024 * 1024  # Scryfall's small images are about 10 kB: hundreds of them; the disk holds the rest
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
        min_rate: float = MIN_RATE,
        grace: float = GRACE_SECONDS,
        retry_after: float = RETRY_AFTER_SECONDS,
        max_bytes: int = MAX_IMAGE_BYTES,
    ) -> None:
        self.directory = Path(directory)
        self.hosts = frozenset(host.lower() for host in hosts)
        self.disk_bytes = disk_bytes
        self.memory_bytes = memory_bytes
        self.timeout = timeout
        self.min_rate = min_rate
        self.grace = grace
        self.retry_after = retry_after
        self.max_bytes = max_bytes
        self.fetched = 0  # requests sent to the host, for tests and benchmarks
        self._memory: Kept[str, bytes] = Kept(memory_bytes, len)
        self._disk: OrderedDict[str, int] = OrderedDict()  # file name → size, least recently used first
        self._disk_size = 0
        self._disk_lock = threading.Lock()
        self._failed: OrderedDict[str, float] = OrderedDict()
        self._inflight: dict[str, asyncio.Future[bytes | None]] = {}
        self._pool = ThreadPoolExecutor(fetchers, thread_name_prefix="card-images")  # the disk, and checking images
        # One asking (a picture's images) fetches on all but one of the fetchers at most: however slow its host,
        # another picture's images find a fetcher at once rather than queue behind all of them.
        self._fetchers = Lanes(fetchers)
        self._per_asking = max(1, fetchers - 1)
        headers = {"User-Agent": user_agent(), "Accept": "image/*"}
        self._downloader = Downloader(headers, name="card-image-downloads", allowed_hosts=self.hosts)

    @classmethod
    async def open(cls, directory: Path, api_url: str, **options: Any) -> CardImages:
        """The cache in ``directory`` (made if missing), asking Scryfall's image host and ``api_url``'s host."""
        images = cls(directory, from_scryfall(CARD_IMAGES, api_url), **options)
        await asyncio.to_thread(images._scan)
        return images

    async def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self._downloader.close)

    # ------------------------------------------------------------------ lookups

    def allowed(self, url: str) -> bool:
        """Whether ``url`` is on one of the hosts (host and port) this cache asks."""
        try:
            check_host(url, self.hosts)
        except DownloadFailed:
            return False
        return True

    def cached(self, url: str) -> bytes | None:
        """From memory only (no disk, no network): what a render can use at once."""
        return self._memory.get(url)

    async def get_many(self, urls: Iterable[str]) -> dict[str, bytes]:
        """Each URL's image, from memory, disk or the host; a URL not allowed, failing or failed lately is left
        out (asked again once ``retry_after`` has passed)."""
        wanted = list(dict.fromkeys(urls))
        found = {url: data for url in wanted if (data := self.cached(url)) is not None}
        missing = [url for url in wanted if url not in found and self.allowed(url) and not self._failing(url)]
        if missing:
            asking: Limit = (object(), self._per_asking)  # this call's own lane among the fetchers
            results = await asyncio.gather(*(self._get(url, asking) for url in missing))
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

    async def _get(self, url: str, asking: Limit) -> bytes | None:
        task = self._inflight.get(url)
        if task is None:
            task = self._inflight[url] = asyncio.ensure_future(self._get_now(url, asking))
            task.add_done_callback(lambda _: self._inflight.pop(url, None))
        return await asyncio.shield(task)

    async def _get_now(self, url: str, asking: Limit) -> bytes | None:
        loop = asyncio.get_running_loop()
        name = self.file_name(url)
        try:
            data = await loop.run_in_executor(self._pool, self._from_disk, name)
            if data is None:
                async with self._fetchers.lane(asking):
                    data = await self._fetch(url)
                await loop.run_in_executor(self._pool, self._accept, name, data)
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
        self._memory.put(url, data)

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

    def _from_disk(self, name: str) -> bytes | None:
        """The image kept on disk under ``name``, or None."""
        path = self.directory / name
        with self._disk_lock:
            known = name in self._disk
            if known:
                self._disk.move_to_end(name)
        if not known:
            return None
        try:
            data = path.read_bytes()
            os.utime(path)  # the least recently used order survives a restart
            return data
        except OSError:
            self._forget(name)
            return None

    def _limits(self) -> Limits:
        return Limits(deadline=self.timeout, min_rate=self.min_rate, grace=self.grace, max_bytes=self.max_bytes)

    async def _fetch(self, url: str) -> bytes:
        self.fetched += 1
        try:
            return await self._downloader.get_async(url, self._limits(), allow_redirects=False)
        except DownloadFailed as failure:
            raise ImageFailed(str(failure)) from None

    def _accept(self, name: str, data: bytes) -> None:
        """Keep ``data`` on disk if it is a card image (a worker thread: checking it decodes it)."""
        try:
            check_image(data)
        except NotACardImage as error:
            raise ImageFailed(str(error)) from None
        self._store(name, data)

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


__all__ = ["MAX_IMAGE_PIXELS", "CardImages", "ImageFailed", "image_url", "user_agent"]
