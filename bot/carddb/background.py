"""A refresh that runs in the background: one at a time, its blocking work in a worker thread that hears when to stop,
and a loop that runs it again and again until the owner closes it. The card data and its printed names each own one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.carddb.bulk import BulkError, Cancelled

log = logging.getLogger(__name__)

T = TypeVar("T")


class Background:
    """``background.run(blocking, *args)``: ``blocking(*args, stop=background.stop)`` in a worker thread, waited
    for; ``background.start(refresh, done)``: the refresh again and again; ``await background.close()``: the loop
    ended and the work in its thread stopped and waited for (a thread cannot be cancelled: it notices ``stop`` and
    removes its files)."""

    def __init__(self, name: str, what: str) -> None:
        self.name = name
        self.what = what  # in the log: "Card data refresh"
        self.stop = threading.Event()
        self.lock = asyncio.Lock()  # one refresh at a time
        self._task: asyncio.Task[None] | None = None
        self._work: asyncio.Future[Any] | None = None

    @property
    def started(self) -> bool:
        return self._task is not None

    async def run(self, blocking: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        self._work = asyncio.ensure_future(asyncio.to_thread(blocking, *args, stop=self.stop, **kwargs))
        return await asyncio.shield(self._work)

    def start(
        self,
        refresh: Callable[[], Awaitable[T]],
        done: Callable[[T | None, str | None], float],
        after: Awaitable[object] | None = None,
    ) -> None:
        """Run ``refresh()`` (once ``after`` is done), again and again until closed: ``done(outcome, None)``, or
        ``done(None, why)`` when it failed (said once in the log: "<what> failed (why); keeping what is stored"), gives
        the seconds to wait before the next."""
        if self._task is None:
            self._task = asyncio.create_task(self._repeat(refresh, done, after), name=self.name)

    async def _repeat(
        self,
        refresh: Callable[[], Awaitable[T]],
        done: Callable[[T | None, str | None], float],
        after: Awaitable[object] | None,
    ) -> None:
        if after is not None:
            with contextlib.suppress(Exception):
                await after
        while True:
            try:
                outcome, why = await refresh(), None
            except Cancelled:
                return
            except BulkError as error:
                outcome, why = None, str(error)
                log.warning("%s failed (%s); keeping what is stored", self.what, error)
            except Exception as error:  # a bug must not end the refreshes for good
                outcome, why = None, f"{type(error).__name__}: {error}"
                log.exception("%s failed unexpectedly", self.what)
            await asyncio.sleep(done(outcome, why))

    async def close(self) -> None:
        self.stop.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._work is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._work
