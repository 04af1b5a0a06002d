"""HTTP to Scryfall in worker threads: one ``requests`` session, a disposable requests-cache store.

Everything here runs in worker threads and may block. What this layer guarantees:

* only answers that look like Scryfall's are stored (a JSON object with an ``object`` field; a
  200 that is not an error, or a 404 error object), so a truncated, HTML or empty answer is
  never cached, and such an entry found in the cache is evicted instead of served;
* a body is read against an overall deadline (not a per-read timeout, which a trickle never
  trips) and refused past ``max_body`` bytes while it streams;
* redirects are followed here, each hop through the rate limiter, at most ``MAX_REDIRECTS`` and
  only within the API's own origin;
* a damaged cache file is moved aside and replaced at start; a cache that fails later is a miss.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import requests
import requests_cache

from bot.scryfall.errors import ScryfallUnavailable
from bot.scryfall.limiter import RateLimiter

log = logging.getLogger(__name__)

ACCEPT = "application/json;q=0.9,*/*;q=0.8"
CACHE_FILE = "scryfall-cache.sqlite"
# The largest Scryfall object the bot asks for (a page of 175 cards) is well under 2 MB.
MAX_BODY_BYTES = 5 * 1024 * 1024
MAX_REDIRECTS = 3
REDIRECT_STATUSES = (301, 302, 303, 307, 308)
READ_CHUNK = 64 * 1024


class Paused(Exception):
    """A 429 arrived while this request waited for its slot; it was not sent."""


class DeadlineExceeded(ScryfallUnavailable):
    """The request ran past its overall deadline."""

    def __init__(self, details: str = "Scryfall did not answer in time.") -> None:
        super().__init__(details, timed_out=True)


@dataclass
class Raw:
    """One HTTP answer, decoded: ``data`` is the JSON value or None when the body was not JSON."""

    status: int
    data: Any
    headers: Mapping[str, str]
    from_cache: bool = False
    expired: bool = False


def decode(content: bytes) -> Any:
    try:
        return json.loads(content) if content else None
    except (ValueError, RecursionError):  # also UnicodeDecodeError; a body nested thousands deep
        return None


def is_real_answer(status: int, data: Any) -> bool:
    """Whether an answer is one of Scryfall's objects and means the same thing tomorrow."""
    if not isinstance(data, dict) or not isinstance(data.get("object"), str):
        return False
    items = data.get("data", [])
    if not isinstance(items, list):  # a list or catalog whose items are not a list
        return False
    if data["object"] == "list" and not all(isinstance(item, dict) for item in items):
        return False
    if status == 200:
        return data["object"] != "error"
    return status == 404 and data["object"] == "error"


def open_cache(path: Path | None) -> requests_cache.BaseCache:
    """The cache store at ``path`` (in memory for None). A file SQLite cannot use is moved aside."""
    if path is None:
        return requests_cache.BaseCache()
    try:
        _check_database(path)
        return requests_cache.SQLiteCache(path, wal=True)
    except (sqlite3.Error, OSError) as exc:
        aside = path.with_name(f"{path.name}.damaged-{int(time.time())}")
        log.warning("The Scryfall cache %s is unusable (%s); moving it to %s and starting afresh", path, exc, aside)
    try:
        for suffix in ("", "-wal", "-shm"):
            part = path.with_name(path.name + suffix)
            if part.exists():
                part.replace(aside.with_name(aside.name + suffix))
        return requests_cache.SQLiteCache(path, wal=True)
    except (sqlite3.Error, OSError):
        log.exception("No Scryfall cache on disk; answers are cached in memory until restart")
        return requests_cache.BaseCache()


def _check_database(path: Path) -> None:
    if not path.exists():
        return
    connection = sqlite3.connect(path)
    try:
        (result,) = connection.execute("PRAGMA quick_check").fetchone()
        if result != "ok":
            raise sqlite3.DatabaseError(f"quick_check: {result}")
    finally:
        connection.close()


