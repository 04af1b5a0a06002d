"""An asyncio-friendly Scryfall client that keeps to Scryfall's published etiquette.

* One ``requests`` session with a requests-cache SQLite cache; every HTTP call runs in a
  worker thread, so a slow Scryfall never stalls the event loop.
* ``User-Agent`` (bot name and version) and ``Accept`` headers on every request.
* Rate limits shared by every caller: the "search class" (``/cards/search``, ``/cards/named``,
  ``/cards/random``, ``/cards/collection``) at most 2 requests a second, everything at most
  10 a second. Cache hits are answered before the limiter and cost no budget.
* A 429 pauses its endpoint class for ``max(pause_seconds, Retry-After)`` and is never retried;
  timeouts, network errors and 5xx answers are retried a bounded number of times with
  exponential backoff. When Scryfall cannot answer, a cached (possibly expired) answer is served
  and marked ``stale``.
* Identical requests in flight at the same moment share one upstream call.

See https://scryfall.com/docs/api for the objects returned.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import requests
import requests_cache

from bot import BOT_NAME, __version__

log = logging.getLogger(__name__)

SCRYFALL_API_HOST = "api.scryfall.com"
ACCEPT = "application/json;q=0.9,*/*;q=0.8"
CACHE_FILE = "scryfall-cache.sqlite"

SEARCH_CLASS = "search"
OTHER_CLASS = "other"
SEARCH_CLASS_PATHS = ("/cards/search", "/cards/named", "/cards/random", "/cards/collection")
# Scryfall: 2 requests/s (500 ms apart) for the search class, 10/s (100 ms apart) for everything.
SEARCH_INTERVAL = 0.5
GENERAL_INTERVAL = 0.1
# Requests leave a worker thread a little after their slot; the margin keeps any one-second
# window at the server within the limit despite that jitter.
SAFETY_MARGIN = 0.02
DEFAULT_PAUSE_SECONDS = 30.0
COLLECTION_BATCH = 75
AUTOCOMPLETE_LIMIT = 25


def default_user_agent() -> str:
    """Scryfall asks for an accurate User-Agent naming the application and its version."""
    return f"{BOT_NAME}/{__version__} (Discord bot for Magic: The Gathering players; requests/{requests.__version__})"


def endpoint_class(path: str) -> str:
    """``"search"`` for Scryfall's expensive endpoints (2 requests a second), else ``"other"``."""
    for prefix in SEARCH_CLASS_PATHS:
        if path == prefix or path.startswith(prefix + "/") or path.startswith(prefix + "?"):
            return SEARCH_CLASS
    return OTHER_CLASS


# --------------------------------------------------------------------------- errors


class ScryfallError(Exception):
    """An error object from Scryfall (``{"object": "error", "status", "code", "details", ...}``)."""

    def __init__(
        self,
        details: str,
        *,
        status: int = 0,
        code: str = "error",
        type: str | None = None,  # noqa: A002 - Scryfall's field name
        warnings: list[str] | None = None,
    ) -> None:
        self.status = status
        self.code = code
        self.details = details
        self.type = type
        self.warnings = list(warnings or [])
        super().__init__(self.user_message())

    @classmethod
    def from_error_object(cls, obj: Mapping[str, Any], status: int | None = None) -> ScryfallError:
        """The typed exception for an error object (see :func:`error_for`)."""
        return error_for(obj, status)

    def user_message(self) -> str:
        """Scryfall's details followed by its warnings, fit to show to the person who asked."""
        lines = [self.details.strip() or "Scryfall could not answer that."]
        lines.extend(f"• {warning}" for warning in self.warnings)
        return "\n".join(lines)


class CardNotFound(ScryfallError):
    """No card matched (a 404 ``not_found``; also a search with no results)."""


class AmbiguousCard(ScryfallError):
    """A fuzzy name matched several cards (404 of type ``ambiguous``)."""

    def __init__(self, details: str, *, candidates: list[str] | None = None, **kwargs: Any) -> None:
        self.candidates = list(candidates or [])
        super().__init__(details, **kwargs)

    def user_message(self) -> str:
        message = super().user_message()
        if self.candidates:
            message += "\nDid you mean: " + ", ".join(self.candidates[:10]) + "?"
        return message


class BadQuery(ScryfallError):
    """Scryfall rejected the request or query (400 ``bad_request``, 422 ...); see ``warnings``."""


