"""Threads shared out by who asks: at most ``slots`` pieces of work run at once, at most ``per_user`` of them
for one person and ``per_guild`` for one server's members together. However slow one person's work is, the
rest of their server finds a thread, and however slow one server's is, every other server finds one. Work past
its lanes waits (its time budget still counting), and the first waiter that may run takes each freed slot.

Admission (:mod:`bot.admission`) decides what may wait here at all; lanes decide what runs first. Everything
here runs on the event loop (no locks).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, deque
from collections.abc import AsyncIterator, Hashable
from dataclasses import dataclass


@dataclass(frozen=True)
class Asker:
    """Who a piece of work is for: a person, and the server they asked in (None outside servers)."""

    user: int
    guild: int | None = None


class Lanes:
    """``slots`` at once; ``per_user`` for one person, ``per_guild`` for one server. Work with no asker (None)
    has no lane of its own: only ``slots`` bounds it."""

    def __init__(self, slots: int, *, per_user: int, per_guild: int) -> None:
        self.slots = slots
        self.per_user = per_user
        self.per_guild = per_guild
        self._running: Counter[Hashable] = Counter()
        self._total = 0
        self._waiting: deque[tuple[Asker | None, asyncio.Future[None]]] = deque()

    def running(self, key: Hashable | None = None) -> int:
        """Running now: in all, or for ``("user", id)`` or ``("guild", id)``."""
        return self._total if key is None else self._running[key]

    def _keys(self, asker: Asker | None) -> list[tuple[Hashable, int]]:
        if asker is None:
            return []
        keys: list[tuple[Hashable, int]] = [(("user", asker.user), self.per_user)]
        if asker.guild is not None:
            keys.append((("guild", asker.guild), self.per_guild))
        return keys

    def _may_run(self, asker: Asker | None) -> bool:
        return self._total < self.slots and all(self._running[key] < limit for key, limit in self._keys(asker))

    def _take(self, asker: Asker | None) -> None:
        self._total += 1
        for key, _ in self._keys(asker):
            self._running[key] += 1

    def _give_back(self, asker: Asker | None) -> None:
        self._total -= 1
        for key, _ in self._keys(asker):
            self._running[key] -= 1
            if self._running[key] <= 0:
                del self._running[key]
        for waiter in list(self._waiting):
            if not self._may_run(waiter[0]):
                continue
            self._waiting.remove(waiter)
            if not waiter[1].done():  # handed over here, so no later arrival overtakes it
                self._take(waiter[0])
                waiter[1].set_result(None)

    @contextlib.asynccontextmanager
    async def lane(self, asker: Asker | None) -> AsyncIterator[None]:
        """Hold one of the slots (and of ``asker``'s lanes) for the block, waiting for one first if need be."""
        if self._may_run(asker):  # with a slot free, whoever waits is waiting on their own lanes
            self._take(asker)
        else:
            turn = asyncio.get_running_loop().create_future()
            waiter = (asker, turn)
            self._waiting.append(waiter)
            try:
                await turn
            except BaseException:
                if waiter in self._waiting:
                    self._waiting.remove(waiter)
                elif turn.done() and not turn.cancelled():  # handed the slot just as it was cancelled
                    self._give_back(asker)
                raise
        try:
            yield
        finally:
            self._give_back(asker)