class Transport:
    """Sends prepared requests (in a worker thread) and keeps the cache of well-formed answers."""

    def __init__(
        self,
        cache_path: Path | None,
        limiter: RateLimiter,
        *,
        user_agent: str,
        timeout: float,
        cache_hours: float,
        keep_days: float,
        max_body: int = MAX_BODY_BYTES,
        is_local: Callable[[str], bool] = lambda url: True,
    ) -> None:
        self.limiter = limiter
        self.timeout = timeout
        self.expire_after = timedelta(hours=cache_hours)
        self.keep = timedelta(days=max(keep_days, cache_hours / 24))
        self.max_body = max_body
        self.is_local = is_local
        self.cache = open_cache(cache_path)
        self.session = requests.Session()
        self.session.headers.update({"User-Agent": user_agent, "Accept": ACCEPT})

    # ------------------------------------------------------------------ cache

    def key(self, prepared: requests.PreparedRequest) -> str:
        return self.cache.create_key(prepared)

    def lookup(self, key: str) -> Raw | None:
        """A cached answer for ``key``, fresh or expired; a malformed entry is evicted."""
        try:
            response = self.cache.get_response(key)
            if response is None:
                return None
            data = decode(response.content)
            if not is_real_answer(response.status_code, data):
                log.warning("Evicting a malformed Scryfall cache entry (status %s)", response.status_code)
                self.cache.delete(key)
                return None
            return Raw(response.status_code, data, dict(response.headers), True, bool(response.is_expired))
        except Exception:  # a damaged cache is a cache miss, never a failed lookup
            log.warning("Could not read the Scryfall cache", exc_info=True)
            return None

    def store(self, key: str, response: requests.Response) -> None:
        try:
            self.cache.save_response(response, cache_key=key, expires=datetime.now(UTC) + self.expire_after)
        except Exception:
            log.warning("Could not write the Scryfall cache", exc_info=True)

    def prune(self) -> None:
        """Drop answers too old to be worth serving even stale, so the cache stays small."""
        try:
            self.cache.delete(older_than=self.keep)
        except Exception:
            log.warning("Could not prune the Scryfall cache", exc_info=True)

    # ------------------------------------------------------------------ HTTP

    def send(
        self,
        prepared: requests.PreparedRequest,
        klass: str,
        deadline: float,
        *,
        key: str | None = None,
        paused: Callable[[], float] = lambda: 0.0,
        timeout: float | None = None,
    ) -> Raw:
        """Send ``prepared``, following redirects, by ``deadline`` (``time.monotonic()``).

        Stores the answer under ``key`` when it is a real one. Raises Paused, DeadlineExceeded,
        ScryfallUnavailable (too big, redirect loop) or ``requests.RequestException``.
        """
        request = prepared.copy()
        for _hop in range(MAX_REDIRECTS + 1):
            self.limiter.guard(klass)
            if paused():
                raise Paused()
            response = self._send_one(request, deadline, self.timeout if timeout is None else timeout)
            location = response.headers.get("Location")
            if response.status_code not in REDIRECT_STATUSES or not location:
                data = decode(response.content)
                if key is not None and is_real_answer(response.status_code, data):
                    self.store(key, response)
                return Raw(response.status_code, data, dict(response.headers))
            target = urljoin(request.url or "", location)
            if not self.is_local(target):
                raise ScryfallUnavailable(f"Scryfall redirected outside its API: {target}")
            request = request.copy()
            if response.status_code in (301, 302, 303) and request.method == "POST":
                request.method, request.body = "GET", None
                request.headers.pop("Content-Length", None)
                request.headers.pop("Content-Type", None)
            request.prepare_url(target, None)
        raise ScryfallUnavailable(f"Scryfall redirected more than {MAX_REDIRECTS} times")

    def _send_one(self, request: requests.PreparedRequest, deadline: float, timeout: float) -> requests.Response:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise DeadlineExceeded()
        wait = min(timeout, remaining)
        response = self.session.send(request, timeout=(wait, wait), stream=True, allow_redirects=False)
        try:
            response._content = self._read_body(response, deadline)
        finally:
            response.close()
        return response

    def _read_body(self, response: requests.Response, deadline: float) -> bytes:
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.max_body:
            raise ScryfallUnavailable(f"Scryfall's answer is too large ({declared} bytes)")
        parts: list[bytes] = []
        size = 0
        while True:
            if time.monotonic() > deadline:
                raise DeadlineExceeded("Scryfall's answer arrived too slowly.")
            # read1 returns whatever one receive brings, so the deadline is checked between
            # trickled bytes instead of after a full buffer.
            chunk = response.raw.read1(READ_CHUNK, decode_content=True)
            if not chunk:
                return b"".join(parts)
            size += len(chunk)
            if size > self.max_body:
                raise ScryfallUnavailable(f"Scryfall's answer is larger than {self.max_body} bytes")
            parts.append(chunk)

    def close(self) -> None:
        self.session.close()
        try:
            self.cache.close()
        except Exception:
            log.warning("Could not close the Scryfall cache", exc_info=True)
