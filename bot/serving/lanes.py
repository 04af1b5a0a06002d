"""Threads (or fetchers) shared out by who asks: at most ``slots`` pieces of work run at once, and each piece
names the lanes it runs in, each with its own limit (a person's, their server's, one picture's...). However
slow one lane's work is, work in other lanes finds a slot. Work past its lanes waits (any time budget it has
still counting), and the first waiter that may run takes each freed slot.

Admission (:mod:`bot.serving.admission`) decides what may wait at all; lanes decide what runs first. Everything here
runs on the event loop (no locks).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, deque
from collections.abc import AsyncIterator, Hashable, Sequence
from dataclasses import dataclass

# The threads the card data runs the searches users write on: the search share admits as many at once.
SEARCH_THREADS = 3

# A lane: its key, and how many pieces of work may run in it at once.
Limit = tuple[Hashable, int]


@dataclass(frozen=True)
class Asker:
    """Who a piece of work is for: a person, and the server they asked in (None outside servers, where everyone
    together is treated as one server)."""

    user: int
    guild: int | None = None


class Lanes:
    """``slots`` pieces of work at once, each within the limits of the lanes it names."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._running: Counter[Hashable] = Counter()
        self._total = 0
        self._waiting: deque[tuple[Sequence[Limit], asyncio.Future[None]]] = deque()

    def running(self, key: Hashable | None = None) -> int:
        """Running now: in all, or in lane ``key``."""
        return self._total if key is None else self._running[key]

    def _may_run(self, limits: Sequence[Limit]) -> bool:
        return self._total < self.slots and all(self._running[key] < limit for key, limit in limits)

    def _take(self, limits: Sequence[Limit]) -> None:
        self._total += 1
        for key, _ in limits:
            self._running[key] += 1

    def _give_back(self, limits: Sequence[Limit]) -> None:
        self._total -= 1
        for key, _ in limits:
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
    async def lane(self, *limits: Limit) -> AsyncIterator[None]:
        """Hold a slot (and a place in each of ``limits``' lanes) for the block, waiting for one if need be."""
        if self._may_run(limits):  # with a slot free, whoever waits is waiting on their own lanes
            self._take(limits)
        else:
            turn = asyncio.get_running_loop().create_future()
            waiter = (limits, turn)
            self._waiting.append(waiter)
            try:
                await turn
            except BaseException:
                if any(w is waiter for w in self._waiting):
                    self._waiting.remove(waiter)
                elif turn.done() and not turn.cancelled():  # handed the slot just as it was cancelled
                    self._give_back(limits)
                raise
        try:
            yield
        finally:
            self._give_back(limits)
