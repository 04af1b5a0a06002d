"""Scryfall's rate limits: request spacing per endpoint class and the pause after a 429.

The spacing and the pauses are kept by a :class:`Budget`. :class:`LocalBudget` keeps them in this
process; a budget shared by several processes (a lease in a database) implements the same three
methods and is passed to :class:`RateLimiter`.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from email.utils import parsedate_to_datetime
from typing import Protocol

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

    async def reserve(self, klass: str) -> None:
        now = time.monotonic()
        slot = max([now, *(self._next_slot[bucket] for bucket in buckets(klass))])
        for bucket in buckets(klass):
            self._next_slot[bucket] = slot + self.intervals[bucket]
        if slot > now:
            await asyncio.sleep(slot - now)

    def guard(self, klass: str) -> None:
        self.budget.acquire(buckets(klass), self.intervals)

    def pause(self, klass: str, seconds: float) -> None:
        self.budget.pause(klass, seconds)

    def paused_for(self, klass: str) -> float:
        return self.budget.paused_for(klass)
