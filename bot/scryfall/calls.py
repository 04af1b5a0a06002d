"""How one request to Scryfall is made, for every endpoint of the client.

Identical requests in flight at the same moment share one upstream call; an answer is read from the cache first;
the request waits for its endpoint class's rate budget; timeouts, network errors and 5xx answers are retried with
exponential backoff, a 429 pauses its class and is never retried; after failures in a row the circuit breaker
sends nothing for a while; and when Scryfall cannot answer, a cached (possibly expired) copy is served, marked
``stale``, within a short deadline.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import requests

from bot import BOT_NAME, __version__
from bot.scryfall.answers import Answer, answer_of, stale_or_raise
from bot.scryfall.errors import RateLimited, ScryfallUnavailable
from bot.scryfall.limiter import (
    DEFAULT_PAUSE_SECONDS,
    GENERAL_INTERVAL,
    MAX_PAUSE_SECONDS,
    SAFETY_MARGIN,
    SEARCH_INTERVAL,
    Budget,
    RateLimiter,
    endpoint_class,
    retry_after_seconds,
)
from bot.scryfall.transport import CACHE_FILE, DeadlineExceeded, Paused, Raw, Transport
from bot.serving import Breaker

log = logging.getLogger(__name__)

SCRYFALL_API_HOST = "api.scryfall.com"
PRUNE_EVERY_SECONDS = 3600.0


def default_user_agent() -> str:
    """Scryfall asks for an accurate User-Agent naming the application and its version."""
    return f"{BOT_NAME}/{__version__} (Discord bot for Magic: The Gathering players; requests/{requests.__version__})"


class Calls:
    """The requests of a Scryfall client (:class:`~bot.scryfall.client.ScryfallClient` adds the endpoints).

    ``base_url``: the API root (``https://api.scryfall.com`` or a test server).
    ``cache_dir``: where the SQLite cache lives (``None``: an in-memory cache).
    ``timeout``: connect and per-read timeout, in seconds.
    ``deadline``: overall time for one call, retries and redirects included.
    ``stale_deadline``: overall time for one call when an expired copy could be served instead.
    ``collection_deadline``: overall time for resolving a whole decklist.
    ``retries``: extra attempts after a timeout, network error or 5xx (never after a 429).
    ``cache_hours``: how long an answer is fresh.
    ``pause_seconds``: minimum pause of an endpoint class after a 429 (Scryfall asks for 30 s+).
    ``backoff``: first retry delay in seconds, doubled on each further retry.
    ``keep_days``: answers older than this are pruned (at start and hourly).
    ``circuit_seconds``: how long nothing is sent after failures in a row (see :mod:`bot.serving.breaker`).
    ``budget``: where rate-limit state lives (default: this process).
    """

    def __init__(
        self,
        base_url: str,
        cache_dir: Path | None,
        *,
        timeout: float = 10.0,
        deadline: float = 20.0,
        stale_deadline: float = 2.5,
        collection_deadline: float = 60.0,
        retries: int = 2,
        user_agent: str | None = None,
        cache_hours: float = 24,
        pause_seconds: float = DEFAULT_PAUSE_SECONDS,
        max_pause_seconds: float = MAX_PAUSE_SECONDS,
        backoff: float = 0.5,
        search_interval: float = SEARCH_INTERVAL + SAFETY_MARGIN,
        general_interval: float = GENERAL_INTERVAL + SAFETY_MARGIN / 4,  # 11 requests span 1.2 s
        max_workers: int = 8,
        keep_days: float = 30,
        max_body: int | None = None,
        budget: Budget | None = None,
        circuit_seconds: float = 10.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"Scryfall base URL must be an http(s) URL, got {base_url!r}")
        self._base_parts = parts
        self.timeout = float(timeout)
        self.deadline = float(deadline)
        self.stale_deadline = min(float(stale_deadline), self.deadline)
        self.collection_deadline = float(collection_deadline)
        self.retries = max(0, int(retries))
        self.user_agent = (user_agent or default_user_agent()).strip()
        self.pause_seconds = float(pause_seconds)
        self.max_pause_seconds = max(self.pause_seconds, float(max_pause_seconds))
        self.backoff = float(backoff)
        self.limiter = RateLimiter(search_interval, general_interval, budget)
        self._inflight: dict[str, asyncio.Task[Answer]] = {}
        self._http_pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="scryfall-http")
        self._cache_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="scryfall-cache")
        self.cache_path: Path | None = None
        if cache_dir is not None:
            cache_dir = Path(cache_dir)
            cache_dir.mkdir(parents=True, exist_ok=True)
            self.cache_path = cache_dir / CACHE_FILE
        extra = {"max_body": max_body} if max_body is not None else {}
        self.transport = Transport(
            self.cache_path,
            self.limiter,
            user_agent=self.user_agent,
            timeout=self.timeout,
            cache_hours=float(cache_hours),
            keep_days=keep_days,
            is_local=self._is_local,
            **extra,
        )
        self.breaker = Breaker(circuit_seconds)
        self._closed = False
        self.transport.prune()
        self._pruned_at = time.monotonic()

    @property
    def closed(self) -> bool:
        return self._closed

    def failing_for(self) -> float:
        """Seconds left during which nothing is sent because Scryfall kept failing (0 when requests go out)."""
        return self.breaker.open_for()

    def _failed(self) -> None:
        if pause := self.breaker.failed():
            self.limiter.forget_reservations()
            log.warning("Scryfall failed %d requests in a row; sending none for %.0f s", self.breaker.failures, pause)

    async def _reserve(self, klass: str) -> None:
        """Wait for a slot of ``klass``, or until Scryfall is found failing meanwhile."""
        await self.limiter.reserve(klass, stop=self.failing_for)

    def _succeeded(self) -> None:
        self.breaker.succeeded()

    def paused_for(self, klass: str) -> float:
        """Seconds left of the pause of an endpoint class after a 429 (0 when not paused)."""
        return self.limiter.paused_for(klass)

    # ------------------------------------------------------------------ internals

    def _is_local(self, url: str) -> bool:
        parts, base = urlsplit(url), self._base_parts
        return parts.scheme == base.scheme and parts.netloc == base.netloc and parts.path.startswith(base.path)

    def _local_uri(self, uri: str) -> str:
        parts = urlsplit(uri.strip())
        base = self._base_parts
        if self._is_local(uri.strip()):
            return urlunsplit(parts)
        if parts.scheme == "https" and parts.netloc == SCRYFALL_API_HOST:
            return urlunsplit((base.scheme, base.netloc, base.path + parts.path, parts.query, ""))
        raise ValueError(f"Refusing to fetch {uri!r}: not a Scryfall API URI")

    async def _get(self, path: str, params: Mapping[str, str], *, store: bool = True) -> Answer:
        return await self._call("GET", self.base_url + path, params=params, store=store)

    async def _call(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        json_body: Any = None,
        store: bool = True,
    ) -> Answer:
        if self._closed:
            raise RuntimeError("ScryfallClient is closed")
        prepared = self.transport.session.prepare_request(requests.Request(method, url, params=params, json=json_body))
        key = self.transport.key(prepared)
        task = self._inflight.get(key)
        if task is None:
            task = asyncio.ensure_future(self._fetch(prepared, key, store))
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

    async def _fetch(self, prepared: requests.PreparedRequest, key: str, store: bool) -> Answer:
        loop = asyncio.get_running_loop()
        cached = await loop.run_in_executor(self._cache_pool, self.transport.lookup, key) if store else None
        if cached is not None and not cached.expired:
            return answer_of(cached, from_cache=True)
        self._maybe_prune(loop)
        key_or_none = key if store else None
        if cached is None:
            return await self._attempts(prepared, key_or_none, None, None)
        # With a copy to fall back on, the whole call (queue included) is short: a stale answer now
        # beats a fresh one after the person has given up.
        deadline = time.monotonic() + self.stale_deadline
        try:
            async with asyncio.timeout(self.stale_deadline):
                return await self._attempts(prepared, key_or_none, cached, deadline)
        except TimeoutError:
            log.warning("Scryfall did not answer %s %s in time; serving a stale copy", prepared.method, prepared.url)
            return stale_or_raise(cached, DeadlineExceeded())

    async def _attempts(
        self, prepared: requests.PreparedRequest, key: str | None, cached: Raw | None, deadline: float | None
    ) -> Answer:
        """Send with retries. Without a cached copy the deadline starts when the first request may
        leave: waiting in the rate limiter's queue is not Scryfall's slowness."""
        loop = asyncio.get_running_loop()
        klass = endpoint_class(self._path(prepared.url or ""))
        failure: ScryfallUnavailable = ScryfallUnavailable()
        for attempt in range(self.retries + 1):
            if attempt:
                await asyncio.sleep(self.backoff * 2 ** (attempt - 1))
            if self.paused_for(klass):
                return stale_or_raise(cached, RateLimited(self.paused_for(klass)))
            if self.failing_for():
                return stale_or_raise(cached, failure if attempt else ScryfallUnavailable("Scryfall keeps failing."))
            await self._reserve(klass)
            if self.failing_for():  # it failed others while this request waited for its slot
                return stale_or_raise(cached, failure if attempt else ScryfallUnavailable("Scryfall keeps failing."))
            if deadline is None:
                deadline = time.monotonic() + self.deadline
            paused = functools.partial(self.paused_for, klass)
            send = functools.partial(
                self.transport.send, prepared, klass, deadline, key=key, paused=paused, timeout=self.timeout
            )
            try:
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    raw = await loop.run_in_executor(self._http_pool, send)
            except TimeoutError:
                self._failed()
                log.warning("Scryfall did not answer %s %s in time", prepared.method, prepared.url)
                return stale_or_raise(cached, DeadlineExceeded())
            except Paused:
                return stale_or_raise(cached, RateLimited(self.paused_for(klass)))
            except DeadlineExceeded as exc:
                self._failed()
                return stale_or_raise(cached, exc)
            except requests.Timeout as exc:
                self._failed()
                failure = ScryfallUnavailable(str(exc), timed_out=True)
                log.warning("Scryfall timed out (%s %s)", prepared.method, prepared.url)
            except (requests.RequestException, ScryfallUnavailable) as exc:
                self._failed()
                failure = exc if isinstance(exc, ScryfallUnavailable) else ScryfallUnavailable(str(exc))
                log.warning(
                    "Scryfall request failed (%s %s): %s", prepared.method, prepared.url, getattr(exc, "details", exc)
                )
            else:
                if raw.status == 429:
                    pause = retry_after_seconds(
                        raw.headers.get("Retry-After"), minimum=self.pause_seconds, maximum=self.max_pause_seconds
                    )
                    self.limiter.pause(klass, pause)
                    log.warning("Scryfall answered 429 to %s; pausing %s for %.0f s", prepared.url, klass, pause)
                    return stale_or_raise(cached, RateLimited(pause))
                if raw.status < 500:
                    self._succeeded()
                    return answer_of(raw, from_cache=False)
                self._failed()
                failure = ScryfallUnavailable(f"Scryfall answered {raw.status}", status=raw.status)
                log.warning("Scryfall answered %s to %s %s", raw.status, prepared.method, prepared.url)
        return stale_or_raise(cached, failure)

    def _maybe_prune(self, loop: asyncio.AbstractEventLoop) -> None:
        if time.monotonic() - self._pruned_at >= PRUNE_EVERY_SECONDS:
            self._pruned_at = time.monotonic()
            loop.run_in_executor(self._cache_pool, self.transport.prune)
