"""Scryfall's rate limits: request spacing per endpoint class and the pause after a 429.

The spacing and the pauses are kept by a :class:`Budget`. :class:`LocalBudget` keeps them in this
process; :class:`PostgresBudget` keeps them in PostgreSQL, so every process using one database shares
Scryfall's limits (Scryfall counts requests per application, not per process).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import math
import threading
import time
from collections.abc import Callable, Coroutine
from email.utils import parsedate_to_datetime
from typing import Any, Protocol

from bot.serving import waiting

log = logging.getLogger(__name__)

STOP_POLL_SECONDS = 0.1

SEARCH_CLASS = "search"
OTHER_CLASS = "other"
CLASSES = (SEARCH_CLASS, OTHER_CLASS)
SEARCH_CLASS_PATHS = ("/cards/search", "/cards/named", "/cards/random", "/cards/collection")
# Scryfall: 2 requests/s (500 ms apart) for the search class, 10/s (100 ms apart) for everything.
SEARCH_INTERVAL = 0.5
GENERAL_INTERVAL = 0.1
# Requests leave a worker thread a little after their slot, and later still on a busy machine
# (measured: up to ~0.1 s on two loaded cores); the margin keeps any one-second window at the
# server within the limit despite that jitter. Three search requests then span 1.16 s.
SAFETY_MARGIN = 0.08
# Scryfall asks for at least 30 s of silence after a 429; a Retry-After beyond a few minutes is
# more likely a broken header than a real request, and obeying it would switch cards off for good.
DEFAULT_PAUSE_SECONDS = 30.0
MAX_PAUSE_SECONDS = 300.0


def endpoint_class(path: str) -> str:
    """``"search"`` for Scryfall's expensive endpoints (2 requests a second), else ``"other"``."""
    for prefix in SEARCH_CLASS_PATHS:
        if path == prefix or path.startswith(prefix + "/") or path.startswith(prefix + "?"):
            return SEARCH_CLASS
    return OTHER_CLASS


def buckets(klass: str) -> tuple[str, ...]:
    """The limits a request of ``klass`` counts against: a search counts against the general limit too."""
    return (SEARCH_CLASS, OTHER_CLASS) if klass == SEARCH_CLASS else (OTHER_CLASS,)


def retry_after_seconds(
    value: str | None,
    *,
    minimum: float = DEFAULT_PAUSE_SECONDS,
    maximum: float = MAX_PAUSE_SECONDS,
    now: float | None = None,
) -> float:
    """The pause a ``Retry-After`` header asks for, clamped to ``[minimum, maximum]``.

    Seconds or an HTTP date; anything unreadable, infinite, NaN or negative counts as ``minimum``.
    """
    seconds = 0.0
    text = (value or "").strip()
    if text:
        try:
            seconds = float(text)
        except ValueError:
            try:
                seconds = parsedate_to_datetime(text).timestamp() - (time.time() if now is None else now)
            except (TypeError, ValueError, OverflowError, IndexError):
                seconds = 0.0
    if not math.isfinite(seconds):
        seconds = maximum if seconds > 0 else 0.0
    return min(max(seconds, minimum), max(minimum, maximum))


class Budget(Protocol):
    """Where send times and pauses are kept. Methods run in worker threads and may block."""

    def acquire(self, klasses: tuple[str, ...], intervals: dict[str, float]) -> None:
        """Block until a request counting against ``klasses`` may leave, and record that it left."""

    def pause(self, klass: str, seconds: float) -> None:
        """Stop requests of ``klass`` for ``seconds`` (never shortens a longer pause)."""

    def paused_for(self, klass: str) -> float:
        """Seconds left of the pause of ``klass`` (0 when not paused)."""