class RateLimited(ScryfallError):
    """Scryfall answered 429, or its endpoint class is still paused after one."""

    def __init__(self, retry_after: float, details: str = "", **kwargs: Any) -> None:
        self.retry_after = max(0.0, float(retry_after))
        kwargs.setdefault("status", 429)
        kwargs.setdefault("code", "rate_limited")
        super().__init__(details or "Too many requests.", **kwargs)

    def user_message(self) -> str:
        return f"Scryfall asked us to slow down, try again in {max(1, math.ceil(self.retry_after))} s."


class ScryfallUnavailable(Exception):
    """Scryfall timed out, was unreachable or failed (5xx) after retries, and nothing was cached."""

    def user_message(self) -> str:
        return "Scryfall is not answering right now, please try again in a few minutes."


def error_for(obj: Mapping[str, Any], status: int | None = None) -> ScryfallError:
    status = int(obj.get("status") or status or 0)
    kwargs = {
        "status": status,
        "code": str(obj.get("code") or "error"),
        "type": obj.get("type"),
        "warnings": [str(w) for w in obj.get("warnings") or []],
    }
    details = str(obj.get("details") or "")
    if status == 404 and kwargs["type"] == "ambiguous":
        return AmbiguousCard(details, **kwargs)
    if status == 404:
        return CardNotFound(details or "No card found.", **kwargs)
    if status == 429:
        return RateLimited(0.0, details, **{k: v for k, v in kwargs.items() if k != "status"})
    if status in (400, 422) or kwargs["code"] == "bad_request":
        return BadQuery(details or "Scryfall could not understand that request.", **kwargs)
    return ScryfallError(details or f"Scryfall answered {status}.", **kwargs)


# --------------------------------------------------------------------------- answers


@dataclass
class Answer:
    """A Scryfall JSON object. ``stale``: served from cache because Scryfall is down, slow or
    rate-limiting us; ``from_cache``: no request was sent for it."""

    data: dict
    stale: bool = False
    from_cache: bool = False


@dataclass
class _Raw:
    status: int
    data: Any
    headers: Mapping[str, str]
    from_cache: bool = False
    expired: bool = False


class _Paused(Exception):
    pass


def _decode(status: int, content: bytes) -> Any:
    try:
        return json.loads(content) if content else None
    except ValueError:
        return None


def _retry_after(value: str | None) -> float:
    if not value:
        return 0.0
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return 0.0


# --------------------------------------------------------------------------- rate limiting


class RateLimiter:
    """Minimum spacing between requests per endpoint class, shared by every caller.

    ``reserve`` runs on the event loop and hands out send slots without tying up a thread;
    ``guard`` runs in the worker thread right before the request leaves and enforces the spacing
    against the actual send times (thread-safe), so executor jitter can never bunch requests.
    A search-class request also takes a slot from the general limit.
    """

    def __init__(self, search_interval: float, general_interval: float) -> None:
        self.intervals = {SEARCH_CLASS: search_interval, OTHER_CLASS: general_interval}
        self._next_slot = {SEARCH_CLASS: 0.0, OTHER_CLASS: 0.0}
        self._last_sent = {SEARCH_CLASS: -math.inf, OTHER_CLASS: -math.inf}
        self._locks = {SEARCH_CLASS: threading.Lock(), OTHER_CLASS: threading.Lock()}

    @staticmethod
    def _buckets(klass: str) -> tuple[str, ...]:
        return (SEARCH_CLASS, OTHER_CLASS) if klass == SEARCH_CLASS else (OTHER_CLASS,)

    async def reserve(self, klass: str) -> None:
        now = time.monotonic()
        slot = now
        for bucket in self._buckets(klass):
            slot = max(slot, self._next_slot[bucket])
        for bucket in self._buckets(klass):
            self._next_slot[bucket] = slot + self.intervals[bucket]
        if slot > now:
            await asyncio.sleep(slot - now)

    def guard(self, klass: str) -> None:
        buckets = self._buckets(klass)
        for bucket in buckets:  # always the same order: search, then general
            self._locks[bucket].acquire()
        try:
            # The last gate before a request leaves, on a clock nothing can stand in for:
            # the spacing Scryfall sees is real time, whatever the rest of the bot's clock says.
            now = time.perf_counter()
            wait = max(self._last_sent[b] + self.intervals[b] - now for b in buckets)
            if wait > 0:
                time.sleep(wait)
                now = time.perf_counter()
            for bucket in buckets:
                self._last_sent[bucket] = now
        finally:
            for bucket in reversed(buckets):
                self._locks[bucket].release()


