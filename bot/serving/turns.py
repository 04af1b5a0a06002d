"""A turn in a share, asked for by the work that needs it: ``async with turn(SEARCHES):`` around reading the local
copy, ``async with turn(API_SEARCHES):`` around asking Scryfall's API. The card source (:mod:`bot.cards.lookup`)
knows which of the two a search needs only once it has tried the local copy, so the caller hands it a
:data:`Turn` instead of taking a place itself: no wait on Scryfall ever holds a place meant for the local copy.

:class:`Turns` is a turn for the several pieces of one request (a message's ``[[card]]`` references): one place
per share, taken when the first piece needs it and given back when the last piece holding it is done, so a
message's five cards hold one lookup place, as one ``/card`` does, and a share no piece needs is never asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.serving.admission import Ticket
from bot.serving.shares import Share

# What waits for a place in a share and holds it for a block (None when the caller needs no place: the terminal).
Turn = Callable[[Share], AbstractAsyncContextManager[Any]]


def no_turn(share: Share) -> AbstractAsyncContextManager[None]:
    """A turn that holds nothing: for work no one else shares (the terminal, a script)."""
    return contextlib.nullcontext()


class Turns:
    """One place in each share for every piece of one request: ``take(share)`` waits for a place (raising what it
    raises when none comes in time), and the place is given back once no piece holds it."""

    def __init__(self, take: Callable[[Share], Awaitable[Ticket]]) -> None:
        self._take = take
        self._held: dict[str, tuple[asyncio.Future[Ticket], list[int]]] = {}

    @contextlib.asynccontextmanager
    async def __call__(self, share: Share) -> AsyncIterator[Ticket]:
        held = self._held.get(share.name)
        if held is None:
            held = self._held[share.name] = (asyncio.ensure_future(self._take(share)), [0])
        taking, holders = held
        holders[0] += 1
        try:
            yield await asyncio.shield(taking)
        finally:
            holders[0] -= 1
            if not holders[0]:
                del self._held[share.name]
                if not taking.done():
                    taking.cancel()  # the last piece gave up waiting: so does the place
                elif not taking.cancelled() and taking.exception() is None:
                    taking.result().release()