class LocalBudget:
    """A :class:`Budget` for one process, thread-safe."""

    def __init__(self) -> None:
        self._last_sent = dict.fromkeys(CLASSES, -math.inf)
        self._paused_until = dict.fromkeys(CLASSES, 0.0)
        self._locks = {klass: threading.Lock() for klass in CLASSES}

    def acquire(self, klasses: tuple[str, ...], intervals: dict[str, float]) -> None:
        for klass in klasses:  # always the same order: search, then general
            self._locks[klass].acquire()
        try:
            # The spacing Scryfall sees is real time, whatever the rest of the bot's clock says.
            now = time.perf_counter()
            wait = max(self._last_sent[k] + intervals[k] - now for k in klasses)
            if wait > 0:
                time.sleep(wait)
                now = time.perf_counter()
            for klass in klasses:
                self._last_sent[klass] = now
        finally:
            for klass in reversed(klasses):
                self._locks[klass].release()

    def pause(self, klass: str, seconds: float) -> None:
        until = time.monotonic() + seconds
        self._paused_until[klass] = max(self._paused_until[klass], until)

    def paused_for(self, klass: str) -> float:
        return max(0.0, self._paused_until[klass] - time.monotonic())


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class PostgresBudget:
    """A :class:`Budget` kept in PostgreSQL's ``scryfall_budget`` table, one row per class: shared by every process.

    ``acquire`` leases the next send slot: under the rows' locks it reads the earliest time the next request
    may leave (the server's clock, so the processes' clocks never matter), moves it one interval past the
    slot it takes, and sleeps until that slot. A 429 writes ``paused_until``; every process learns it with
    its next lease, before its request leaves. ``paused_for`` is asked on the event loop and must not wait
    for the database: it answers from what the last lease (or this process's own 429) taught it.

    The asyncpg ``pool`` belongs to ``loop``; the blocking methods run in worker threads and hand their
    queries to that loop. If the database can't be reached, requests are spaced in this process alone.
    """

    def __init__(self, pool: Any, loop: asyncio.AbstractEventLoop, *, timeout: float = 10.0) -> None:
        self._pool = pool
        self._loop = loop
        self._timeout = timeout
        self._fallback = LocalBudget()
        self._paused_until = dict.fromkeys(CLASSES, 0.0)  # time.monotonic()
        self._writes: set[concurrent.futures.Future] = set()

    def _run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        if self._loop.is_closed() or _running_loop() is self._loop:
            # Waiting here on the loop itself would stop the very loop that has to run the query.
            coroutine.close()
            raise RuntimeError("the shared budget is only usable from worker threads of a running loop")
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(self._timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise

    def acquire(self, klasses: tuple[str, ...], intervals: dict[str, float]) -> None:
        try:
            wait, pauses = self._run(self._lease(klasses, intervals))
        except Exception as error:
            log.warning("The shared Scryfall budget is unavailable (%s); spacing requests in this process only", error)
            self._fallback.acquire(klasses, intervals)
            return
        now = time.monotonic()
        for klass, left in pauses.items():
            self._learn(klass, now + left)
        if wait > 0:
            time.sleep(wait)

    async def _lease(self, klasses: tuple[str, ...], intervals: dict[str, float]) -> tuple[float, dict[str, float]]:
        async with self._pool.acquire() as conn, conn.transaction():
            # Locked in one order (by name) by every process: two leases never wait for each other in a circle.
            rows = await conn.fetch(
                "SELECT klass, next_at, paused_until FROM scryfall_budget WHERE klass = ANY($1::text[]) "
                "ORDER BY klass FOR UPDATE",
                list(klasses),
            )
            if len(rows) != len(klasses):
                raise LookupError(f"scryfall_budget lacks a row for {sorted(set(klasses) - {r[0] for r in rows})}")
            # Read after the locks are held: the slot is measured from the moment this lease owns the rows.
            now = await conn.fetchval("SELECT extract(epoch FROM clock_timestamp())::float8")
            slot = max([now, *(row["next_at"] for row in rows)])
            await conn.execute(
                "UPDATE scryfall_budget AS b SET next_at = $1::float8 + v.gap "
                "FROM unnest($2::text[], $3::float8[]) AS v(klass, gap) WHERE b.klass = v.klass",
                slot,
                list(klasses),
                [intervals[klass] for klass in klasses],
            )
        return slot - now, {row["klass"]: row["paused_until"] - now for row in rows}

    def _learn(self, klass: str, until: float) -> None:
        self._paused_until[klass] = max(self._paused_until[klass], until)

    def pause(self, klass: str, seconds: float) -> None:
        self._learn(klass, time.monotonic() + seconds)
        self._fallback.pause(klass, seconds)
        if self._loop.is_closed():
            return
        # Called on the event loop as well as from threads: send the write without waiting for it.
        future = asyncio.run_coroutine_threadsafe(self._store_pause(klass, seconds), self._loop)
        self._writes.add(future)
        future.add_done_callback(self._writes.discard)

    async def _store_pause(self, klass: str, seconds: float) -> None:
        try:
            await self._pool.execute(
                "UPDATE scryfall_budget SET paused_until = "
                "GREATEST(paused_until, extract(epoch FROM clock_timestamp())::float8 + $2::float8) WHERE klass = $1",
                klass,
                seconds,
            )
        except Exception as error:
            log.warning("Could not share Scryfall's pause of %s with the other processes: %s", klass, error)

    def paused_for(self, klass: str) -> float:
        return max(0.0, self._paused_until[klass] - time.monotonic())


class RateLimiter:
    """Minimum spacing between requests per endpoint class, shared by every caller.

    ``reserve`` runs on the event loop and hands out send slots without tying up a thread;
    ``guard`` runs in the worker thread right before each request leaves (every redirect hop
    included) and enforces the spacing through the budget, so executor jitter cannot bunch requests.
    """

    def __init__(self, search_interval: float, general_interval: float, budget: Budget | None = None) -> None:
        self.intervals = {SEARCH_CLASS: search_interval, OTHER_CLASS: general_interval}
        self.budget: Budget = budget if budget is not None else LocalBudget()
        self._next_slot = dict.fromkeys(CLASSES, 0.0)

    async def reserve(self, klass: str, stop: Callable[[], object] | None = None) -> None:
        """Wait for this process's next slot of ``klass``, or until ``stop()`` is true (looked at every
        :data:`STOP_POLL_SECONDS`: plain sleeps, which a simulated clock can advance)."""
        now = time.monotonic()
        slot = max([now, *(self._next_slot[bucket] for bucket in buckets(klass))])
        for bucket in buckets(klass):
            self._next_slot[bucket] = slot + self.intervals[bucket]
        remaining = slot - now
        waiting(remaining)  # whoever asked hears it now: a long queue is acknowledged before its turn comes
        while remaining > 0:
            step = remaining if stop is None else min(remaining, STOP_POLL_SECONDS)
            await asyncio.sleep(step)
            remaining -= step
            if stop is not None and stop():
                return

    def forget_reservations(self) -> None:
        """Free the slots reserved by requests that will no longer be sent (Scryfall kept failing): those after them
        would wait for nothing. The shared budget (:meth:`guard`) still spaces what is sent."""
        now = time.monotonic()
        for bucket in self._next_slot:
            self._next_slot[bucket] = now

    def guard(self, klass: str) -> None:
        self.budget.acquire(buckets(klass), self.intervals)

    def pause(self, klass: str, seconds: float) -> None:
        self.budget.pause(klass, seconds)

    def paused_for(self, klass: str) -> float:
        return self.budget.paused_for(klass)