# --------------------------------------------------------------------------- client


class ScryfallClient:
    """Scryfall API access for the bot. Create one per process and share it.

    ``base_url``: the API root (``https://api.scryfall.com`` or a test server).
    ``cache_dir``: where the SQLite cache lives (``None``: an in-memory cache).
    ``timeout``: connect and read timeout of every request, in seconds.
    ``retries``: extra attempts after a timeout, network error or 5xx (never after a 429).
    ``cache_hours``: how long an answer is fresh; expired answers are still served, marked
    stale, when Scryfall cannot answer.
    ``pause_seconds``: minimum pause of an endpoint class after a 429 (Scryfall asks for 30 s+).
    ``backoff``: first retry delay in seconds, doubled on each further retry.
    ``keep_days``: answers older than this are dropped from the cache when the client starts
    (until then an expired answer can still be served stale).
    """

    def __init__(
        self,
        base_url: str,
        cache_dir: Path | None,
        *,
        timeout: float = 10.0,
        retries: int = 2,
        user_agent: str | None = None,
        cache_hours: float = 24,
        pause_seconds: float = DEFAULT_PAUSE_SECONDS,
        backoff: float = 0.5,
        search_interval: float = SEARCH_INTERVAL + SAFETY_MARGIN,
        general_interval: float = GENERAL_INTERVAL + SAFETY_MARGIN / 4,
        max_workers: int = 8,
        keep_days: float = 30,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"Scryfall base URL must be an http(s) URL, got {base_url!r}")
        self._base_parts = parts
        self.timeout = float(timeout)
        self.retries = max(0, int(retries))
        self.user_agent = (user_agent or default_user_agent()).strip()
        self.cache_hours = float(cache_hours)
        self.pause_seconds = float(pause_seconds)
        self.backoff = float(backoff)
        self.limiter = RateLimiter(search_interval, general_interval)
        self._paused_until = {SEARCH_CLASS: 0.0, OTHER_CLASS: 0.0}
        self._inflight: dict[str, asyncio.Task[_Raw | Answer]] = {}
        self._http_pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="scryfall-http")
        self._cache_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="scryfall-cache")
        self.cache_path: Path | None = None
        if cache_dir is not None:
            cache_dir = Path(cache_dir)
            cache_dir.mkdir(parents=True, exist_ok=True)
            self.cache_path = cache_dir / CACHE_FILE
            backend: Any = requests_cache.SQLiteCache(self.cache_path, wal=True)
        else:
            backend = "memory"
        self._session = requests_cache.CachedSession(
            backend=backend,
            expire_after=timedelta(hours=self.cache_hours),
            allowable_methods=("GET", "POST"),
            allowable_codes=(200, 404),
            stale_if_error=False,  # stale answers are served (and flagged) by this client
        )
        self._session.headers.update({"User-Agent": self.user_agent, "Accept": ACCEPT})
        self._closed = False
        self._prune(keep_days)

    @classmethod
    def from_config(cls, config: Any, **kwargs: Any) -> ScryfallClient:
        """A client for ``config.scryfall_api_url`` with its cache in ``config.data_dir``."""
        return cls(config.scryfall_api_url, Path(config.data_dir), **kwargs)

    # ------------------------------------------------------------------ public API

    async def named(self, name: str, *, set_code: str | None = None, fuzzy: bool = True) -> Answer:
        """One card by name (``/cards/named``). Fuzzy matching accepts partial names.

        Raises CardNotFound, AmbiguousCard (with ``candidates``), RateLimited, ScryfallUnavailable.
        """
        name = " ".join(name.split())
        if not name:
            raise BadQuery("Give a card name.", status=400, code="bad_request")
        params = {"fuzzy" if fuzzy else "exact": name}
        if set_code:
            params["set"] = set_code.strip().lower()
        try:
            return await self._get("/cards/named", params)
        except AmbiguousCard as exc:
            if not exc.candidates:
                try:
                    exc.candidates = await self.autocomplete(name)
                except (ScryfallError, ScryfallUnavailable):
                    pass
            raise

    async def autocomplete(self, query: str) -> list[str]:
        """Up to 25 card names starting with or containing ``query`` (Scryfall gives up to 20).

        Returns ``[]`` for queries under 2 characters and when Scryfall is paused or unreachable
        (autocomplete has no way to show an error).
        """
        query = " ".join(query.split())
        if len(query) < 2:
            return []
        try:
            answer = await self._get("/cards/autocomplete", {"q": query})
        except (RateLimited, ScryfallUnavailable) as exc:
            log.info("Autocomplete unavailable: %s", exc)
            return []
        return [str(name) for name in answer.data.get("data") or []][:AUTOCOMPLETE_LIMIT]

    async def search(self, query: str, *, page: int = 1, order: str = "name", unique: str = "cards") -> Answer:
        """A page of a full-text search (``/cards/search``): a list object with ``data``,
        ``has_more``, ``next_page``, ``total_cards`` and possibly ``warnings``.

        Raises CardNotFound when nothing matches, BadQuery for a query Scryfall cannot read.
        """
        query = query.strip()
        if not query:
            raise BadQuery("Give a search query.", status=400, code="bad_request")
        params = {"q": query, "order": order, "unique": unique}
        if page != 1:
            params["page"] = str(int(page))
        return await self._get("/cards/search", params)

    async def next_page(self, url: str) -> Answer:
        """The page at a list object's ``next_page`` URL, followed exactly as given."""
        return await self.get_uri(url)

    async def collection(self, identifiers: list[dict]) -> tuple[list[dict], list[dict]]:
        """Cards for identifiers (``{"id"}``, ``{"name"}``, ``{"name", "set"}``,
        ``{"set", "collector_number"}``...), sent in batches of 75 to ``/cards/collection``.

        Returns ``(cards, not_found)`` in request order. A stale batch is used as is.
        """
        cards: list[dict] = []
        not_found: list[dict] = []
        for start in range(0, len(identifiers), COLLECTION_BATCH):
            batch = [dict(identifier) for identifier in identifiers[start : start + COLLECTION_BATCH]]
            answer = await self._call("POST", self.base_url + "/cards/collection", json_body={"identifiers": batch})
            cards.extend(answer.data.get("data") or [])
            not_found.extend(answer.data.get("not_found") or [])
        return cards, not_found

    async def get_uri(self, uri: str) -> Answer:
        """Any Scryfall API URI from an object (``rulings_uri``, ``next_page``, ``prints_search_uri``...).

        ``https://api.scryfall.com/...`` URIs are rewritten onto the configured base URL; URIs on
        any other host raise ValueError.
        """
        return await self._call("GET", self._local_uri(uri))

    @property
    def closed(self) -> bool:
        return self._closed

    async def close(self) -> None:
        """Cancel calls still in flight, then close the HTTP session and its cache."""
        if self._closed:
            return
        self._closed = True
        for task in list(self._inflight.values()):
            task.cancel()
        self._http_pool.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self._session.close)
        self._cache_pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ inspection

    def paused_for(self, klass: str) -> float:
        """Seconds left of the pause of an endpoint class after a 429 (0 when not paused)."""
        return max(0.0, self._paused_until[klass] - time.monotonic())

    # ------------------------------------------------------------------ internals

    def _prune(self, keep_days: float) -> None:
        """Drop answers too old to be worth serving even stale, so the cache file stays small."""
        try:
            self._session.cache.delete(older_than=timedelta(days=max(keep_days, self.cache_hours / 24)))
        except Exception:
            log.exception("Could not prune the Scryfall cache")

    def _local_uri(self, uri: str) -> str:
        parts = urlsplit(uri.strip())
        base = self._base_parts
        if parts.scheme == base.scheme and parts.netloc == base.netloc and parts.path.startswith(base.path):
            return urlunsplit(parts)
        if parts.scheme == "https" and parts.netloc == SCRYFALL_API_HOST:
            return urlunsplit((base.scheme, base.netloc, base.path + parts.path, parts.query, ""))
        raise ValueError(f"Refusing to fetch {uri!r}: not a Scryfall API URI")

    async def _get(self, path: str, params: Mapping[str, str]) -> Answer:
        return await self._call("GET", self.base_url + path, params=params)

    async def _call(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        json_body: Any = None,
    ) -> Answer:
        if self._closed:
            raise RuntimeError("ScryfallClient is closed")
        prepared = self._session.prepare_request(requests.Request(method, url, params=params, json=json_body))
        key = self._session.cache.create_key(prepared)
        task = self._inflight.get(key)
        if task is None:
            task = asyncio.ensure_future(self._fetch(prepared, key))
            self._inflight[key] = task
            task.add_done_callback(lambda done, key=key: self._forget(key, done))
        return await asyncio.shield(task)

    def _forget(self, key: str, task: asyncio.Task) -> None:
        if self._inflight.get(key) is task:
            del self._inflight[key]
        if not task.cancelled():
            task.exception()  # retrieved: every waiter may have gone away

    def _path(self, url: str) -> str:
        path = urlsplit(url).path
        base_path = self._base_parts.path
        return path[len(base_path) :] if base_path and path.startswith(base_path) else path

    async def _fetch(self, prepared: requests.PreparedRequest, key: str) -> Answer:
        loop = asyncio.get_running_loop()
        cached = await loop.run_in_executor(self._cache_pool, self._lookup, key)
        if cached is not None and not cached.expired:
            return self._answer(cached, from_cache=True)
        klass = endpoint_class(self._path(prepared.url or ""))
        attempt = 0
        failure: BaseException | None = None
        while True:
            if self.paused_for(klass):
                return self._stale_or_raise(cached, RateLimited(self.paused_for(klass)))
            await self.limiter.reserve(klass)
            try:
                raw = await loop.run_in_executor(self._http_pool, self._send, prepared, klass)
            except _Paused:
                return self._stale_or_raise(cached, RateLimited(self.paused_for(klass)))
            except requests.RequestException as exc:
                failure = exc
                log.warning("Scryfall request failed (%s %s): %s", prepared.method, prepared.url, exc)
            else:
                if raw.status == 429:
                    pause = max(self.pause_seconds, _retry_after(raw.headers.get("Retry-After")))
                    self._pause(klass, pause)
                    log.warning("Scryfall answered 429 to %s; pausing %s for %.0f s", prepared.url, klass, pause)
                    return self._stale_or_raise(cached, RateLimited(pause))
                if raw.status < 500:
                    return self._answer(raw, from_cache=raw.from_cache)
                failure = ScryfallUnavailable(f"Scryfall answered {raw.status}")
                log.warning("Scryfall answered %s to %s %s", raw.status, prepared.method, prepared.url)
            if attempt >= self.retries:
                break
            await asyncio.sleep(self.backoff * 2**attempt)
            attempt += 1
        error = ScryfallUnavailable(f"Scryfall did not answer {prepared.url}: {failure}")
        return self._stale_or_raise(cached, error)

    def _pause(self, klass: str, seconds: float) -> None:
        self._paused_until[klass] = max(self._paused_until[klass], time.monotonic() + seconds)

    def _lookup(self, key: str) -> _Raw | None:
        """A cached response for ``key``, fresh or expired (runs in a worker thread)."""
        try:
            response = self._session.cache.get_response(key)
        except Exception:  # a damaged cache entry is a cache miss
            log.exception("Could not read the Scryfall cache")
            return None
        if response is None:
            return None
        return _Raw(
            status=response.status_code,
            data=_decode(response.status_code, response.content),
            headers=dict(response.headers),
            from_cache=True,
            expired=bool(response.is_expired),
        )

    def _send(self, prepared: requests.PreparedRequest, klass: str) -> _Raw:
        """One HTTP request (runs in a worker thread), spaced by the rate limiter."""
        self.limiter.guard(klass)
        if self.paused_for(klass):  # a 429 arrived while this request waited for its slot
            raise _Paused()
        response = self._session.send(prepared.copy(), timeout=(self.timeout, self.timeout))
        return _Raw(
            status=response.status_code,
            data=_decode(response.status_code, response.content),
            headers=dict(response.headers),
            from_cache=bool(getattr(response, "from_cache", False)),
        )

    def _stale_or_raise(self, cached: _Raw | None, error: BaseException) -> Answer:
        if cached is not None and isinstance(cached.data, dict):
            log.info("Serving a stale Scryfall answer: %s", error)
            if cached.status == 200 and cached.data.get("object") != "error":
                return Answer(cached.data, stale=True, from_cache=True)
            if cached.data.get("object") == "error":  # a cached "not found" still holds
                raise error_for(cached.data, cached.status)
        raise error

    @staticmethod
    def _answer(raw: _Raw, *, from_cache: bool) -> Answer:
        data = raw.data
        if raw.status == 200 and isinstance(data, dict):
            if data.get("object") == "error":
                raise error_for(data, raw.status)
            return Answer(data, from_cache=from_cache)
        if isinstance(data, dict) and data.get("object") == "error":
            raise error_for(data, raw.status)
        raise ScryfallError(f"Scryfall answered {raw.status} without an error object.", status=raw.status)
